/// A request built from raw SQL, with its arguments.
///
/// ```swift
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE id = \(id)"
/// let player = try request.fetchOne(db)
///
/// let request = SQLRequest<Row>(sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
/// let rows = try request.fetchAll(db)
/// ```
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
    let sqlLiteral: SQL

    /// Whether the statement is cached.
    let cached: Bool

    /// The adapter of the fetched rows, if any.
    let adapter: (any RowAdapter)?

    /// A request from raw SQL and arguments, whose rows an adapter may
    /// adapt (see ``RowAdapter``).
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil,
        cached: Bool = false)
    {
        self.init(sqlLiteral: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// A request from an SQL literal.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(sqlLiteral: sqlLiteral, adapter: adapter, cached: cached)
    }

    private init(sqlLiteral: SQL, adapter: (any RowAdapter)?, cached: Bool) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.cached = cached
    }

    /// A request from an SQL literal.
    ///
    /// ```swift
    /// let request = SQLRequest<Player>("SELECT * FROM player WHERE name = \(name)")
    /// ```
    public init(_ sqlLiteral: SQL, cached: Bool = false) {
        self.init(literal: sqlLiteral, cached: cached)
    }

    public var sqlSubquery: SQLSubquery { SQLSubquery(literal: sqlLiteral) }

    /// Prepares the statement of the request, with its arguments and adapter.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, if the arguments do
    ///   not fit, or if the adapter names a column that is not there.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        let (sql, arguments) = try sqlLiteral.build(db)
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adaptation: try adapter?._adaptation(columnNames: statement.columnNames))
    }

    /// The number of rows of the request, from `SELECT COUNT(*)` around its
    /// SQL.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))" + db.dialect.subqueryName("trellis_counted"), arguments: arguments) ?? 0
    }
}

extension SQLRequest: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: SQL.StringInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }
}

extension SQLRequest where RowDecoder == Row {
    /// A request of rows from an SQL literal.
    ///
    /// ```swift
    /// let sql: SQL = "SELECT max(score) FROM player"
    /// let maximumScore = SQLRequest(sql)
    /// let bestPlayers = Player.filter { $0.score == maximumScore }
    /// ```
    ///
    /// A string literal written in place of `sql` makes a request of an
    /// unknown type, as in GRDB: write `SQLRequest<Row>("...")`.
    public init(_ sqlLiteral: SQL, cached: Bool = false) {
        self.init(sqlLiteral: sqlLiteral, adapter: nil, cached: cached)
    }

    /// A request of rows from raw SQL and arguments.
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil,
        cached: Bool = false)
    {
        self.init(sqlLiteral: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// A request of rows from an SQL literal.
    ///
    /// ```swift
    /// let request = SQLRequest(literal: "SELECT * FROM player WHERE name = \(name)")
    /// ```
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(sqlLiteral: sqlLiteral, adapter: adapter, cached: cached)
    }
}
