import Testing
import Trellis

// GRDB's SwiftConcurrency.md ("Swift Concurrency and GRDB"): its samples,
// compiled in the Swift 6 language mode.

private struct Player: Codable, Identifiable, Sendable {
    var id: Int64?
    var name: String
    var score: Int = 0
    init(name: String) { self.name = name }
}

extension Player: FetchableRecord, MutablePersistableRecord {
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
    }

    // A computed property, because a stored `[any SQLSelectable]` is not
    // concurrency-safe.
    static var databaseSelection: [any SQLSelectable] {
        [Columns.id, Columns.name, Columns.score]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

@Suite struct SwiftConcurrencyDocTests {
    private func makeWriter() throws -> any DatabaseWriter {
        let writer: any DatabaseWriter = try DatabaseQueue()
        try writer.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("unselected", .text)
            }
        }
        return writer
    }

    @Test func readWriteAndObserve() async throws {
        let writer = try makeWriter()
        // Read
        let playerCount = try await writer.read { db in
            try Player.fetchCount(db)
        }
        #expect(playerCount == 0)

        // Write
        let newPlayerCount = try await writer.write { db in
            var player = Player(name: "Arthur")
            try player.insert(db)
            return try Player.fetchCount(db)
        }
        #expect(newPlayerCount == 1)

        // Observe database changes
        let observation = ValueObservation.tracking { db in
            try Player.fetchAll(db)
        }
        var received: [[String]] = []
        for try await players in observation.values(in: writer) {
            received.append(players.map(\.name))
            if received.count == 1 {
                try await writer.write { db in
                    var player = Player(name: "Barbara")
                    try player.insert(db)
                }
            } else {
                break
            }
        }
        #expect(received == [["Arthur"], ["Arthur", "Barbara"]])
    }

    @Test func shorthandClosureNotation() async throws {
        let writer = try makeWriter()
        // Standard closure:
        let count = try await writer.read { db in
            try Player.fetchCount(db)
        }
        // Shorthand notation (SE-0418 is part of the Swift 6 language mode):
        let shorthandCount = try await writer.read(Player.fetchCount)
        #expect(count == shorthandCount)
        #expect(try await writer.read(Player.fetchAll).isEmpty)
    }

    @Test func databaseSelectionSelectsItsColumns() async throws {
        let writer = try makeWriter()
        try await writer.write { db in
            try db.execute(sql: "INSERT INTO player (name, score, unselected) VALUES ('Arthur', 10, 'x')")
        }
        let sql = try await writer.read { db in
            try Player.all().makePreparedRequest(db).statement.sql
        }
        #expect(sql == #"SELECT "id", "name", "score" FROM "player""#)
        let player = try await writer.read { db in try Player.fetchOne(db, id: 1) }
        #expect(player?.score == 10)
    }

    @Test func synchronousAndAsynchronousAccesses() async throws {
        let writer = try makeWriter()
        // Synchronous database access (in an async function, the compiler
        // picks the async method: the synchronous one is called from a
        // synchronous function)
        func insertArthur() throws {
            try writer.write { db in
                var player = Player(name: "Arthur")
                try player.insert(db)
            }
        }
        try insertArthur()
        // Asynchronous database access
        try await writer.write { db in
            var player = Player(name: "Barbara")
            try player.insert(db)
        }
        func fetchPlayers() async throws -> [Player] {
            try await writer.read(Player.fetchAll)
        }
        #expect(try await fetchPlayers().map(\.name) == ["Arthur", "Barbara"])
        // From a task, a synchronous access is allowed too.
        let names = try await Task {
            try writer.read(Player.fetchAll).map(\.name)
        }.value
        #expect(names == ["Arthur", "Barbara"])
    }
}
