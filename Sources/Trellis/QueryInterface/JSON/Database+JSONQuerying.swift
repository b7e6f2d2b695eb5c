// JSON functions that read and validate JSON values:
// https://www.sqlite.org/json1.html

extension Database {
    /// `JSON_ARRAY_LENGTH(value)`: the number of elements of a JSON array,
    /// 0 for other JSON values.
    ///
    /// ```swift
    /// // SELECT * FROM player WHERE JSON_ARRAY_LENGTH(achievements) > 2
    /// Player.filter(Database.jsonArrayLength(Column("achievements")) > 2)
    /// ```
    public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
        .jsonScalarFunction("JSON_ARRAY_LENGTH", [value.sqlExpression])
    }

    /// `JSON_ARRAY_LENGTH(value, path)`: the number of elements of the JSON
    /// array at `path`, 0 for other JSON values, NULL when there is no
    /// value at `path`.
    ///
    /// ```swift
    /// // JSON_ARRAY_LENGTH(info, '$.tags')
    /// Database.jsonArrayLength(Column("info"), atPath: "$.tags")
    /// ```
    public static func jsonArrayLength(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .jsonScalarFunction("JSON_ARRAY_LENGTH", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path)`: the SQL value at `path`.
    ///
    /// ```swift
    /// // JSON_EXTRACT(info, '$.level')
    /// Database.jsonExtract(Column("info"), atPath: "$.level")
    /// ```
    public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .jsonScalarFunction("JSON_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path, ...)`: the JSON array of the values at
    /// `paths`.
    ///
    /// ```swift
    /// // JSON_EXTRACT(info, '$.level', '$.bonus')
    /// Database.jsonExtract(Column("info"), atPaths: ["$.level", "$.bonus"])
    /// ```
    public static func jsonExtract<C: Collection>(_ value: some SQLExpressible, atPaths paths: C) -> SQLExpression
    where C.Element: SQLExpressible
    {
        .jsonFunction("JSON_EXTRACT", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_TYPE(value)`: the type of a JSON value: `'object'`, `'array'`,
    /// `'text'`, `'integer'`, `'real'`, `'true'`, `'false'` or `'null'`.
    ///
    /// ```swift
    /// // JSON_TYPE(info)
    /// Database.jsonType(Column("info"))
    /// ```
    public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
        .jsonScalarFunction("JSON_TYPE", [value.sqlExpression])
    }

    /// `JSON_TYPE(value, path)`: the type of the JSON value at `path`, NULL
    /// when there is no value at `path`.
    ///
    /// ```swift
    /// // JSON_TYPE(info, '$.tags')
    /// Database.jsonType(Column("info"), atPath: "$.tags")
    /// ```
    public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .jsonScalarFunction("JSON_TYPE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_VALID(value)`: 1 when the value is well-formed JSON, 0
    /// otherwise.
    ///
    /// ```swift
    /// // SELECT * FROM player WHERE JSON_VALID(info)
    /// Player.filter(Database.jsonIsValid(Column("info")))
    /// ```
    public static func jsonIsValid(_ value: some SQLExpressible) -> SQLExpression {
        .jsonScalarFunction("JSON_VALID", [value.sqlExpression])
    }
}
