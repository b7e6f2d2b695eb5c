import Foundation
import Testing
@testable import Trellis

// The dialect seam: what SQLite and PostgreSQL each run for the same SQL.

@Suite struct SQLDialectTests {
    private let postgreSQL = SQLDialect.postgreSQL

    private func single(_ sql: String, arguments: StatementArguments) throws -> (sql: String, values: [DatabaseValue]) {
        let statements = try postgreSQL.statements(sql, arguments: arguments)
        try #require(statements.count == 1)
        return (statements[0].sql, statements[0].values)
    }

    @Test func sqliteRunsTheSQLAsItIs() throws {
        let statements = try SQLDialect.sqlite.statements(
            "SELECT * FROM player WHERE id = ? AND name = :name; SELECT 1", arguments: [1])
        #expect(statements == [DialectStatement(sql: "SELECT * FROM player WHERE id = ? AND name = :name; SELECT 1", values: [1.databaseValue])])
    }

    @Test func questionMarksAreNumberedInTheOrderOfTheText() throws {
        let (sql, values) = try single(
            "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 100])
        #expect(sql == "INSERT INTO player (name, score) VALUES ($1, $2)")
        #expect(values == ["Arthur".databaseValue, 100.databaseValue])
    }

    @Test func aNameTakesOneNumberForAllItsUses() throws {
        let (sql, values) = try single(
            "SELECT * FROM t WHERE a = :x OR b = @y OR c = $x", arguments: ["x": 1, "y": 2])
        #expect(sql == "SELECT * FROM t WHERE a = $1 OR b = $2 OR c = $1")
        #expect(values == [1.databaseValue, 2.databaseValue])
    }

    @Test func quotedTextCommentsCastsAndDollarQuotesAreCopied() throws {
        let input = """
            SELECT '?', 'it''s :x', "col?", x::text, $$ ? $$, $body$ :y $body$ -- ?
            FROM t /* :z ? */ WHERE a = ?
            """
        let (sql, values) = try single(input, arguments: [7])
        #expect(sql == """
            SELECT '?', 'it''s :x', "col?", x::text, $$ ? $$, $body$ :y $body$ -- ?
            FROM t /* :z ? */ WHERE a = $1
            """)
        #expect(values == [7.databaseValue])
    }

    @Test func statementsAreSplitAtSemicolonsAndNumberedEachFromOne() throws {
        let statements = try postgreSQL.statements(
            "INSERT INTO t VALUES (?, :n); -- ;\n INSERT INTO t VALUES (';', ?, :n);\n  ",
            arguments: StatementArguments([1, 2]) + ["n": 9])
        #expect(statements == [
            DialectStatement(sql: "INSERT INTO t VALUES ($1, $2)", values: [1.databaseValue, 9.databaseValue]),
            DialectStatement(sql: " -- ;\n INSERT INTO t VALUES (';', $1, $2)", values: [2.databaseValue, 9.databaseValue]),
        ])
    }

    @Test func numberedParametersTakeThePositionalValues() throws {
        let (sql, values) = try single("SELECT $2, $1", arguments: [1, 2])
        #expect(sql == "SELECT $2, $1")
        #expect(values == [1.databaseValue, 2.databaseValue])
    }

    @Test func mixingNumberedAndQuestionMarksThrows() throws {
        #expect(throws: DatabaseError.self) {
            try postgreSQL.statements("SELECT $1, ?", arguments: [1, 2])
        }
    }

    @Test func aWrongArgumentCountThrowsAsOnSQLite() throws {
        let error = try #require(throws: DatabaseError.self) {
            try postgreSQL.statements("SELECT ?, ?", arguments: [1])
        }
        #expect(error.resultCode == .SQLITE_MISUSE)
        #expect(error.message == "wrong number of statement arguments: expected 2, got 1")
        #expect(throws: DatabaseError.self) {
            try postgreSQL.statements("SELECT ?", arguments: [1, 2])
        }
    }

    @Test func aMissingNamedArgumentThrows() throws {
        let error = try #require(throws: DatabaseError.self) {
            try postgreSQL.statements("SELECT :missing", arguments: ["other": 1])
        }
        #expect(error.message == "missing statement argument: missing")
    }

    @Test func templatesKeepTheParametersAsSQLitePlaceholders() throws {
        // The placeholders that hold the arguments of a statement prepared
        // for a server: SQLite numbers them as PostgreSQL numbers `$n`.
        let templates = try postgreSQL.templates("INSERT INTO t VALUES (?, :n, ?, :n); SELECT $2, $1 ;  -- end")
        #expect(templates.map(\.sql) == ["INSERT INTO t VALUES (?, :n, ?, :n)", "SELECT $2, $1"])
        #expect(templates.map(\.engineSQL) == ["INSERT INTO t VALUES ($1, $2, $3, $2)", " SELECT $2, $1 "])
        #expect(templates.map(\.placeholders) == [["?", ":n", "?"], ["?1", "?2"]])
        // Where each statement ends, in UTF-8 bytes: the next one starts there.
        #expect(templates.map(\.utf8Count) == [36, 52])
        #expect(try postgreSQL.templates("  -- nothing\n ; ").isEmpty)
    }

    @Test func blobLiteralsAreWrittenForEachEngine() {
        let blob = Data([0x00, 0xAB, 0x10]).databaseValue
        #expect(SQLDialect.sqlite.literal(blob) == blob.sqlLiteral)
        #expect(postgreSQL.literal(blob) == "'\\x00ab10'::bytea")
        #expect(postgreSQL.literal("it's".databaseValue) == "'it''s'")
    }

    /// The functions that PostgreSQL names otherwise are translated, and
    /// their values are bound in the order of the translated text.
    @Test func functionsAreWrittenForEachEngineWithTheirValuesInOrder() throws {
        let name = Column("name")
        let like = name.like("a\\%", escape: "\\")
        let expressions: [(SQLExpression, SQLDialect)] = [
            (like, .sqlite), (like, postgreSQL), (name.like("a%"), postgreSQL),
            (max(name, 1), .sqlite), (max(name, 1), postgreSQL),
            (name ?? 2, .sqlite), (name ?? 2, postgreSQL),
            (total(name), .sqlite), (total(name), postgreSQL),
            (total(name, filter: name > 1), .sqlite), (total(name, filter: name > 1), postgreSQL),
            (average(name, filter: name > 1), postgreSQL), (max(name, filter: name > 1), postgreSQL),
            (name.collating(.binary), .sqlite), (name.collating(.binary), postgreSQL),
            (name.cast(as: .double), postgreSQL),
        ]
        // Each expression's SQL, then the values it binds.
        let sql = try DatabaseQueue().write { db in
            try expressions.map { expression, dialect in
                let context = SQLGenerationContext(db, dialect: dialect)
                let sql = try expression.sql(context)
                return sql + " " + context.arguments.map(\.sqlLiteral).joined(separator: ",")
            }
        }
        #expect(sql == [
            #"LIKE(?, "name", ?) 'a\%','\'"#,
            #"(("name") ILIKE (?) ESCAPE (?)) 'a\%','\'"#,
            #""name" ILIKE ? 'a%'"#,
            #"MAX("name", ?) 1"#,
            "(SELECT CASE WHEN COUNT(trellis_value) = 2 THEN MAX(trellis_value) END "
                + #"FROM (VALUES ("name"), (?)) AS trellis_values(trellis_value)) 1"#,
            #"IFNULL("name", ?) 2"#,
            #"COALESCE("name", ?) 2"#,
            #"TOTAL("name") "#,
            #"CAST(COALESCE(SUM("name"), 0) AS DOUBLE PRECISION) "#,
            #"TOTAL("name") FILTER (WHERE "name" > ?) 1"#,
            #"CAST(COALESCE(SUM("name") FILTER (WHERE "name" > ?), 0) AS DOUBLE PRECISION) 1"#,
            #"CAST(AVG("name") FILTER (WHERE "name" > ?) AS DOUBLE PRECISION) 1"#,
            #"MAX("name") FILTER (WHERE "name" > ?) 1"#,
            #""name" COLLATE BINARY "#,
            #""name" COLLATE "C" "#,
            #"CAST("name" AS DOUBLE PRECISION) "#,
        ])
    }

    @Test func aPostgreSQLErrorCarriesItsSQLStateAndTheClosestResultCode() {
        let error = DatabaseError(
            sqlState: "23505", message: "duplicate key value violates unique constraint \"player_pkey\"",
            sql: "INSERT INTO player (id) VALUES (?)", arguments: [1])
        #expect(error.sqlState == "23505")
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.description.hasPrefix("PostgreSQL error 23505: duplicate key value"))
        #expect(DatabaseError(resultCode: .SQLITE_BUSY).sqlState == nil)
    }
}
