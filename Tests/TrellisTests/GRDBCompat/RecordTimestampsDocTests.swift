import Foundation
import Testing
import Trellis

// Snippets from GRDB's "Record Timestamps and Transaction Date" guide,
// written as the documentation writes them.

/// `Player` deals with unsaved players
private struct Player {
    var id: Int64?              // optional
    var creationDate: Date?     // optional
    var modificationDate: Date? // optional
    var name: String
    var score: Int
}

extension Player: Codable, FetchableRecord, MutablePersistableRecord {
    /// Sets both `creationDate` and `modificationDate` to the
    /// transaction date, if they are not set yet.
    mutating func willInsert(_ db: Database) throws {
        if creationDate == nil {
            creationDate = try db.transactionDate
        }
        if modificationDate == nil {
            modificationDate = try db.transactionDate
        }
    }

    /// Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// `PersistedPlayer` deals with persisted players
private struct PersistedPlayer: Identifiable {
    let id: Int64              // not optional
    let creationDate: Date     // not optional
    var modificationDate: Date // not optional
    var name: String
    var score: Int
}

extension PersistedPlayer: Codable, FetchableRecord, PersistableRecord {
    static var databaseTableName: String { "player" }
}

/// A record type that tracks its creation and modification dates.
private protocol TimestampedRecord: MutablePersistableRecord {
    var creationDate: Date? { get set }
    var modificationDate: Date? { get set }
}

extension TimestampedRecord {
    mutating func willInsert(_ db: Database) throws {
        try initializeTimestamps(db)
    }

    mutating func initializeTimestamps(_ db: Database) throws {
        if creationDate == nil {
            creationDate = try db.transactionDate
        }
        if modificationDate == nil {
            modificationDate = try db.transactionDate
        }
    }

    mutating func updateWithTimestamp(_ db: Database, modificationDate: Date? = nil) throws {
        self.modificationDate = try modificationDate ?? db.transactionDate
        try update(db)
    }

    @discardableResult
    mutating func updateChangesWithTimestamp(
        _ db: Database,
        modificationDate: Date? = nil,
        modify: (inout Self) -> Void)
    throws -> Bool
    {
        // Grab the changes performed by `modify`
        let initialChanges = try databaseChanges(modify: modify)
        if initialChanges.isEmpty {
            return false
        }

        // Update modification date and grab its column name
        let dateChanges = try databaseChanges(modify: {
            $0.modificationDate = try modificationDate ?? db.transactionDate
        })

        // Update the modified columns
        let modifiedColumns = Set(initialChanges.keys).union(dateChanges.keys)
        try update(db, columns: modifiedColumns)
        return true
    }

    mutating func touch(_ db: Database, modificationDate: Date? = nil) throws {
        try updateChanges(db) {
            $0.modificationDate = try modificationDate ?? db.transactionDate
        }
    }
}

/// The player of the sample code, with timestamps.
private struct TimestampedPlayer {
    var id: Int64?
    var creationDate: Date?
    var modificationDate: Date?
    var name: String
    var score: Int
}

extension TimestampedPlayer: Codable, TimestampedRecord, FetchableRecord {
    static let databaseTableName = "player"

    /// Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension TimestampedPlayer {
    /// If the player has a non-nil primary key and a matching row in
    /// the database, the player is updated. Otherwise, it is inserted.
    mutating func saveWithTimestamp(_ db: Database) throws {
        if id == nil {
            try insert(db)
        } else {
            do {
                try updateWithTimestamp(db)
            } catch RecordError.recordNotFound {
                // Primary key is set, but no row was updated.
                try insert(db)
            }
        }
    }
}

/// A clock that tests move forward: the transaction date is under
/// control, as the guide recommends for tests.
private final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date(timeIntervalSince1970: 1_000_000)

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return date
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        date += seconds
        lock.unlock()
    }
}

@Suite struct GRDBCompatRecordTimestampsTests {
    private func makeDatabase(clock: TestClock) throws -> DatabaseQueue {
        var config = Configuration()
        config.transactionClock = .custom { _ in clock.now }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("creationDate", .datetime).notNull()
                t.column("modificationDate", .datetime).notNull()
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        return dbQueue
    }

    @Test func insertionTimestamp() throws {
        let clock = TestClock()
        let dbQueue = try makeDatabase(clock: clock)

        // A new player has no timestamps.
        var player = Player(id: nil, name: "Arthur", score: 1000)
        #expect(player.id == nil)
        #expect(player.creationDate == nil)
        #expect(player.modificationDate == nil)

        // After insertion, the player has timestamps.
        try dbQueue.write { db throws in
            try player.insert(db)
        }
        #expect(player.id == 1)
        #expect(player.creationDate == clock.now)
        #expect(player.modificationDate == clock.now)

        let stored = try dbQueue.read { db throws in
            try Row.fetchOne(db, sql: "SELECT creationDate, modificationDate FROM player")
        }
        #expect(stored == ["creationDate": "1970-01-12 13:46:40.000", "modificationDate": "1970-01-12 13:46:40.000"])
    }

    @Test func allPlayersOfATransactionHaveTheSameTimestamp() throws {
        // The default clock: the date of the start of the transaction.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("creationDate", .datetime).notNull()
                t.column("modificationDate", .datetime).notNull()
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        let players = (0..<3).map { Player(name: "Player \($0)", score: $0) }
        try dbQueue.write { db throws in
            for var player in players {
                try player.insert(db)
            }
        }
        let dates = try dbQueue.read { db throws in
            try String.fetchSet(db, sql: "SELECT creationDate FROM player")
        }
        #expect(dates.count == 1)
    }

