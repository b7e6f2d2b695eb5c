extension TableAlias {
    /// A JSON expression of the aliased table.
    ///
    /// ```swift
    /// let playerAlias = TableAlias<Player>()
    /// // SELECT team.* FROM team JOIN player ON ... WHERE player.address ->> 'country' = 'DE'
    /// let teams = Team
    ///     .joining(required: Team.players.aliased(playerAlias))
    ///     .filter(playerAlias[JSONColumn("address")]["country"] == "DE")
    /// ```
    public subscript(_ expression: some SQLJSONExpressible) -> AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: expression.sqlExpression.qualified(with: identity))
    }

    /// A JSON column of the aliased table.
    ///
    /// ```swift
    /// let playerAlias = TableAlias<Player>()
    /// playerAlias[JSONColumn("address")]["country"]
    /// ```
    public subscript(_ column: some ColumnExpression & SQLJSONExpressible) -> AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: column.sqlExpression.qualified(with: identity))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// A JSON column of the aliased table, from the record's `Columns`:
    /// `playerAlias.address["country"]`.
    ///
    /// ```swift
    /// struct Player: TableRecord {
    ///     enum Columns {
    ///         static let address = JSONColumn("address")
    ///     }
    /// }
    /// let playerAlias = TableAlias<Player>()
    /// let germanPlayers = Player
    ///     .aliased(playerAlias)
    ///     .filter(playerAlias.address["country"] == "DE")
    /// ```
    public subscript(
        dynamicMember keyPath: KeyPath<RowDecoder.Columns.Type, some ColumnExpression & SQLJSONExpressible>
    ) -> AnySQLJSONExpressible {
        self[RowDecoder.Columns.self[keyPath: keyPath]]
    }
}
