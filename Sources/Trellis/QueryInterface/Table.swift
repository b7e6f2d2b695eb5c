/// A database table, for requests that do not start from a record type.
///
/// ```swift
/// // Rows
/// let table = Table("player")
/// let rows = try table.filter(Column("score") > 1000).fetchAll(db)  // [Row]
/// let count = try table.fetchCount(db)
/// try table.filter(Column("score") < 100).deleteAll(db)
///
/// // Records
/// let players = try Table<Player>("player").all().fetchAll(db)       // [Player]
/// ```
///
/// A table builds the same requests as a record type: `all()`, `filter`,
/// `order`, `select`, `limit`... Its requests select all columns (`*`).
public struct Table<RowDecoder>: Sendable {
    /// The name of the table.
    public var tableName: String

    /// A table whose requests fetch `RowDecoder`: `Table<Player>("player")`.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table where RowDecoder == Row {
    /// A table whose requests fetch rows: `Table("player")`.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table {
    // MARK: Requests

    /// The request of all rows of the table.
    ///
    /// ```swift
    /// let rows = try Table("player").all().fetchAll(db)
    /// ```
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(relation: SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection]))
    }

    /// The request of no row.
    public func none() -> QueryInterfaceRequest<RowDecoder> { all().none() }

    /// The request of the rows that match `predicate`.
    ///
    /// ```swift
    /// Table("player").filter(Column("score") > 1000)
    /// ```
    public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> { all().filter(predicate) }

    /// The request of the rows that match an SQL condition.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// The request of the rows that match an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().filter(literal: sqlLiteral) }

    /// The request of the row with the given primary key.
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }

    /// The request of the row with the given primary key, or of no row for
    /// a nil key: `Table("player").filter(key: nil)`.
    @_disfavoredOverload
    public func filter(key: (any DatabaseValueConvertible)?) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }

    /// The request of the rows with the given primary keys.
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }

    /// The request of the row with the given key (primary or unique).
    ///
    /// ```swift
    /// Table("player").filter(key: ["email": "arthur@example.com"])
    /// ```
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// The request of the rows with the given keys (primary or unique).
    ///
    /// ```swift
    /// Table("membership").filter(keys: [["teamId": 1, "playerId": 2]])
    /// ```
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }

    /// The request of sorted rows.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }

    /// The request of sorted rows.
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }

    /// The request of rows sorted with SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().order(sql: sql, arguments: arguments)
    }

    /// The request of rows sorted with an SQL literal.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().order(literal: sqlLiteral) }

    /// The request of rows sorted by primary key.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> { all().orderByPrimaryKey() }

    /// The request of rows grouped by primary key.
    public func groupByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> { all().groupByPrimaryKey() }

    /// The request of selected columns.
    ///
    /// ```swift
    /// let row = try Table("player").select(max(Column("score"))).fetchOne(db)
    /// ```
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }

    /// The request of selected columns.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }

    /// The request of selected columns, decoded as `type`.
    ///
    /// ```swift
    /// let names = try Table("player").select(Column("name"), as: String.self).fetchAll(db)
    /// ```
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// The request of selected columns, decoded as `type`.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// The request of an SQL literal selection.
    ///
    /// ```swift
    /// let count = try Table("player").select(literal: "COUNT(*)", as: Int.self).fetchOne(db)
    /// ```
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().select(literal: sqlLiteral) }

    /// The request of an SQL literal selection, fetching values of type `T`.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral).asRequest(of: T.self)
    }

    /// The request of selected SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().select(sql: sql, arguments: arguments)
    }

    /// The request of selected SQL, decoded as `type`.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// The request of all columns and extra ones.
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().annotated(with: selection) }

    /// The request of all columns and extra ones.
    ///
    /// ```swift
    /// Table("player").annotated(with: [Column.rowID])
    /// ```
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> { all().annotated(with: selection) }

    /// The request of distinct rows.
    public func distinct() -> QueryInterfaceRequest<RowDecoder> { all().distinct() }

    /// The request of grouped rows.
    public func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<RowDecoder> { all().group(expressions) }

    /// The request of a limited number of rows.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> { all().limit(limit, offset: offset) }

    /// The request whose table is aliased.
    public func aliased<T>(_ alias: TableAlias<T>) -> QueryInterfaceRequest<RowDecoder> { all().aliased(alias) }

    // MARK: Counting, existence

    /// The number of rows in the table.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails.
    public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Whether the table has no row.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails.
    public func isEmpty(_ db: Database) throws -> Bool { try all().isEmpty(db) }

    /// Whether a row has the given primary key.
    ///
    /// ```swift
    /// try Table("player").exists(db, key: 1)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // A nil key matches no row: no need to query.
        if key.databaseValue.isNull { return false }
        return try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has the given key (primary or unique).
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails.
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    // MARK: Deleting and updating

    /// Deletes all rows, and returns how many were deleted.
    ///
    /// ```swift
    /// try Table("player").deleteAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// Deletes the rows with the given primary keys, and returns how many
    /// were deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with the given primary key, and returns whether a
    /// row was deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // A nil key matches no row: the database is not modified.
        if key.databaseValue.isNull { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with the given key (primary or unique), and returns
    /// whether a row was deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails (a foreign key violation, for example).
    @discardableResult
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Updates all rows, and returns how many were updated.
    ///
    /// ```swift
    /// try Table("player").updateAll(db, Column("score").set(to: 0))
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails (a constraint violation, for example).
    @discardableResult
    public func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows, and returns how many were updated.
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails (a constraint violation, for example).
    @discardableResult
    public func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder == Row {
    // MARK: Fetching rows

    /// A cursor over all rows of the table.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }

    /// All rows of the table.
    ///
    /// ```swift
    /// let rows = try Table("player").fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails.
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }

    /// All rows of the table, as a set.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }

    /// The first row of the table.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails.
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }

    /// The row with the given primary key.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Row? {
        if key.databaseValue.isNull { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// The row with the given key (primary or unique).
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails.
    public func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Row? {
        try filter(key: key).fetchOne(db)
    }
}

