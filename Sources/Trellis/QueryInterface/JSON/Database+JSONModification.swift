// JSON functions that modify JSON values: https://www.sqlite.org/json1.html

extension Database {
    /// `JSON_PATCH(value, patch)`: the value with the
    /// [RFC-7396 MergePatch](https://www.rfc-editor.org/rfc/rfc7396) `patch`
    /// applied.
    ///
    /// ```swift
    /// // UPDATE player SET info = JSON_PATCH(info, '{"level":2}')
    /// try Player.updateAll(db, Column("info").set(to: Database.jsonPatch(Column("info"), with: #"{"level":2}"#)))
    /// ```
    public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// `JSON_REMOVE(value, path)`: the value without the element at `path`.
    ///
    /// ```swift
    /// // JSON_REMOVE(info, '$.level')
    /// Database.jsonRemove(Column("info"), atPath: "$.level")
    /// ```
    public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_REMOVE(value, path, ...)`: the value without the elements at
    /// `paths`.
    ///
    /// ```swift
    /// // JSON_REMOVE(info, '$.level', '$.bonus')
    /// Database.jsonRemove(Column("info"), atPaths: ["$.level", "$.bonus"])
    /// ```
    public static func jsonRemove<C: Collection>(_ value: some SQLExpressible, atPaths paths: C) -> SQLExpression
    where C.Element: SQLExpressible
    {
        .jsonFunction("JSON_REMOVE", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_SET(value, path, newValue, ...)`: the value with elements set
    /// at their paths, whether they exist or not. JSON values are set as
    /// JSON, and other strings as JSON strings.
    ///
    /// ```swift
    /// // JSON_SET(info, '$.level', 2)
    /// Database.jsonSet(Column("info"), ["$.level": 2])
    /// ```
    public static func jsonSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        jsonAssignments("JSON_SET", value, assignments)
    }

    /// `JSON_INSERT(value, path, newValue, ...)`: the value with the
    /// elements whose paths do not exist yet inserted. JSON values are
    /// inserted as JSON, and other strings as JSON strings.
    ///
    /// ```swift
    /// // JSON_INSERT(info, '$.level', 1)
    /// Database.jsonInsert(Column("info"), ["$.level": 1])
    /// ```
    public static func jsonInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        jsonAssignments("JSON_INSERT", value, assignments)
    }

    /// `JSON_REPLACE(value, path, newValue, ...)`: the value with the
    /// elements whose paths exist replaced. JSON values are set as JSON,
    /// and other strings as JSON strings.
    ///
    /// ```swift
    /// // JSON_REPLACE(info, '$.level', 3)
    /// Database.jsonReplace(Column("info"), ["$.level": 3])
    /// ```
    public static func jsonReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        jsonAssignments("JSON_REPLACE", value, assignments)
    }

    private static func jsonAssignments(
        _ name: String,
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .jsonFunction(name, [value.sqlExpression] + assignments.flatMap { assignment in
            [assignment.key.sqlExpression, jsonEmbeddedValue(assignment.value)]
        })
    }
}
