import Foundation
import Synchronization
import Testing
import Trellis

// The samples of GRDB's "Record Timestamps and Transaction Date" article.
// Each section redefines `Player`: the sections are namespaces here. The
// article's slips are fixed: `var player: Player` is fetched before it is
// modified, and `dbQueue.read { db` takes `in`.

private func createPlayerTable(_ db: Database) throws {
    try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("creationDate", .datetime).notNull()
        t.column("modificationDate", .datetime).notNull()
        t.column("name", .text).notNull()
        t.column("score", .integer).notNull()
    }
}

/// A clock that returns 1000, 2000, 3000... seconds after 1970, one date
/// per call: each transaction that reads the transaction date gets a new
/// one.
private final class TickingClock: Sendable {
    private let ticks = Mutex(0)

    var calls: Int { ticks.withLock { $0 } }

    func next() -> Date {
        let tick = ticks.withLock { ticks in
            ticks += 1
            return ticks
        }
        return Date(timeIntervalSince1970: TimeInterval(tick * 1000))
    }
}

/// A database with a player table, whose transaction dates tick from
/// `date(1000)`.
private func makeDatabase() throws -> DatabaseQueue {
    let clock = TickingClock()
    var config = Configuration()
    config.transactionClock = .custom { _ in clock.next() }
    let dbQueue = try DatabaseQueue(configuration: config)
    try dbQueue.write { db in try createPlayerTable(db) }
    return dbQueue
}

private func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

// MARK: - Insertion Timestamp

private enum Insertion {
    struct Player {
        var id: Int64?
        var creationDate: Date?
        var modificationDate: Date?
        var name: String
        var score: Int
    }
}

extension Insertion.Player: Encodable, MutablePersistableRecord {
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

extension Insertion.Player: Decodable, FetchableRecord {}

// MARK: - Dealing with Optional Timestamps

private enum TwoTypes {
    /// `Player` deals with unsaved players
    struct Player {
        var id: Int64?              // optional
        var creationDate: Date?     // optional
        var modificationDate: Date? // optional
        var name: String
        var score: Int
    }

    /// `PersistedPlayer` deals with persisted players
    struct PersistedPlayer: Identifiable {
        let id: Int64              // not optional
        let creationDate: Date     // not optional
        var modificationDate: Date // not optional
        var name: String
        var score: Int
    }
}

extension TwoTypes.Player: Encodable, MutablePersistableRecord {
    /// Updates auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

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
}

extension TwoTypes.PersistedPlayer: Codable, FetchableRecord, PersistableRecord {
    static var databaseTableName: String { "player" }
}

// MARK: - Sample code: TimestampedRecord

/// A record type that tracks its creation and modification dates. See
/// <https://swiftpackageindex.com/groue/GRDB.swift/documentation/grdb/recordtimestamps>
private protocol TimestampedRecord: MutablePersistableRecord {
    var creationDate: Date? { get set }
    var modificationDate: Date? { get set }
}

extension TimestampedRecord {
    /// By default, `TimestampedRecord` types set `creationDate` and
    /// `modificationDate` to the transaction date, if they are nil,
    /// before insertion.
    ///
    /// `TimestampedRecord` types that customize the `willInsert`
    /// persistence callback should call `initializeTimestamps` from
    /// their implementation.
    mutating func willInsert(_ db: Database) throws {
        try initializeTimestamps(db)
    }

    /// Sets `creationDate` and `modificationDate` to the transaction date,
    /// if they are nil.
    ///
    /// It is called automatically before insertion, if your type does not
    /// customize the `willInsert` persistence callback. If you customize
    /// this callback, call `initializeTimestamps` from your implementation.
    mutating func initializeTimestamps(_ db: Database) throws {
        if creationDate == nil {
            creationDate = try db.transactionDate
        }
        if modificationDate == nil {
            modificationDate = try db.transactionDate
        }
    }

    /// Sets `modificationDate`, and executes an `UPDATE` statement
    /// on all columns.
    ///
    /// - parameter modificationDate: The modification date. If nil, the
    ///   transaction date is used.
    mutating func updateWithTimestamp(_ db: Database, modificationDate: Date? = nil) throws {
        self.modificationDate = try modificationDate ?? db.transactionDate
        try update(db)
    }

    /// Modifies the record according to the provided `modify` closure, and,
    /// if and only if the record was modified, sets `modificationDate` and
    /// executes an `UPDATE` statement that updates the modified columns.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - modificationDate: The modification date. If nil, the
    ///       transaction date is used.
    ///     - modify: A closure that modifies the record.
    /// - returns: Whether the record was changed and updated.
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

