import Testing
import Trellis

// GRDB's DatabaseQueue page (Extension/DatabaseQueue.md): its samples.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    init(name: String) { self.name = name }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct Place: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
}

@Suite struct DatabaseQueueDocTests {
    private func makeQueue(_ dbQueue: DatabaseQueue) throws -> DatabaseQueue {
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "place") { t in t.autoIncrementedPrimaryKey("id") }
        }
        return dbQueue
    }

    @Test func readAndWrite() throws {
        let path = StatementTrace.temporaryPath("queue")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbQueue = try makeQueue(DatabaseQueue(path: path))

        // Modify the database:
        try dbQueue.write { db in
            var player = Player(name: "Arthur")
            try player.insert(db)
        }

        // Read values:
        try dbQueue.read { db in
            let players = try Player.fetchAll(db)
            let playerCount = try Player.fetchCount(db)
            #expect(players.map(\.name) == ["Arthur"])
            #expect(playerCount == 1)
        }

        // Database access methods can return values:
        let playerCount = try dbQueue.read { db in
            try Place.fetchCount(db)
        }
        let newPlayerCount = try dbQueue.write { db -> Int in
            var player = Player(name: "Arthur")
            try player.insert(db)
            return try Player.fetchCount(db)
        }
        #expect(playerCount == 0)
        #expect(newPlayerCount == 2)
    }

    @Test func writeRollsBackOnError() throws {
        struct TestError: Error {}
        let dbQueue = try makeQueue(DatabaseQueue())
        #expect(throws: TestError.self) {
            try dbQueue.write { db in
                var player = Player(name: "Arthur")
                try player.insert(db)
                throw TestError()
            }
        }
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 0)
    }

    @Test func readPreventsWrites() throws {
        let dbQueue = try makeQueue(DatabaseQueue())
        do {
            try dbQueue.read { db in
                var player = Player(name: "Arthur")
                try player.insert(db)
            }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_READONLY)
        }
    }

    @Test func inMemoryDatabases() throws {
        let dbQueue = try makeQueue(DatabaseQueue())
        try dbQueue.write { db in
            var player = Player(name: "Arthur")
            try player.insert(db)
        }
        // Each unnamed in-memory database is its own.
        #expect(try DatabaseQueue().read { db in try db.tableExists("player") } == false)

        // A shared in-memory database
        let dbQueue1 = try DatabaseQueue(named: "DatabaseQueueDocTests.shared")
        // Another connection to the same database
        let dbQueue2 = try DatabaseQueue(named: "DatabaseQueueDocTests.shared")
        try dbQueue1.write { db in try db.execute(sql: "CREATE TABLE shared (value TEXT)") }
        #expect(try dbQueue2.read { db in try db.tableExists("shared") })
    }
}
