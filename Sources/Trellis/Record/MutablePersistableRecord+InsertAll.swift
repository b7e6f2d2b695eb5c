import TrellisSQLite

extension Collection where Element: MutablePersistableRecord {
    /// Inserts the records with multi-row `INSERT` statements, and returns
    /// them after `didInsert` (auto-incremented ids filled). Beyond GRDB:
    /// one statement writes up to 100 rows.
    ///
    /// ```swift
    /// let players = try [Player(name: "Arthur"), Player(name: "Barbara")].insertAll(db)
    /// // players[0].id == 1, players[1].id == 2
    /// ```
    ///
    /// Callbacks run as for ``MutablePersistableRecord/insert(_:onConflict:)``,
    /// in the order of the records; the `around` callbacks of the records
    /// of one statement are nested around it. Ids are chosen the way
    /// SQLite chooses them (one more than the largest rowid, or than the
    /// last `AUTOINCREMENT` id), and written in the statement, so that
    /// each record learns its own id. With `.ignore` as the conflict
    /// resolution, or in a `WITHOUT ROWID` table, records are inserted one
    /// by one.
    ///
    /// - Throws: The first error of an insert, as `insert(_:onConflict:)`
    ///   throws it; the records inserted before it stay in the transaction.
    @inlinable @discardableResult
    public func insertAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> [Element] {
        var records = Array(self)
        _ = try Element.insertAll(db, &records, onConflict: conflictResolution, fetchingRows: false)
        return records
    }
}

extension Collection where Element: MutablePersistableRecord & FetchableRecord {
    /// Inserts the records with multi-row `INSERT ... RETURNING`
    /// statements, and returns the inserted rows, with their default and
    /// generated values.
    ///
    /// ```swift
    /// let players = try [Player(name: "Arthur"), Player(name: "Barbara")].insertAndFetchAll(db)
    /// // players[0].score == 1000 (the column's default)
    /// ```
    ///
    /// See ``Swift/Collection/insertAll(_:onConflict:)`` for callbacks and ids.
    ///
    /// - Throws: The first error of an insert, as
    ///   `insertAndFetch(_:onConflict:)` throws it; the records inserted before
    ///   it stay in the transaction.
    @inlinable
    public func insertAndFetchAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> [Element] {
        var records = Array(self)
        let rows = try Element.insertAll(db, &records, onConflict: conflictResolution, fetchingRows: true)
        return try zip(records, rows).map { record, row in
            guard let row else {
                throw RecordError.recordNotFound(databaseTableName: Element.databaseTableName, key: [:])
            }
            return try Element(row: row)
        }
    }
}

extension MutablePersistableRecord {
    /// The most rows of one multi-row statement: more would nest more
    /// `around` callbacks for little gain.
    @inlinable
    static var insertAllChunkSize: Int { 100 }

    /// Inserts `records` in place; with `fetchingRows`, returns the row
    /// that `RETURNING *` gave for each of them.
    @inlinable
    static func insertAll(
        _ db: Database, _ records: inout [Self], onConflict conflictResolution: Database.ConflictResolution?,
        fetchingRows: Bool) throws -> [Row?]
    {
        let conflict = conflictResolution ?? persistenceConflictPolicy.conflictResolutionForInsert
        guard conflict != .ignore, try db.recordStatementCache.tableHasRowID(db, databaseTableName) else {
            // An ignored row reports no id, and a WITHOUT ROWID table has
            // none to write: one statement per record.
            return try records.indices.map { index in
                if fetchingRows {
                    var row: Row?
                    try records[index].withInsertCallbacks(db) { record in
                        try record.insertWithoutCallbacks(db, onConflict: conflict, returning: .row(db, of: Row.self, table: databaseTableName) { row = $0.copy() })
                    }
                    return row
                }
                try records[index].performInsert(db, onConflict: conflict)
                return nil
            }
        }
        var rows: [Row?] = []
        rows.reserveCapacity(records.count)
        var start = records.startIndex
        while start < records.endIndex {
            let end = min(start + insertAllChunkSize, records.endIndex)
            var chunk = Array(records[start..<end])
            rows += try insertChunk(db, &chunk, conflict: conflict, fetchingRows: fetchingRows)
            records.replaceSubrange(start..<end, with: chunk)
            start = end
        }
        return rows
    }

    /// Runs the callbacks of each record of the chunk, nested, around the
    /// statements that insert them all.
    @inlinable
    static func insertChunk(
        _ db: Database, _ chunk: inout [Self], conflict: Database.ConflictResolution, fetchingRows: Bool) throws -> [Row?]
    {
        var recordsToInsert = chunk
        var inserted: (successes: [InsertionSuccess], rows: [Row?]) = ([], [])
        func insert(from index: Int) throws {
            guard index < chunk.count else {
                inserted = try insertWithoutCallbacks(db, recordsToInsert, conflict: conflict, fetchingRows: fetchingRows)
                return
            }
            var record = chunk[index]
            try record.withInsertCallbacks(db) { recordToInsert in
                recordsToInsert[index] = recordToInsert
                try insert(from: index + 1)
                return inserted.successes[index]
            }
            chunk[index] = record
        }
        try insert(from: 0)
        return inserted.rows
    }

