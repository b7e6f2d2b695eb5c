import Foundation
import Testing
import Trellis

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int?
    var team: String?
    var wins: Int
    var games: Int
    enum Columns {
        static let name = Column("name")
        static let score = Column("score")
        static let team = Column("team")
        static let wins = Column("wins")
        static let games = Column("games")
    }
}

@Suite struct SQLFunctionTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer)
                t.column("team", .text)
                t.column("wins", .integer).notNull()
                t.column("games", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100, team: "red", wins: 1, games: 4).insert(db)
            try Player(id: 2, name: "Barbara", score: -300, team: "blue", wins: 3, games: 4).insert(db)
            try Player(id: 3, name: "Craig", score: 200, team: "red", wins: 0, games: 2).insert(db)
            try Player(id: 4, name: "Élodie", score: nil, team: nil, wins: 2, games: 2).insert(db)
        }
        return dbQueue
    }

    private func value<T: DatabaseValueConvertible>(
        _ db: Database, _ selection: some SQLSelectable, as type: T.Type,
        where predicate: SQLExpression? = nil) throws -> T?
    {
        var request = Player.select([selection], as: T.self)
        if let predicate { request = request.filter(predicate) }
        return try request.fetchOne(db)
    }

    @Test func countCountsNonNullValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try value(db, count(Column("score")), as: Int.self) == 3)
            #expect(try value(db, count(Column("team")), as: Int.self) == 3)
            #expect(try value(db, count(distinct: Column("team")), as: Int.self) == 2)
            #expect(try value(db, CountAllExpression(), as: Int.self) == 4)
            #expect(try value(db, SQLExpression.countAll, as: Int.self) == 4)
            #expect(try Int.fetchOne(db, Player.select { count(distinct: $0.team) }) == 2)
        }
    }

    @Test func minMaxSumTotalAndAverage() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try value(db, min(Column("score")), as: Int.self) == -300)
            #expect(try value(db, max(Column("score")), as: Int.self) == 200)
            #expect(try value(db, sum(Column("score")), as: Int.self) == 0)
            #expect(try value(db, total(Column("score")), as: Double.self) == 0)
            #expect(try value(db, average(Column("wins")), as: Double.self) == 1.5)
            #expect(try value(db, max(Column("wins"), Column("games")), as: Int.self, where: Column("id") == 1) == 4)
            #expect(try value(db, min(Column("wins"), Column("games"), 1), as: Int.self, where: Column("id") == 2) == 1)
            // On no row: SUM, MIN and MAX are NULL, TOTAL is 0.0.
            let none = Column("id") > 100
            #expect(try Int.fetchOne(db, Player.select(sum(Column("score"))).filter(none)) == nil)
            #expect(try Int.fetchOne(db, Player.select(max(Column("score"))).filter(none)) == nil)
            #expect(try value(db, total(Column("score")), as: Double.self, where: none) == 0)
            let row = try #require(try Row.fetchOne(db, Player.select { [min($0.score), max($0.score)] }))
            #expect(row[0] as Int? == -300)
            #expect(row[1] as Int? == 200)
        }
    }

    @Test func aggregatesPerGroup() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchAll(db, Player
                .select(Column("team"), sum(Column("wins")).forKey("wins"), average(Column("games")).forKey("games"))
                .filter(Column("team") != nil)
                .group(Column("team"))
                .order(Column("team")))
            #expect(rows == [["team": "blue", "wins": 3, "games": 4.0], ["team": "red", "wins": 1, "games": 3.0]])
        }
    }

    @Test func absLengthAndCase() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try value(db, abs(Column("score")), as: Int.self, where: Column("id") == 2) == 300)
            #expect(try value(db, abs(Column("score") - 250), as: Int.self, where: Column("id") == 1) == 150)
            #expect(try value(db, length(Column("name")), as: Int.self, where: Column("id") == 3) == 5)
            #expect(try value(db, Column("name").length, as: Int.self, where: Column("id") == 4) == 6)
            #expect(try value(db, Column("name").uppercased, as: String.self, where: Column("id") == 1) == "ARTHUR")
            #expect(try value(db, Column("name").lowercased, as: String.self, where: Column("id") == 2) == "barbara")
            #expect(try Player.filter(Column("name").lowercased == "craig").fetchOne(db)?.id == 3)
            #expect(try Player.filter(length(Column("name")) > 5).fetchCount(db) == 3)
        }
    }

    @Test func castConvertsValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try value(db, Column("score").cast(as: .text), as: String.self, where: Column("id") == 1) == "100")
            #expect(try value(db, cast(Column("wins"), as: .real) / Column("games"), as: Double.self, where: Column("id") == 1) == 0.25)
            #expect(try value(db, Column("wins") / Column("games"), as: Double.self, where: Column("id") == 1) == 0)
            #expect(try value(db, cast(Column("name"), as: .integer), as: Int.self, where: Column("id") == 1) == 0)
            let rates = try Double.fetchAll(db, Player.select { (cast($0.wins, as: .real) / $0.games).forKey("successRate") }.order(Column("id")))
            #expect(rates == [0.25, 0.75, 0, 1])
        }
    }

    @Test func ifNullAndCoalesce() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try value(db, Column("team") ?? "none", as: String.self, where: Column("id") == 4) == "none")
            #expect(try value(db, Column("team") ?? Column("name"), as: String.self, where: Column("id") == 4) == "Élodie")
            #expect(try value(db, coalesce([Column("score"), Column("team"), 0.databaseValue]), as: Int.self, where: Column("id") == 4) == 0)
        }
    }

    @Test func functionsBindTheirArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let hostile = "'); DROP TABLE player; --"
            #expect(try value(db, length(hostile.sqlExpression), as: Int.self) == hostile.count)
            #expect(try value(db, (Column("name") ?? hostile).uppercased, as: String.self, where: Column("id") == 1) == "ARTHUR")
            #expect(try Player.fetchCount(db) == 4)
        }
    }
}
