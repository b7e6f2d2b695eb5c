import Foundation

// Fetching, testing and deleting records by primary key, unique key, or id.

/// A key value as the record type stores it in `column`: dates, UUIDs
/// and data follow the record's encoding strategies, as GRDB documents for
/// lookups by key.
func keyDatabaseValue(_ value: some DatabaseValueConvertible, column: String, recordType: Any.Type) -> DatabaseValue {
    if value is UUID || value is Date || value is Data, let encodable = recordType as? any EncodableRecord.Type {
        return encodable.databaseValue(forKey: value, column: column)
    }
    return value.databaseValue
}

/// A key value kept by a request until it compiles and knows its key
/// column: dates, UUIDs and data wait for the record's strategies.
enum PendingKeyValue: Sendable {
    case value(DatabaseValue)
    case uuid(UUID)
    case date(Date)
    case data(Data)

    init(_ value: some DatabaseValueConvertible) {
        switch value {
        case let uuid as UUID: self = .uuid(uuid)
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        default: self = .value(value.databaseValue)
        }
    }

    func databaseValue(column: String, recordType: Any.Type) -> DatabaseValue {
        switch self {
        case .value(let value): return value
        case .uuid(let uuid): return keyDatabaseValue(uuid, column: column, recordType: recordType)
        case .date(let date): return keyDatabaseValue(date, column: column, recordType: recordType)
        case .data(let data): return keyDatabaseValue(data, column: column, recordType: recordType)
        }
    }
}

extension TableRecord {
    /// The database value of a single-column primary key value.
    @inlinable
    static func primaryKeyDatabaseValue(_ db: Database, _ key: some DatabaseValueConvertible) throws -> DatabaseValue {
        if key is UUID || key is Date || key is Data {
            return try strategyPrimaryKeyValue(db, key)
        }
        return key.databaseValue
    }

    @usableFromInline
    static func strategyPrimaryKeyValue(_ db: Database, _ key: some DatabaseValueConvertible) throws -> DatabaseValue {
        let column = try db.primaryKey(databaseTableName).columns[0]
        return keyDatabaseValue(key, column: column, recordType: Self.self)
    }

    /// The single column of the primary key; throws for a composite key.
    static func singlePrimaryKeyColumn(_ db: Database) throws -> String {
        let primaryKey = try db.primaryKey(databaseTableName)
        guard primaryKey.columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(databaseTableName) has a primary key of \(primaryKey.columns.count) columns: use a key dictionary such as [\"\(primaryKey.columns[0])\": ...]")
        }
        return primaryKey.columns[0]
    }

    /// The condition that matches `key`, a dictionary of column values.
    /// Throws when the columns are not a unique key of the table.
    static func keyCondition(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> SQLExpression {
        let columns = Array(key.keys)
        guard try db.table(databaseTableName, hasUniqueKey: columns) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(databaseTableName) has no unique key on column(s) \(columns.sorted().joined(separator: ", "))")
        }
        // As in GRDB, the coding strategies of the record apply to keys of
        // a single-column primary key only, not to key dictionaries.
        return SQLExpression.keyConjunction(key.mapValues { $0?.databaseValue ?? .null })
    }

    /// The condition that matches any of the single-column primary keys
    /// (nil keys match nothing).
    static func keysCondition(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> SQLExpression {
        let column = try singlePrimaryKeyColumn(db)
        return SQLExpression.keyMembership(
            SQLExpression.column(column), keys.map { keyDatabaseValue($0, column: column, recordType: Self.self) })
    }

    /// Whether a key dictionary has a nil value, and matches no row. Its
    /// columns are still checked, so that a mistake is reported.
    static func keyMatchesNothing(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        guard key.values.contains(where: { ($0?.databaseValue ?? .null).isNull }) else { return false }
        _ = try keyCondition(db, key: key)
        return true
    }
}

