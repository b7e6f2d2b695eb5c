import Foundation
import Testing
import Trellis

// Changes made inside savepoints reach transaction observers when the
// savepoint is released into the transaction, and never when it is rolled
// back. Each expected list is what GRDB 7 calls in the same scenario (run
// against GRDB itself; Trellis asks `observes(eventsOfKind:)` at other
// moments, so those calls are not logged).

private struct Refusal: Error {}

/// Logs its callbacks, and the marks that the scenario adds between them.
private final class EventLog: TransactionObserver, @unchecked Sendable {
    // Called on the writer queue; read after the accesses.
    var events: [String] = []
    var observedTable: String?
    var refusesCommit = false
    var stopsAfterEachChange = false

    init(observing table: String? = nil) {
        observedTable = table
    }

    func mark(_ text: String) {
        events.append("-- \(text)")
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        observedTable.map { eventKind.tableName == $0 } ?? true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        events.append("didChange \(event.kind) \(event.tableName) \(event.rowID)")
        if stopsAfterEachChange { stopObservingDatabaseChangesUntilNextTransaction() }
    }

    func databaseDidChange() {
        events.append("didChange()")
    }

    func databaseWillCommit() throws {
        events.append("willCommit")
        if refusesCommit { throw Refusal() }
    }

    func databaseDidCommit(_ db: Database) {
        events.append("didCommit")
    }

    func databaseDidRollback(_ db: Database) {
        events.append("didRollback")
    }
}

