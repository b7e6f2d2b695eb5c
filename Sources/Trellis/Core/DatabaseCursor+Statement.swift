extension DatabaseCursor {
    /// The SQL of the statement the cursor steps.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db)
    /// print(players.sql) // SELECT * FROM "player"
    /// ```
    public var sql: String { statement.sql }

    /// The arguments of the statement the cursor steps.
    public var arguments: StatementArguments { statement.arguments }

    /// The names of the columns of the fetched rows.
    public var columnNames: [String] { statement.columnNames }

    /// The number of columns of the fetched rows.
    public var columnCount: Int { statement.columnCount }
}
