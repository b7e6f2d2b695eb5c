// Fetching values from the first column of rows.
//
// Two families of methods: one for every `DatabaseValueConvertible` type,
// and a faster one for the types that also read straight from the
// statement (`StatementColumnConvertible`: integers, doubles, strings...),
// which Swift prefers when both apply.

/// A cursor of values.
public typealias DatabaseValueCursor<Value> = DatabaseCursor<Value>

/// A cursor of values read straight from the statement.
public typealias FastDatabaseValueCursor<Value> = DatabaseCursor<Value>

extension DatabaseValueConvertible {
    /// A cursor over the values of the first column of `sql`.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    @inlinable
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// An array of the values of the first column of `sql`.
    ///
    /// ```swift
    /// let scores = try Int.fetchAll(db, sql: "SELECT score FROM player")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    @inlinable
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The value of the first column of the first row of `sql`, or nil when
    /// there is no row or the value is NULL.
    ///
    /// ```swift
    /// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! // Int
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    @inlinable
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// A cursor over the values of the first column of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> DatabaseValueCursor<Self> {
        try statement.database.makeCursor(statement, arguments: arguments) { try $0.decode(Self.self, atIndex: 0) }
    }

    /// An array of the values of the first column of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try statement.database.fetchAll(statement, arguments: arguments) { try $0.decode(Self.self, atIndex: 0) }
    }

    /// The value of the first column of the first row of a statement, or
    /// nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try statement.database.fetchOne(statement, arguments: arguments, decode: decodeFirstColumn) ?? nil
    }

    /// A cursor over the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        try db.fetchCursor(request.makePreparedRequest(db, forSingleResult: false)) { try $0.decode(Self.self, atIndex: 0) }
    }

    /// An array of the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try db.withPreparedRequest(request, forSingleResult: false) { prepared in
            try db.fetchAll(prepared) { try $0.decode(Self.self, atIndex: 0) }
        }
    }

    /// The value of the first column of the first row of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try db.withPreparedRequest(request, forSingleResult: true) { prepared in
            try db.fetchOne(prepared, decode: decodeFirstColumn)
        } ?? nil
    }

    /// The value of the first column of a fetched row, decoded as an
    /// optional: NULL is nil, unless the type makes a value of it
    /// (`DatabaseValue.null`, or `.some(nil)` for an optional:
    /// `Optional<Int>.fetchOne` tells a NULL from no row), and a failed
    /// conversion names `Optional<Self>`, as in GRDB.
    @inlinable
    static func decodeFirstColumn(_ row: Row) throws -> Self? {
        try row.decode(Self?.self, atIndex: 0)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// A set of the values of the first column of `sql`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Self> {
        try Set(fetchAll(db, sql: sql, arguments: arguments))
    }

    /// A set of the values of the first column of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchAll(statement, arguments: arguments))
    }

    /// A set of the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try Set(fetchAll(db, request))
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the fetched values.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `RowDecoder`.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try RowDecoder.fetchCursor(db, self) }

    /// An array of the fetched values.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `RowDecoder`.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }

    /// The first fetched value, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `RowDecoder`.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of the first column of `sql`.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    @inlinable
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// An array of the values of the first column of `sql`.
    ///
    /// ```swift
    /// let scores = try Int.fetchAll(db, sql: "SELECT score FROM player")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    @inlinable
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The value of the first column of the first row of `sql`, or nil when
    /// there is no row or the value is NULL.
    ///
    /// ```swift
    /// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! // Int
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    @inlinable
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// A cursor over the values of the first column of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> FastDatabaseValueCursor<Self> {
        try statement.database.makeCursor(statement, arguments: arguments) { try $0.decode(Self.self, atIndex: 0) }
    }

    /// An array of the values of the first column of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try statement.database.fetchAll(statement, arguments: arguments) { try $0.decode(Self.self, atIndex: 0) }
    }

    /// The value of the first column of the first row of a statement, or
    /// nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try statement.database.fetchOne(statement, arguments: arguments, decode: decodeFirstColumn) ?? nil
    }

    /// A cursor over the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastDatabaseValueCursor<Self> {
        try db.fetchCursor(request.makePreparedRequest(db, forSingleResult: false)) { try $0.decode(Self.self, atIndex: 0) }
    }

    /// An array of the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try db.withPreparedRequest(request, forSingleResult: false) { prepared in
            try db.fetchAll(prepared) { try $0.decode(Self.self, atIndex: 0) }
        }
    }

    /// The value of the first column of the first row of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try db.withPreparedRequest(request, forSingleResult: true) { prepared in
            try db.fetchOne(prepared, decode: decodeFirstColumn)
        } ?? nil
    }

    /// The value of the first column of a fetched row, decoded as an
    /// optional: NULL is nil, unless the type makes a value of it
    /// (`DatabaseValue.null`, or `.some(nil)` for an optional:
    /// `Optional<Int>.fetchOne` tells a NULL from no row), and a failed
    /// conversion names `Optional<Self>`, as in GRDB.
    @inlinable
    static func decodeFirstColumn(_ row: Row) throws -> Self? {
        try row.decode(Self?.self, atIndex: 0)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// A set of the values of the first column of `sql`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError`` if a value cannot be
    ///   converted to `Self`.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Self> {
        try Set(fetchAll(db, sql: sql, arguments: arguments))
    }

    /// A set of the values of the first column of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError`` if a value cannot be converted
    ///   to `Self`.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchAll(statement, arguments: arguments))
    }

    /// A set of the values of the first column of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try Set(fetchAll(db, request))
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible, RowDecoder: StatementColumnConvertible {
    /// A cursor over the fetched values.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `RowDecoder`.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try RowDecoder.fetchCursor(db, self) }

    /// An array of the fetched values.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `RowDecoder`.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }

    /// The first fetched value, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `RowDecoder`.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}
