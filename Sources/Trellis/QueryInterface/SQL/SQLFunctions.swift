// SQL functions, named after their Swift counterparts.

private func function(_ name: String, _ arguments: any SQLExpressible..., distinct: Bool = false) -> SQLExpression {
    SQLExpression(.function(name, arguments.map(\.sqlExpression), distinct: distinct))
}

/// `ABS(x)`
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression { function("ABS", value) }

/// `AVG(x)`
public func average(_ value: some SQLSpecificExpressible) -> SQLExpression { function("AVG", value) }

/// `COUNT(x)`
public func count(_ counted: some SQLSpecificExpressible) -> SQLExpression { function("COUNT", counted) }

/// `COUNT(DISTINCT x)`
public func count(distinct counted: some SQLSpecificExpressible) -> SQLExpression {
    function("COUNT", counted, distinct: true)
}

/// `LENGTH(x)`
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression { function("LENGTH", value) }

/// `MAX(x)`
public func max(_ value: some SQLSpecificExpressible) -> SQLExpression { function("MAX", value) }

/// `MIN(x)`
public func min(_ value: some SQLSpecificExpressible) -> SQLExpression { function("MIN", value) }

/// `MAX(x, y, ...)`: the largest of its arguments.
///
/// ```swift
/// Column("date").set(to: max(Column("date"), excluded["date"]))
/// ```
public func max(_ value1: some SQLSpecificExpressible, _ value2: some SQLExpressible, _ values: any SQLExpressible...) -> SQLExpression {
    SQLExpression(.function("MAX", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression), distinct: false))
}

/// `MIN(x, y, ...)`: the smallest of its arguments.
public func min(_ value1: some SQLSpecificExpressible, _ value2: some SQLExpressible, _ values: any SQLExpressible...) -> SQLExpression {
    SQLExpression(.function("MIN", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression), distinct: false))
}

/// `SUM(x)`: NULL for no row.
public func sum(_ value: some SQLSpecificExpressible) -> SQLExpression { function("SUM", value) }

/// `TOTAL(x)`: 0.0 for no row.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression { function("TOTAL", value) }

private func filteredAggregate(_ name: String, _ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.filteredAggregate(name, [value.sqlExpression], filter: filter.sqlExpression))
}

/// `AVG(x) FILTER (WHERE condition)`: the average of the rows that match
/// the condition.
///
/// ```swift
/// // AVG(length) FILTER (WHERE length > 0)
/// average(Column("length"), filter: Column("length") > 0)
/// ```
public func average(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("AVG", value, filter: filter)
}

/// `MAX(x) FILTER (WHERE condition)`: the largest value of the rows that
/// match the condition.
///
/// ```swift
/// // MAX(score) FILTER (WHERE score < 0)
/// max(Column("score"), filter: Column("score") < 0)
/// ```
public func max(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("MAX", value, filter: filter)
}

/// `MIN(x) FILTER (WHERE condition)`: the smallest value of the rows that
/// match the condition.
///
/// ```swift
/// // MIN(score) FILTER (WHERE score > 0)
/// min(Column("score"), filter: Column("score") > 0)
/// ```
public func min(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("MIN", value, filter: filter)
}

/// `SUM(x) FILTER (WHERE condition)`: NULL when no row matches.
///
/// ```swift
/// // SUM(amount) FILTER (WHERE amount > 0)
/// sum(Column("amount"), filter: Column("amount") > 0)
/// ```
public func sum(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("SUM", value, filter: filter)
}

/// `TOTAL(x) FILTER (WHERE condition)`: 0.0 when no row matches.
///
/// ```swift
/// // TOTAL(amount) FILTER (WHERE amount > 0)
/// total(Column("amount"), filter: Column("amount") > 0)
/// ```
public func total(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("TOTAL", value, filter: filter)
}

/// `COALESCE(a, b, ...)`
public func coalesce(_ values: [any SQLExpressible]) -> SQLExpression {
    SQLExpression(.function("COALESCE", values.map(\.sqlExpression), distinct: false))
}

extension SQLSpecificExpressible {
    /// The text lowercased, with Swift's Unicode rules (SQLite's `LOWER`
    /// handles ASCII letters only).
    ///
    /// ```swift
    /// Player.select(Column("name").lowercased)
    /// ```
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(self) }

    /// The text uppercased, with Swift's Unicode rules.
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(self) }

    /// The text capitalized, with Swift's Unicode rules.
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(self) }

    /// The text lowercased in the current locale.
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(self) }

    /// The text uppercased in the current locale.
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(self) }

    /// The text capitalized in the current locale.
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(self) }

    /// `LENGTH(x)`
    public var length: SQLExpression { function("LENGTH", self) }
}

/// `COUNT(*)`
public struct CountAllExpression: SQLSpecificExpressible, SQLSelectable, Sendable {
    public init() {}

    public var sqlExpression: SQLExpression { SQLExpression(.countAll) }
    public var sqlSelection: SQLSelection { .expression(sqlExpression, alias: nil) }
}

extension SQLExpression {
    /// `COUNT(*)`
    public static var countAll: SQLExpression { SQLExpression(.countAll) }
}
