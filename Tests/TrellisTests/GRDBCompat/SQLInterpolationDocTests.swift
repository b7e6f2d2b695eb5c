import Foundation
import Testing
import Trellis

// GRDB's SQLInterpolation.md ("SQL Interpolation") and the docc article
// SQLSupport.md ("SQL, Prepared Statements, Rows, and Values"): each sample,
// with the SQL and arguments GRDB 7 builds for it (checked with GRDB itself).

private struct Team: Decodable, FetchableRecord, TableRecord {
    var id: Int64
}

private struct Player {
    var id: Int64
    var name: String
    var score: Int?
}

extension Player: Decodable, TableRecord, FetchableRecord {
    static let team = belongsTo(Team.self)

    enum Columns {
        static let createdAt = Column("createdAt")
    }

    /// Deletes all player with no score
    static func deleteAllWithoutScore(_ db: Database) throws {
        try db.execute(literal: "DELETE FROM \(self) WHERE \(CodingKeys.score) IS NULL")
    }

    /// "Simple" version
    static func simpleFilter(id: Int64) -> SQLRequest<Player> {
        "SELECT * FROM player WHERE id = \(id)"
    }

    /// "Future-proof" version
    static func filter(id: Int64) -> SQLRequest<Player> {
        """
        SELECT \(columnsOf: self)
        FROM \(self)
        WHERE \(CodingKeys.id) = \(id)
        """
    }

    /// "Simple" version
    static func simpleFilter(ids: [Int64]) -> SQLRequest<Player> {
        "SELECT * FROM player WHERE id IN \(ids)"
    }

    /// "Future-proof" version
    static func filter(ids: [Int64]) -> SQLRequest<Player> {
        """
        SELECT \(columnsOf: self)
        FROM \(self)
        WHERE \(CodingKeys.id) IN \(ids)
        """
    }

    /// The maximum score
    static func maximumScore() -> SQLRequest<Int> {
        "SELECT MAX(\(CodingKeys.score)) FROM \(self)"
    }

    /// "Simple" version
    static func simpleBestPlayers() -> SQLRequest<Player> {
        "SELECT * FROM player WHERE score = (\(maximumScore()))"
    }

    /// "Future-proof" version
    static func bestPlayers() -> SQLRequest<Player> {
        """
        SELECT \(columnsOf: self)
        FROM \(self)
        WHERE \(CodingKeys.score) = (\(maximumScore()))
        """
    }

    /// A complex request (the article declares `query` with `let`, which
    /// `+=` refuses, in GRDB too).
    static func complexRequest() -> SQLRequest<Player> {
        var query: SQL = "SELECT \(columnsOf: self) "
        query += "FROM \(self) "
        query += "JOIN \(Team.self) ON \(Team.self).id = \(self).teamId "
        query += "GROUP BY \(self).id"
        return SQLRequest(literal: query)
    }

    static var nameSQL: SQL { "SELECT \(CodingKeys.name) FROM player" }
}

private struct AltPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [Column("id"), Column("name")]
    }
}

private func date(_ expression: SQLExpressible) -> SQLExpression {
    SQL("DATE(\(expression))").sqlExpression
}

/// SQLSupport.md's player, with its SQL requests.
private struct ScoredPlayer: Decodable {
    var id: Int64
    var name: String
    var score: Int
}

extension ScoredPlayer: FetchableRecord {
    static func filter(name: String) -> SQLRequest<ScoredPlayer> {
        "SELECT * FROM player WHERE name = \(name)"
    }

    static func maximumScore() -> SQLRequest<Int> {
        "SELECT MAX(score) FROM player"
    }
}