extension FetchableRecord where Self: TableRecord {
    /// The record with the given primary key, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: 1)
    /// ```
    ///
    /// A nil key matches no row, and the database is not queried.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    @inlinable
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        let keyValue = try primaryKeyDatabaseValue(db, key)
        if keyValue.isNull { return nil }
        let lent = try lendSingleColumnKeyStatement(db, operation: .fetchByPrimaryKey)
        defer { db.recordStatementCache.endLend() }
        return try lent._withUnsafeGuaranteedRef { statement in
            try statement.bind(CollectionOfOne(keyValue))
            return try db.fetchOne(statement, arguments: nil, boundArguments: true) { try Self(row: $0) }
        }
    }

    /// The record with the given primary key, or nil, as when the key is
    /// nil: `Player.fetchOne(db, key: nil)`.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    @_disfavoredOverload
    public static func fetchOne(_ db: Database, key: (any DatabaseValueConvertible)?) throws -> Self? {
        guard let key else { return nil }
        return try fetchOne(db, key: key)
    }

    /// The record with the given key (primary or unique), or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: ["email": "arthur@example.com"])
    /// ```
    ///
    /// A key with a nil value matches no row.
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self? {
        if try keyMatchesNothing(db, key: key) { return nil }
        return try all().filter(keyCondition(db, key: key)).fetchOne(db)
    }

    /// The records with the given primary keys.
    ///
    /// ```swift
    /// let countries = try Country.fetchAll(db, keys: ["FR", "US"])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] {
        if keys.isEmpty { return [] }
        return try all().filter(keysCondition(db, keys: keys)).fetchAll(db)
    }

    /// The records with the given keys.
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        if keys.isEmpty { return [] }
        let conditions = try keys.map { try keyCondition(db, key: $0) }
        return try all().filter(SQLExpression(.associative("OR", conditions))).fetchAll(db)
    }

    /// The set of records with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Set<Self>
    where Self: Hashable {
        try Set(fetchAll(db, keys: keys))
    }

    /// The set of records with the given keys.
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self>
    where Self: Hashable {
        try Set(fetchAll(db, keys: keys))
    }

    /// The record with the given primary key. Throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when there is
    /// none.
    ///
    /// ```swift
    /// let player = try Player.find(db, key: 1)
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the key; a ``DatabaseError`` if the table does not exist, if
    ///   its primary key has several columns (use a key dictionary), or if
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   the row cannot be decoded.
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            let column = try singlePrimaryKeyColumn(db)
            throw RecordError.recordNotFound(
                databaseTableName: databaseTableName,
                key: [column: keyDatabaseValue(key, column: column, recordType: Self.self)])
        }
        return record
    }

    /// The record with the given key. Throws when there is none.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the key; a ``DatabaseError`` if the columns are not a unique
    ///   key of the table, or if SQLite fails; a ``RowDecodingError``, or the
    ///   error of `init(row:)`, if the row cannot be decoded.
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
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    @inlinable
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? {
        try fetchOne(db, key: id)
    }

    /// The records with the given ids.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }

    /// The set of records with the given ids.
    ///
    /// ```swift
    /// let players = try Player.fetchSet(db, ids: [1, 2, 3])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> where Self: Hashable {
        try Set(fetchAll(db, keys: ids))
    }

    /// The record with the given id. Throws when there is none.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the key; a ``DatabaseError`` if the table does not exist, if
    ///   its primary key has several columns (use a key dictionary), or if
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   the row cannot be decoded.
    public static func find(_ db: Database, id: ID) throws -> Self {
        try find(db, key: id)
    }
}

