import Foundation
import Testing
import Trellis

// GRDB's TransactionObserver page (Extension/TransactionObserver.md): the
// order of the callbacks in each sample, as GRDB 7 calls them (checked
// with GRDB itself).

private struct TestError: Error {}

/// Logs its callbacks.
private final class EventLog: TransactionObserver, @unchecked Sendable {
    // Called on the writer queue; read after the accesses.
    var events: [String] = []
    var refusesCommit = false
    var observedTable: String?

    init(observing table: String? = nil) {
        observedTable = table
    }

    func take() -> [String] {
        defer { events = [] }
        return events
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        observedTable.map { eventKind.tableName == $0 } ?? true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        events.append("didChange \(event.kind) \(event.tableName) \(event.rowID)")
    }

    func databaseDidChange() {
        events.append("didChange()")
    }

    func databaseWillCommit() throws {
        events.append("willCommit")
        if refusesCommit { throw TestError() }
    }

    func databaseDidCommit(_ db: Database) {
        events.append("didCommit")
    }

    func databaseDidRollback(_ db: Database) {
        events.append("didRollback")
    }
}

/// The observer of "Filtering Database Events" and "Observation Extent".
private final class PlayerObserver: TransactionObserver, @unchecked Sendable {
    var playerTableWasModified = false
    var changeCount = 0
    var commitCount = 0

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "player"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        playerTableWasModified = true
        changeCount += 1

        // It is pointless to keep on tracking further changes:
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) { commitCount += 1 }
    func databaseDidRollback(_ db: Database) {}
}

