/// A record type whose `init(row:)` reads the prefetched rows of some keys
/// as arrays of one record type: the prefetch of those keys decodes the
/// records straight from the rows of its query, instead of copying the
/// rows for `init(row:)` to decode later.
///
/// The `@DatabaseRecord` macro adopts it for the structs it writes
/// `init(row:)` for: it knows the type of each array property. Other
/// record types get the same when a fetch has shown what they read (see
/// `PrefetchedRecordsPlan`). A fetch whose records read the rows, or
/// another type, fetches the rows again and decodes them as rows.
///
/// ```swift
/// extension AuthorInfo: _PrefetchedRecordsDecoding {
///     static func _prefetchedRecordsDecoder(forKey key: String) -> _PrefetchedRecordsDecoder? {
///         switch key {
///         case "books": _PrefetchedRecordsDecoder.make(for: \Self.books)
///         default: nil
///         }
///     }
/// }
/// ```
public protocol _PrefetchedRecordsDecoding: FetchableRecord {
    /// The decoder of the records that `init(row:)` reads from the
    /// prefetched rows of `key`, or nil when it reads them otherwise.
    static func _prefetchedRecordsDecoder(forKey key: String) -> _PrefetchedRecordsDecoder?
}

/// Decodes the records of a to-many association while it is prefetched
/// (see `_PrefetchedRecordsDecoding`).
///
/// It is shared by the connections that fetch the same record type: its
/// closure captures nothing but the type of the records.
public struct _PrefetchedRecordsDecoder: @unchecked Sendable {
    /// The groups of records of a prefetch with `count` groups.
    @usableFromInline let makeGroups: (_ count: Int) -> PrefetchedRecordGroups

    /// The decoder of records of type `Record`, or nil for a class: parents
    /// that share a link share their group of records, and each of them
    /// decodes objects of its own from rows.
    ///
    /// Inlined where it is made, so that the decoding and the appending of
    /// each record are compiled for `Record` when it is known there.
    @inlinable
    init?<Record: FetchableRecord>(recordType: Record.Type) {
        if Record.self is AnyClass { return nil }
        makeGroups = { count in
            let groups = TypedPrefetchedRecordGroups<Record>(count: count)
            return PrefetchedRecordGroups(
                add: { row, index in
                    groups.records[index].append(try Record(row: row))
                    // The failure of a non-throwing accessor of the record.
                    try row.checkRecordedDecodingError()
                },
                prefetchedRows: { index in
                    PrefetchedRows(records: TypedPrefetchedRecords(groups.records[index]))
                })
        }
    }

    /// The decoder of the records of a property of type `[Record]`, which
    /// the `init(row:)` of its record reads from prefetched rows.
    @inlinable
    public static func make<Parent, Record: FetchableRecord>(for property: KeyPath<Parent, [Record]>) -> _PrefetchedRecordsDecoder? {
        _PrefetchedRecordsDecoder(recordType: Record.self)
    }

    /// No decoder: a property whose type is not an array of records reads
    /// prefetched rows, if any, in its own way.
    @inlinable
    public static func make<Parent, Value>(for property: KeyPath<Parent, Value>) -> _PrefetchedRecordsDecoder? {
        nil
    }
}

/// An array of records, which a prefetch can decode as its rows come: a
/// Decodable record that reads one from prefetched rows tells its type
/// through this conformance.
protocol PrefetchableRecordArray {
    /// The decoder of the elements.
    static var prefetchedRecordsDecoder: _PrefetchedRecordsDecoder? { get }
}

extension Array: PrefetchableRecordArray where Element: FetchableRecord {
    static var prefetchedRecordsDecoder: _PrefetchedRecordsDecoder? {
        _PrefetchedRecordsDecoder(recordType: Element.self)
    }
}

/// The records of the groups of one prefetch, decoded as its rows come.
@usableFromInline
struct PrefetchedRecordGroups {
    /// Decodes the record of a row of the prefetch query, and appends it
    /// to the group at an index.
    let add: (Row, Int) throws -> Void

    /// The records of the group at an index.
    let prefetchedRows: (Int) -> PrefetchedRows

    @usableFromInline
    init(add: @escaping (Row, Int) throws -> Void, prefetchedRows: @escaping (Int) -> PrefetchedRows) {
        self.add = add
        self.prefetchedRows = prefetchedRows
    }
}

/// The records of each group of a prefetch. Only the prefetch that fills
/// them touches them, on the connection's thread.
@usableFromInline
final class TypedPrefetchedRecordGroups<Record> {
    @usableFromInline @exclusivity(unchecked) var records: [[Record]]

    @inlinable
    init(count: Int) {
        records = Array(repeating: [], count: count)
    }
}

/// The records of a to-many association for one parent row, decoded by the
/// prefetch (see `_PrefetchedRecordsDecoding`).
@usableFromInline
class PrefetchedRecords {
    /// The type of the records.
    @usableFromInline let recordType: Any.Type

    /// The number of records.
    @usableFromInline let count: Int

    @usableFromInline
    init(recordType: Any.Type, count: Int) {
        self.recordType = recordType
        self.count = count
    }

    /// The records as a value of `T`, when `T` is their array type.
    func value<T>(as type: T.Type) -> T? {
        nil
    }

    /// The error of a reader that asks for the rows of these records, or
    /// for records of another type: the prefetch kept no rows. The fetch
    /// that meets it prefetches the rows again (see `PrefetchedRecordsPlan`):
    /// it reaches the caller only when the rows are read after the fetch.
    @usableFromInline
    func unavailable(as type: Any.Type, forKey key: String) -> RowDecodingError {
        RowDecodingError(
            reason: .columnNotFound,
            message: "could not decode \(type) - the prefetched rows of \"\(key)\" were decoded as [\(recordType)] "
                + "by the fetch, and not kept")
    }
}

/// The records of one parent, of type `Record`.
@usableFromInline
final class TypedPrefetchedRecords<Record>: PrefetchedRecords {
    @usableFromInline let records: [Record]

    @inlinable
    init(_ records: [Record]) {
        self.records = records
        super.init(recordType: Record.self, count: records.count)
    }

    override func value<T>(as type: T.Type) -> T? {
        records as? T
    }
}
