extension TableRecord {
    /// The number of columns that ``databaseSelection`` selects from the
    /// table, with `*` expanded to the columns of the table.
    ///
    /// ```swift
    /// struct PartialPlayer: TableRecord {
    ///     static let databaseTableName = "player"
    ///     static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
    /// }
    ///
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)
    /// try Player.numberOfSelectedColumns(db)        // 3
    /// try PartialPlayer.numberOfSelectedColumns(db) // 2
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, or if
    ///   SQLite fails.
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        try SQLQueryGenerator.columnCount(defaultSelection, tableName: databaseTableName, db: db)
    }

    /// The error for a missing record of the given key dictionary:
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// guard let player = try Player.fetchOne(db, key: ["email": email]) else {
    ///     throw Player.recordNotFound(key: ["email": email])
    /// }
    /// ```
    public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
        RecordError.recordNotFound(databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
    }

    /// The error for a missing record of the given primary key:
    /// ``RecordError/recordNotFound(databaseTableName:key:)``, keyed by the
    /// column of the primary key.
    ///
    /// ```swift
    /// guard let player = try Player.fetchOne(db, key: 42) else {
    ///     throw Player.recordNotFound(db, key: 42) // Key not found in table player: [id:42]
    /// }
    /// ```
    ///
    /// - Returns: The `RecordError`, or the error that prevented it from
    ///   being made: a ``DatabaseError`` if the table does not exist or if
    ///   its primary key has several columns.
    public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
        do {
            let column = try singlePrimaryKeyColumn(db)
            return RecordError.recordNotFound(
                databaseTableName: databaseTableName,
                key: [column: keyDatabaseValue(key, column: column, recordType: Self.self)])
        } catch {
            return error
        }
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The error for a missing record of the given id:
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// guard let player = try Player.fetchOne(db, id: 42) else {
    ///     throw Player.recordNotFound(db, id: 42) // Key not found in table player: [id:42]
    /// }
    /// ```
    ///
    /// - Returns: The `RecordError`, or the error that prevented it from
    ///   being made: a ``DatabaseError`` if the table does not exist or if
    ///   its primary key has several columns.
    public static func recordNotFound(_ db: Database, id: ID) -> any Error {
        recordNotFound(db, key: id)
    }
}

extension TableRecord where Self: EncodableRecord {
    /// The error that tells that this record does not exist in the
    /// database: ``RecordError/recordNotFound(databaseTableName:key:)``,
    /// keyed by the primary key values that the record encodes.
    ///
    /// ```swift
    /// if try !player.exists(db) {
    ///     throw player.recordNotFound(db) // Key not found in table player: [id:42]
    /// }
    /// ```
    ///
    /// - Returns: The `RecordError`, or the error that prevented it from
    ///   being made: a ``DatabaseError`` if the table does not exist, the
    ///   error of `encode(to:)`.
    public func recordNotFound(_ db: Database) -> any Error {
        do {
            let (table, primaryKey) = try Self.tableAndPrimaryKey(db)
            let container = try persistenceContainer()
            var key: [String: DatabaseValue] = [:]
            for column in primaryKey.columns {
                key[column] = container.databaseValue(forColumn: column) ?? .null
            }
            return RecordError.recordNotFound(databaseTableName: table, key: key)
        } catch {
            return error
        }
    }
}
