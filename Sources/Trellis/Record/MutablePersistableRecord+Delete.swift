extension MutablePersistableRecord {
    /// Deletes the record's row, and returns whether a row was deleted.
    ///
    /// ```swift
    /// let deleted = try player.delete(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a foreign
    ///   key violation; the error of `encode(to:)` or of a persistence
    ///   callback.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var deleted: Bool?
        try aroundDelete(db) {
            let result = try deleteWithoutCallbacks(db)
            deleted = result
            return result
        }
        guard let deleted else { throw DatabaseError.callbackNotCalled("aroundDelete", of: Self.self) }
        didDelete(deleted: deleted)
        return deleted
    }

    private func deleteWithoutCallbacks(_ db: Database) throws -> Bool {
        let container = try persistenceContainer()
        let primaryKey = try Self.tableAndPrimaryKey(db).primaryKey
        let key = primaryKeyValues(primaryKey, container: container)
        let statement = try Self.primaryKeyStatement(db, operation: .deleteByPrimaryKey, primaryKey: primaryKey)
        try statement.bind(key)
        return try statement.executeRowChange(arguments: key, primaryKey: primaryKey)
    }

    /// Whether the record's row exists.
    ///
    /// ```swift
    /// if try !config.exists(db) { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails; the error of
    ///   `encode(to:)`.
    public func exists(_ db: Database) throws -> Bool {
        let container = try persistenceContainer()
        let primaryKey = try Self.tableAndPrimaryKey(db).primaryKey
        let key = primaryKeyValues(primaryKey, container: container)
        if key.allSatisfy(\.isNull) { return false }
        let statement = try Self.primaryKeyStatement(db, operation: .existsByPrimaryKey, primaryKey: primaryKey)
        try statement.bind(key)
        return try Bool.fetchOne(statement) ?? false
    }
}

extension TableRecord {
    /// Lends the cached statement of a lookup by a single-column primary
    /// key, until `db.recordStatementCache.endLend()`. The last one used
    /// is found without hashing, and lent without a retain: lookups come
    /// in series.
    @inlinable @inline(__always)
    static func lendSingleColumnKeyStatement(
        _ db: Database, operation: RecordStatementCache.Operation) throws -> Unmanaged<Statement>
    {
        try db.recordStatementCache.lendKeyStatement(db, type: ObjectIdentifier(Self.self), operation: operation) {
            let primaryKey = try db.primaryKey(databaseTableName)
            guard primaryKey.columns.count == 1 else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(databaseTableName) has a primary key of \(primaryKey.columns.count) columns: use a key dictionary such as [\"\(primaryKey.columns[0])\": ...]")
            }
            return try primaryKeyStatement(db, operation: operation, primaryKey: primaryKey)
        }
    }

    /// The cached statement that selects all rows of the table, or the
    /// first one: the requests of `fetchAll(_:)` and `fetchOne(_:)` need no
    /// SQL generation.
    @usableFromInline
    static func tableStatement(_ db: Database, operation: RecordStatementCache.Operation) throws -> Statement {
        let type = ObjectIdentifier(Self.self)
        let cache = db.recordStatementCache
        if let statement = cache.lastKeyStatement(type: type, operation: operation) {
            return statement
        }
        let statement = try cache.statement(db, key: .init(type: type, operation: operation), columns: []) {
            // A missing table fails the statement's preparation, whose error
            // tells the SQL, as GRDB's does.
            let context = SQLGenerationContext(db, inlinesValues: true)
            let selection = try defaultSelection.map { try $0.sql(context) }.joined(separator: ", ")
            var sql = "SELECT \(selection) FROM \(databaseTableName.quotedDatabaseIdentifier)"
            if operation == .selectOne { sql += " LIMIT 1" }
            return sql
        }
        cache.setLastKeyStatement(statement, type: type, operation: operation)
        return statement
    }

    /// Throws a clear error when the table of the record does not exist.
    static func checkTableExists(_ db: Database) throws {
        if try !db.tableExists(databaseTableName) && !db.viewExists(databaseTableName) {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(databaseTableName)")
        }
    }

    /// A cached statement that selects, tests or deletes a row by primary
    /// key, with one parameter per key column.
    @usableFromInline
    static func primaryKeyStatement(_ db: Database, operation: RecordStatementCache.Operation, primaryKey: PrimaryKeyInfo) throws -> Statement {
        try db.recordStatementCache.statement(
            db, key: .init(type: ObjectIdentifier(Self.self), operation: operation), columns: primaryKey.columns)
        {
            let table = databaseTableName.quotedDatabaseIdentifier
            let condition = primaryKey.columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
            switch operation {
            case .existsByPrimaryKey:
                return "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(condition))"
            case .deleteByPrimaryKey:
                return "DELETE FROM \(table) WHERE \(condition)"
            default:
                let context = SQLGenerationContext(db, inlinesValues: true)
                // The table qualifies the selection: `allColumns(excluding:)`
                // lists the other columns of the table.
                let alias = AliasIdentity(tableName: databaseTableName)
                let selection = try defaultSelection.map { try $0.qualified(with: alias).sql(context) }.joined(separator: ", ")
                return "SELECT \(selection) FROM \(table) WHERE \(condition)"
            }
        }
    }
}
