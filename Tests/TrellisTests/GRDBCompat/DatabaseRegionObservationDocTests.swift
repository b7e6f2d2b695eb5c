import Foundation
import Testing
import Trellis

// GRDB's DatabaseRegionObservation page
// (Extension/DatabaseRegionObservation.md): its samples (but the Combine
// publisher).

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int = 0
    init(name: String) { self.name = name }
    enum Columns {
        static let score = Column("score")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Counts the calls of `onChange`, from the writer queue.
private final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var _count = 0
    var count: Int { lock.withLock { _count } }
    func increment() { lock.withLock { _count += 1 } }
}

@Suite struct DatabaseRegionObservationDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "award") { t in t.autoIncrementedPrimaryKey("id") }
        }
        return dbQueue
    }

    @Test func observationUsage() throws {
        let dbQueue = try makeDatabase()
        let changes = ChangeCounter()
        // Tracks the full player table
        let observation = DatabaseRegionObservation(tracking: Player.all())
        let cancellable = observation.start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { (db: Database) in
            // Called right after the commit, on the writer connection.
            #expect(!db.isInsideTransaction)
            changes.increment()
        }

        try dbQueue.write { db in
            var player = Player(name: "Arthur")
            try player.insert(db)
        }
        // Prints "Players were changed"
        #expect(changes.count == 1)

        // Other tables, and rolled back changes, are not notified.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        try dbQueue.inTransaction { db in
            var player = Player(name: "Barbara")
            try player.insert(db)
            return .rollback
        }
        #expect(changes.count == 1)

        // One call per transaction.
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = 1")
            try db.execute(sql: "UPDATE player SET score = 2")
        }
        #expect(changes.count == 2)

        cancellable.cancel()
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(changes.count == 2)
    }

    @Test func regionsOfAllKinds() throws {
        let dbQueue = try makeDatabase()
        // Observe the score column of the 'player' table
        let scoreObservation = DatabaseRegionObservation(
            tracking: Player.select(\.score))
        // Observe the 'score' column of the 'player' table
        let sqlObservation = DatabaseRegionObservation(
            tracking: SQLRequest<Row>(sql: "SELECT score FROM player"))
        // Observe both the 'player' and 'team' tables
        let tablesObservation = DatabaseRegionObservation(
            tracking: Table("player"), Table("team"))
        // Observe the full database
        let fullObservation = DatabaseRegionObservation(
            tracking: .fullDatabase)

        let observations = [scoreObservation, sqlObservation, tablesObservation, fullObservation]
        let counters = observations.map { _ in ChangeCounter() }
        let cancellables = zip(observations, counters).map { observation, counter in
            observation.start(in: dbQueue) { error in Issue.record(error) } onChange: { _ in counter.increment() }
        }
        try dbQueue.write { db in
            var player = Player(name: "Arthur")
            try player.insert(db)
        }
        #expect(counters.map(\.count) == [1, 1, 1, 1])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        #expect(counters.map(\.count) == [1, 1, 2, 2])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO award DEFAULT VALUES") }
        #expect(counters.map(\.count) == [1, 1, 2, 3])
        _ = cancellables
    }

    @Test func undetectedChangesAreNotifiedExplicitly() throws {
        let dbQueue = try makeDatabase()
        let changes = ChangeCounter()
        let observation = DatabaseRegionObservation(tracking: Player.all())
        let cancellable = observation.start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { _ in
            changes.increment()
        }
        // In GRDB, the function is called at the commit of the write
        // transaction. Trellis write transactions are DEFERRED: without
        // changes, SQLite does not report their commit, and the function
        // is called after the access (the next access waits for it).
        try dbQueue.write { db in
            // Notify observations that some changes were performed in the database
            try db.notifyChanges(in: .fullDatabase)
        }
        try dbQueue.writeWithoutTransaction { _ in }
        #expect(changes.count == 1)
        try dbQueue.write { db in
            // Notify observations that some changes were performed in the player table
            try db.notifyChanges(in: Player.all())
        }
        try dbQueue.writeWithoutTransaction { _ in }
        #expect(changes.count == 2)
        // An IMMEDIATE transaction, as GRDB opens them, reports its commit.
        try dbQueue.inTransaction(.immediate) { db in
            // Equivalent alternative
            try db.notifyChanges(in: Table("player"))
            return .commit
        }
        #expect(changes.count == 3)
        try dbQueue.write { db in
            try db.notifyChanges(in: Table("team"))
        }
        try dbQueue.inTransaction(.immediate) { db in
            try db.notifyChanges(in: Table("player"))
            return .rollback
        }
        try dbQueue.writeWithoutTransaction { _ in }
        #expect(changes.count == 3)
        _ = cancellable
    }

    @Test func aMissingTableIsAnError() throws {
        let dbQueue = try makeDatabase()
        final class Errors: @unchecked Sendable { var messages: [String] = [] }
        let errors = Errors()
        let observation = DatabaseRegionObservation(tracking: Table("player"), SQLRequest<Row>(sql: "SELECT * FROM missing"))
        _ = observation.start(in: dbQueue) { error in
            errors.messages.append((error as? DatabaseError)?.message ?? "")
        } onChange: { _ in
            Issue.record("unexpected change")
        }
        #expect(errors.messages == ["no such table: missing"])
    }
}