    /// Sets `modificationDate`, and executes an `UPDATE` statement that
    /// updates the `modificationDate` column, if and only if the record
    /// was modified.
    ///
    /// - parameter modificationDate: The modification date. If nil, the
    ///   transaction date is used.
    mutating func touch(_ db: Database, modificationDate: Date? = nil) throws {
        try updateChanges(db) {
            $0.modificationDate = try modificationDate ?? db.transactionDate
        }
    }
}

private enum Timestamped {
    // The base Player type
    struct Player {
        var id: Int64?
        var creationDate: Date?
        var modificationDate: Date?
        var name: String
        var score: Int
    }
}

// Add database powers (read, write, timestamps)
extension Timestamped.Player: Codable, TimestampedRecord, FetchableRecord {
    /// Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Timestamped.Player {
    /// If the player has a non-nil primary key and a matching row in
    /// the database, the player is updated. Otherwise, it is inserted.
    mutating func saveWithTimestamp(_ db: Database) throws {
        // Test the presence of id first, so that we don't perform an
        // update that would surely throw RecordError.recordNotFound.
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

/// A database whose clock ticks, where `player` is inserted at `date(1000)`.
private func makeDatabase(inserting player: inout Timestamped.Player) throws -> DatabaseQueue {
    let dbQueue = try makeDatabase()
    try dbQueue.write { db in try player.insert(db) }
    return dbQueue
}

/// A player as stored in the database.
private func storedPlayer(_ dbQueue: DatabaseQueue, key: Int64 = 1) throws -> Timestamped.Player {
    try dbQueue.read { db in try Timestamped.Player.find(db, key: key) }
}

// MARK: - Tests

@Suite struct RecordTimestampsTests {
    @Test func anInsertedPlayerHasTimestamps() throws {
        let dbQueue = try makeDatabase()

        // A new player has no timestamps.
        var player = Insertion.Player(id: nil, name: "Arthur", score: 1000)
        #expect(player.id == nil)               // nil, because never saved
        #expect(player.creationDate == nil)     // nil, because never saved
        #expect(player.modificationDate == nil) // nil, because never saved

        // After insertion, the player has timestamps.
        try dbQueue.write { db in
            try player.insert(db)
        }
        #expect(player.id == 1)                      // not nil
        #expect(player.creationDate == date(1000))     // not nil
        #expect(player.modificationDate == date(1000)) // not nil

        // The timestamps are stored.
        let fetched = try dbQueue.read { db in try Insertion.Player.find(db, key: 1) }
        #expect(fetched.creationDate == date(1000))
        #expect(fetched.modificationDate == date(1000))
        // Dates are stored as UTC text, with milliseconds.
        let row = try dbQueue.read { db in
            try Row.fetchOne(db, sql: "SELECT creationDate, modificationDate FROM player")
        }
        #expect(row == ["creationDate": "1970-01-01 00:16:40.000", "modificationDate": "1970-01-01 00:16:40.000"])

        // An inserted record has both a creation and a modification date.
        try dbQueue.write { db in
            var player = Insertion.Player(name: "Barbara", score: 1000)
            try player.insert(db)
            #expect(player.creationDate == date(2000))     // not nil
            #expect(player.modificationDate == date(2000)) // not nil
        }
    }

    @Test func allPlayersOfATransactionHaveTheSameTimestamp() throws {
        // The default clock: the system date, frozen for the transaction.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try createPlayerTable(db) }
        let players = (0..<5).map { Insertion.Player(name: "Player \($0)", score: $0) }
        let before = Date()

        // All players have the same timestamp.
        try dbQueue.write { db in
            for var player in players {
                try player.insert(db)
                // The transaction date does not move.
                Thread.sleep(forTimeInterval: 0.002)
            }
        }

        let dates = try dbQueue.read { db in
            try Insertion.Player.fetchAll(db).compactMap(\.creationDate)
        }
        #expect(dates.count == 5)
        #expect(Set(dates).count == 1)
        // The default clock gives the current date.
        let date = try #require(dates.first)
        #expect(abs(date.timeIntervalSince(before)) < 3600)
    }

    @Test func theTransactionDateIsConstantInATransaction() throws {
        let clock = TickingClock()
        var config = Configuration()
        config.transactionClock = .custom { _ in clock.next() }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { (db: Database) throws in
            #expect(try db.transactionDate == date(1000))
            #expect(try db.transactionDate == date(1000))
            try db.inSavepoint { () throws -> Database.TransactionCompletion in
                #expect(try db.transactionDate == date(1000))
                return .commit
            }
        }
        try dbQueue.read { (db: Database) throws in
            #expect(try db.transactionDate == date(2000))
            #expect(try db.transactionDate == date(2000))
        }
        try dbQueue.writeWithoutTransaction { db in
            // Outside of a transaction, each read asks the clock.
            #expect(try db.transactionDate == date(3000))
            #expect(try db.transactionDate == date(4000))
            try db.inTransaction { () throws -> Database.TransactionCompletion in
                #expect(try db.transactionDate == date(5000))
                #expect(try db.transactionDate == date(5000))
                return .commit
            }
            #expect(try db.transactionDate == date(6000))
            // Transactions of raw SQL too.
            try db.execute(sql: "BEGIN")
            #expect(try db.transactionDate == date(7000))
            #expect(try db.transactionDate == date(7000))
            try db.execute(sql: "COMMIT; BEGIN")
            #expect(try db.transactionDate == date(8000))
            // A savepoint in a transaction keeps its date.
            try db.execute(sql: "SAVEPOINT nested")
            #expect(try db.transactionDate == date(8000))
            try db.execute(sql: "RELEASE nested; ROLLBACK")
            // A savepoint out of a transaction begins one.
            try db.execute(sql: "SAVEPOINT outer")
            #expect(try db.transactionDate == date(9000))
            try db.execute(sql: "RELEASE outer; SAVEPOINT other")
            #expect(try db.transactionDate == date(10000))
            try db.execute(sql: "RELEASE other")
        }
        #expect(clock.calls == 10)
    }

    @Test func theErrorsOfTheClockAreThrown() throws {
        struct ClockError: Error {}
        var config = Configuration()
        config.transactionClock = .custom { _ in throw ClockError() }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in try createPlayerTable(db) }
        #expect(throws: ClockError.self) {
            try dbQueue.write { db in
                var player = Insertion.Player(name: "Arthur", score: 1000)
                try player.insert(db)
            }
        }
        #expect(try dbQueue.read { db in try Insertion.Player.fetchCount(db) } == 0)
    }

