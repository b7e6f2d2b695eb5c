import Foundation
import Testing
import Trellis

// The examples of the DocC guides (Sources/Trellis/Documentation.docc), compiled and run.

@Suite struct GuideExamplesTests {
    private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int

        enum Columns: String, ColumnExpression { case id, name, score }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    private struct HandWrittenPlayer: FetchableRecord, PersistableRecord {
        static let databaseTableName = "player"
        var id: Int64
        var name: String
        var score: Int

        init(id: Int64, name: String, score: Int) {
            self.id = id
            self.name = name
            self.score = score
        }

        init(row: Row) throws {
            id = row["id"]
            name = row["name"]
            score = row["score"]
        }

        func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["score"] = score
        }
    }

    private func makePlayers() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer)
            }
        }
        return dbQueue
    }

    @Test func gettingStartedReadsRowsWithACursorAndBindsInterpolatedValues() throws {
        let dbQueue = try makePlayers()
        let name = "O'Brien"
        try dbQueue.write { db in
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(10))")
        }
        var read: [(String, Int)] = []
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
            while let row = try rows.next() {
                let name: String = row["name"]
                let score: Int? = row["score"]
                read.append((name, score ?? 0))
            }
        }
        #expect(read.map(\.0) == ["O'Brien"])
        #expect(read.map(\.1) == [10])
    }

    @Test func recordsGuideWritesAndReads() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            try player.updateChanges(db) { $0.score = 200 }
            try player.save(db)
            try player.upsert(db)
            let saved = try player.insertAndFetch(db, onConflict: .replace)
            #expect(saved.score == 200)

            let team = try [Player(id: nil, name: "Barbara", score: 10), Player(id: nil, name: "Craig", score: 20)]
                .insertAll(db)
            #expect(team.compactMap(\.id) == [2, 3])
            #expect(try Player.deleteOne(db, key: 3))
        }
        try dbQueue.read { db in
            let player = try Player.find(db, key: 1)
            #expect(player.score == 200)
            #expect(try Player.fetchOne(db, key: 42) == nil)
            #expect(try Player.fetchAll(db).count == 2)
            let cursor = try Player.fetchCursor(db)
            #expect(try cursor.next()?.name == "Arthur")
            let best = try Player.filter { $0.score > 150 }.fetchAll(db)
            #expect(best.map(\.name) == ["Arthur"])
            #expect(throws: RecordError.self) { try Player.find(db, key: 42) }
        }
    }

    @Test func recordsGuideHandWrittenRecordRoundTrips() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db in
            try HandWrittenPlayer(id: 7, name: "Diane", score: 70).insert(db)
        }
        let player = try dbQueue.read { db in try HandWrittenPlayer.find(db, key: 7) }
        #expect(player.name == "Diane")
        #expect(player.score == 70)
    }

    @Test func queryInterfaceGuideRequests() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db in
            for (name, score) in [("Arthur", 1500), ("Barbara", 2000), ("Craig", 500)] {
                var player = Player(id: nil, name: name, score: score)
                try player.insert(db)
            }
        }
        try dbQueue.read { db in
            let request = Player
                .filter { $0.score > 1000 }
                .order(Player.Columns.score.desc, Player.Columns.name)
                .limit(10)
            let players = try request.fetchAll(db)
            #expect(players.map(\.name) == ["Barbara", "Arthur"])
            #expect(try request.fetchCount(db) == 2)
            #expect(try request.select(Player.Columns.name, as: String.self).fetchAll(db) == ["Barbara", "Arthur"])
            #expect(try Player.filter(key: 1).isEmpty(db) == false)

            let minimum = 1000
            #expect(try Player.filter(sql: "score > ?", arguments: [minimum]).fetchCount(db) == 2)
            #expect(try Player.filter(literal: "score > \(minimum)").fetchCount(db) == 2)
        }
    }

    @Test func concurrencyGuideAccesses() async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("guide-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let dbPool = try DatabasePool(path: path)
        try await dbPool.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer)
            }
            var player = Player(id: nil, name: "Arthur", score: 1)
            try player.insert(db)
        }
        let count = try await dbPool.read { db in try Player.fetchCount(db) }
        #expect(count == 1)
        let players = try await dbPool.read { db in try Player.fetchAll(db) }
        #expect(players.map(\.name) == ["Arthur"])
        try await dbPool.write { db in _ = try Player.deleteAll(db) }
        let remaining = try await dbPool.read { db in try Player.fetchCount(db) }
        #expect(remaining == 0)
    }

    @Test func observationGuideDeliversFreshValues() async throws {
        let dbQueue = try makePlayers()
        let observation = ValueObservation.tracking { db in
            try Player.order(Player.Columns.score.desc).limit(10).fetchAll(db)
        }
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next()?.isEmpty == true)
        try await dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 10)
            try player.insert(db)
        }
        #expect(try await iterator.next()?.map(\.name) == ["Arthur"])
    }
}
