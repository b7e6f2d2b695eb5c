import Testing
import Trellis

// JSON functions embed JSON text (JSON columns, `asJSON`) wrapped in
// `JSON()`, so that SQLite embeds it as JSON and not as a string, and embed
// the results of JSON functions as they are. The SQL and values below are
// those of GRDB 7 for the same Swift code.

private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(sql: """
            CREATE TABLE t(a TEXT, b TEXT, n INTEGER, s TEXT);
            INSERT INTO t VALUES('{"x":1,"y":[1,2],"z":"w"}', '[1,2,3]', 7, 'hello');
            CREATE TABLE u(b TEXT);
            INSERT INTO u VALUES('[1,2,3]');
            """)
    }
    return dbQueue
}

private let a = JSONColumn("a")
private let b = JSONColumn("b")
private let n = Column("n")
private let s = Column("s")

/// Checks the SQL and the value of `JSON_ARRAY(element)`.
private func checkArray(
    _ db: Database,
    of element: any SQLExpressible,
    sql: String,
    arguments: StatementArguments = [],
    value: String,
    sourceLocation: SourceLocation = #_sourceLocation) throws
{
    let request = Table("t").select(Database.jsonArray([element]))
    let statement = try request.makePreparedRequest(db).statement
    #expect(statement.sql == sql, sourceLocation: sourceLocation)
    #expect(statement.arguments == arguments, sourceLocation: sourceLocation)
    #expect(try String.fetchOne(db, request) == value, sourceLocation: sourceLocation)
}

@Suite struct JSONEmbeddingTests {
    @Test func jsonTextIsWrappedInJSON() throws {
        try makeDatabase().read { db in
            try checkArray(db, of: a, sql: #"SELECT JSON_ARRAY(JSON("a")) FROM "t""#, value: #"[{"x":1,"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: a.asJSON, sql: #"SELECT JSON_ARRAY(JSON("a")) FROM "t""#, value: #"[{"x":1,"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: Column("b").asJSON, sql: #"SELECT JSON_ARRAY(JSON("b")) FROM "t""#, value: "[[1,2,3]]")
            try checkArray(db, of: Column("b"), sql: #"SELECT JSON_ARRAY("b") FROM "t""#, value: #"["[1,2,3]"]"#)
            try checkArray(db, of: SQL("b").asJSON, sql: #"SELECT JSON_ARRAY(JSON(b)) FROM "t""#, value: "[[1,2,3]]")
            try checkArray(db, of: (Column("a") ?? Column("b")).asJSON,
                           sql: #"SELECT JSON_ARRAY(JSON(IFNULL("a", "b"))) FROM "t""#, value: #"[{"x":1,"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: a["y"].asJSON, sql: #"SELECT JSON_ARRAY(JSON("a" ->> ?)) FROM "t""#, arguments: ["y"], value: "[[1,2]]")
            try checkArray(db, of: a.jsonExtract(atPath: "$.y").asJSON,
                           sql: #"SELECT JSON_ARRAY(JSON(JSON_EXTRACT("a", ?))) FROM "t""#, arguments: ["$.y"], value: "[[1,2]]")
            try checkArray(db, of: "[1, 2]".databaseValue.asJSON, sql: #"SELECT JSON_ARRAY(JSON(?)) FROM "t""#,
                           arguments: ["[1, 2]"], value: "[[1,2]]")
            try checkArray(db, of: Table("u").select(Column("b")).asJSON,
                           sql: #"SELECT JSON_ARRAY(JSON((SELECT "b" FROM "u"))) FROM "t""#, value: "[[1,2,3]]")
            // The SQL value of a JSON path is not JSON.
            try checkArray(db, of: a["y"], sql: #"SELECT JSON_ARRAY("a" ->> ?) FROM "t""#, arguments: ["y"], value: #"["[1,2]"]"#)
        }
    }

    @Test func expressionsBuiltOnJSONColumnsAreNotJSON() throws {
        try makeDatabase().read { db in
            try checkArray(db, of: a ?? b, sql: #"SELECT JSON_ARRAY(IFNULL("a", "b")) FROM "t""#,
                           value: #"["{\"x\":1,\"y\":[1,2],\"z\":\"w\"}"]"#)
            try checkArray(db, of: a.detached, sql: #"SELECT JSON_ARRAY("a") FROM "t""#,
                           value: #"["{\"x\":1,\"y\":[1,2],\"z\":\"w\"}"]"#)
            try checkArray(db, of: a.collating(.nocase), sql: #"SELECT JSON_ARRAY("a" COLLATE NOCASE) FROM "t""#,
                           value: #"["{\"x\":1,\"y\":[1,2],\"z\":\"w\"}"]"#)
            try checkArray(db, of: Table("u").select(b), sql: #"SELECT JSON_ARRAY((SELECT "b" FROM "u")) FROM "t""#,
                           value: #"["[1,2,3]"]"#)
        }
    }

    @Test func resultsOfJSONFunctionsAreEmbeddedAsTheyAre() throws {
        try makeDatabase().read { db in
            try checkArray(db, of: Database.jsonArray([1]), sql: #"SELECT JSON_ARRAY(JSON_ARRAY(?)) FROM "t""#, arguments: [1], value: "[[1]]")
            try checkArray(db, of: Database.jsonArray([1]).asJSON, sql: #"SELECT JSON_ARRAY(JSON_ARRAY(?)) FROM "t""#,
                           arguments: [1], value: "[[1]]")
            try checkArray(db, of: Database.jsonObject(["k": 1] as [String: any SQLExpressible]).asJSON,
                           sql: #"SELECT JSON_ARRAY(JSON_OBJECT(?, ?)) FROM "t""#, arguments: ["k", 1], value: #"[{"k":1}]"#)
            try checkArray(db, of: Database.json(a).asJSON, sql: #"SELECT JSON_ARRAY(JSON("a")) FROM "t""#,
                           value: #"[{"x":1,"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: Database.jsonPatch(a, with: b).asJSON, sql: #"SELECT JSON_ARRAY(JSON_PATCH("a", "b")) FROM "t""#,
                           value: "[[1,2,3]]")
            try checkArray(db, of: Database.jsonSet(a, ["$.x": 3]).asJSON, sql: #"SELECT JSON_ARRAY(JSON_SET("a", ?, ?)) FROM "t""#,
                           arguments: ["$.x", 3], value: #"[{"x":3,"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: Database.jsonInsert(a, ["$.x": 3]).asJSON, sql: #"SELECT JSON_ARRAY(JSON_INSERT("a", ?, ?)) FROM "t""#,
                           arguments: ["$.x", 3], value: #"[{"x":1,"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: Database.jsonReplace(a, ["$.x": 3]).asJSON, sql: #"SELECT JSON_ARRAY(JSON_REPLACE("a", ?, ?)) FROM "t""#,
                           arguments: ["$.x", 3], value: #"[{"x":3,"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: Database.jsonRemove(a, atPath: "$.x").asJSON, sql: #"SELECT JSON_ARRAY(JSON_REMOVE("a", ?)) FROM "t""#,
                           arguments: ["$.x"], value: #"[{"y":[1,2],"z":"w"}]"#)
            try checkArray(db, of: Database.jsonQuote(s).asJSON, sql: #"SELECT JSON_ARRAY(JSON_QUOTE("s")) FROM "t""#, value: #"["hello"]"#)
            try checkArray(db, of: Database.jsonGroupArray(s).asJSON, sql: #"SELECT JSON_ARRAY(JSON_GROUP_ARRAY("s")) FROM "t""#,
                           value: #"[["hello"]]"#)
            try checkArray(db, of: Database.jsonGroupArray(s, filter: n > 1).asJSON,
                           sql: #"SELECT JSON_ARRAY(JSON_GROUP_ARRAY("s") FILTER (WHERE "n" > ?)) FROM "t""#, arguments: [1], value: #"[["hello"]]"#)
            try checkArray(db, of: Database.jsonGroupObject(key: s, value: n).asJSON,
                           sql: #"SELECT JSON_ARRAY(JSON_GROUP_OBJECT("s", "n")) FROM "t""#, value: #"[{"hello":7}]"#)
            try checkArray(db, of: Database.jsonExtract(a, atPaths: ["$.x", "$.y"]).asJSON,
                           sql: #"SELECT JSON_ARRAY(JSON_EXTRACT("a", ?, ?)) FROM "t""#, arguments: ["$.x", "$.y"], value: "[[1,[1,2]]]")
            try checkArray(db, of: a.jsonRepresentation(atPath: "y").asJSON, sql: #"SELECT JSON_ARRAY("a" -> ?) FROM "t""#,
                           arguments: ["y"], value: "[[1,2]]")
        }
    }

    @Test func scalarResultsOfJSONFunctionsAreJSONTextWithAsJSON() throws {
        try makeDatabase().read { (db: Database) throws in
            func sql(_ element: any SQLExpressible) throws -> String {
                try Table("t").select(Database.jsonArray([element])).makePreparedRequest(db).statement.sql
            }
            #expect(try sql(Database.jsonType(a).asJSON) == #"SELECT JSON_ARRAY(JSON(JSON_TYPE("a"))) FROM "t""#)
            #expect(try sql(Database.jsonIsValid(a).asJSON) == #"SELECT JSON_ARRAY(JSON(JSON_VALID("a"))) FROM "t""#)
            #expect(try sql(Database.jsonArrayLength(a).asJSON) == #"SELECT JSON_ARRAY(JSON(JSON_ARRAY_LENGTH("a"))) FROM "t""#)
            #expect(try sql(Database.jsonType(a)) == #"SELECT JSON_ARRAY(JSON_TYPE("a")) FROM "t""#)
        }
    }

    @Test func everyJSONBuilderEmbedsJSONText() throws {
        try makeDatabase().read { (db: Database) throws in
            func sql(_ expression: SQLExpression) throws -> String {
                try Table("t").select(expression).makePreparedRequest(db).statement.sql
            }
            #expect(try sql(Database.jsonQuote(Column("b").asJSON)) == #"SELECT JSON_QUOTE(JSON("b")) FROM "t""#)
            #expect(try sql(Database.jsonGroupArray(Column("b").asJSON)) == #"SELECT JSON_GROUP_ARRAY(JSON("b")) FROM "t""#)
            #expect(try sql(Database.jsonPatch(a, with: Database.jsonObject(["x": b] as [String: any SQLExpressible])))
                    == #"SELECT JSON_PATCH("a", JSON_OBJECT(?, JSON("b"))) FROM "t""#)
            #expect(try sql(Database.jsonSet(a, ["$.x": Database.jsonArray([b])]))
                    == #"SELECT JSON_SET("a", ?, JSON_ARRAY(JSON("b"))) FROM "t""#)
            #expect(try sql(Database.jsonObject([("k", a as any SQLExpressible), ("k2", Column("b").asJSON)]))
                    == #"SELECT JSON_OBJECT(?, JSON("a"), ?, JSON("b")) FROM "t""#)
            #expect(try sql(Database.jsonArray([a.sqlExpression])) == #"SELECT JSON_ARRAY(JSON("a")) FROM "t""#)
            // Functions that read JSON take JSON text as it is.
            #expect(try sql(Database.json(b)) == #"SELECT JSON("b") FROM "t""#)
            #expect(try sql(Database.jsonRemove(Column("a").asJSON, atPath: "$.x")) == #"SELECT JSON_REMOVE("a", ?) FROM "t""#)
            #expect(try sql(Database.jsonExtract(Column("a").asJSON, atPath: "$.x")) == #"SELECT JSON_EXTRACT("a", ?) FROM "t""#)
            #expect(try sql(Database.jsonType(Column("a").asJSON)) == #"SELECT JSON_TYPE("a") FROM "t""#)
            #expect(try sql(Column("a").asJSON.sqlExpression) == #"SELECT "a" FROM "t""#)
            #expect(try sql(cast(a, as: .text)) == #"SELECT CAST("a" AS TEXT) FROM "t""#)
        }
    }

    @Test func aJSONColumnOfATableAliasIsQualifiedAndJSON() throws {
        try makeDatabase().read { (db: Database) throws in
            let alias = TableAlias(name: "t2")
            let request = Table("t").aliased(alias).select(Database.jsonArray([alias[a]]))
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT JSON_ARRAY(JSON("t2"."a")) FROM "t" "t2""#)
            #expect(try String.fetchOne(db, request) == #"[{"x":1,"y":[1,2],"z":"w"}]"#)
        }
    }
}
