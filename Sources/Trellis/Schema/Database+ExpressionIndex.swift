extension Database {
    /// Creates an index on expressions.
    ///
    /// ```swift
    /// // CREATE INDEX player_on_country ON player(address ->> 'country')
    /// try db.create(
    ///     index: "player_on_country",
    ///     on: "player",
    ///     expressions: [JSONColumn("address")["country"]])
    /// ```
    ///
    /// Values are written as SQL literals: SQLite does not accept
    /// parameters in schema statements.
    public func create(
        index name: String, on table: String, expressions: [any SQLExpressible], options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        var sql = "CREATE "
        if options.contains(.unique) { sql += "UNIQUE " }
        sql += "INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier
        sql += "(" + (try expressions.map { try SQL($0.sqlExpression).inlinedSQL(self) }.joined(separator: ", ")) + ")"
        if let condition {
            sql += " WHERE " + (try SQL(condition.sqlExpression).inlinedSQL(self))
        }
        try execute(sql: sql)
    }
}