@Suite struct SQLInterpolationDocTests {
    private let name = "O'Brien"
    private let id: Int64 = 42

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer)
                t.column("email", .text)
                t.column("createdAt", .text)
                t.belongsTo("team")
            }
            try db.execute(sql: """
                INSERT INTO team (id) VALUES (1);
                INSERT INTO player (id, name, score, createdAt, teamId) VALUES
                    (1, 'Arthur', 500, '2020-01-23 10:00:00', 1),
                    (2, 'Barbara', 1000, '2020-01-22 11:00:00', 1),
                    (3, 'Craig', NULL, '2020-01-23 12:00:00', NULL),
                    (42, 'Dan', 1000, '2020-01-24 12:00:00', 1);
                """)
        }
        return dbQueue
    }

    /// The SQL and arguments a literal builds, arguments as GRDB prints them.
    private func build(_ literal: SQL, _ db: Database) throws -> [String] {
        let (sql, arguments) = try literal.build(db)
        return [sql, arguments.description]
    }

    private func sql<T>(_ request: some FetchRequest<T>, _ db: Database) throws -> [String] {
        let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
        return [statement.sql, statement.arguments.description]
    }

    // MARK: Introduction

    @Test func literalUpdates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            // Executes `UPDATE player SET name = 'O''Brien' WHERE id = 42`
            try db.execute(literal: "UPDATE player SET name = \(name) WHERE id = \(id)")
        }
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 42") } == "O'Brien")

        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET name = ? WHERE id = ?", arguments: ["Ann", id])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 42") == "Ann")
            try db.execute(literal: "UPDATE player SET name = \(name) WHERE id = \(id)")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 42") == "O'Brien")
        }
    }

    // MARK: SQL Literal

    @Test func literalsAreBuiltStepByStep() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
            try db.execute(literal: query)
            #expect(try build(query, db) == ["UPDATE player SET name = ? WHERE id = ?", #"["O\'Brien", 42]"#])
        }
        try dbQueue.read { db throws in
            // +, +=, append
            var query: SQL = "UPDATE player "
            query += "SET name = \(name) "
            query.append(literal: "WHERE id = \(id)")
            #expect(try build(query, db) == ["UPDATE player SET name = ? WHERE id = ?", #"["O\'Brien", 42]"#])
            #expect(try build("UPDATE player " + "SET name = \(name)", db) == ["UPDATE player SET name = ?", #"["O\'Brien"]"#])

            // joined(), joined(separator:)
            let components: [SQL] = [
                "UPDATE player",
                "SET name = \(name)",
                "WHERE id = \(id)",
            ]
            #expect(try build(components.joined(separator: " "), db) == ["UPDATE player SET name = ? WHERE id = ?", #"["O\'Brien", 42]"#])
            #expect(try build(components.joined(), db) == ["UPDATE playerSET name = ?WHERE id = ?", #"["O\'Brien", 42]"#])
        }
    }

    @Test func literalsExtractPlainSQL() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
            let (sql, arguments) = try query.build(db)
            #expect(sql == "UPDATE player SET name = ? WHERE id = ?")
            #expect(arguments.description == #"["O\'Brien", 42]"#)
            #expect("\(arguments)" == #"["O\'Brien", 42]"#)
        }
        // Build a literal from a plain SQL string:
        let query = SQL(
            sql: "UPDATE player SET name = ? WHERE id = ?",
            arguments: [name, id])
        try dbQueue.write { db in
            try db.execute(literal: query)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 42") == "O'Brien")
            #expect(try build(query, db) == ["UPDATE player SET name = ? WHERE id = ?", #"["O\'Brien", 42]"#])
        }
    }

    @Test func argumentsDescriptions() {
        let positional: StatementArguments = [nil, 1.5, Data([1, 2])]
        #expect(positional.description == "[NULL, 1.5, Data(2 bytes)]")
        #expect(StatementArguments().description == "[]")
        let named: StatementArguments = ["a": 1]
        #expect(named.description == #"["a": 1]"#)
    }

    // MARK: SQL Interpolation and the Query Interface

    @Test func literalsInQueryInterfaceRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT * FROM player WHERE name = 'O''Brien'
            let request = Player.filter(literal: "name = \("O'Brien")")
            #expect(try sql(request, db) == [#"SELECT * FROM "player" WHERE name = ?"#, #"["O\'Brien"]"#])

            // SELECT * FROM player WHERE DATE(createdAt) = '2020-01-23'
            let createdAt = Column("createdAt")
            let creationDay = SQL("DATE(\(createdAt))")
            let dayRequest = Player.filter(creationDay == "2020-01-23")
            #expect(try sql(dayRequest, db) == [#"SELECT * FROM "player" WHERE (DATE("createdAt")) = ?"#, #"["2020-01-23"]"#])
            #expect(try dayRequest.fetchAll(db).map(\.name) == ["Arthur", "Craig"])

            // automatic table disambiguation
            let joinedRequest = Player
                .filter(creationDay == "2020-01-23")
                .including(required: Player.team)
            #expect(try sql(joinedRequest, db) == [
                #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" WHERE (DATE("player"."createdAt")) = ?"#,
                #"["2020-01-23"]"#])
            #expect(try Row.fetchAll(db, joinedRequest).count == 1)

            let functionRequest = Player.filter { date($0.createdAt) == "2020-01-23" }
            #expect(try sql(functionRequest, db) == [#"SELECT * FROM "player" WHERE (DATE("createdAt")) = ?"#, #"["2020-01-23"]"#])
            #expect(try functionRequest.fetchCount(db) == 2)
        }
    }

    // MARK: SQL Interpolation and Record Protocols

    @Test func recordMethods() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            // DELETE FROM player WHERE score IS NULL
            try Player.deleteAllWithoutScore(db)
            #expect(try Player.fetchCount(db) == 3)
        }
        try dbQueue.read { db in
            #expect(try Player.simpleFilter(id: 42).fetchOne(db)?.name == "Dan")
            let player = try Player.filter(id: 42).fetchOne(db) // Player?
            #expect(player?.name == "Dan")
            #expect(try sql(Player.filter(id: 42), db) == ["SELECT \"player\".*\nFROM \"player\"\nWHERE \"id\" = ?", "[42]"])

            #expect(try Player.simpleFilter(ids: [1, 2, 3]).fetchAll(db).map(\.id) == [1, 2])
            let players = try Player.filter(ids: [1, 2, 3]).fetchAll(db) // [Player]
            #expect(players.map(\.id) == [1, 2])
            #expect(try sql(Player.filter(ids: [1, 2, 3]), db) == ["SELECT \"player\".*\nFROM \"player\"\nWHERE \"id\" IN (?,?,?)", "[1, 2, 3]"])

            // Empty sequences, with IN and NOT IN
            #expect(try Player.filter(ids: []).fetchAll(db).isEmpty)
            #expect(try sql(Player.filter(ids: []), db) == ["SELECT \"player\".*\nFROM \"player\"\nWHERE \"id\" IN (SELECT NULL WHERE NULL)", "[]"])
            let noIds: [Int64] = []
            #expect(try SQLRequest<Int>(literal: "SELECT id FROM player WHERE id NOT IN \(noIds) ORDER BY id").fetchAll(db) == [1, 2, 42])

            let maximumScore = try Player.maximumScore().fetchOne(db) // Int?
            #expect(maximumScore == 1000)
            #expect(try sql(Player.maximumScore(), db) == [#"SELECT MAX("score") FROM "player""#, "[]"])

            #expect(try Player.simpleBestPlayers().fetchAll(db).map(\.id) == [2, 42])
            let bestPlayers = try Player.bestPlayers().fetchAll(db) // [Player]
            #expect(bestPlayers.map(\.id) == [2, 42])
            #expect(try sql(Player.bestPlayers(), db) == [
                "SELECT \"player\".*\nFROM \"player\"\nWHERE \"score\" = (SELECT MAX(\"score\") FROM \"player\")", "[]"])

            #expect(try sql(Player.complexRequest(), db) == [
                #"SELECT "player".* FROM "player" JOIN "team" ON "team".id = "player".teamId GROUP BY "player".id"#,
                "[]"])
            #expect(try Player.complexRequest().fetchAll(db).map(\.id) == [1, 2, 42])
        }
    }

    // MARK: SQL Interpolation Reference

    @Test func referenceTablesAndColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            #expect(try build("SELECT * FROM \(Player.self)", db)[0] == #"SELECT * FROM "player""#)
            let player = try #require(try Player.fetchOne(db))
            #expect(try build("SELECT * FROM \(tableOf: player)", db)[0] == #"SELECT * FROM "player""#)
            let playerTable = Table("player")
            #expect(try build("SELECT * FROM \(playerTable)", db)[0] == #"SELECT * FROM "player""#)

            #expect(try build("SELECT \(columnsOf: Player.self) FROM player", db)[0] == #"SELECT "player".* FROM player"#)
            #expect(try build("SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p", db)[0] == #"SELECT "p".* FROM player p"#)
            #expect(try build("SELECT \(columnsOf: AltPlayer.self) FROM player", db)[0] == #"SELECT "player"."id", "player"."name" FROM player"#)
            #expect(try build("SELECT \(columnsOf: AltPlayer.self, tableAlias: "p") FROM player p", db)[0] == #"SELECT "p"."id", "p"."name" FROM player p"#)
            #expect(try SQLRequest<Row>(literal: "SELECT \(columnsOf: AltPlayer.self) FROM player ORDER BY id").fetchOne(db) == ["id": 1, "name": "Arthur"])
        }
    }

    @Test func referenceExpressionsAndValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let bonus = 100
            #expect(try build("SELECT \(Column("name")) FROM player", db) == [#"SELECT "name" FROM player"#, "[]"])
            #expect(try build("SELECT \(Column("score") + bonus) AS points FROM player", db) == [#"SELECT "score" + ? AS points FROM player"#, "[100]"])
            #expect(try build("SELECT (score + \(bonus)) AS points FROM player", db) == ["SELECT (score + ?) AS points FROM player", "[100]"])
            #expect(try SQLRequest<Int>(literal: "SELECT \(Column("score") + bonus) AS points FROM player ORDER BY id").fetchOne(db) == 600)
            #expect(try build(Player.nameSQL, db) == [#"SELECT "name" FROM player"#, "[]"])

            // SELECT * FROM player WHERE id IN (1, 2, 3)
            let ids = [1, 2, 3]
            #expect(try build("SELECT * FROM player WHERE id IN \(ids)", db) == ["SELECT * FROM player WHERE id IN (?,?,?)", "[1, 2, 3]"])
            #expect(try build("SELECT \(Set([3]))", db) == ["SELECT (?)", "[3]"])

            #expect(try build("SELECT * FROM player ORDER BY \(Column("name").desc)", db)[0] == #"SELECT * FROM player ORDER BY "name" DESC"#)
            // The article writes `COLLATING`, a slip for SQL's COLLATE.
            #expect(try build("SELECT * FROM player ORDER BY email COLLATE \(.nocase)", db)[0] == "SELECT * FROM player ORDER BY email COLLATE NOCASE")
            #expect(try build("SELECT * FROM player ORDER BY email COLLATE \(.localizedCompare)", db)[0] == "SELECT * FROM player ORDER BY email COLLATE swiftLocalizedCompare")
            #expect(try SQLRequest<String>(literal: "SELECT name FROM player ORDER BY name COLLATE \(.localizedCompare) DESC").fetchAll(db) == ["Dan", "Craig", "Barbara", "Arthur"])
        }
    }

    @Test func referenceSubqueriesAndLiterals() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let subquery = SQLRequest<Int>("SELECT MAX(score) FROM player")
            #expect(try build("SELECT * FROM player WHERE score = (\(subquery))", db)[0] == "SELECT * FROM player WHERE score = (SELECT MAX(score) FROM player)")
            let requestSubquery = Player.select(max(Column("score")))
            #expect(try build("SELECT * FROM player WHERE score = (\(requestSubquery))", db)[0] == #"SELECT * FROM player WHERE score = (SELECT MAX("score") FROM "player")"#)
            #expect(try SQLRequest<Int>(literal: "SELECT id FROM player WHERE score = (\(requestSubquery)) ORDER BY id").fetchAll(db) == [2, 42])

            // WITH name AS (SELECT 'O''Brien') SELECT * FROM name
            let cte = CommonTableExpression<Void>(
                named: "name",
                literal: "SELECT \("O'Brien")")
            #expect(try build("WITH \(definitionFor: cte) SELECT * FROM \(cte)", db) == [#"WITH "name" AS (SELECT ?) SELECT * FROM "name""#, #"["O\'Brien"]"#])
            #expect(try SQLRequest<String>(literal: "WITH \(definitionFor: cte) SELECT * FROM \(cte)").fetchOne(db) == "O'Brien")

            // SELECT * FROM player WHERE name = 'O''Brien'
            let condition: SQL = "name = \("O'Brien")"
            #expect(try build("SELECT * FROM player WHERE \(literal: condition)", db) == ["SELECT * FROM player WHERE name = ?", #"["O\'Brien"]"#])

            #expect(try build("SELECT * FROM \(sql: "player")", db) == ["SELECT * FROM player", "[]"])
            #expect(try build("SELECT * FROM player WHERE \(sql: "name = ?", arguments: ["O'Brien"])", db) == ["SELECT * FROM player WHERE name = ?", #"["O\'Brien"]"#])
        }
    }

    // MARK: SQLSupport.md

    @Test func sqlSupport() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        try dbQueue.write { db in
            try db.execute(sql: """
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (?, ?);
                """, arguments: ["Arthur", 500, "Barbara", 1000])
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["O'Brien", 750])
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["O'Reilly", 250])
        }

        var fetched: [(Int64, Int)] = []
        try dbQueue.read { db in
            let sql = "SELECT id, score FROM player WHERE name = ?"
            let statement = try db.makeStatement(sql: sql)
            let rows = try Row.fetchCursor(statement, arguments: ["O'Brien"])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let score: Int = row[1]
                fetched.append((id, score))
            }
        }
        #expect(fetched.map(\.0) == [3])
        #expect(fetched.map(\.1) == [750])

        try dbQueue.read { db in
            let players = try ScoredPlayer.filter(name: "O'Reilly").fetchAll(db) // [Player]
            let maxScore = try ScoredPlayer.maximumScore().fetchOne(db)          // Int?
            #expect(players.map(\.score) == [250])
            #expect(maxScore == 1000)
            #expect(databaseQuestionMarks(count: 3) == "?,?,?")
        }
    }

    @Test func tooFewArgumentsForSeveralStatementsIsAnError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INT)")
            let error = try #require(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO player (name, score) VALUES (?, ?);
                    INSERT INTO player (name, score) VALUES (?, ?);
                    """, arguments: ["Arthur", 500, "Barbara"])
            }
            #expect(error.resultCode == .SQLITE_MISUSE)
            // GRDB says `wrong number of statement arguments: 1`; Trellis adds what it expected.
            #expect(error.message == "wrong number of statement arguments: expected 2, got 1")
            // The first statement ran, as in GRDB.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
            let extraError = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 500, "Barbara"])
            }
            #expect(extraError.message == "wrong number of statement arguments: expected 2, got 3")
        }
    }
}