@Suite struct TransactionObserverDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, score INT);
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE nickname (id INTEGER PRIMARY KEY, name TEXT UNIQUE ON CONFLICT REPLACE);
                CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID;
                """)
        }
        return dbQueue
    }

    @Test func changesAreNotifiedBeforeTheTransactionEnds() throws {
        let dbQueue = try makeDatabase()
        let observer = EventLog()
        dbQueue.add(transactionObserver: observer)

        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (1)") // 1. didChange
            try db.execute(sql: "UPDATE player SET score = 2")           // 2. didChange
        }                                                                 // 3. willCommit, 4. didCommit
        #expect(observer.take() == ["didChange insert player 1", "didChange update player 1", "willCommit", "didCommit"])

        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (1)") // 1. didChange
            try db.execute(sql: "UPDATE player SET score = 3")           // 2. didChange
            return .rollback                                              // 3. didRollback
        }
        #expect(observer.take() == ["didChange insert player 2", "didChange update player 1", "didChange update player 2", "didRollback"])

        #expect(throws: TestError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (score) VALUES (1)") // 1. didChange
                throw TestError()
            }                                                                 // 2. didRollback
        }
        #expect(observer.take() == ["didChange insert player 2", "didRollback"])
    }

    @Test func statementsOutsideOfTransactionsAreNotified() throws {
        let dbQueue = try makeDatabase()
        let observer = EventLog()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (1)")      // 1. didChange, 2. willCommit, 3. didCommit
            try db.execute(sql: "UPDATE player SET score = 3 WHERE id = 1")  // 4. didChange, 5. willCommit, 6. didCommit
        }
        #expect(observer.take() == [
            "didChange insert player 1", "willCommit", "didCommit",
            "didChange update player 1", "willCommit", "didCommit",
        ])
        // A read-only access is not notified.
        try dbQueue.read { db in _ = try Int.fetchAll(db, sql: "SELECT id FROM player") }
        #expect(observer.take() == [])
    }

    @Test func changesInSavepointsAreNotifiedWhenTheSavepointIsReleased() throws {
        let dbQueue = try makeDatabase()
        let observer = EventLog()
        dbQueue.add(transactionObserver: observer)
        try delaysChangesOfSavepoints(dbQueue, observer)

        // A savepoint outside of a transaction is the transaction: nothing
        // is delayed.
        try dbQueue.writeWithoutTransaction { db in
            try db.inSavepoint {
                try db.execute(sql: "UPDATE player SET score = 22 WHERE id = 1")
                observer.events.append("-- in savepoint")
                return .commit
            }
        }
        #expect(observer.take() == ["didChange update player 1", "-- in savepoint", "willCommit", "didCommit"])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1") } == 22)
    }

    private func delaysChangesOfSavepoints(_ dbQueue: DatabaseQueue, _ observer: EventLog) throws {
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (10)")            // 1. didChange

            try db.execute(sql: "SAVEPOINT foo")
            try db.execute(sql: "UPDATE player SET score = 11 WHERE id = 1")        // delayed
            try db.execute(sql: "UPDATE player SET score = 12 WHERE id = 1")        // delayed
            observer.events.append("-- before release")
            try db.execute(sql: "RELEASE SAVEPOINT foo")                             // 2. didChange, 3. didChange

            try db.execute(sql: "SAVEPOINT bar")
            try db.execute(sql: "UPDATE player SET score = 13 WHERE id = 1")        // not notified
            try db.execute(sql: "ROLLBACK TO SAVEPOINT bar")
            try db.execute(sql: "RELEASE SAVEPOINT bar")

            return .commit                                                           // 4. willCommit, 5. didCommit
        }
        #expect(observer.take() == [
            "didChange insert player 1",
            "-- before release",
            "didChange update player 1",
            "didChange update player 1",
            "willCommit",
            "didCommit",
        ])

        // The same with inSavepoint.
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "UPDATE player SET score = 20 WHERE id = 1")
                observer.events.append("-- in savepoint")
                return .commit
            }
            try db.inSavepoint {
                try db.execute(sql: "UPDATE player SET score = 21 WHERE id = 1")
                return .rollback
            }
        }
        #expect(observer.take() == ["-- in savepoint", "didChange update player 1", "willCommit", "didCommit"])
    }

    @Test func errorsOfWillCommitRollBackAndAreThrown() throws {
        let dbQueue = try makeDatabase()
        let observer = EventLog()
        observer.refusesCommit = true
        dbQueue.add(transactionObserver: observer)
        #expect(throws: TestError.self) {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO player (score) VALUES (1)")
                return .commit // 1. willCommit (throws), 2. didRollback
            }
        }
        #expect(observer.take() == ["didChange insert player 1", "willCommit", "didRollback"])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func observersChooseTheirEvents() throws {
        let dbQueue = try makeDatabase()
        let teamObserver = EventLog(observing: "team")
        dbQueue.add(transactionObserver: teamObserver)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (1)")
            try db.execute(sql: "UPDATE player SET score = score + 1")
        }
        // Still notified of transactions.
        #expect(teamObserver.take() == ["willCommit", "didCommit"])
    }

    @Test func undetectedChanges() throws {
        let dbQueue = try makeDatabase()
        let observer = EventLog()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO nickname (name) VALUES ('a')")
            // The deletion of the conflicting row is not notified.
            try db.execute(sql: "INSERT INTO nickname (name) VALUES ('a')")
            // Changes to WITHOUT ROWID tables are not notified.
            try db.execute(sql: "INSERT INTO tag (name) VALUES ('x')")
        }
        #expect(observer.take() == ["didChange insert nickname 1", "didChange insert nickname 2", "willCommit", "didCommit"])

        // `DELETE FROM player` reports each row.
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (1), (2)")
        }
        _ = observer.take()
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(observer.take() == ["didChange delete player 1", "didChange delete player 2", "willCommit", "didCommit"])
    }

    @Test func notifyChangesCallsDatabaseDidChange() throws {
        let dbQueue = try makeDatabase()
        let playerObserver = EventLog(observing: "player")
        let teamObserver = EventLog(observing: "team")
        let schemaObserver = EventLog(observing: "sqlite_master")
        for observer in [playerObserver, teamObserver, schemaObserver] {
            dbQueue.add(transactionObserver: observer)
        }
        // The calls to `databaseDidChange()`, without the transaction
        // events (see `writeTransactionsWithoutChangesAreNotified`).
        func notifiedChanges(_ observer: EventLog) -> [String] {
            observer.take().filter { $0 == "didChange()" }
        }

        try dbQueue.write { db in
            // Notify observers that some changes were performed in the player table
            try db.notifyChanges(in: Table("player"))
        }
        #expect(notifiedChanges(playerObserver) == ["didChange()"])
        #expect(notifiedChanges(teamObserver) == [])
        #expect(notifiedChanges(schemaObserver) == [])

        try dbQueue.write { db in
            // Notify observers that some changes were performed in the database
            try db.notifyChanges(in: .fullDatabase)
        }
        #expect(notifiedChanges(playerObserver) == ["didChange()"])
        #expect(notifiedChanges(teamObserver) == ["didChange()"])
        #expect(notifiedChanges(schemaObserver) == [])

        try dbQueue.write { db in
            // Notify all observers of the sqlite_master table
            try db.notifyChanges(in: Table("sqlite_master"))
        }
        #expect(notifiedChanges(schemaObserver) == ["didChange()"])
        #expect(notifiedChanges(playerObserver) == [])

        // A request is a region too; a read access notifies nothing.
        try dbQueue.write { db in try db.notifyChanges(in: Table("team").all()) }
        #expect(notifiedChanges(teamObserver) == ["didChange()"])
        try dbQueue.read { db in try db.notifyChanges(in: Table("team")) }
        #expect(teamObserver.take() == [])

        // Along with real changes, in the order of the calls. (Each write
        // transaction above committed too: IMMEDIATE transactions are
        // reported even when they change nothing, as in GRDB.)
        _ = playerObserver.take()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (1)")
            try db.notifyChanges(in: Table("player"))
        }
        #expect(playerObserver.take() == ["didChange insert player 1", "didChange()", "willCommit", "didCommit"])
    }

    @Test func writeTransactionsWithoutChangesAreNotified() throws {
        let dbQueue = try makeDatabase()
        let observer = EventLog()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction(.immediate) { _ in .commit }
        try dbQueue.inTransaction(.immediate) { _ in .rollback }
        #expect(observer.take() == ["willCommit", "didCommit", "didRollback"])
        try dbQueue.write { _ in }
        #expect(observer.take() == ["willCommit", "didCommit"])
    }

    @Test func stopObservingDatabaseChangesUntilNextTransaction() throws {
        let dbQueue = try makeDatabase()
        let observer = PlayerObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (score) VALUES (1), (2)")
            try db.execute(sql: "INSERT INTO player (score) VALUES (3)")
        }
        #expect(observer.playerTableWasModified)
        #expect(observer.changeCount == 1)
        #expect(observer.commitCount == 1)
        // The next transaction is observed again.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (score) VALUES (4)") }
        #expect(observer.changeCount == 2)
        #expect(observer.commitCount == 2)
    }

    @Test func observationExtent() throws {
        let dbQueue = try makeDatabase()
        func insertPlayer() throws {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (score) VALUES (1)") }
        }

        // The default extent: until the observer is deallocated.
        var weakObserver: PlayerObserver? = PlayerObserver()
        weak let deallocated = weakObserver
        if let weakObserver { dbQueue.add(transactionObserver: weakObserver) }
        try insertPlayer()
        #expect(weakObserver?.commitCount == 1)
        weakObserver = nil
        #expect(deallocated == nil)

        // `remove(transactionObserver:)` stops notifications.
        let removed = PlayerObserver()
        dbQueue.add(transactionObserver: removed, extent: .observerLifetime)
        dbQueue.remove(transactionObserver: removed)
        let removedInDatabase = PlayerObserver()
        dbQueue.add(transactionObserver: removedInDatabase)
        dbQueue.inDatabase { db in
            db.remove(transactionObserver: removedInDatabase)
        }
        try insertPlayer()
        #expect(removed.commitCount == 0)
        #expect(removedInDatabase.commitCount == 0)

        // `.nextTransaction`: until the next transaction ends.
        let once = PlayerObserver()
        dbQueue.add(transactionObserver: once, extent: .nextTransaction)
        try insertPlayer()
        try insertPlayer()
        #expect(once.commitCount == 1)

        // `.databaseLifetime`: retained by the database.
        weak var retained: PlayerObserver?
        do {
            let observer = PlayerObserver()
            retained = observer
            dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)
        }
        try insertPlayer()
        #expect(retained?.commitCount == 1)
    }
}
