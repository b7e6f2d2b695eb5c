// The fetch methods that take a row adapter: the rows of a statement go
// through the adapter before they are decoded, as in GRDB.

extension Database {
    /// The cached statement of `sql` with its arguments, and the view of
    /// `adapter` on its rows.
    func preparedRequest(sql: String, arguments: StatementArguments, adapter: (any RowAdapter)?) throws -> PreparedRequest {
        try preparedRequest(cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// `statement` with its arguments (the bound ones when nil), and the
    /// view of `adapter` on its rows.
    func preparedRequest(_ statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)?) throws -> PreparedRequest {
        if let arguments { try statement.setArguments(arguments) }
        return PreparedRequest(statement: statement, adaptation: try adapter?._adaptation(columnNames: statement.columnNames))
    }
}

extension Row {
    /// A cursor over the rows of `sql`, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> RowCursor
    {
        try db.fetchCursor(db.preparedRequest(sql: sql, arguments: arguments, adapter: adapter)) { $0.copy() }
    }

    /// The rows of `sql`, adapted by `adapter`.
    ///
    /// ```swift
    /// let rows = try Row.fetchAll(db, sql: "SELECT 'Hello' AS produced", adapter: ColumnMapping(["consumed": "produced"]))
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> [Row]
    {
        try db.fetchAll(db.preparedRequest(sql: sql, arguments: arguments, adapter: adapter)) { $0.copy() }
    }

    /// The set of the rows of `sql`, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> Set<Row>
    {
        try Set(fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// The first row of `sql`, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> Row?
    {
        try db.fetchOne(db.preparedRequest(sql: sql, arguments: arguments, adapter: adapter)) { $0.copy() }
    }

    /// A cursor over the rows of a statement, adapted by `adapter`.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT 1 AS a, 2 AS b")
    /// let rows = try Row.fetchCursor(statement, adapter: SuffixRowAdapter(fromIndex: 1))
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> RowCursor {
        let db = statement.database
        return try db.fetchCursor(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) { $0.copy() }
    }

    /// The rows of a statement, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> [Row] {
        let db = statement.database
        return try db.fetchAll(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) { $0.copy() }
    }

    /// The set of the rows of a statement, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> Set<Row> {
        try Set(fetchAll(statement, arguments: arguments, adapter: adapter))
    }

    /// The first row of a statement, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> Row? {
        let db = statement.database
        return try db.fetchOne(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) { $0.copy() }
    }
}

extension DatabaseValueConvertible {
    /// A cursor over the values of the first column of the rows of `sql`,
    /// adapted by `adapter`.
    ///
    /// ```swift
    /// // The second column: 2
    /// let values = try Int.fetchCursor(db, sql: "SELECT 1, 2", adapter: SuffixRowAdapter(fromIndex: 1))
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> DatabaseValueCursor<Self>
    {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The values of the first column of the rows of `sql`, adapted by
    /// `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> [Self]
    {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The value of the first column of the first row of `sql`, adapted by
    /// `adapter`: nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> Self?
    {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the values of the first column of the rows of a
    /// statement, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError`` if a value cannot be converted to `Self`.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> DatabaseValueCursor<Self> {
        let db = statement.database
        return try db.fetchCursor(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) {
            try $0.decode(Self.self, atIndex: 0)
        }
    }

    /// The values of the first column of the rows of a statement, adapted
    /// by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError`` if a value cannot be converted to `Self`.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> [Self] {
        let db = statement.database
        return try db.fetchAll(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) {
            try $0.decode(Self.self, atIndex: 0)
        }
    }

    /// The value of the first column of the first row of a statement,
    /// adapted by `adapter`: nil when there is no row or the value is NULL.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError`` if a value cannot be converted to `Self`.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> Self? {
        let db = statement.database
        return try db.fetchOne(db.preparedRequest(statement, arguments: arguments, adapter: adapter), decode: decodeFirstColumn) ?? nil
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The set of the values of the first column of the rows of `sql`,
    /// adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `Self`.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> Set<Self>
    {
        try Set(fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// The set of the values of the first column of the rows of a
    /// statement, adapted by `adapter`.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError`` if a value cannot be converted to `Self`.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> Set<Self> {
        try Set(fetchAll(statement, arguments: arguments, adapter: adapter))
    }
}
