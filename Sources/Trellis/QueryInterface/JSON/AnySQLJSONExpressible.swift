/// A JSON expression of any kind: the result of `asJSON`.
///
/// ```swift
/// // SELECT * FROM player WHERE info ->> 'country' = 'DE'
/// Player.filter(Column("info").asJSON["country"] == "DE")
/// ```
public struct AnySQLJSONExpressible: SQLJSONExpressible, Sendable {
    public let sqlExpression: SQLExpression

    /// A type-erased JSON expression.
    ///
    /// ```swift
    /// let expressions = [AnySQLJSONExpressible(JSONColumn("info")), Column("data").asJSON]
    /// ```
    public init(_ base: some SQLJSONExpressible) {
        sqlExpression = base.sqlExpression.jsonValue
    }

    init(sqlExpression: SQLExpression) {
        self.sqlExpression = sqlExpression.jsonValue
    }
}

extension SQLSpecificExpressible {
    /// The expression as JSON: its JSON components are available with the
    /// `->>` and `->` operators, and JSON functions embed it as JSON, not
    /// as a string.
    ///
    /// ```swift
    /// // SELECT info ->> 'country' FROM player
    /// Player.select(Column("info").asJSON["country"])
    ///
    /// // SELECT JSON_ARRAY(JSON(info)) FROM player
    /// Player.select(Database.jsonArray([Column("info").asJSON]))
    /// ```
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: sqlExpression)
    }
}

extension DatabaseValue {
    /// The value as JSON: JSON functions embed it as JSON, not as a string.
    ///
    /// ```swift
    /// // JSON_ARRAY(JSON('[1, 2]'))
    /// Database.jsonArray(["[1, 2]".databaseValue.asJSON])
    /// ```
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: sqlExpression)
    }
}
