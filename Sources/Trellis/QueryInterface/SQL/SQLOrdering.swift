/// An ordering term: an expression and its direction.
///
/// ```swift
/// Player.order(Column("score").desc, Column("name"))
/// ```
public struct SQLOrdering: SQLOrderingTerm, Sendable {
    enum Direction: Sendable {
        case asc, desc, ascNullsLast, descNullsFirst
    }

    let expression: SQLExpression
    let direction: Direction?

    public var sqlOrdering: SQLOrdering { self }

    /// The ordering in the opposite direction.
    var reversed: SQLOrdering {
        switch direction {
        case nil, .asc: return SQLOrdering(expression: expression, direction: .desc)
        case .desc: return SQLOrdering(expression: expression, direction: .asc)
        case .ascNullsLast: return SQLOrdering(expression: expression, direction: .descNullsFirst)
        case .descNullsFirst: return SQLOrdering(expression: expression, direction: .ascNullsLast)
        }
    }

    func qualified(with alias: AliasIdentity) -> SQLOrdering {
        SQLOrdering(expression: expression.qualified(with: alias), direction: direction)
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        var expression = expression
        if case .deferred(let resolve) = expression.impl {
            expression = try resolve(context)
        }
        if case .associative(",", let terms) = expression.impl {
            // Several terms resolved from the schema, such as the columns
            // of a composite primary key: each one gets the direction.
            return try terms.map { try SQLOrdering(expression: $0, direction: direction).sql(context) }.joined(separator: ", ")
        }
        let sql = try expression.sql(context)
        switch direction {
        case nil: return sql
        case .asc: return sql + " ASC"
        case .desc: return sql + " DESC"
        case .ascNullsLast: return sql + " ASC NULLS LAST"
        case .descNullsFirst: return sql + " DESC NULLS FIRST"
        }
    }
}

extension SQLSpecificExpressible {
    /// The ascending ordering.
    public var asc: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .asc) }

    /// The descending ordering.
    public var desc: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .desc) }

    /// The ascending ordering, NULL last.
    public var ascNullsLast: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .ascNullsLast) }

    /// The descending ordering, NULL first.
    public var descNullsFirst: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .descNullsFirst) }
}
