import Foundation
import Testing
import Trellis

// GRDB's README, "SQL Operators" and "SQL Functions": the samples that
// QueryInterfaceDocTests does not run, written as the README writes them,
// with the SQL the README shows.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String?
    var email: String?
    var wins: Int
    var games: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let email = Column(CodingKeys.email)
        static let wins = Column(CodingKeys.wins)
        static let games = Column(CodingKeys.games)
    }
}

private struct Game: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var date: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let date = Column(CodingKeys.date)
    }
}

private struct Document: Codable, FetchableRecord, PersistableRecord {
    var content: String

    enum Columns {
        static let content = Column(CodingKeys.content)
    }
}

private struct Planet: Codable, FetchableRecord, PersistableRecord {
    var name: String
    var temperature: Double

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let temperature = Column(CodingKeys.temperature)
    }
}

@Suite struct ReadmeExpressionsDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("email", .text)
                t.column("wins", .integer).notNull()
                t.column("games", .integer).notNull()
            }
            try db.create(table: "game") { t in
                t.primaryKey("id", .integer)
                t.column("date", .text).notNull()
            }
            try db.create(table: "planet") { t in
                t.column("name", .text)
                t.column("temperature", .double)
            }
            try Player(id: 1, name: "Arthur", email: "arthur@example.com", wins: 1, games: 4).insert(db)
            try Player(id: 2, name: "élodie", email: nil, wins: 3, games: 4).insert(db)
            try Player(id: 3, name: nil, email: "anon@example.com", wins: 0, games: 1).insert(db)
            try Game(id: 1, date: "2024-05-17 10:00:00").insert(db)
            try Planet(name: "Earth", temperature: 15).insert(db)
        }
        return dbQueue
    }

    private func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    @Test func lowerAndUpperAreSwiftStringFunctions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.select { $0.name.uppercased }.order(\.id)
            #expect(try DatabaseValue.fetchAll(db, request) == ["ARTHUR".databaseValue, "ÉLODIE".databaseValue, .null])
            #expect(try DatabaseValue.fetchAll(db, Player.select { $0.name.lowercased }.order(\.id))
                == ["arthur".databaseValue, "élodie".databaseValue, .null])
            #expect(try String.fetchOne(db, Player.select { $0.name.capitalized }.filter(id: 2)) == "Élodie")
            #expect(try String.fetchOne(db, Player.select { $0.name.localizedUppercased }.filter(id: 2)) == "ÉLODIE")
            #expect(try String.fetchOne(db, Player.select { $0.name.localizedLowercased }.filter(id: 1)) == "arthur")
            #expect(try String.fetchOne(db, Player.select { $0.name.localizedCapitalized }.filter(id: 1)) == "Arthur")

            let name = "ÉLODIE"
            // Not recommended (the README writes `uppercased()`, a method GRDB
            // does not define: `uppercased` is a property, as in "Unicode")
            #expect(try Player.filter { $0.name.uppercased == name.uppercased() }.fetchAll(db).map(\.id) == [2])
        }
    }

    @Test func castExpressions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT (CAST(wins AS REAL) / games) AS successRate FROM player
            let request = Player.select { (cast($0.wins, as: .real) / $0.games).forKey("successRate") }
            let requestSQL = try sql(db, request)
            #expect(requestSQL == #"SELECT CAST("wins" AS REAL) / "games" AS "successRate" FROM "player""#)
            #expect(try Double.fetchAll(db, request.order(\.id)) == [0.25, 0.75, 0])
        }
    }

    @Test func dateAndTimeFunctions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT JULIANDAY(date, 'start of year') FROM game
            let request = Game.select { julianDay($0.date, .startOfYear) }
            let requestSQL = try sql(db, request)
            #expect(requestSQL == #"SELECT JULIANDAY("date", ?) FROM "game""#)
            #expect(try request.makePreparedRequest(db).statement.arguments == ["start of year"])
            #expect(try Double.fetchOne(db, request) == 2460310.5)
            #expect(try String.fetchOne(db, Game.select { dateTime($0.date, .startOfMonth) }) == "2024-05-01 00:00:00")
        }
    }

    @Test func temperatureInFahrenheit() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT ((temperature * 1.8) + 32) AS fahrenheit FROM planet
            let request = Planet.select { ($0.temperature * 1.8 + 32).forKey("fahrenheit") }
            let requestSQL = try sql(db, request)
            #expect(requestSQL == #"SELECT ("temperature" * ?) + ? AS "fahrenheit" FROM "planet""#)
            #expect(try request.makePreparedRequest(db).statement.arguments == [1.8, 32])
            #expect(try Double.fetchOne(db, request) == 59)
        }
    }

    @Test func inclusionInACommonTableExpression() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // WITH selectedName AS (...)
            // SELECT * FROM player WHERE name IN selectedName
            let cte = CommonTableExpression(
                named: "selectedName",
                sql: "SELECT 'Arthur' UNION SELECT 'Barbara'")
            let request = Player
                .with(cte)
                .filter { cte.contains($0.name) }
            #expect(try request.fetchAll(db).map(\.id) == [1])
        }
    }

    @Test func matchOnAFullTextColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.column("content")
            }
            try Document(content: "SQLite is a database engine").insert(db)
            try Document(content: "Swift is a language").insert(db)

            let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")

            // SELECT * FROM document WHERE document MATCH 'sqlite database'
            let tableRequest = Document.matching(pattern)
            #expect(try tableRequest.fetchAll(db).map(\.content) == ["SQLite is a database engine"])

            // SELECT * FROM document WHERE content MATCH 'sqlite database'
            let columnRequest = Document.filter { $0.content.match(pattern) }
            let columnRequestSQL = try sql(db, columnRequest)
            #expect(columnRequestSQL == #"SELECT * FROM "document" WHERE "content" MATCH ?"#)
            #expect(try columnRequest.fetchAll(db).map(\.content) == ["SQLite is a database engine"])

        }
    }
}
