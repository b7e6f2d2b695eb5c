extension MutablePersistableRecord {
    /// Runs the INSERT statement on a database server, which has no rowid:
    /// a primary key of one column that the record leaves NULL is left out
    /// of the statement, so that the column's default (an identity column,
    /// a sequence) fills it, and `RETURNING` tells it. It is the row id of
    /// the insertion when it is an integer, as SQLite's rowid is for an
    /// `INTEGER PRIMARY KEY`: `didInsert` gives it to the record.
    ///
    /// With `returning`, the statement returns its selection, and the
    /// generated key is read from the sequence of the key column: a key
    /// that no sequence generated throws, rather than giving the record
    /// the id of another table.
    @usableFromInline
    func insertOnServer(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        returning: PersistenceReturning?) throws -> InsertionSuccess
    {
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
        guard conflict == .abort else { throw db.dialect.unsupported("INSERT OR \(conflict.rawValue)") }
        let container = try persistenceContainer()
        let keyColumns = try db.primaryKey(Self.databaseTableName).columns
        let keyColumn = keyColumns.count == 1 ? keyColumns[0] : nil
        let generatesKey = keyColumn.map { container.databaseValue(forColumn: $0)?.isNull ?? true } ?? false
        let columns = container.columns.filter { column in
            !generatesKey || keyColumn.map { !$0.isEqualIgnoringASCIICase(column) } ?? true
        }
        let values = columns.map { container.databaseValue(forColumn: $0) ?? .null }
        var returnedSQL: String?
        if let returning {
            returnedSQL = returning.selectionSQL
        } else if generatesKey, let keyColumn {
            returnedSQL = keyColumn.quotedDatabaseIdentifier
        }
        // Cached by record type, returned columns and inserted columns: a
        // loop of inserts makes its SQL once.
        let statement = try db.recordStatementCache.statement(
            db, key: .init(type: ObjectIdentifier(Self.self), operation: .custom(returnedSQL.map { "server INSERT RETURNING \($0)" } ?? "server INSERT")),
            columns: columns)
        {
            try Self.insertSQL(db, columns: columns, conflict: .abort, returning: returnedSQL)
        }
        try statement.setArguments(StatementArguments(values: values))
        let keyValue: DatabaseValue?
        if let returning {
            guard try returning.fetch(statement) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "INSERT ... RETURNING returned no row", sql: statement.sql)
            }
            keyValue = generatesKey ? try generatedKey(db, column: keyColumn) : nil
        } else if generatesKey {
            keyValue = try Row.fetchOne(statement).map { row -> DatabaseValue in row[0] }
        } else {
            try statement.execute()
            keyValue = nil
        }
        let key = keyValue ?? keyColumn.flatMap { container.databaseValue(forColumn: $0) }
        guard let keyColumn, case .int64(let rowID) = key?.storage else {
            return InsertionSuccess(rowID: 0, rowIDColumn: nil, persistenceContainer: container)
        }
        db.serverLastInsertedRowID = rowID
        return InsertionSuccess(rowID: rowID, rowIDColumn: keyColumn, persistenceContainer: container)
    }

    /// The key that the sequence of `column` gave the row just inserted.
    private func generatedKey(_ db: Database, column: String?) throws -> DatabaseValue? {
        guard let column else { return nil }
        let sql = try db.dialect.generatedKeySQL()
        // The table is parsed as an identifier, the column taken literally.
        let key = try DatabaseValue.fetchOne(
            db, sql: sql, arguments: [Self.databaseTableName.quotedDatabaseIdentifier, column])
        guard let key, !key.isNull else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "the key \(column) of \(Self.databaseTableName) that the insertion generated can not be read: "
                    + "no sequence fills it (insert the record without a fetch, or give it its key)",
                sql: sql)
        }
        return key
    }
}
