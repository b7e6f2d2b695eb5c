import Foundation
import Testing
import Trellis

// GRDB's README, "Persistence Methods", "Fetching by Key", "Testing for
// Record Existence" and "Fetching Aggregated Values": the documented
// results of the record methods, and of the counts of requests.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
    var id: Int64?
    var name: String?
    var team: String?
    var score: Int

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let team = Column(CodingKeys.team)
        static let score = Column(CodingKeys.score)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

@Suite struct ReadmePersistenceMethodsDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("team", .text)
                t.column("score", .integer).notNull()
            }
            var players = [
                Player(id: nil, name: "Arthur", team: "Reds", score: 100),
                Player(id: nil, name: nil, team: "Reds", score: 200),
                Player(id: nil, name: "Barbara", team: nil, score: 300),
                Player(id: nil, name: "Craig", team: "Blues", score: 400),
            ]
            for index in players.indices { try players[index].insert(db) }
        }
        return dbQueue
    }

    @Test func insertSaveUpdateAndDelete() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let inserted = try Player(id: nil, name: "Diane", team: nil, score: 1).inserted(db)
            #expect(inserted.id == 5)

            // save: an UPDATE that finds no row is followed by an INSERT.
            var ghost = Player(id: 42, name: "Ghost", team: nil, score: 0)
            try ghost.save(db)
            #expect(try Player.fetchOne(db, id: 42)?.name == "Ghost")
            ghost.score = 10
            let saved = try ghost.saved(db)
            #expect(saved == ghost)
            #expect(try Player.find(db, id: 42).score == 10)
            #expect(try ghost.exists(db))

            // update(_:columns:) only writes the given columns.
            var arthur = try Player.find(db, id: 1)
            arthur.name = "Art"
            arthur.score = 1000
            try arthur.update(db, columns: ["score"])
            #expect(try Player.find(db, id: 1) == Player(id: 1, name: "Arthur", team: "Reds", score: 1000))
            try arthur.update(db, columns: [Column("name")])
            #expect(try Player.find(db, id: 1).name == "Art")

            #expect(try arthur.delete(db))
            #expect(try !arthur.delete(db))
            #expect(try !arthur.exists(db))
            #expect(throws: RecordError.self) { try arthur.update(db) }
            #expect(try Player.deleteAll(db, keys: [2, 3, 99]) == 2)
            #expect(try Player.filter { $0.score > 0 }.updateAll(db) { $0.score += 1 } == 3)
        }
    }

    @Test func countsOfRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Player.fetchCount(db) == 4)
            #expect(try Player.limit(2).fetchCount(db) == 2)
            #expect(try Player.limit(3, offset: 2).fetchCount(db) == 2)
            #expect(try Player.order(\.score).fetchCount(db) == 4)
            // A selection of one column counts all rows, NULLs included.
            #expect(try Player.select(\.name).fetchCount(db) == 4)
            #expect(try Player.select(\.team).distinct().fetchCount(db) == 2)
            #expect(try Player.select { [$0.team, $0.name] }.distinct().fetchCount(db) == 4)
            #expect(try Player.all().distinct().fetchCount(db) == 4)
            #expect(try Player.group(\.team).fetchCount(db) == 3)
            #expect(try Player.select { max($0.score) }.fetchCount(db) == 1)
            #expect(try Player.filter(ids: []).fetchCount(db) == 0)
            #expect(try Player.fetchAll(db, ids: []).isEmpty)
            #expect(try Player.filter(ids: [1, 3]).fetchCount(db) == 2)
            #expect(try Player.none().fetchCount(db) == 0)
            #expect(try Player.none().isEmpty(db))
            #expect(try !Player.all().isEmpty(db))
            #expect(try Player.filter { $0.team == nil }.fetchCount(db) == 1)
            #expect(try Player.filter { $0.team != "Reds" }.fetchCount(db) == 1)
            #expect(try Player.select { [$0.team, max($0.score)] }.group(\.team).fetchCount(db) == 3)
            #expect(try Player.select { [$0.team, max($0.score)] }.group(\.team)
                .having { count($0.name) >= 1 }.fetchCount(db) == 3)
            #expect(try Player.select { [$0.team, count($0.name)] }.group(\.team)
                .having { count($0.name) >= 2 }.fetchCount(db) == 0)
            #expect(try Player.select(\.team).distinct().limit(1).fetchCount(db) == 1)
            #expect(try Player.select(\.team).distinct().order(\.team).limit(2).fetchCount(db) == 2)
            #expect(try Player.select(\.score).limit(10, offset: 3).fetchCount(db) == 1)
            #expect(try Player.select { count($0.name) }.fetchCount(db) == 1)
        }
    }

    @Test func fetchingOneRecordFromAnOrderedRequest() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Player.order(\.score.desc).fetchOne(db)?.name == "Craig")
            #expect(try Player.order(\.score.desc).limit(2, offset: 1).fetchOne(db)?.name == "Barbara")
            #expect(try Player.order(\.name).fetchOne(db)?.score == 200)
            #expect(try Player.order(\.name.desc).fetchAll(db).map(\.score) == [400, 300, 100, 200])
            #expect(try Player.select(\.score, as: Int.self).order(Column("score").desc).fetchOne(db) == 400)
            #expect(try Player.select(\.name, as: String.self).filter(key: 2).fetchOne(db) == nil)
        }
    }

    @Test func tablesFetchRowsByKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let table = Table("player")
            #expect(try table.fetchOne(db, key: 1)?["name"] == "Arthur")
            #expect(try table.fetchAll(db, keys: [1, 2]).count == 2)
            #expect(try table.exists(db, key: 4))
            #expect(try !table.exists(db, key: 5))
            #expect(try table.filter(key: 3).fetchOne(db)?["score"] == 300)
            #expect(try table.fetchCount(db) == 4)
            #expect(try table.deleteOne(db, key: 4))
            #expect(try table.deleteAll(db, keys: [1, 2]) == 2)
            let typed = Table<Player>("player")
            #expect(try typed.fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try typed.fetchOne(db, key: 3)?.score == 300)
        }
    }
}
