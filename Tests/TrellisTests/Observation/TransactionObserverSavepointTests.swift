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

/// One step of a savepoint scenario.
private enum Step: Sendable, ExpressibleByStringLiteral {
    /// Executes the SQL.
    case sql(String)
    /// Inserts a player with this score.
    case insert(Int)
    /// Logs `-- text`.
    case mark(String)
    /// Logs `-- text, in transaction: true` (or false).
    case markTransactionState(String)

    init(stringLiteral sql: String) {
        self = .sql(sql)
    }
}

/// A script of steps, how it accesses the database, what the observer
/// logs, and the scores of the players it leaves.
private struct Scenario: Sendable, CustomTestStringConvertible {
    enum Access: Sendable {
        case write, inTransaction, withoutTransaction
    }

    var behaviour: String
    var access: Access
    var observedTable: String? = nil
    var steps: [Step]
    var events: [String]
    var scores: [Int]

    var testDescription: String { behaviour }
}

@Suite struct TransactionObserverSavepointTests {
    /// A database with player 1 (score 0), without observer.
    private func makePlayerDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER);
                INSERT INTO player (score) VALUES (0);
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                """)
        }
        return dbQueue
    }

    /// A database with player 1, and an observer of all tables.
    private func makeDatabase(observer: EventLog = EventLog()) throws -> (DatabaseQueue, EventLog) {
        let dbQueue = try makePlayerDatabase()
        dbQueue.add(transactionObserver: observer)
        return (dbQueue, observer)
    }

    private func insert(_ db: Database, _ score: Int) throws {
        try db.execute(sql: "INSERT INTO player (score) VALUES (?)", arguments: [score])
    }

    private func scores(_ dbQueue: DatabaseQueue) throws -> [Int] {
        try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") }
    }

    private func play(_ steps: [Step], on db: Database, log: EventLog) throws {
        for step in steps {
            switch step {
            case let .sql(sql):
                try db.execute(sql: sql)
            case let .insert(score):
                try insert(db, score)
            case let .mark(text):
                log.mark(text)
            case let .markTransactionState(text):
                log.mark("\(text), in transaction: \(db.isInsideTransaction)")
            }
        }
    }

    private static let scenarios: [Scenario] = [
        Scenario(
            behaviour: "A nested savepoint released into its parent waits for the parent",
            access: .inTransaction,
            steps: [
                "SAVEPOINT a", "UPDATE player SET score = 1 WHERE id = 1",
                "SAVEPOINT b", .insert(2), "RELEASE b", .mark("released b"),
                "SAVEPOINT c", .insert(3), "ROLLBACK TO c", .mark("rolled back to c"),
                .insert(4), "RELEASE a", .mark("released a"),
            ],
            events: [
                "-- released b",
                "-- rolled back to c",
                "didChange update player 1",
                "didChange insert player 2",
                "didChange insert player 3",
                "-- released a",
                "willCommit",
                "didCommit",
            ],
            scores: [1, 2, 4]),
        Scenario(
            behaviour: "Releasing a savepoint releases the savepoints inside it",
            access: .inTransaction,
            steps: ["SAVEPOINT a", .insert(2), "SAVEPOINT b", .insert(3), "RELEASE a", .mark("released a")],
            events: ["didChange insert player 2", "didChange insert player 3", "-- released a", "willCommit", "didCommit"],
            scores: [0, 2, 3]),
        Scenario(
            behaviour: "Rolling back to a savepoint drops the changes of the savepoints inside it",
            access: .inTransaction,
            steps: [
                "SAVEPOINT a", .insert(2), "SAVEPOINT b", .insert(3), "ROLLBACK TO a", .mark("rolled back to a"),
                .insert(4), "RELEASE a", .mark("released a"),
            ],
            events: ["-- rolled back to a", "didChange insert player 2", "-- released a", "willCommit", "didCommit"],
            scores: [0, 4]),
        Scenario(
            behaviour: "A savepoint rolled back to stays open and keeps the changes that follow",
            access: .inTransaction,
            steps: ["SAVEPOINT a", .insert(2), "ROLLBACK TO a", .insert(3), .mark("before release"), "RELEASE a"],
            events: ["-- before release", "didChange insert player 2", "willCommit", "didCommit"],
            scores: [0, 3]),
        Scenario(
            behaviour: "A commit delivers the changes of the savepoints left open",
            access: .withoutTransaction,
            steps: [
                "BEGIN", .insert(1), "SAVEPOINT a", .insert(2), .mark("before commit"),
                "COMMIT", .mark("after commit"), .insert(3),
            ],
            events: [
                "didChange insert player 2",
                "-- before commit",
                "didChange insert player 3",
                "willCommit",
                "didCommit",
                "-- after commit",
                "didChange insert player 4",
                "willCommit",
                "didCommit",
            ],
            scores: [0, 1, 2, 3]),
        Scenario(
            behaviour: "A rollback drops the changes of the savepoints left open",
            access: .withoutTransaction,
            steps: [
                "BEGIN", .insert(1), "SAVEPOINT a", .insert(2), .mark("before rollback"),
                "ROLLBACK", .mark("after rollback"), .insert(3),
            ],
            events: [
                "didChange insert player 2",
                "-- before rollback",
                "didRollback",
                "-- after rollback",
                "didChange insert player 2",
                "willCommit",
                "didCommit",
            ],
            scores: [0, 3]),
        Scenario(
            behaviour: "A savepoint that begins the transaction commits when released",
            access: .withoutTransaction,
            steps: [
                "SAVEPOINT a", .insert(1), .markTransactionState("in a"),
                "SAVEPOINT b", .insert(2), "RELEASE b", .mark("released b"),
                "RELEASE a", .markTransactionState("released a"),
            ],
            events: [
                "-- in a, in transaction: true",
                "-- released b",
                "didChange insert player 2",
                "didChange insert player 3",
                "willCommit",
                "didCommit",
                "-- released a, in transaction: false",
            ],
            scores: [0, 1, 2]),
        Scenario(
            behaviour: "A savepoint that begins the transaction can be rolled back to, then released",
            access: .withoutTransaction,
            steps: [
                "SAVEPOINT a", .insert(1), "ROLLBACK TO a", .markTransactionState("rolled back to a"),
                .insert(2), "RELEASE a", .markTransactionState("released a"),
            ],
            events: [
                "-- rolled back to a, in transaction: true",
                "didChange insert player 2",
                "willCommit",
                "didCommit",
                "-- released a, in transaction: false",
            ],
            scores: [0, 2]),
        Scenario(
            behaviour: "A savepoint that begins the transaction ends with COMMIT or ROLLBACK",
            access: .withoutTransaction,
            steps: [
                "SAVEPOINT a", .insert(1), "SAVEPOINT b", .insert(2), .mark("before commit"),
                "COMMIT", .mark("after commit"),
                "SAVEPOINT c", .insert(3), "ROLLBACK", .markTransactionState("after rollback"),
            ],
            events: [
                "-- before commit",
                "didChange insert player 2",
                "didChange insert player 3",
                "willCommit",
                "didCommit",
                "-- after commit",
                "didRollback",
                "-- after rollback, in transaction: false",
            ],
            scores: [0, 1, 2]),
        Scenario(
            behaviour: "Events are filtered when they happen, and delivered when released",
            access: .write,
            observedTable: "team",
            steps: [
                "SAVEPOINT a", .insert(1), "INSERT INTO team (name) VALUES ('Reds')",
                .mark("before release"), "RELEASE a",
            ],
            events: ["-- before release", "didChange insert team 1", "willCommit", "didCommit"],
            scores: [0, 1]),
        Scenario(
            behaviour: "Savepoint names ignore case, and the innermost of two namesakes is released",
            access: .write,
            steps: [
                "SAVEPOINT a", .insert(1), "SAVEPOINT A", .insert(2), "RELEASE a", .mark("released inner a"),
                .insert(3), #"RELEASE "A""#, .mark("released outer a"),
            ],
            events: [
                "-- released inner a",
                "didChange insert player 2",
                "didChange insert player 3",
                "didChange insert player 4",
                "-- released outer a",
                "willCommit",
                "didCommit",
            ],
            scores: [0, 1, 2, 3]),
        Scenario(
            behaviour: "The rows of a DELETE rolled back to are not notified",
            access: .write,
            steps: ["SAVEPOINT a", "DELETE FROM player", "ROLLBACK TRANSACTION TO SAVEPOINT a", "RELEASE SAVEPOINT a"],
            events: ["willCommit", "didCommit"],
            scores: [0]),
        Scenario(
            behaviour: "The savepoints of multiple-statement SQL are followed",
            access: .write,
            steps: [
                """
                SAVEPOINT a; INSERT INTO player (score) VALUES (1); RELEASE a;
                SAVEPOINT b; INSERT INTO player (score) VALUES (2);
                """,
                .mark("after execute"), "ROLLBACK TO b",
            ],
            events: ["didChange insert player 2", "-- after execute", "willCommit", "didCommit"],
            scores: [0, 1]),
    ]

    @Test(arguments: scenarios)
    private func changesReachObserversWhenSavepointsEnd(_ scenario: Scenario) throws {
        let (dbQueue, log) = try makeDatabase(observer: EventLog(observing: scenario.observedTable))
        switch scenario.access {
        case .write:
            try dbQueue.write { db in try play(scenario.steps, on: db, log: log) }
        case .inTransaction:
            try dbQueue.inTransaction { db in
                try play(scenario.steps, on: db, log: log)
                return .commit
            }
        case .withoutTransaction:
            try dbQueue.writeWithoutTransaction { db in try play(scenario.steps, on: db, log: log) }
        }
        #expect(log.events == scenario.events)
        #expect(try scores(dbQueue) == scenario.scores)
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
        #expect(try scores(dbQueue) == [0])
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
        #expect(try scores(dbQueue) == [0, 2])
    }

    @Test func anObserverThatStopsObservingStopsDuringTheDeliveryOfASavepoint() throws {
        let log = EventLog()
        log.stopsAfterEachChange = true
        let (dbQueue, _) = try makeDatabase(observer: log)
        try dbQueue.write { db in
            try play([.insert(1), "SAVEPOINT a", .insert(2), "RELEASE a"], on: db, log: log)
        }
        #expect(log.events == ["didChange insert player 2", "willCommit", "didCommit"])
        log.events = []
        try dbQueue.write { db in
            try play(
                ["SAVEPOINT a", .insert(3), .insert(4), .mark("before release"), "RELEASE a", .insert(5)],
                on: db, log: log)
        }
        #expect(log.events == ["-- before release", "didChange insert player 4", "willCommit", "didCommit"])
    }

    @Test func notifiedChangesAreNotDelayedBySavepoints() throws {
        let (dbQueue, log) = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.notifyChanges(in: Table("player"))
            try play([.mark("notified"), "ROLLBACK TO a", "RELEASE a", .mark("released")], on: db, log: log)
        }
        #expect(log.events == ["didChange()", "-- notified", "-- released", "willCommit", "didCommit"])
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

    @Test func anObserverAddedInsideASavepointGetsTheChangesMadeAfterwards() throws {
        let (dbQueue, log) = try makeDatabase()
        let late = EventLog()
        try dbQueue.write { db in
            try play(["SAVEPOINT a", .insert(1)], on: db, log: log)
            db.add(transactionObserver: late, extent: .nextTransaction)
            try play([.insert(2), "RELEASE a"], on: db, log: log)
        }
        #expect(log.events == ["didChange insert player 2", "didChange insert player 3", "willCommit", "didCommit"])
        #expect(late.events == ["didChange insert player 3", "willCommit", "didCommit"])
    }

    @Test func theOnlyObserverAddedInsideASavepointSeesItRolledBack() throws {
        let dbQueue = try makePlayerDatabase()
        let log = EventLog()
        try dbQueue.write { db in
            try play(["SAVEPOINT a", .insert(1)], on: db, log: log)
            db.add(transactionObserver: log, extent: .databaseLifetime)
            try play(
                [.insert(2), .mark("before rollback to"), "ROLLBACK TO a", .insert(3), .mark("before release"), "RELEASE a"],
                on: db, log: log)
        }
        #expect(log.events == ["-- before rollback to", "-- before release", "didChange insert player 2", "willCommit", "didCommit"])
    }

    @Test func anObserverRemovedAndAddedAgainInsideASavepointGetsItsChanges() throws {
        let dbQueue = try makePlayerDatabase()
        let log = EventLog()
        dbQueue.add(transactionObserver: log, extent: .databaseLifetime)
        try dbQueue.write { db in
            try play(["SAVEPOINT a", .insert(1)], on: db, log: log)
            db.remove(transactionObserver: log)
            db.add(transactionObserver: log, extent: .databaseLifetime)
            try play([.insert(2), .mark("before release"), "RELEASE a"], on: db, log: log)
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
