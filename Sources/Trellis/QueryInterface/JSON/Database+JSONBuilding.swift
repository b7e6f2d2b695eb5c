// JSON functions that build JSON values: https://www.sqlite.org/json1.html

extension Database {
    /// `JSON(value)`: the minified JSON of a JSON text, that SQLite reads
    /// as JSON. It fails at run time when the text is not valid JSON.
    ///
    /// ```swift
    /// // SELECT JSON('[1, 2]'), "[1,2]"
    /// let json = try String.fetchOne(db, Table("player").select(Database.json("[1, 2]")))
    /// ```
    public static func json(_ value: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON", [value.sqlExpression])
    }

    /// `JSON_ARRAY(value, ...)`: a JSON array of SQL values. JSON values
    /// (JSON columns, `asJSON`, results of JSON functions) are embedded as
    /// JSON, and other strings as JSON strings.
    ///
    /// ```swift
    /// // JSON_ARRAY(1, 2, 3)
    /// Database.jsonArray([1, 2, 3])
    /// ```
    public static func jsonArray<C: Collection>(_ values: C) -> SQLExpression where C.Element: SQLExpressible {
        .jsonFunction("JSON_ARRAY", values.map { jsonEmbeddedValue($0) })
    }

    /// `JSON_ARRAY(value, ...)`: a JSON array of SQL values. JSON values
    /// (JSON columns, `asJSON`, results of JSON functions) are embedded as
    /// JSON, and other strings as JSON strings.
    ///
    /// ```swift
    /// // JSON_ARRAY(name, JSON(address)) FROM player
    /// Player.select(Database.jsonArray([Column("name"), JSONColumn("address")] as [any SQLExpressible]))
    /// ```
    public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        .jsonFunction("JSON_ARRAY", values.map { jsonEmbeddedValue($0) })
    }

    /// `JSON_OBJECT(key, value, ...)`: a JSON object. JSON values are
    /// embedded as JSON, and other strings as JSON strings.
    ///
    /// ```swift
    /// // JSON_OBJECT('name', name, 'address', JSON(address)) FROM player
    /// Player.select(Database.jsonObject([
    ///     "name": Column("name"),
    ///     "address": JSONColumn("address"),
    /// ] as KeyValuePairs<String, any SQLExpressible>))
    /// ```
    public static func jsonObject(_ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression {
        .jsonFunction("JSON_OBJECT", elements.flatMap { element in
            [element.key.sqlExpression, jsonEmbeddedValue(element.value)]
        })
    }

    /// `JSON_QUOTE(value)`: the JSON representation of an SQL value: a
    /// string is quoted, a JSON value is left as it is.
    ///
    /// ```swift
    /// // JSON_QUOTE(name), "\"Arthur\""
    /// Database.jsonQuote(Column("name"))
    /// ```
    public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_QUOTE", [jsonEmbeddedValue(value)])
    }

    /// `JSON_GROUP_ARRAY(value)`: the aggregate JSON array of the values of
    /// a group of rows, optionally restricted to the rows that match a
    /// filter.
    ///
    /// ```swift
    /// // SELECT JSON_GROUP_ARRAY(name) FILTER (WHERE score > 1000) FROM player
    /// Player.select(Database.jsonGroupArray(Column("name"), filter: Column("score") > 1000))
    /// ```
    public static func jsonGroupArray(
        _ value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        aggregate("JSON_GROUP_ARRAY", [jsonEmbeddedValue(value)], filter: filter)
    }

    /// `JSON_GROUP_OBJECT(key, value)`: the aggregate JSON object of the
    /// keys and values of a group of rows, optionally restricted to the
    /// rows that match a filter.
    ///
    /// ```swift
    /// // SELECT JSON_GROUP_OBJECT(name, score) FROM player
    /// Player.select(Database.jsonGroupObject(key: Column("name"), value: Column("score")))
    /// ```
    public static func jsonGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        aggregate("JSON_GROUP_OBJECT", [key.sqlExpression, jsonEmbeddedValue(value)], filter: filter)
    }

    private static func aggregate(
        _ name: String,
        _ arguments: [SQLExpression],
        filter: (any SQLSpecificExpressible)?) -> SQLExpression
    {
        guard let filter else { return .jsonFunction(name, arguments) }
        return SQLExpression(.json(
            SQLExpression(.filteredAggregate(name, arguments, filter: filter.sqlExpression)),
            .functionResult))
    }
}
