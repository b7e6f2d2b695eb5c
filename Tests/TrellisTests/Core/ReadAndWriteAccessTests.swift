import Foundation
import Testing
import Trellis

// Reads and writes, synchronous and async, written in the style of GRDB's
// README: they compile with `import Trellis` and behave the same.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

private struct Place: TableRecord {}

@Suite struct ReadAndWriteAccessTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 1000).insert(db)
            try Player(id: 2, name: "Barbara", score: 500).insert(db)
        }
        return dbQueue
    }

    @Test func synchronousReadsAndWrites() throws {
        let dbQueue = try makeDatabase()
        let players: [Player] = try dbQueue.read(Player.fetchAll)
        #expect(players.count == 2)
        let arthur = try dbQueue.read { db in
            try Player.filter { $0.name == "Arthur" }.fetchOne(db)
        }
        #expect(arthur?.id == 1)
        let best = try dbQueue.read { db in
            try Player.order(Player.Columns.score.desc).limit(1).fetchOne(db)
        }
        #expect(best?.name == "Arthur")
        #expect(Place.databaseTableName == "place")
        #expect(Database.ColumnType("VARCHAR(255)").rawValue == "VARCHAR(255)")
    }

    @Test func asynchronousReadsAndWrites() async throws {
        let dbQueue = try makeDatabase()
        let count = try await dbQueue.read { db in try Player.fetchCount(db) }
        #expect(count == 2)
        let names = try await dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name")
        }
        #expect(names == ["Arthur", "Barbara"])
        try await dbQueue.write { db in
            var player = try Player.find(db, id: 2)
            player.score += 10
            try player.update(db)
        }
        let score = try await dbQueue.read { db in try Player.fetchOne(db, id: 2)?.score }
        #expect(score == 510)
    }
}