@Suite struct TransactionObserverSavepointTests {
    /// A database with player 1, and an observer of all tables.
    private func makeDatabase(observer: EventLog = EventLog()) throws -> (DatabaseQueue, EventLog) {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER);
                INSERT INTO player (score) VALUES (0);
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                """)
        }
        dbQueue.add(transactionObserver: observer)
        return (dbQueue, observer)
    }

    private func insert(_ db: Database, _ score: Int) throws {
        try db.execute(sql: "INSERT INTO player (score) VALUES (?)", arguments: [score])
    }

    private func playerCount(_ dbQueue: DatabaseQueue) throws -> Int? {
        try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
    }

    @Test func aNestedSavepointReleasedIntoItsParentWaitsForTheParent() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.inTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 1")
            try db.execute(sql: "SAVEPOINT b")
            try insert(db, 2)
            try db.execute(sql: "RELEASE b")
            log.mark("released b")
            try db.execute(sql: "SAVEPOINT c")
            try insert(db, 3)
            try db.execute(sql: "ROLLBACK TO c")
            log.mark("rolled back to c")
            try insert(db, 4)
            try db.execute(sql: "RELEASE a")
            log.mark("released a")
            return .commit
        }
        #expect(log.events == [
            "-- released b",
            "-- rolled back to c",
            "didChange update player 1",
            "didChange insert player 2",
            "didChange insert player 3",
            "-- released a",
            "willCommit",
            "didCommit",
        ])
        #expect(try playerCount(dbQueue) == 3)
    }

    @Test func releasingASavepointReleasesTheSavepointsInsideIt() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.inTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 2)
            try db.execute(sql: "SAVEPOINT b")
            try insert(db, 3)
            try db.execute(sql: "RELEASE a")
            log.mark("released a")
            return .commit
        }
        #expect(log.events == ["didChange insert player 2", "didChange insert player 3", "-- released a", "willCommit", "didCommit"])
    }

    @Test func rollingBackToASavepointDropsTheChangesOfTheSavepointsInsideIt() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.inTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 2)
            try db.execute(sql: "SAVEPOINT b")
            try insert(db, 3)
            try db.execute(sql: "ROLLBACK TO a")
            log.mark("rolled back to a")
            try insert(db, 4)
            try db.execute(sql: "RELEASE a")
            log.mark("released a")
            return .commit
        }
        #expect(log.events == ["-- rolled back to a", "didChange insert player 2", "-- released a", "willCommit", "didCommit"])
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") } == [0, 4])
    }

    @Test func aSavepointRolledBackToStaysOpenAndKeepsTheChangesThatFollow() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.inTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 2)
            try db.execute(sql: "ROLLBACK TO a")
            try insert(db, 3)
            log.mark("before release")
            try db.execute(sql: "RELEASE a")
            return .commit
        }
        #expect(log.events == ["-- before release", "didChange insert player 2", "willCommit", "didCommit"])
    }

    @Test func aCommitDeliversTheChangesOfTheSavepointsLeftOpen() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try insert(db, 1)
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 2)
            log.mark("before commit")
            try db.execute(sql: "COMMIT")
            log.mark("after commit")
            try insert(db, 3)
        }
        #expect(log.events == [
            "didChange insert player 2",
            "-- before commit",
            "didChange insert player 3",
            "willCommit",
            "didCommit",
            "-- after commit",
            "didChange insert player 4",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func aRollbackDropsTheChangesOfTheSavepointsLeftOpen() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try insert(db, 1)
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 2)
            log.mark("before rollback")
            try db.execute(sql: "ROLLBACK")
            log.mark("after rollback")
            try insert(db, 3)
        }
        #expect(log.events == [
            "didChange insert player 2",
            "-- before rollback",
            "didRollback",
            "-- after rollback",
            "didChange insert player 2",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func aSavepointThatBeginsTheTransactionCommitsWhenReleased() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            log.mark("in a, in transaction: \(db.isInsideTransaction)")
            try db.execute(sql: "SAVEPOINT b")
            try insert(db, 2)
            try db.execute(sql: "RELEASE b")
            log.mark("released b")
            try db.execute(sql: "RELEASE a")
            log.mark("released a, in transaction: \(db.isInsideTransaction)")
        }
        #expect(log.events == [
            "-- in a, in transaction: true",
            "-- released b",
            "didChange insert player 2",
            "didChange insert player 3",
            "willCommit",
            "didCommit",
            "-- released a, in transaction: false",
        ])
        #expect(try playerCount(dbQueue) == 3)
    }

    @Test func aSavepointThatBeginsTheTransactionCanBeRolledBackToThenReleased() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            try db.execute(sql: "ROLLBACK TO a")
            log.mark("rolled back to a, in transaction: \(db.isInsideTransaction)")
            try insert(db, 2)
            try db.execute(sql: "RELEASE a")
            log.mark("released a, in transaction: \(db.isInsideTransaction)")
        }
        #expect(log.events == [
            "-- rolled back to a, in transaction: true",
            "didChange insert player 2",
            "willCommit",
            "didCommit",
            "-- released a, in transaction: false",
        ])
    }

    @Test func aSavepointThatBeginsTheTransactionEndsWithCommitOrRollback() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            try db.execute(sql: "SAVEPOINT b")
            try insert(db, 2)
            log.mark("before commit")
            try db.execute(sql: "COMMIT")
            log.mark("after commit")
            try db.execute(sql: "SAVEPOINT c")
            try insert(db, 3)
            try db.execute(sql: "ROLLBACK")
            log.mark("after rollback, in transaction: \(db.isInsideTransaction)")
        }
        #expect(log.events == [
            "-- before commit",
            "didChange insert player 2",
            "didChange insert player 3",
            "willCommit",
            "didCommit",
            "-- after commit",
            "didRollback",
            "-- after rollback, in transaction: false",
        ])
        #expect(try playerCount(dbQueue) == 3)
    }

    @Test func anObserverThatRefusesTheCommitOfAReleaseRollsItBack() throws {
        // GRDB stops on an assertion in this case; Trellis throws the
        // observer's error from RELEASE, as from COMMIT.
        let log = EventLog()
        log.refusesCommit = true
        let (dbQueue, _) = try makeDatabase(observer: log)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            #expect(throws: Refusal.self) { try db.execute(sql: "RELEASE a") }
            #expect(!db.isInsideTransaction)
        }
        #expect(log.events == ["didChange insert player 2", "willCommit", "didRollback"])
        #expect(try playerCount(dbQueue) == 1)
    }

    @Test func inSavepointOutsideOfATransactionIsTheTransaction() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.inSavepoint {
                try insert(db, 1)
                log.mark("in savepoint")
                try db.inSavepoint {
                    try insert(db, 2)
                    log.mark("in nested")
                    return .commit
                }
                log.mark("after nested")
                try db.inSavepoint {
                    try insert(db, 3)
                    return .rollback
                }
                log.mark("after nested rollback")
                return .commit
            }
            try db.inSavepoint {
                try insert(db, 4)
                return .rollback
            }
        }
        #expect(log.events == [
            "didChange insert player 2",
            "-- in savepoint",
            "-- in nested",
            "didChange insert player 3",
            "-- after nested",
            "-- after nested rollback",
            "willCommit",
            "didCommit",
            "didChange insert player 4",
            "didRollback",
        ])
    }

    @Test func inSavepointThatThrowsDropsItsChanges() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.write { db in
            #expect(throws: Refusal.self) {
                try db.inSavepoint {
                    try insert(db, 1)
                    throw Refusal()
                }
            }
            try insert(db, 2)
        }
        #expect(log.events == ["didChange insert player 2", "willCommit", "didCommit"])
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") } == [0, 2])
    }

    @Test func eventsAreFilteredWhenTheyHappenAndDeliveredWhenReleased() throws {
        let (dbQueue, log) = try makeDatabase(observer: EventLog(observing: "team"))
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')")
            log.mark("before release")
            try db.execute(sql: "RELEASE a")
        }
        #expect(log.events == ["-- before release", "didChange insert team 1", "willCommit", "didCommit"])
    }

    @Test func anObserverThatStopsObservingStopsDuringTheDeliveryOfASavepoint() throws {
        let log = EventLog()
        log.stopsAfterEachChange = true
        let (dbQueue, _) = try makeDatabase(observer: log)
        try dbQueue.write { db in
            try insert(db, 1)
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 2)
            try db.execute(sql: "RELEASE a")
        }
        #expect(log.events == ["didChange insert player 2", "willCommit", "didCommit"])
        log.events = []
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 3)
            try insert(db, 4)
            log.mark("before release")
            try db.execute(sql: "RELEASE a")
            try insert(db, 5)
        }
        #expect(log.events == ["-- before release", "didChange insert player 4", "willCommit", "didCommit"])
    }

    @Test func notifiedChangesAreNotDelayedBySavepoints() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.notifyChanges(in: Table("player"))
            log.mark("notified")
            try db.execute(sql: "ROLLBACK TO a")
            try db.execute(sql: "RELEASE a")
            log.mark("released")
        }
        #expect(log.events == ["didChange()", "-- notified", "-- released", "willCommit", "didCommit"])
    }

    @Test func savepointNamesIgnoreCaseAndTheInnermostOfTwoNamesakesIsReleased() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            try db.execute(sql: "SAVEPOINT A")
            try insert(db, 2)
            try db.execute(sql: "RELEASE a")
            log.mark("released inner a")
            try insert(db, 3)
            try db.execute(sql: "RELEASE \"A\"")
            log.mark("released outer a")
        }
        #expect(log.events == [
            "-- released inner a",
            "didChange insert player 2",
            "didChange insert player 3",
            "didChange insert player 4",
            "-- released outer a",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func releasingAnUnknownSavepointFailsAndChangesNothing() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "RELEASE nope") }
            #expect(error?.message == "no such savepoint: nope")
            log.mark("still in a")
            try db.execute(sql: "RELEASE a")
        }
        #expect(log.events == ["-- still in a", "didChange insert player 2", "willCommit", "didCommit"])
    }

    @Test func theRowsOfADeleteRolledBackToAreNotNotified() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.execute(sql: "DELETE FROM player")
            try db.execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT a")
            try db.execute(sql: "RELEASE SAVEPOINT a")
        }
        #expect(log.events == ["willCommit", "didCommit"])
        #expect(try playerCount(dbQueue) == 1)
    }

    @Test func savepointsOfMultipleStatementSQLAreFollowed() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: """
                SAVEPOINT a; INSERT INTO player (score) VALUES (1); RELEASE a;
                SAVEPOINT b; INSERT INTO player (score) VALUES (2);
                """)
            log.mark("after execute")
            try db.execute(sql: "ROLLBACK TO b")
        }
        #expect(log.events == ["didChange insert player 2", "-- after execute", "willCommit", "didCommit"])
    }

    @Test func anObserverAddedInsideASavepointGetsTheChangesMadeAfterwards() throws {
        let (dbQueue, log) = try makeDatabase()
        let late = EventLog()
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            db.add(transactionObserver: late, extent: .nextTransaction)
            try insert(db, 2)
            try db.execute(sql: "RELEASE a")
        }
        #expect(log.events == ["didChange insert player 2", "didChange insert player 3", "willCommit", "didCommit"])
        #expect(late.events == ["didChange insert player 3", "willCommit", "didCommit"])
    }

    @Test func theOnlyObserverAddedInsideASavepointSeesItRolledBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER); INSERT INTO player (score) VALUES (0)")
        }
        let log = EventLog()
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            db.add(transactionObserver: log, extent: .databaseLifetime)
            try insert(db, 2)
            log.mark("before rollback to")
            try db.execute(sql: "ROLLBACK TO a")
            try insert(db, 3)
            log.mark("before release")
            try db.execute(sql: "RELEASE a")
        }
        #expect(log.events == ["-- before rollback to", "-- before release", "didChange insert player 2", "willCommit", "didCommit"])
    }

    @Test func anObserverRemovedAndAddedAgainInsideASavepointGetsItsChanges() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER); INSERT INTO player (score) VALUES (0)")
        }
        let log = EventLog()
        dbQueue.add(transactionObserver: log, extent: .databaseLifetime)
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try insert(db, 1)
            db.remove(transactionObserver: log)
            db.add(transactionObserver: log, extent: .databaseLifetime)
            try insert(db, 2)
            log.mark("before release")
            try db.execute(sql: "RELEASE a")
        }
        #expect(log.events == ["-- before release", "didChange insert player 2", "didChange insert player 3", "willCommit", "didCommit"])
    }

    @Test func theSavepointsOfAFinishedTransactionAreForgotten() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE; SAVEPOINT a; COMMIT; BEGIN")
            try insert(db, 1)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "RELEASE a") }
            try insert(db, 2)
            log.mark("before commit")
            try db.execute(sql: "COMMIT")
        }
        #expect(log.events == [
            "willCommit",
            "didCommit",
            "didChange insert player 2",
            "didChange insert player 3",
            "-- before commit",
            "willCommit",
            "didCommit",
        ])
    }
}
