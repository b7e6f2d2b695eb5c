/// A cursor of rows: each element is the same `Row` instance, which reads
/// the current row of the statement. Copy a row to keep it.
public typealias RowCursor = DatabaseCursor<Row>

extension Row {
    /// A cursor over the rows of `sql`.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
    /// while let row = try rows.next() {
    ///     let name: String = row["name"]
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// An array of the rows of `sql`.
    ///
    /// ```swift
    /// let rows = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// A set of the rows of `sql`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Row> {
        try Set(fetchAll(db, sql: sql, arguments: arguments))
    }

    /// The first row of `sql`, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// A cursor over the rows of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RowCursor {
        try statement.database.makeCursor(statement, arguments: arguments) { $0 }
    }

    /// An array of the rows of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Row] {
        try statement.database.fetchAll(statement, arguments: arguments) { $0.copy() }
    }

    /// A set of the rows of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Row> {
        try Set(fetchAll(statement, arguments: arguments))
    }

    /// The first row of a statement, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Row? {
        try statement.database.fetchOne(statement, arguments: arguments) { $0.copy() }
    }

    /// A cursor over the rows of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        if prepared.supplementaryFetch == nil {
            return try db.fetchCursor(prepared) { $0 }
        }
        return try db.fetchCursor(prepared) { $0.copy() }
    }

    /// An array of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try db.withPreparedRequest(request, forSingleResult: false) { prepared in
            try db.fetchAll(prepared) { $0.copy() }
        }
    }

    /// A set of the rows of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        try Set(fetchAll(db, request))
    }

    /// The first row of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try db.withPreparedRequest(request, forSingleResult: true) { prepared in
            try db.fetchOne(prepared) { $0.copy() }
        }
    }
}

extension FetchRequest where RowDecoder == Row {
    /// A cursor over the fetched rows.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try Row.fetchCursor(db, self) }

    /// An array of the fetched rows.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func fetchAll(_ db: Database) throws -> [Row] { try Row.fetchAll(db, self) }

    /// A set of the fetched rows.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try Row.fetchSet(db, self) }

    /// The first fetched row, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func fetchOne(_ db: Database) throws -> Row? { try Row.fetchOne(db, self) }
}