extension Table where RowDecoder: FetchableRecord {
    // MARK: Fetching records

    /// A cursor over all records of the table.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }

    /// All records of the table.
    ///
    /// ```swift
    /// let players = try Table<Player>("player").fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }

    /// The first record of the table.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }

    /// The record with the given primary key.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> RowDecoder? {
        if key.databaseValue.isNull { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// The record with the given key (primary or unique).
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    public func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> RowDecoder? {
        try filter(key: key).fetchOne(db)
    }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// All records of the table, as a set.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

// MARK: - Keys and ids

extension Table {
    /// Deletes the rows with the given keys (primary or unique), and
    /// returns how many were deleted.
    ///
    /// ```swift
    /// try Table("citizenship").deleteAll(db, keys: [["citizenId": 1, "countryCode": "FR"]])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails (a foreign key violation, for example).
    @discardableResult
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Selects the primary key, decoded as `type`.
    ///
    /// ```swift
    /// let ids = try Table("player").selectPrimaryKey(as: Int64.self).fetchAll(db)
    /// ```
    public func selectPrimaryKey<T>(as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().selectPrimaryKey(as: type)
    }
}

extension Table where RowDecoder == Row {
    /// A cursor over the rows with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> RowCursor {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The rows with the given primary keys.
    ///
    /// ```swift
    /// let rows = try Table("player").fetchAll(db, keys: [1, 2, 3])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Row] {
        try filter(keys: keys).fetchAll(db)
    }

    /// The rows with the given keys (primary or unique).
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails.
    public func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Row] {
        try filter(keys: keys).fetchAll(db)
    }

    /// The set of rows with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Set<Row> {
        try filter(keys: keys).fetchSet(db)
    }
}

extension Table where RowDecoder: FetchableRecord {
    /// A cursor over the records with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> RecordCursor<RowDecoder> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The records with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [RowDecoder] {
        try filter(keys: keys).fetchAll(db)
    }

    /// The records with the given keys (primary or unique).
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    public func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [RowDecoder] {
        try filter(keys: keys).fetchAll(db)
    }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// The set of records with the given primary keys.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Set<RowDecoder> {
        try filter(keys: keys).fetchSet(db)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// The row with the given id.
    ///
    /// ```swift
    /// let players = Table<Player>("player")
    /// let request = players.filter(id: 1)
    /// ```
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> { filter(key: id) }

    /// The rows with the given ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> { filter(keys: ids) }

    /// Whether a row has the given id.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool { try exists(db, key: id) }

    /// Deletes the row with the given id, and returns whether a row was
    /// deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the rows with the given ids, and returns how many were
    /// deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int { try deleteAll(db, keys: ids) }

    /// Selects the ids of the rows.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> { selectPrimaryKey(as: RowDecoder.ID.self) }
}

extension Table where RowDecoder: FetchableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// The record with the given id, if any.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchOne(_ db: Database, id: RowDecoder.ID) throws -> RowDecoder? { try fetchOne(db, key: id) }

    /// The records with the given ids.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> [RowDecoder] {
        try filter(ids: ids).fetchAll(db)
    }

    /// A cursor over the records with the given ids.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public func fetchCursor(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> RecordCursor<RowDecoder> {
        try filter(ids: ids).fetchCursor(db)
    }
}
