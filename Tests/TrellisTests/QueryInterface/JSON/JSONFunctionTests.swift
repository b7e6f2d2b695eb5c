import Testing
import Trellis

// The SQL and the values below are those of GRDB 7 for the same Swift
// code, on SQLite 3.40.

/// A table with one row: a JSON object, a JSON array, a number and a
/// string.
private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(sql: """
            CREATE TABLE t(a TEXT, b TEXT, n INTEGER, s TEXT);
            INSERT INTO t VALUES('{"x":1,"y":[1,2],"z":"w"}', '[1,2,3]', 7, 'hello');
            """)
    }
    return dbQueue
}

private let a = JSONColumn("a")
private let b = JSONColumn("b")
private let n = Column("n")
private let s = Column("s")

/// Checks the SQL that selects `selection` from `t`, its arguments, and
/// the value it selects.
private func check(
    _ db: Database,
    _ selection: some SQLSelectable,
    sql: String,
    arguments: StatementArguments = [],
    value: DatabaseValue,
    sourceLocation: SourceLocation = #_sourceLocation) throws
{
    let request = Table("t").select(selection)
    let statement = try request.makePreparedRequest(db).statement
    #expect(statement.sql == sql, sourceLocation: sourceLocation)
    #expect(statement.arguments == arguments, sourceLocation: sourceLocation)
    #expect(try DatabaseValue.fetchOne(db, request) == value, sourceLocation: sourceLocation)
}

@Suite struct JSONFunctionTests {
    @Test func jsonMinifiesJSONText() throws {
        try makeDatabase().read { db in
            try check(db, Database.json(a), sql: #"SELECT JSON("a") FROM "t""#, value: #"{"x":1,"y":[1,2],"z":"w"}"#)
            try check(db, Database.json("[1, 2]"), sql: #"SELECT JSON(?) FROM "t""#, arguments: ["[1, 2]"], value: "[1,2]")
        }
    }

    @Test func malformedJSONIsAnSQLiteError() throws {
        let dbQueue = try makeDatabase()
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.read { db in try String.fetchOne(db, Table("t").select(Database.json(s))) }
        }
        #expect(error.message == "malformed JSON")
    }

    @Test func subscriptsUseTheArrowOperators() throws {
        try makeDatabase().read { db in
            try check(db, a["x"], sql: #"SELECT "a" ->> ? FROM "t""#, arguments: ["x"], value: 1)
            try check(db, a["$.y"], sql: #"SELECT "a" ->> ? FROM "t""#, arguments: ["$.y"], value: "[1,2]")
            try check(db, a[s], sql: #"SELECT "a" ->> "s" FROM "t""#, value: .null)
            try check(db, a.jsonRepresentation(atPath: "y"), sql: #"SELECT "a" -> ? FROM "t""#, arguments: ["y"], value: "[1,2]")
            try check(db, a.jsonRepresentation(atPath: "z"), sql: #"SELECT "a" -> ? FROM "t""#, arguments: ["z"], value: #""w""#)
            try check(db, a.jsonRepresentation(atPath: "y").asJSON.jsonRepresentation(atPath: "$[0]"),
                      sql: #"SELECT ("a" -> ?) -> ? FROM "t""#, arguments: ["y", "$[0]"], value: "1")
            try check(db, Database.json(a).asJSON["$.y[1]"],
                      sql: #"SELECT JSON("a") ->> ? FROM "t""#, arguments: ["$.y[1]"], value: 2)
            try check(db, Database.jsonArray([1, 2]).asJSON[1],
                      sql: #"SELECT JSON_ARRAY(?, ?) ->> ? FROM "t""#, arguments: [1, 2, 1], value: 2)
            try check(db, Column("a").asJSON["z"], sql: #"SELECT "a" ->> ? FROM "t""#, arguments: ["z"], value: "w")
            try check(db, a["x"].forKey("xx"), sql: #"SELECT "a" ->> ? AS "xx" FROM "t""#, arguments: ["x"], value: 1)
        }
    }

    @Test func subscriptsAreParenthesizedInOperators() throws {
        try makeDatabase().read { db in
            try check(db, a["x"] == 1, sql: #"SELECT ("a" ->> ?) = ? FROM "t""#, arguments: ["x", 1], value: 1)
            try check(db, a["x"] + 1, sql: #"SELECT ("a" ->> ?) + ? FROM "t""#, arguments: ["x", 1], value: 2)
            try check(db, a["x"] != nil, sql: #"SELECT ("a" ->> ?) IS NOT NULL FROM "t""#, arguments: ["x"], value: 1)
            try check(db, !a["x"], sql: #"SELECT NOT ("a" ->> ?) FROM "t""#, arguments: ["x"], value: 0)
            try check(db, a["z"].like("w%"), sql: #"SELECT ("a" ->> ?) LIKE ? FROM "t""#, arguments: ["z", "w%"], value: 1)
            try check(db, [1, 2].contains(a["x"]), sql: #"SELECT ("a" ->> ?) IN (?, ?) FROM "t""#, arguments: ["x", 1, 2], value: 1)
            try check(db, a == b, sql: #"SELECT "a" = "b" FROM "t""#, value: 0)
        }
    }

    @Test func jsonExtractReadsValuesAtPaths() throws {
        try makeDatabase().read { db in
            try check(db, a.jsonExtract(atPath: "$.y"), sql: #"SELECT JSON_EXTRACT("a", ?) FROM "t""#, arguments: ["$.y"], value: "[1,2]")
            try check(db, a.jsonExtract(atPaths: ["$.x", "$.y"]),
                      sql: #"SELECT JSON_EXTRACT("a", ?, ?) FROM "t""#, arguments: ["$.x", "$.y"], value: "[1,[1,2]]")
            try check(db, Database.jsonExtract(a, atPath: "$.z"), sql: #"SELECT JSON_EXTRACT("a", ?) FROM "t""#, arguments: ["$.z"], value: "w")
            try check(db, Database.jsonExtract(a, atPaths: ["$.z", "$.x"]),
                      sql: #"SELECT JSON_EXTRACT("a", ?, ?) FROM "t""#, arguments: ["$.z", "$.x"], value: #"["w",1]"#)
        }
    }

    @Test func jsonArrayAndJSONObjectBuildJSON() throws {
        try makeDatabase().read { db in
            try check(db, Database.jsonArray([1, 2, 3]), sql: #"SELECT JSON_ARRAY(?, ?, ?) FROM "t""#, arguments: [1, 2, 3], value: "[1,2,3]")
            try check(db, Database.jsonArray(["x", "y"]), sql: #"SELECT JSON_ARRAY(?, ?) FROM "t""#, arguments: ["x", "y"], value: #"["x","y"]"#)
            try check(db, Database.jsonArray([a, n, s] as [any SQLExpressible]),
                      sql: #"SELECT JSON_ARRAY(JSON("a"), "n", "s") FROM "t""#,
                      value: #"[{"x":1,"y":[1,2],"z":"w"},7,"hello"]"#)
            try check(db, Database.jsonArray([b]), sql: #"SELECT JSON_ARRAY(JSON("b")) FROM "t""#, value: "[[1,2,3]]")
            try check(db, Database.jsonObject(["k": a, "m": n, "s": s] as KeyValuePairs<String, any SQLExpressible>),
                      sql: #"SELECT JSON_OBJECT(?, JSON("a"), ?, "n", ?, "s") FROM "t""#, arguments: ["k", "m", "s"],
                      value: #"{"k":{"x":1,"y":[1,2],"z":"w"},"m":7,"s":"hello"}"#)
            try check(db, Database.jsonObject(["k": 1] as [String: any SQLExpressible]),
                      sql: #"SELECT JSON_OBJECT(?, ?) FROM "t""#, arguments: ["k", 1], value: #"{"k":1}"#)
        }
    }

    @Test func jsonModificationFunctions() throws {
        try makeDatabase().read { db in
            try check(db, Database.jsonPatch(a, with: #"{"x":2}"#), sql: #"SELECT JSON_PATCH("a", ?) FROM "t""#,
                      arguments: [#"{"x":2}"#], value: #"{"x":2,"y":[1,2],"z":"w"}"#)
            try check(db, Database.jsonPatch(#"{"x":2}"#, with: a), sql: #"SELECT JSON_PATCH(?, "a") FROM "t""#,
                      arguments: [#"{"x":2}"#], value: #"{"x":1,"y":[1,2],"z":"w"}"#)
            try check(db, Database.jsonRemove(a, atPath: "$.x"), sql: #"SELECT JSON_REMOVE("a", ?) FROM "t""#,
                      arguments: ["$.x"], value: #"{"y":[1,2],"z":"w"}"#)
            try check(db, Database.jsonRemove(a, atPaths: ["$.x", "$.z"]), sql: #"SELECT JSON_REMOVE("a", ?, ?) FROM "t""#,
                      arguments: ["$.x", "$.z"], value: #"{"y":[1,2]}"#)
            try check(db, Database.jsonSet(a, ["$.x": 3, "$.q": b] as KeyValuePairs<String, any SQLExpressible>),
                      sql: #"SELECT JSON_SET("a", ?, ?, ?, JSON("b")) FROM "t""#, arguments: ["$.x", 3, "$.q"],
                      value: #"{"x":3,"y":[1,2],"z":"w","q":[1,2,3]}"#)
            try check(db, Database.jsonInsert(a, ["$.x": 3, "$.q": "str"] as KeyValuePairs<String, any SQLExpressible>),
                      sql: #"SELECT JSON_INSERT("a", ?, ?, ?, ?) FROM "t""#, arguments: ["$.x", 3, "$.q", "str"],
                      value: #"{"x":1,"y":[1,2],"z":"w","q":"str"}"#)
            try check(db, Database.jsonReplace(a, ["$.x": 3, "$.q": "str"] as KeyValuePairs<String, any SQLExpressible>),
                      sql: #"SELECT JSON_REPLACE("a", ?, ?, ?, ?) FROM "t""#, arguments: ["$.x", 3, "$.q", "str"],
                      value: #"{"x":3,"y":[1,2],"z":"w"}"#)
            // A dictionary literal is a collection of assignments.
            try check(db, Database.jsonSet(a, ["$.x": 4]), sql: #"SELECT JSON_SET("a", ?, ?) FROM "t""#,
                      arguments: ["$.x", 4], value: #"{"x":4,"y":[1,2],"z":"w"}"#)
        }
    }

    @Test func jsonQueryAndValidationFunctions() throws {
        try makeDatabase().read { db in
            try check(db, Database.jsonType(a), sql: #"SELECT JSON_TYPE("a") FROM "t""#, value: "object")
            try check(db, Database.jsonType(a, atPath: "$.y"), sql: #"SELECT JSON_TYPE("a", ?) FROM "t""#, arguments: ["$.y"], value: "array")
            try check(db, Database.jsonIsValid(s), sql: #"SELECT JSON_VALID("s") FROM "t""#, value: 0)
            try check(db, Database.jsonIsValid(a), sql: #"SELECT JSON_VALID("a") FROM "t""#, value: 1)
            try check(db, Database.jsonQuote(s), sql: #"SELECT JSON_QUOTE("s") FROM "t""#, value: #""hello""#)
            try check(db, Database.jsonQuote(a), sql: #"SELECT JSON_QUOTE(JSON("a")) FROM "t""#, value: #"{"x":1,"y":[1,2],"z":"w"}"#)
            try check(db, Database.jsonArrayLength(b), sql: #"SELECT JSON_ARRAY_LENGTH("b") FROM "t""#, value: 3)
            try check(db, Database.jsonArrayLength(a, atPath: "$.y"), sql: #"SELECT JSON_ARRAY_LENGTH("a", ?) FROM "t""#,
                      arguments: ["$.y"], value: 2)
            try check(db, Database.jsonArrayLength(a["y"]), sql: #"SELECT JSON_ARRAY_LENGTH("a" ->> ?) FROM "t""#,
                      arguments: ["y"], value: 2)
        }
    }

    @Test func jsonAggregatesAcceptAFilter() throws {
        try makeDatabase().read { db in
            try check(db, Database.jsonGroupArray(s), sql: #"SELECT JSON_GROUP_ARRAY("s") FROM "t""#, value: #"["hello"]"#)
            try check(db, Database.jsonGroupArray(a), sql: #"SELECT JSON_GROUP_ARRAY(JSON("a")) FROM "t""#,
                      value: #"[{"x":1,"y":[1,2],"z":"w"}]"#)
            try check(db, Database.jsonGroupArray(s, filter: n > 3), sql: #"SELECT JSON_GROUP_ARRAY("s") FILTER (WHERE "n" > ?) FROM "t""#,
                      arguments: [3], value: #"["hello"]"#)
            try check(db, Database.jsonGroupArray(s, filter: n > 1 && n < 3),
                      sql: #"SELECT JSON_GROUP_ARRAY("s") FILTER (WHERE ("n" > ?) AND ("n" < ?)) FROM "t""#,
                      arguments: [1, 3], value: "[]")
            try check(db, Database.jsonGroupObject(key: s, value: a), sql: #"SELECT JSON_GROUP_OBJECT("s", JSON("a")) FROM "t""#,
                      value: #"{"hello":{"x":1,"y":[1,2],"z":"w"}}"#)
            try check(db, Database.jsonGroupObject(key: s, value: n, filter: n > 100),
                      sql: #"SELECT JSON_GROUP_OBJECT("s", "n") FILTER (WHERE "n" > ?) FROM "t""#, arguments: [100], value: "{}")
            try check(db, Database.jsonGroupArray(s, filter: n > 1).asJSON["$[0]"],
                      sql: #"SELECT (JSON_GROUP_ARRAY("s") FILTER (WHERE "n" > ?)) ->> ? FROM "t""#, arguments: [1, "$[0]"], value: "hello")
            try check(db, Database.jsonArrayLength(Database.jsonGroupArray(s, filter: n > 1)) + 1,
                      sql: #"SELECT JSON_ARRAY_LENGTH(JSON_GROUP_ARRAY("s") FILTER (WHERE "n" > ?)) + ? FROM "t""#,
                      arguments: [1, 1], value: 2)
        }
    }
}