    @Test func modificationTimestamp() throws {
        let clock = TestClock()
        let dbQueue = try makeDatabase(clock: clock)
        let creationDate = clock.now
        try dbQueue.write { db throws in
            var player = Player(name: "Arthur", score: 1000)
            try player.insert(db)
        }

        clock.advance(by: 60)
        // Increment the player score (two different ways).
        try dbQueue.write { db throws in
            var player = try #require(try Player.fetchOne(db, key: 1))

            // Update all columns
            player.score += 1
            player.modificationDate = try db.transactionDate
            try player.update(db)

            // Alternatively, update only the modified columns
            try player.updateChanges(db) {
                $0.score += 1
                $0.modificationDate = try db.transactionDate
            }
        }
        let player = try #require(try dbQueue.read { db in try Player.fetchOne(db, key: 1) })
        #expect(player.score == 1002)
        #expect(player.creationDate == creationDate)
        #expect(player.modificationDate == creationDate + 60)
    }

    @Test func nonOptionalTimestamps() throws {
        let clock = TestClock()
        let dbQueue = try makeDatabase(clock: clock)

        // Insert
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 1000)
            #expect(player.id == nil)
            #expect(player.creationDate == nil)
            #expect(player.modificationDate == nil)

            let persistedPlayer = try player.insertAndFetch(db, as: PersistedPlayer.self)
            #expect(persistedPlayer.id == 1)
            #expect(persistedPlayer.creationDate == clock.now)
            #expect(persistedPlayer.modificationDate == clock.now)
            #expect(player.id == 1)
        }

        // Fetch
        try dbQueue.read { db throws in
            let persistedPlayer = try PersistedPlayer.find(db, id: 1)
            #expect(persistedPlayer.creationDate == clock.now)
            #expect(persistedPlayer.modificationDate == clock.now)

            let player = try Player.find(db, key: 1)
            #expect(player.creationDate == clock.now)
        }
    }

    @Test func timestampedRecord() throws {
        let clock = TestClock()
        let dbQueue = try makeDatabase(clock: clock)
        let start = clock.now

        // Timestamps are set on insertion
        var player = try dbQueue.write { db throws in
            var player = TimestampedPlayer(name: "Arthur", score: 1000)
            try player.insert(db)
            #expect(player.creationDate == start)
            #expect(player.modificationDate == start)
            return player
        }

        // updateWithTimestamp bumps the modification date.
        clock.advance(by: 10)
        try dbQueue.write { db throws in
            player.score += 1
            try player.updateWithTimestamp(db)
        }
        #expect(player.modificationDate == start + 10)
        var stored = try #require(try dbQueue.read { db in try TimestampedPlayer.fetchOne(db, key: 1) })
        #expect(stored.score == 1001)
        #expect(stored.modificationDate == start + 10)
        #expect(stored.creationDate == start)

        // updateChangesWithTimestamp only bumps the date of a modified
        // record.
        clock.advance(by: 10)
        let unchanged = try dbQueue.write { db throws in
            try player.updateChangesWithTimestamp(db) {
                $0.score = 1001
            }
        }
        #expect(unchanged == false)
        #expect(player.modificationDate == start + 10)
        let changed = try dbQueue.write { db throws in
            try player.updateChangesWithTimestamp(db) {
                $0.score = 1000
            }
        }
        #expect(changed)
        stored = try #require(try dbQueue.read { db in try TimestampedPlayer.fetchOne(db, key: 1) })
        #expect(stored.score == 1000)
        #expect(stored.modificationDate == start + 20)

        // updateChanges always updates the modification date.
        clock.advance(by: 10)
        try dbQueue.write { db throws -> Void in
            try player.updateChanges(db) {
                $0.score = 1000
                $0.modificationDate = try db.transactionDate
            }
        }
        stored = try #require(try dbQueue.read { db in try TimestampedPlayer.fetchOne(db, key: 1) })
        #expect(stored.modificationDate == start + 30)

        // touch only updates the modification date in the database.
        clock.advance(by: 10)
        try dbQueue.write { db throws in
            try db.execute(sql: "UPDATE player SET score = 0")
            try player.touch(db)
        }
        stored = try #require(try dbQueue.read { db in try TimestampedPlayer.fetchOne(db, key: 1) })
        #expect(stored.modificationDate == start + 40)
        #expect(stored.score == 0)
        #expect(stored.creationDate == start)

        // An explicit modification date.
        try dbQueue.write { db throws in
            try player.touch(db, modificationDate: start + 100)
        }
        stored = try #require(try dbQueue.read { db in try TimestampedPlayer.fetchOne(db, key: 1) })
        #expect(stored.modificationDate == start + 100)
    }

    @Test func saveWithTimestamp() throws {
        let clock = TestClock()
        let dbQueue = try makeDatabase(clock: clock)
        try dbQueue.write { db throws in
            // No id: insert
            var arthur = TimestampedPlayer(name: "Arthur", score: 1000)
            try arthur.saveWithTimestamp(db)
            #expect(arthur.id == 1)

            // An id and a row: update
            arthur.score = 10
            try arthur.saveWithTimestamp(db)
            #expect(try TimestampedPlayer.fetchCount(db) == 1)
            #expect(try TimestampedPlayer.fetchOne(db, key: 1)?.score == 10)

            // An id without a row: recordNotFound is caught, and the
            // player is inserted.
            var barbara = TimestampedPlayer(id: 42, name: "Barbara", score: 500)
            try barbara.saveWithTimestamp(db)
            #expect(try TimestampedPlayer.fetchOne(db, key: 42)?.name == "Barbara")
            #expect(barbara.creationDate == clock.now)
        }
    }
}