extension TableRecord {
    /// Whether a row has the given primary key.
    /// A nil key matches no row, and the database is not queried.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        let keyValue = try primaryKeyDatabaseValue(db, key)
        if keyValue.isNull { return false }
        let lent = try lendSingleColumnKeyStatement(db, operation: .existsByPrimaryKey)
        defer { db.recordStatementCache.endLend() }
        return try lent._withUnsafeGuaranteedRef { statement in
            try statement.bind(CollectionOfOne(keyValue))
            return try Bool.fetchOne(statement) ?? false
        }
    }

    /// Whether a row has the given key. A key with a nil value matches no
    /// row.
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        if try keyMatchesNothing(db, key: key) { return false }
        return try all().filter(keyCondition(db, key: key)).exists(db)
    }

    /// Deletes the row with the given primary key; returns whether a row
    /// was deleted.
    ///
    /// A nil key deletes nothing, and the database is not modified.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        let keyValue = try primaryKeyDatabaseValue(db, key)
        if keyValue.isNull { return false }
        let primaryKey = try tableAndPrimaryKey(db).primaryKey
        let lent = try lendSingleColumnKeyStatement(db, operation: .deleteByPrimaryKey)
        defer { db.recordStatementCache.endLend() }
        return try lent._withUnsafeGuaranteedRef { statement in
            try statement.bind(CollectionOfOne(keyValue))
            return try statement.executeRowChange(arguments: [keyValue], primaryKey: primaryKey)
        }
    }

    /// Deletes the row with the given primary key; returns whether a row
    /// was deleted: false for a nil key.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult @_disfavoredOverload
    public static func deleteOne(_ db: Database, key: (any DatabaseValueConvertible)?) throws -> Bool {
        guard let key else { return false }
        return try deleteOne(db, key: key)
    }

    /// Deletes the row with the given key; returns whether a row was
    /// deleted.
    ///
    /// A key with a nil value deletes nothing.
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails (a foreign key violation, for example).
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        if try keyMatchesNothing(db, key: key) { return false }
        return try all().filter(keyCondition(db, key: key)).deleteAll(db) > 0
    }

    /// Deletes the rows with the given primary keys; returns how many were
    /// deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        if keys.isEmpty { return 0 }
        return try all().filter(keysCondition(db, keys: keys)).deleteAll(db)
    }

    /// Deletes the rows with the given keys; returns how many were
    /// deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails (a foreign key violation, for example).
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        let conditions = try keys.map { try keyCondition(db, key: $0) }
        return try all().filter(SQLExpression(.associative("OR", conditions))).deleteAll(db)
    }

    /// A request of the row with the given primary key.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// A request of the row with the given primary key, or of no row for a
    /// nil key: `Player.filter(key: nil)`.
    @_disfavoredOverload
    public static func filter(key: (any DatabaseValueConvertible)?) -> QueryInterfaceRequest<Self> {
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

    /// A request of the rows with the given keys (primary or unique), such
    /// as the keys of a table whose primary key has several columns.
    ///
    /// ```swift
    /// let request = Membership.filter(keys: [["teamId": 1, "playerId": 2], ["teamId": 2, "playerId": 3]])
    /// ```
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// Whether a row has the given id.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public static func exists(_ db: Database, id: ID) throws -> Bool { try exists(db, key: id) }

    /// Deletes the row with the given id.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the rows with the given ids.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
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
    ///
    /// ```swift
    /// let request = Player.all().filter(key: 1)
    /// ```
    public func filter(key: some DatabaseValueConvertible) -> Self {
        let table = relation.tableName
        let value = PendingKeyValue(key)
        return filter(SQLExpression(.deferred { context in
            let column = try Self.singlePrimaryKeyColumn(context.db, table: table)
            return SQLExpression.keyEquality(
                SQLExpression.column(column), value.databaseValue(column: column, recordType: RowDecoder.self))
        }))
    }

    /// Keeps the row with the given primary key, or no row for a nil key:
    /// `Player.all().filter(key: nil)`.
    @_disfavoredOverload
    public func filter(key: (any DatabaseValueConvertible)?) -> Self {
        guard let key else { return filter(SQLExpression.matchesNothing) }
        return filter(key: key)
    }

    /// Keeps the rows with the given primary keys.
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> Self {
        let table = relation.tableName
        let values = keys.map { PendingKeyValue($0) }
        return filter(SQLExpression(.deferred { context in
            let column = try Self.singlePrimaryKeyColumn(context.db, table: table)
            return SQLExpression.keyMembership(
                SQLExpression.column(column), values.map { $0.databaseValue(column: column, recordType: RowDecoder.self) })
        }))
    }

    /// Keeps the row with the given key (primary or unique).
    ///
    /// ```swift
    /// let request = Player.all().filter(key: ["email": "arthur@example.com"])
    /// ```
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> Self {
        let table = relation.tableName
        let values = key.mapValues { $0.map { PendingKeyValue($0) } }
        return filter(SQLExpression(.deferred { context in
            guard try context.db.table(table, hasUniqueKey: Array(values.keys)) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(table) has no unique key on column(s) \(values.keys.sorted().joined(separator: ", "))")
            }
            return SQLExpression.keyConjunction(Dictionary(uniqueKeysWithValues: values.map { column, value in
                (column, value?.databaseValue(column: column, recordType: RowDecoder.self) ?? .null)
            }))
        }))
    }

    /// Keeps the rows with the given keys (primary or unique).
    ///
    /// ```swift
    /// let request = Membership.all().filter(keys: [["teamId": 1, "playerId": 2]])
    /// ```
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        if keys.isEmpty { return none() }
        let filters = keys.map { SQLExpression.uniqueKeyFilter(table: relation.tableName, key: $0.mapValues { $0?.databaseValue ?? .null }) }
        return filter(SQLExpression(.associative("OR", filters)))
    }

    private static func singlePrimaryKeyColumn(_ db: Database, table: String) throws -> String {
        let primaryKey = try db.primaryKey(table)
        guard primaryKey.columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(table) has a primary key of \(primaryKey.columns.count) columns: use a key dictionary such as [\"\(primaryKey.columns[0])\": ...]")
        }
        return primaryKey.columns[0]
    }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Keeps the row with the given id.
    public func filter(id: RowDecoder.ID) -> Self { filter(key: id) }

    /// Keeps the rows with the given ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}
