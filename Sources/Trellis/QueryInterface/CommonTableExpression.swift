/// A common table expression: a temporary view, defined with `WITH` in
/// the SQL of a request.
///
/// ```swift
/// // WITH playerName AS (SELECT 'O''Brien')
/// // SELECT * FROM player WHERE name = (SELECT * FROM playerName)
/// let name = "O'Brien"
/// let playerNameCTE = CommonTableExpression<Void>(named: "playerName", literal: "SELECT \(name)")
/// let request = Player
///     .with(playerNameCTE)
///     .filter(Column("name") == playerNameCTE.all())
///
/// // WITH RECURSIVE counter(x) AS (VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x < 10)
/// // SELECT * FROM counter
/// let counter = CommonTableExpression<Int>(
///     recursive: true, named: "counter", columns: ["x"],
///     literal: "VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x < \(10)")
/// let values = try counter.all().with(counter).fetchAll(db)  // [1, 2, ..., 10]
/// ```
///
/// The generic type is the type fetched by `all()`: `Void` when the CTE
/// is only used in other requests.
public struct CommonTableExpression<RowDecoder>: Sendable {
    /// The name of the common table expression, used as a table name.
    public var tableName: String

    let definition: SQLCommonTableExpression

    private init(recursive: Bool, named tableName: String, columns: [String]?, subquery: SQLSubquery) {
        self.tableName = tableName
        definition = SQLCommonTableExpression(
            tableName: tableName, columns: columns, isRecursive: recursive, subquery: subquery)
    }

    /// A common table expression defined by raw SQL.
    ///
    /// ```swift
    /// // WITH pair(a, b) AS (SELECT 1, 2)
    /// let pairCTE = CommonTableExpression<Void>(named: "pair", columns: ["a", "b"], sql: "SELECT 1, 2")
    /// ```
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        sql: String, arguments: StatementArguments = StatementArguments())
    {
        self.init(recursive: recursive, named: tableName, columns: columns,
                  subquery: SQLSubquery(literal: SQL(sql: sql, arguments: arguments)))
    }

    /// A common table expression defined by an SQL literal.
    ///
    /// ```swift
    /// let cte = CommonTableExpression<Void>(named: "playerName", literal: "SELECT \(name)")
    /// ```
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: SQLSubquery(literal: sqlLiteral))
    }

    /// A common table expression defined by a request.
    ///
    /// ```swift
    /// let cte = CommonTableExpression<Void>(named: "playerName", request: Player.select(Column("name")))
    /// ```
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }

    /// The request of all rows of the common table expression:
    /// `SELECT * FROM name`. To fetch from it, embed the definition with
    /// `with(_:)`: `cte.all().with(cte)`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(relation: SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection]))
    }

    /// An expression that is true when the common table expression
    /// contains `element`: `element IN name`.
    ///
    /// ```swift
    /// Player.with(cte).filter(cte.contains(Column("name")))
    /// ```
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(.inSubquery(element.sqlExpression, SQLSubquery(literal: SQL(sql: "SELECT * FROM " + tableName.quotedDatabaseIdentifier)), negated: false))
    }
}

/// The definition of a common table expression, in a request.
struct SQLCommonTableExpression: Sendable {
    var tableName: String
    var columns: [String]?
    var isRecursive: Bool
    var subquery: SQLSubquery

    /// The columns of the common table expression: the explicit ones, or
    /// those of its request, read from a compiled statement.
    func columnNames(_ db: Database) throws -> [String] {
        if let columns, !columns.isEmpty { return columns }
        let context = SQLGenerationContext(db)
        let sql = try SQLQueryGenerator.withClause([self], context: context)
            + "SELECT * FROM " + tableName.quotedDatabaseIdentifier
        return try db.makeStatement(sql: sql).columnNames
    }

    /// `name(columns) AS (...)`
    func definitionSQL(_ context: SQLGenerationContext) throws -> String {
        var sql = tableName.quotedDatabaseIdentifier
        if let columns, !columns.isEmpty {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        return sql + " AS (" + (try subquery.sql(context)) + ")"
    }
}

extension QueryInterfaceRequest {
    /// Embeds the definition of a common table expression (`WITH`). A
    /// previous definition with the same name is replaced.
    ///
    /// ```swift
    /// let request = Player.all()
    ///     .with(playerNameCTE)
    ///     .filter(Column("name") == playerNameCTE.all())
    /// ```
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        var request = self
        request.relation.commonTableExpressions.removeAll { $0.tableName.lowercased() == cte.tableName.lowercased() }
        request.relation.commonTableExpressions.append(cte.definition)
        return request
    }
}

extension TableRecord {
    /// A request of all rows, with the definition of a common table
    /// expression (`WITH`).
    ///
    /// ```swift
    /// let request = Player.with(playerNameCTE).filter(Column("name") == playerNameCTE.all())
    /// ```
    public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }
}

extension SQL.StringInterpolation {
    /// The table name of a common table expression:
    /// `"SELECT * FROM \(cte)"`.
    public mutating func appendInterpolation<T>(_ cte: CommonTableExpression<T>) {
        appendInterpolation(identifier: cte.tableName)
    }

    /// The definition of a common table expression:
    /// `"WITH \(definitionFor: cte) SELECT * FROM \(cte)"`.
    public mutating func appendInterpolation<T>(definitionFor cte: CommonTableExpression<T>) {
        let definition = cte.definition
        appendInterpolation(identifier: definition.tableName)
        if let columns = definition.columns, !columns.isEmpty {
            appendLiteral("(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
        }
        appendLiteral(" AS ")
        appendInterpolation(SQLExpression(.subquery(definition.subquery)))
    }
}

extension CommonTableExpression where RowDecoder == Row {
    /// A common table expression of rows, defined by raw SQL.
    ///
    /// ```swift
    /// let cte = CommonTableExpression(named: "bestScore", sql: "SELECT MAX(score) FROM player")
    /// ```
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        sql: String, arguments: StatementArguments = StatementArguments())
    {
        self.init(recursive: recursive, named: tableName, columns: columns,
                  subquery: SQLSubquery(literal: SQL(sql: sql, arguments: arguments)))
    }

    /// A common table expression of rows, defined by an SQL literal.
    ///
    /// ```swift
    /// let cte = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
    /// ```
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: SQLSubquery(literal: sqlLiteral))
    }

    /// A common table expression of rows, defined by a request.
    ///
    /// ```swift
    /// let cte = CommonTableExpression(named: "bestPlayer", request: Player.order(Column("score").desc).limit(1))
    /// ```
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }
}

