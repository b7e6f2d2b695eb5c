/// A request that can be refined: query interface requests such as
/// `Author.all()`, and associations such as `Book.author`.
///
/// Extend it to share refinements between requests and associations:
///
/// ```swift
/// extension DerivableRequest<Author> {
///     func filter(country: String) -> Self {
///         filter { $0.country == country }
///     }
///     func orderedByName() -> Self {
///         order { $0.name }
///     }
/// }
///
/// let frenchAuthors = Author.all().filter(country: "FR").orderedByName()
/// let books = Book.joining(required: Book.author.filter(country: "FR"))
/// ```
public protocol DerivableRequest<RowDecoder>:
    AggregatingRequest, FilteredRequest, JoinableRequest, OrderedRequest, SelectionRequest, TableRequest
{
    /// Removes duplicate rows (`SELECT DISTINCT`).
    func distinct() -> Self

    /// Limits the number of rows.
    func limit(_ limit: Int, offset: Int?) -> Self

    /// Embeds the definition of a common table expression (`WITH`),
    /// replacing a previous one of the same name.
    func with<T>(_ cte: CommonTableExpression<T>) -> Self
}

/// A request that can be filtered.
public protocol FilteredRequest {
    /// Keeps the rows that match `predicate`.
    func filter(_ predicate: some SQLExpressible) -> Self
}

/// A request that can be sorted.
public protocol OrderedRequest {
    /// Sorts the rows, replacing any previous ordering.
    func order(_ orderings: [any SQLOrderingTerm]) -> Self

    /// Reverses the ordering.
    func reversed() -> Self

    /// Removes the ordering.
    func unordered() -> Self
}

/// A request whose selected columns can be chosen.
public protocol SelectionRequest {
    /// Selects columns, replacing any previous selection.
    func select(_ selection: [any SQLSelectable]) -> Self

    /// Appends columns to the selection.
    func annotated(with selection: [any SQLSelectable]) -> Self
}

/// A request that can be grouped.
public protocol AggregatingRequest {
    /// Groups rows.
    func group(_ expressions: [any SQLExpressible]) -> Self

    /// Keeps the groups that match `predicate`.
    func having(_ predicate: some SQLExpressible) -> Self
}

/// A request on a table, which can be given a name in the SQL.
public protocol TableRequest {
    /// Gives the table a name in the generated SQL.
    func aliased<T>(_ alias: TableAlias<T>) -> Self
}

/// A request that can join associated records.
public protocol JoinableRequest<RowDecoder> {
    /// The type of the fetched records.
    associatedtype RowDecoder

    /// Includes a required to-one association.
    func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Includes an optional to-one association.
    func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Includes all records of a to-many association.
    func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Joins a required association without selecting its columns.
    func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Joins an optional association without selecting its columns.
    func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder
}

extension FilteredRequest {
    /// Keeps the rows that match an SQL condition.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Keeps the rows that match an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }
}

extension OrderedRequest {
    /// Sorts the rows.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Sorts the rows with SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQL(sql: sql, arguments: arguments)])
    }

    /// Sorts the rows with an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([sqlLiteral])
    }
}

extension SelectionRequest {
    /// Selects columns.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Selects columns with SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select([SQL(sql: sql, arguments: arguments)])
    }

    /// Selects columns with an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select([sqlLiteral])
    }

    /// Appends columns to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }
}

extension AggregatingRequest {
    /// Groups rows.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Groups rows with SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group([SQL(sql: sql, arguments: arguments)])
    }

    /// Groups rows with an SQL literal.
    ///
    /// ```swift
    /// Player.select(sql: "team, COUNT(*)").group(literal: "team")
    /// ```
    public func group(literal sqlLiteral: SQL) -> Self {
        group([sqlLiteral])
    }

    /// Keeps the groups that match an SQL condition.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }

    /// Keeps the groups that match an SQL literal.
    ///
    /// ```swift
    /// Player.group(Column("team")).having(literal: "COUNT(*) > \(minimumCount)")
    /// ```
    public func having(literal sqlLiteral: SQL) -> Self {
        having(sqlLiteral)
    }
}

extension DerivableRequest where RowDecoder: TableRecord {
    /// Keeps the record with the given primary key.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        filter(SQLExpression.primaryKeyFilter(table: RowDecoder.databaseTableName, values: [key.databaseValue]))
    }

    /// Keeps the records with the given primary keys.
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> Self {
        filter(SQLExpression.primaryKeyFilter(table: RowDecoder.databaseTableName, values: keys.map(\.databaseValue)))
    }

    /// Keeps the record with the given key (primary or unique).
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> Self {
        filter(SQLExpression.uniqueKeyFilter(table: RowDecoder.databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null }))
    }

    /// Keeps the records with the given keys (primary or unique).
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        filter(SQLExpression.uniqueKeysFilter(table: RowDecoder.databaseTableName, keys: keys))
    }

    /// Sorts by primary key.
    public func orderByPrimaryKey() -> Self {
        order([SQLExpression.primaryKey(table: RowDecoder.databaseTableName)])
    }

    /// Groups rows by primary key (the `rowid` of a table without an
    /// explicit primary key).
    public func groupByPrimaryKey() -> Self {
        group([SQLExpression.primaryKey(table: RowDecoder.databaseTableName)])
    }

    /// Keeps the rows that match a predicate built from the record's
    /// columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func filter(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        filter(try predicate(RowDecoder.Columns.self))
    }

    /// Sorts by the record's columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        order([try orderings(RowDecoder.Columns.self)])
    }

    /// Sorts by the record's columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        order(try orderings(RowDecoder.Columns.self))
    }

    /// Selects the record's columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        select(try selection(RowDecoder.Columns.self))
    }
}

extension QueryInterfaceRequest: DerivableRequest {}

extension DerivableRequest where RowDecoder: TableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Keeps the record with the given id.
    public func filter(id: RowDecoder.ID) -> Self { filter(key: id) }

    /// Keeps the records with the given ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}


extension FilteredRequest {
    /// Keeps the rows that match the condition that `predicate` builds
    /// from the database, when the request runs.
    ///
    /// ```swift
    /// // SELECT * FROM player WHERE name = 'O''Brien'
    /// let name = "O'Brien"
    /// let request = Player.all().filterWhenConnected { db in
    ///     Column("name") == name
    /// }
    /// ```
    ///
    /// The error that `predicate` throws is thrown by the fetch.
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        filter(SQLExpression(.deferred { context in try predicate(context.db).sqlExpression }))
    }
}

extension AggregatingRequest {
    /// Keeps the groups that match the condition that `predicate` builds
    /// from the database, when the request runs.
    ///
    /// ```swift
    /// // SELECT teamId, MAX(score) FROM player GROUP BY teamId HAVING MAX(score) > 1000
    /// let request = Player
    ///     .select(Column("teamId"), max(Column("score")))
    ///     .group(Column("teamId"))
    ///     .havingWhenConnected { db in max(Column("score")) > 1000 }
    /// ```
    ///
    /// The error that `predicate` throws is thrown by the fetch.
    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        having(SQLExpression(.deferred { context in try predicate(context.db).sqlExpression }))
    }
}
