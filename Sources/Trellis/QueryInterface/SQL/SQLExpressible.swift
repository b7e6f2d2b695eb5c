/// A type that can be used in SQL expressions: values (`1`, `"Arthur"`),
/// columns, and expressions.
///
/// ```swift
/// let filter = Column("score") > 1000   // an SQLExpression
/// ```
public protocol SQLExpressible {
    /// The value as an SQL expression.
    var sqlExpression: SQLExpression { get }
}

/// An SQL expression that is not a plain value: a column, an expression,
/// an SQL literal. Operators need one of those on at least one side, so
/// that `1 == 2` stays a Swift comparison.
public protocol SQLSpecificExpressible: SQLExpressible {}

/// A type that can be ordered: expressions, and their `.asc` / `.desc`
/// forms.
public protocol SQLOrderingTerm: Sendable {
    /// The ordering as SQL.
    var sqlOrdering: SQLOrdering { get }
}

/// A type that can be selected: expressions, aliased expressions, and
/// `AllColumns()`.
public protocol SQLSelectable: Sendable {
    /// The selection as SQL.
    var sqlSelection: SQLSelection { get }
}

/// A type that can be used as a subquery: requests. As an expression,
/// a subquery is wrapped in parentheses.
///
/// ```swift
/// let maxScore = Player.select(max(Column("score")))
/// let bestPlayers = Player.filter(Column("score") == maxScore)
/// ```
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The request as a subquery.
    var sqlSubquery: SQLSubquery { get }
}

extension SQLSubqueryable {
    public var sqlExpression: SQLExpression { SQLExpression(.subquery(sqlSubquery)) }
}

/// Values are selected and sorted as expressions, and are arguments of SQL
/// functions, as in GRDB: `Player.select(1.databaseValue)`,
/// `julianDay("2024-01-02".databaseValue, .startOfYear)`.
extension DatabaseValue: SQLSpecificExpressible, SQLSelectable, SQLOrderingTerm {
    public var sqlSelection: SQLSelection { .expression(sqlExpression, alias: nil) }
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: nil) }
}
