/// A request built with the query interface.
///
/// ```swift
/// let request = Player
///     .filter(Column("score") > 1000)
///     .order(Column("name"))
///     .limit(10)
/// let players = try request.fetchAll(db)   // [Player]
/// let count = try request.fetchCount(db)   // Int
/// ```
///
/// Requests are values: each method returns a new request. They generate
/// their SQL when they run, with every value bound and every identifier
/// quoted.
public struct QueryInterfaceRequest<RowDecoder>: @unchecked Sendable {
    var relation: SQLRelation

    init(relation: SQLRelation) {
        self.relation = relation
    }
}

extension QueryInterfaceRequest: FetchRequest {
    /// Compiles the request into a statement, ready to run.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled: it
    ///   names a table or column that does not exist, or an association or
    ///   alias it cannot resolve.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        try SQLQueryGenerator(relation: relation).makePreparedRequest(db, singleResult: singleResult)
    }

    /// The number of rows the request fetches.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func fetchCount(_ db: Database) throws -> Int {
        try SQLQueryGenerator(relation: relation).fetchCount(db)
    }

    public var sqlSubquery: SQLSubquery {
        let relation = relation
        return SQLSubquery { context in try SQLQueryGenerator(relation: relation).subquerySQL(context) }
    }
}

extension QueryInterfaceRequest {
    // MARK: Filtering

    /// Keeps the rows that match `predicate`.
    ///
    /// ```swift
    /// Player.filter(Column("name") == "Arthur")
    /// ```
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.relation.filters.append(predicate.sqlExpression)
        return request
    }

    /// Keeps the rows that match an SQL condition.
    ///
    /// ```swift
    /// Player.filter(sql: "score > ?", arguments: [1000])
    /// ```
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Keeps the rows that match an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// Keeps no row.
    public func none() -> Self {
        filter(SQLExpression.value(false.databaseValue))
    }

    // MARK: Ordering

    /// Sorts the rows, replacing any previous ordering.
    ///
    /// ```swift
    /// Player.order(Column("score").desc, Column("name"))
    /// ```
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Sorts the rows, replacing any previous ordering.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        var request = self
        request.relation.orderings = orderings.map(\.sqlOrdering)
        request.relation.isReversed = false
        return request
    }

    /// Sorts the rows with SQL, replacing any previous ordering.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQL(sql: sql, arguments: arguments)])
    }

    /// Sorts the rows with an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([sqlLiteral])
    }

    /// Reverses the ordering. A request without ordering is not changed.
    ///
    /// ```swift
    /// // SELECT * FROM player ORDER BY score ASC, name DESC
    /// Player.order(Column("score").desc, Column("name")).reversed()
    /// ```
    public func reversed() -> Self {
        var request = self
        request.relation.isReversed.toggle()
        return request
    }

    /// Removes the ordering.
    public func unordered() -> Self {
        var request = self
        request.relation.orderings = []
        request.relation.isReversed = false
        return request
    }

    // MARK: Selection

    /// Selects columns, replacing any previous selection.
    ///
    /// ```swift
    /// Player.select(Column("id"), Column("name"))
    /// ```
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Selects columns, replacing any previous selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        var request = self
        request.relation.selection = selection.map(\.sqlSelection)
        return request
    }

    /// Selects SQL, replacing any previous selection.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select([SQL(sql: sql, arguments: arguments)])
    }

    /// Selects an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select([sqlLiteral])
    }

    /// Selects columns, and decodes them as `type`.
    ///
    /// ```swift
    /// let names = try Player.select(Column("name"), as: String.self).fetchAll(db)
    /// ```
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Selects columns, and decodes them as `type`.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Selects SQL, and decodes it as `type`.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// Appends columns to the selection.
    ///
    /// ```swift
    /// Player.annotated(with: (Column("score") * 2).forKey("doubleScore"))
    /// ```
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }

    /// Appends columns to the selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        var request = self
        request.relation.selection += selection.map(\.sqlSelection)
        return request
    }

    /// Removes duplicate rows.
    public func distinct() -> Self {
        var request = self
        request.relation.isDistinct = true
        return request
    }

    // MARK: Grouping

    /// Groups rows.
    ///
    /// ```swift
    /// Player.select(Column("team"), max(Column("score"))).group(Column("team"))
    /// ```
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Groups rows.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        var request = self
        request.relation.groupBy = expressions.map(\.sqlExpression)
        return request
    }

    /// Groups rows with SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group([SQL(sql: sql, arguments: arguments)])
    }

    /// Keeps the groups that match `predicate`. Without grouping, keeps
    /// the rows that match it: association aggregates filter this way.
    ///
    /// ```swift
    /// Author.having(Author.books.count >= 2)
    /// ```
    public func having(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.relation.having.append(predicate.sqlExpression)
        return request
    }

    /// Keeps the groups that match an SQL condition.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }

    // MARK: Limiting

    /// Limits the number of rows.
    ///
    /// ```swift
    /// Player.order(Column("score").desc).limit(10, offset: 20)
    /// ```
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var request = self
        request.relation.limit = (limit, offset)
        return request
    }

    // MARK: Aliases and decoding

    /// Gives the table a name in the generated SQL, so that other parts of
    /// the query can refer to it.
    ///
    /// ```swift
    /// let playerAlias = TableAlias<Player>(name: "p")
    /// Player.aliased(playerAlias).filter(sql: "p.score > 1000")
    /// ```
    public func aliased<T>(_ alias: TableAlias<T>) -> Self {
        var request = self
        request.relation.adoptAlias(alias.identity)
        return request
    }

    /// The same request, decoding rows as `type`.
    ///
    /// ```swift
    /// let rows = try Player.all().asRequest(of: Row.self).fetchAll(db)
    /// ```
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        QueryInterfaceRequest<T>(relation: relation)
    }

    // MARK: Existence

    /// Whether the request fetches no row.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func isEmpty(_ db: Database) throws -> Bool {
        try !exists(db)
    }

    /// Whether the request fetches at least one row.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func exists(_ db: Database) throws -> Bool {
        let subquery = sqlSubquery
        let request = SQLRequest<Bool>(literal: SQL(elements: [
            .sql("SELECT EXISTS (", StatementArguments()), .subquery(subquery), .sql(")", StatementArguments()),
        ]))
        return try Bool.fetchOne(db, request) ?? false
    }
}
