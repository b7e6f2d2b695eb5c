/// The rows of a to-many association for one parent row (see
/// ``Row/prefetchedRows``): rows of their own, or positions in the
/// ``RowBatch`` that the prefetch filled for all parents, or the records
/// that the prefetch decoded from them (see `_PrefetchedRecordsDecoding`).
@usableFromInline
struct PrefetchedRows {
    @usableFromInline
    enum Storage {
        /// Rows of their own, such as rows with prefetched rows in turn.
        case rows([Row])
        /// The rows at `positions` in `batch`, in order.
        case batch(RowBatch, positions: [Int])
        /// The records of the rows, decoded by the prefetch: the rows
        /// themselves were not kept.
        case records(PrefetchedRecords)
    }

    @usableFromInline let storage: Storage

    init(_ rows: [Row]) {
        storage = .rows(rows)
    }

    init(batch: RowBatch, positions: [Int]) {
        storage = .batch(batch, positions: positions)
    }

    @usableFromInline
    init(records: PrefetchedRecords) {
        storage = .records(records)
    }

    /// The number of rows.
    @inlinable
    var count: Int {
        switch storage {
        case .rows(let rows): rows.count
        case .batch(_, let positions): positions.count
        case .records(let records): records.count
        }
    }

    /// The rows, each a row of its own, for a reader of the association
    /// `key` that wants a value of `type`.
    ///
    /// - Throws: A ``RowDecodingError`` when the prefetch kept the records
    ///   it decoded from the rows instead of the rows.
    func rows(forKey key: String, as type: Any.Type) throws -> [Row] {
        switch storage {
        case .rows(let rows): rows
        case .batch(let batch, let positions): positions.map(batch.row(at:))
        case .records(let records): throw records.unavailable(as: type, forKey: key)
        }
    }

    /// The records that the prefetch decoded, if it kept records.
    var records: PrefetchedRecords? {
        if case .records(let records) = storage { return records }
        return nil
    }

    /// Calls `body` with each row, in order.
    ///
    /// The rows of a batch are read through one row that moves from
    /// position to position, which spares an allocation per row. A row
    /// that `body` keeps (a record that stores its row, a copy) stays where
    /// it is: the next position gets a new row.
    @inlinable
    func forEach(_ body: (Row) throws -> Void) rethrows {
        switch storage {
        case .rows(let rows):
            for row in rows {
                try body(row)
            }
        case .batch(let batch, let positions):
            guard let first = positions.first else { return }
            var row = batch.row(at: first)
            for position in positions {
                if isKnownUniquelyReferenced(&row) {
                    row.valuesOffset = position &* batch.width
                } else {
                    row = batch.row(at: position)
                }
                batch.columnLookup.startRow()
                try body(row)
            }
        case .records:
            // Only the records' own type reads them (see `Row.decode(_:forKey:)`).
            break
        }
    }
}