    /// Writes the records with as few statements as their column sets
    /// allow, each row with its id.
    @inlinable
    static func insertWithoutCallbacks(
        _ db: Database, _ records: [Self], conflict: Database.ConflictResolution, fetchingRows: Bool) throws
        -> (successes: [InsertionSuccess], rows: [Row?])
    {
        let table = databaseTableName
        let rowIDColumn = try Self.rowIDColumn(db)
        // The SQL of the rowid: `_rowid_` or `oid` when a column is named `rowid`.
        let rowID = try db.recordStatementCache.rowIDName(db, table) ?? "rowid"
        let idColumn = rowIDColumn ?? rowID

        // Each container with its columns folded, and the position of its
        // id. Records of one type usually encode the same columns: those
        // equal to the previous record's are known to be folded already.
        var containers: [PersistenceContainer] = []
        var idIndexes: [Int] = []
        containers.reserveCapacity(records.count)
        idIndexes.reserveCapacity(records.count)
        var shape: (encoded: [String], idIndex: Int?)?
        for record in records {
            var container = try record.encodedContainer()
            let idIndex: Int?
            if let shape, container.hasColumns(shape.encoded) {
                idIndex = shape.idIndex
            } else {
                container.removeDuplicateColumns()
                idIndex = container.index(of: idColumn)
                shape = (container.columns, idIndex)
            }
            if let idIndex {
                idIndexes.append(idIndex)
            } else {
                container.setValue(.null, forColumn: idColumn)
                idIndexes.append(container.storage.count - 1)
            }
            containers.append(container)
        }

        // Ids: the explicit ones, then one more than the largest of the
        // table, of the explicit ones, and of AUTOINCREMENT's sequence.
        var nextID = try Self.largestRowID(db, table: table, rowID: rowID)
        var rowIDs: [Int64?] = zip(containers, idIndexes).map { container, idIndex in
            Int64.fromDatabaseValue(container.storage.entries[idIndex].value)
        }
        for case let id? in rowIDs { nextID = max(nextID, id) }
        guard nextID <= Int64.max - Int64(containers.count) else {
            // SQLite would pick random unused ids, which a multi-row
            // statement can not tell each record.
            throw DatabaseError(
                resultCode: .SQLITE_FULL,
                message: "insertAll: no rowid left above the largest one of \(table): insert the records one by one")
        }
        for index in containers.indices where containers[index].storage.entries[idIndexes[index]].value.isNull {
            nextID += 1
            containers[index].makeUnique()
            containers[index].storage.entries[idIndexes[index]].value = nextID.databaseValue
            rowIDs[index] = nextID
        }

        var rowsByID: [Int64: Row] = [:]
        // The ids of rows that a trigger's RAISE(IGNORE) skipped.
        var ignoredRowIDs: Set<Int64> = []
        var start = 0
        while start < containers.count {
            // One statement for the consecutive records that encode the
            // same columns.
            let columns = containers[start].columns
            var end = start + 1
            while end < containers.count && containers[end].hasColumns(columns) { end += 1 }
            // RETURNING gives rows in no documented order: they are matched
            // by rowid, last so that the table's columns keep their indexes.
            let returning = fetchingRows ? "*, \(rowID)" : nil
            let rowCount = end - start
            let statement = try db.recordStatementCache.statement(
                db, key: .init(type: ObjectIdentifier(Self.self), operation: .custom("INSERT \(conflict.rawValue) \(rowCount) \(returning ?? "")")),
                columns: columns)
            {
                try Self.insertSQL(db, columns: columns, conflict: conflict, rowCount: rowCount, returning: returning)
            }
            try statement.bind(containers[start..<end])
            if fetchingRows {
                let rows = try Row.fetchCursor(statement, arguments: nil)
                while let row = try rows.next() {
                    let rowID: Int64 = try row.decode(Int64.self, atIndex: row.count - 1)
                    rowsByID[rowID] = row.copy()
                }
            } else {
                try statement.executeBoundStatement(arguments: containers[start..<end].flatMap(\.values))
                if db.changesCount < rowCount, try insertedNothing(db) {
                    ignoredRowIDs.formUnion(try missingRowIDs(db, table: table, rowID: rowID, among: rowIDs[start..<end]))
                }
            }
            start = end
        }
        let successes = zip(rowIDs, containers).map { rowID, container in
            let insertedNothing = rowID.map { fetchingRows ? rowsByID[$0] == nil : ignoredRowIDs.contains($0) } ?? false
            return InsertionSuccess(
                rowID: insertedNothing ? 0 : rowID ?? 0, rowIDColumn: rowIDColumn, persistenceContainer: container,
                insertedNothing: insertedNothing)
        }
        return (successes, fetchingRows ? rowIDs.map { $0.flatMap { rowsByID[$0] } } : [])
    }

    /// The ids among `rowIDs` that the table lacks after a statement that
    /// inserted fewer rows than it wrote.
    @usableFromInline
    static func missingRowIDs(_ db: Database, table: String, rowID: String, among rowIDs: ArraySlice<Int64?>) throws -> Set<Int64> {
        let ids = rowIDs.compactMap { $0 }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let found = try Int64.fetchSet(
            db, sql: "SELECT \(rowID) FROM \(table.quotedDatabaseIdentifier) WHERE \(rowID) IN (\(placeholders))",
            arguments: StatementArguments(ids))
        return Set(ids).subtracting(found)
    }

    /// The largest rowid the table has used: its largest rowid, or the
    /// last id of its `AUTOINCREMENT` sequence when larger.
    @usableFromInline
    static func largestRowID(_ db: Database, table: String, rowID: String) throws -> Int64 {
        var largest = try Int64.fetchOne(db, sql: "SELECT max(\(rowID)) FROM \(table.quotedDatabaseIdentifier)") ?? 0
        if try db.tableExists("sqlite_sequence"),
           let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
        {
            largest = max(largest, sequence)
        }
        return largest
    }
}