    @Test func theModificationDateIsExplicitlyUpdated() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var player = Insertion.Player(name: "Arthur", score: 1000)
            try player.insert(db)
        }

        // Increment the player score (two different ways).
        try dbQueue.write { db in
            var player: Insertion.Player = try Insertion.Player.find(db, key: 1)

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

        let player = try dbQueue.read { db in try Insertion.Player.find(db, key: 1) }
        #expect(player.score == 1002)
        #expect(player.creationDate == date(1000))
        #expect(player.modificationDate == date(2000))
    }

    @Test func persistedPlayersHaveNonOptionalTimestamps() throws {
        let dbQueue = try makeDatabase()

        // Insert
        try dbQueue.write { db in
            var player = TwoTypes.Player(id: nil, name: "Arthur", score: 1000)
            #expect(player.id == nil)               // nil
            #expect(player.creationDate == nil)     // nil
            #expect(player.modificationDate == nil) // nil

            let persistedPlayer = try player.insertAndFetch(db, as: TwoTypes.PersistedPlayer.self)
            #expect(persistedPlayer.id == 1)                        // not optional
            #expect(persistedPlayer.creationDate == date(1000))     // not optional
            #expect(persistedPlayer.modificationDate == date(1000)) // not optional
            #expect(player.id == 1)
        }

        // Fetch
        try dbQueue.read { (db: Database) throws in
            let persistedPlayer = try TwoTypes.PersistedPlayer.find(db, id: 1)
            #expect(persistedPlayer.creationDate == date(1000))     // not optional
            #expect(persistedPlayer.modificationDate == date(1000)) // not optional
        }
    }

    @Test func timestampedRecordsSetTheirTimestampsOnInsertion() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            // An inserted record has both a creation and a modification date.
            var player = Timestamped.Player(name: "Arthur", score: 1000)
            try player.insert(db)
            #expect(player.creationDate == date(1000))     // not nil
            #expect(player.modificationDate == date(1000)) // not nil

