import Dispatch
import Testing
import Trellis

// GRDB's DatabasePool page (Extension/DatabasePool.md): its samples, and
// the concurrency it describes.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    init(name: String) { self.name = name }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct Place: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
}

@Suite struct DatabasePoolDocTests {
    @Test func readAndWrite() throws {
        let path = StatementTrace.temporaryPath("pool")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "place") { t in t.autoIncrementedPrimaryKey("id") }
        }

        // Modify the database:
        try dbPool.write { db in
            var player = Player(name: "Arthur")
            try player.insert(db)
        }

        // Read values:
        try dbPool.read { db in
            let players = try Player.fetchAll(db)
            let playerCount = try Player.fetchCount(db)
            #expect(players.map(\.name) == ["Arthur"])
            #expect(playerCount == 1)
        }

        // Database access methods can return values:
        let playerCount = try dbPool.read { db in
            try Place.fetchCount(db)
        }
        let newPlayerCount = try dbPool.write { db -> Int in
            var player = Player(name: "Arthur")
            try player.insert(db)
            return try Player.fetchCount(db)
        }
        #expect(playerCount == 0)
        #expect(newPlayerCount == 2)
    }

    @Test func readsAreIsolatedFromConcurrentWrites() throws {
        let path = StatementTrace.temporaryPath("pool-isolation")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO item DEFAULT VALUES")
        }
        // A read started before a write keeps seeing the database as it
        // was, while the writer commits: WAL lets both proceed.
        let counts = try dbPool.read { db -> [Int] in
            let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? -1
            try dbPool.write { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") }
            let after = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? -1
            return [before, after]
        }
        #expect(counts == [1, 1])
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
    }
}
