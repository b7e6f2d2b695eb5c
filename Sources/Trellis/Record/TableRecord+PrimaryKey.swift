// Fetching, testing and deleting records by primary key, unique key, or id.

extension TableRecord {
    /// The condition that matches `key`, a dictionary of column values.
    /// Throws when the columns are not a unique key of the table.
    static func keyCondition(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> SQLExpression {
        let columns = Array(key.keys)
        guard try db.table(databaseTableName, hasUniqueKey: columns) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(databaseTableName) has no unique key on column(s) \(columns.sorted().joined(separator: ", "))")
        }
        return SQLQueryGenerator.conjunction(key.sorted { $0.key < $1.key }.map { column, value in
            SQLExpression.column(column) == (value?.databaseValue ?? .null)
        })
    }

    /// The condition that matches a primary key value.
    static func primaryKeyCondition(_ db: Database, value: DatabaseValue) throws -> SQLExpression {
        let primaryKey = try db.primaryKey(databaseTableName)
        guard primaryKey.columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(databaseTableName) has a primary key of \(primaryKey.columns.count) columns: use a key dictionary")
        }
        return SQLExpression.column(primaryKey.columns[0]) == value
    }
}

extension FetchableRecord where Self: TableRecord {
    /// The record with the given primary key, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: 1)
    /// ```
    @inlinable
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        let statement = try singleColumnKeyStatement(db, operation: .fetchByPrimaryKey)
        try statement.bind(CollectionOfOne(key.databaseValue))
        return try db.fetchOne(statement, arguments: nil, boundArguments: true) { try Self(row: $0) }
    }

    /// The record with the given key (primary or unique), or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: ["email": "arthur@example.com"])
    /// ```
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self? {
        try all().filter(keyCondition(db, key: key)).fetchOne(db)
    }

    /// The records with the given primary keys.
    public static func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] {
        if keys.isEmpty { return [] }
        let primaryKey = try db.primaryKey(databaseTableName)
        return try all().filter(keys.map(\.databaseValue).contains(SQLExpression.column(primaryKey.columns[0]))).fetchAll(db)
    }

    /// The records with the given keys.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        if keys.isEmpty { return [] }
        let conditions = try keys.map { try keyCondition(db, key: $0) }
        return try all().filter(SQLExpression(.associative("OR", conditions))).fetchAll(db)
    }

    /// The record with the given primary key. Throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when there is
    /// none.
    ///
    /// ```swift
    /// let player = try Player.find(db, key: 1)
    /// ```
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            let primaryKey = try db.primaryKey(databaseTableName)
            throw RecordError.recordNotFound(databaseTableName: databaseTableName, key: [primaryKey.columns[0]: key.databaseValue])
        }
        return record
    }

    /// The record with the given key. Throws when there is none.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw RecordError.recordNotFound(databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
        }
        return record
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The record with the given id, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, id: 1)
    /// ```
    @inlinable
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? {
        try fetchOne(db, key: id)
    }

    /// The records with the given ids.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }

    /// The record with the given id. Throws when there is none.
    public static func find(_ db: Database, id: ID) throws -> Self {
        try find(db, key: id)
    }
}

extension TableRecord {
    /// Whether a row has the given primary key.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        let statement = try singleColumnKeyStatement(db, operation: .existsByPrimaryKey)
        try statement.bind(CollectionOfOne(key.databaseValue))
        return try Bool.fetchOne(statement) ?? false
    }

    /// Whether a row has the given key.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try all().filter(keyCondition(db, key: key)).exists(db)
    }

    /// Deletes the row with the given primary key; returns whether a row
    /// was deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        let statement = try singleColumnKeyStatement(db, operation: .deleteByPrimaryKey)
        try statement.bind(CollectionOfOne(key.databaseValue))
        try statement.executeBoundStatement()
        return db.changesCount > 0
    }

    /// Deletes the row with the given key; returns whether a row was
    /// deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try all().filter(keyCondition(db, key: key)).deleteAll(db) > 0
    }

    /// Deletes the rows with the given primary keys; returns how many were
    /// deleted.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        if keys.isEmpty { return 0 }
        let primaryKey = try db.primaryKey(databaseTableName)
        return try all().filter(keys.map(\.databaseValue).contains(SQLExpression.column(primaryKey.columns[0]))).deleteAll(db)
    }

    /// A request of the row with the given primary key.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request of the rows with the given primary keys.
    public static func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// A request of the row with the given key (primary or unique).
    public static func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// Whether a row has the given id.
    public static func exists(_ db: Database, id: ID) throws -> Bool { try exists(db, key: id) }

    /// Deletes the row with the given id.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the rows with the given ids.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int { try deleteAll(db, keys: ids) }

    /// A request of the row with the given id.
    ///
    /// ```swift
    /// let player = try Player.filter(id: 1).fetchOne(db)
    /// ```
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> { all().filter(key: id) }

    /// A request of the rows with the given ids.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> { all().filter(keys: ids) }
}

extension QueryInterfaceRequest {
    /// Keeps the row with the given primary key.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        let table = relation.tableName
        let value = key.databaseValue
        return filter(SQLExpression(.deferred { context in
            let primaryKey = try context.db.primaryKey(table)
            guard primaryKey.columns.count == 1 else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(table) has a primary key of \(primaryKey.columns.count) columns: use a key dictionary")
            }
            return SQLExpression.column(primaryKey.columns[0]) == value
        }))
    }

    /// Keeps the rows with the given primary keys.
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> Self {
        let table = relation.tableName
        let values = keys.map(\.databaseValue)
        return filter(SQLExpression(.deferred { context in
            let primaryKey = try context.db.primaryKey(table)
            return values.contains(SQLExpression.column(primaryKey.columns[0]))
        }))
    }

    /// Keeps the row with the given key (primary or unique).
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> Self {
        let table = relation.tableName
        let values = key.mapValues { $0?.databaseValue ?? .null }
        return filter(SQLExpression(.deferred { context in
            guard try context.db.table(table, hasUniqueKey: Array(values.keys)) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(table) has no unique key on column(s) \(values.keys.sorted().joined(separator: ", "))")
            }
            return SQLQueryGenerator.conjunction(values.sorted { $0.key < $1.key }.map { SQLExpression.column($0.key) == $0.value })
        }))
    }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Keeps the row with the given id.
    public func filter(id: RowDecoder.ID) -> Self { filter(key: id) }

    /// Keeps the rows with the given ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}
