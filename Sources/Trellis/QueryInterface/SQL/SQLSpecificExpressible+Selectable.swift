// A custom expression type is selected and sorted as its expression.
//
// In GRDB, `SQLSpecificExpressible` refines `SQLSelectable` and
// `SQLOrderingTerm`. Here those two protocols require `Sendable` (records
// declare their `databaseSelection` as static properties), which
// `SQLSpecificExpressible` does not, since every fetch request adopts it.
// So a custom expression declares the conformances it needs, and gets
// their implementation from its `sqlExpression`:
//
//     struct Doubled: SQLSpecificExpressible, SQLSelectable, SQLOrderingTerm {
//         var column: Column
//         var sqlExpression: SQLExpression { column * 2 }
//     }
//     Player.select(Doubled(column: Column("score")))

extension SQLSelectable where Self: SQLSpecificExpressible {
    /// The expression, selected without a name.
    public var sqlSelection: SQLSelection { .expression(sqlExpression, alias: nil) }
}

extension SQLOrderingTerm where Self: SQLSpecificExpressible {
    /// The expression, in ascending order unless the request is reversed.
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: nil) }
}
