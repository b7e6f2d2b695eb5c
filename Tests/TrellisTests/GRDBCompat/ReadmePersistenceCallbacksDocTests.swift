import Foundation
import Testing
import Trellis

// GRDB's README, "Persistence Callbacks" and "Upsert": the callbacks of
// upserts, partial updates and `updateChanges`.

private final class EventLog: @unchecked Sendable {
    private var events: [String] = []
    private let lock = NSLock()
    func append(_ event: String) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }
    func take() -> [String] {
        lock.lock()
        defer { events = []; lock.unlock() }
        return events
    }
}

private let eventLog = EventLog()

private struct Player: Codable, MutablePersistableRecord {
    var id: Int64?
    var email: String
    var name: String
    var score: Int

    func willSave(_ db: Database) throws { eventLog.append("willSave") }
    func didSave(_ saved: PersistenceSuccess) { eventLog.append("didSave") }
    mutating func willInsert(_ db: Database) throws { eventLog.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        let inserted = try insert()
        eventLog.append("aroundInsert \(inserted.rowID)")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        eventLog.append("didInsert \(inserted.rowID)")
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws {
        eventLog.append("willUpdate \(columns.sorted().joined(separator: ","))")
    }
    func didUpdate(_ updated: PersistenceSuccess) { eventLog.append("didUpdate") }
}

private struct PlayerID: Decodable, FetchableRecord {
    var id: Int64
}

@Suite(.serialized) struct ReadmePersistenceCallbacksDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        return dbQueue
    }

    // "With regard to persistence callbacks, an upsert behaves exactly like
    // an insert. In particular: the aroundInsert(_:) and didInsert(_:)
    // callbacks reports the rowid of the inserted or updated row; willUpdate,
    // aroundUpdate, didUpdate are not called."
    @Test func upsertsCallTheInsertionCallbacks() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            var arthur = Player(id: nil, email: "arthur@example.com", name: "Arthur", score: 1)
            try arthur.insert(db)
            var barbara = Player(id: nil, email: "barbara@example.com", name: "Barbara", score: 2)
            try barbara.insert(db)
            _ = eventLog.take()

            // A conflict on the unique email updates Arthur's row.
            var other = Player(id: nil, email: "arthur@example.com", name: "Art", score: 10)
            try other.upsert(db)
            #expect(eventLog.take() == ["willSave", "willInsert", "aroundInsert 1", "didInsert 1", "didSave"])
            #expect(other.id == 1)
            #expect(try Row.fetchAll(db, sql: "SELECT id, name FROM player ORDER BY id")
                == [["id": 1, "name": "Art"], ["id": 2, "name": "Barbara"]])

            var craig = Player(id: nil, email: "craig@example.com", name: "Craig", score: 3)
            let upserted = try craig.upsertAndFetch(db, as: PlayerID.self)
            let craigID = try #require(try Int64.fetchOne(db, sql: "SELECT id FROM player WHERE name = 'Craig'"))
            #expect(upserted.id == craigID)
            #expect(craig.id == craigID)
            #expect(eventLog.take() == ["willSave", "willInsert", "aroundInsert \(craigID)", "didInsert \(craigID)", "didSave"])
        }
    }

    @Test func updatesTellTheirColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            var player = Player(id: nil, email: "arthur@example.com", name: "Arthur", score: 1)
            try player.insert(db)
            _ = eventLog.take()

            try player.update(db)
            #expect(eventLog.take() == ["willSave", "willUpdate email,id,name,score", "didUpdate", "didSave"])
            try player.update(db, columns: ["score"])
            #expect(eventLog.take() == ["willSave", "willUpdate score", "didUpdate", "didSave"])

            // No change: no callback, and no statement.
            #expect(try !player.updateChanges(db) { $0.score = 1 })
            #expect(eventLog.take() == [])
            #expect(try player.updateChanges(db) { $0.score = 2 })
            #expect(eventLog.take() == ["willSave", "willUpdate score", "didUpdate", "didSave"])
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 2)
        }
    }

    // "save ... performs an UPDATE if the record has a non-null primary key,
    // and then, if no row was modified, an INSERT. ... It triggers update
    // and/or insert callbacks accordingly."
    @Test func saveOfAMissingRowInserts() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            var player = Player(id: 42, email: "arthur@example.com", name: "Arthur", score: 1)
            try player.save(db)
            let events = eventLog.take()
            #expect(events.first == "willSave")
            #expect(events.last == "didSave")
            #expect(events.contains("willInsert"))
            #expect(events.contains("didInsert 42"))
            #expect(!events.contains("didUpdate"))
            #expect(try Int64.fetchOne(db, sql: "SELECT id FROM player") == 42)

            var fresh = Player(id: nil, email: "barbara@example.com", name: "Barbara", score: 2)
            try fresh.save(db)
            #expect(eventLog.take() == ["willSave", "willInsert", "aroundInsert 43", "didInsert 43", "didSave"])
            #expect(fresh.id == 43)
        }
    }
}
