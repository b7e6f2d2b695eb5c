extension DatabaseFunction {
    /// The SQL call of the function, for the query interface.
    ///
    /// ```swift
    /// Player.select(succ(Column("score")))
    /// ```
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        SQLExpression(.function(name, arguments.map(\.sqlExpression), distinct: false))
    }
}
