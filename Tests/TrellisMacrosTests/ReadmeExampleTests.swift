import Foundation
import Testing
import TrellisMacros

// The example of README.md, compiled and run.

@DatabaseRecord
private struct Player: FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleInsertsUpdatesAndFetches() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("readme-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }

        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.create(table: "player", options: .ifNotExists) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            try player.updateChanges(db) { $0.score = 200 }
        }
        let best = try dbQueue.read { db in
            try Player.filter { $0.score > 150 }.order { $0.score.desc }.fetchAll(db)
        }
        #expect(best.map(\.name) == ["Arthur"])
        #expect(best.map(\.score) == [200])
    }
}