            // Dates set before insertion are kept.
            var old = Timestamped.Player(creationDate: date(1), modificationDate: date(2), name: "Barbara", score: 0)
            try old.insert(db)
            #expect(try Timestamped.Player.find(db, key: 2).creationDate == date(1))
            #expect(try Timestamped.Player.find(db, key: 2).modificationDate == date(2))
        }
    }

    @Test func updateWithTimestampBumpsTheModificationDate() throws {
        var player = Timestamped.Player(name: "Arthur", score: 1000)
        let dbQueue = try makeDatabase(inserting: &player)

        try dbQueue.write { db in
            // Bump the modification date and update all columns in the database.
            player.score += 1
            try player.updateWithTimestamp(db)
        }
        #expect(player.modificationDate == date(2000))
        #expect(try storedPlayer(dbQueue).modificationDate == date(2000))

        try dbQueue.write { db in
            try player.updateWithTimestamp(db, modificationDate: date(42))
        }
        let stored = try storedPlayer(dbQueue)
        #expect(stored.score == 1001)
        #expect(stored.creationDate == date(1000))
        #expect(stored.modificationDate == date(42))
    }

    @Test func updateChangesWithTimestampBumpsTheDateOfModifiedRecordsOnly() throws {
        var player = Timestamped.Player(name: "Arthur", score: 1000)
        let dbQueue = try makeDatabase(inserting: &player)

        try dbQueue.write { db in
            // Only bump the modification date if record is changed, and only
            // update the changed columns.
            let modified = try player.updateChangesWithTimestamp(db) {
                $0.score = 1000
            }
            #expect(modified == false)
        }
        #expect(player.modificationDate == date(1000))
        #expect(try storedPlayer(dbQueue).modificationDate == date(1000))

        try dbQueue.write { db in
            // Another process changes the name: only the modified columns
            // are updated, and the name stays.
            try db.execute(sql: "UPDATE player SET name = 'Barbara'")
            let modified = try player.updateChangesWithTimestamp(db) {
                $0.score = 2000
            }
            #expect(modified)
        }
        var stored = try storedPlayer(dbQueue)
        #expect(stored.name == "Barbara")
        #expect(stored.score == 2000)
        #expect(stored.modificationDate == date(2000))

        try dbQueue.write { db in
            // Prefer updateChanges() if the modification date should always be
            // updated, even if other columns are not changed.
            let modified = try player.updateChanges(db) {
                $0.score = 2000
                $0.modificationDate = try db.transactionDate
            }
            #expect(modified)
        }
        stored = try storedPlayer(dbQueue)
        #expect(stored.score == 2000)
        #expect(stored.modificationDate == date(3000))
    }

    @Test func touchOnlyUpdatesTheModificationDate() throws {
        var player = Timestamped.Player(name: "Arthur", score: 1000)
        let dbQueue = try makeDatabase(inserting: &player)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = 0")
            // Only update the modification date in the database.
            try player.touch(db)
        }
        let stored = try storedPlayer(dbQueue)
        #expect(stored.score == 0)
        #expect(stored.creationDate == date(1000))
        #expect(stored.modificationDate == date(2000))
        #expect(player.modificationDate == date(2000))

        // An explicit modification date.
        try dbQueue.write { db in
            try player.touch(db, modificationDate: date(42))
        }
        #expect(try storedPlayer(dbQueue).modificationDate == date(42))
    }

    @Test func saveWithTimestampInsertsOrUpdates() throws {
        let dbQueue = try makeDatabase()
        var player = Timestamped.Player(name: "Arthur", score: 1000)
        try dbQueue.write { db in
            // No id: inserted.
            try player.saveWithTimestamp(db)
        }
        #expect(player.id == 1)
        #expect(player.creationDate == date(1000))

        try dbQueue.write { db in
            // An id and a row: updated.
            player.score = 1001
            try player.saveWithTimestamp(db)
        }
        #expect(player.modificationDate == date(2000))
        #expect(try dbQueue.read { db in try Timestamped.Player.fetchCount(db) } == 1)
        #expect(try storedPlayer(dbQueue).score == 1001)

        try dbQueue.write { db in
            // An id and no row: RecordError.recordNotFound, then inserted.
            _ = try Timestamped.Player.deleteAll(db)
            try player.saveWithTimestamp(db)
        }
        let stored = try dbQueue.read { db in try Timestamped.Player.fetchAll(db) }
        #expect(stored.map(\.id) == [1])
        #expect(stored.first?.score == 1001)
        #expect(stored.first?.creationDate == date(1000))
        #expect(stored.first?.modificationDate == date(3000))

        try dbQueue.write { db in
            // A new player with an id: RecordError.recordNotFound, then
            // inserted with its timestamps.
            var barbara = Timestamped.Player(id: 42, name: "Barbara", score: 500)
            try barbara.saveWithTimestamp(db)
            #expect(barbara.creationDate == date(4000))
        }
        #expect(try storedPlayer(dbQueue, key: 42).name == "Barbara")
    }
}
