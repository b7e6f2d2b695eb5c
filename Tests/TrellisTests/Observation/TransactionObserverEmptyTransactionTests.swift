import Testing
import Trellis

/// Transactions that write nothing: SQLite's commit hook does not run for
/// them, yet GRDB tells its observers of each commit. The expected events
/// are those of GRDB 7.10.0, run on the same statements.
@Suite struct TransactionObserverEmptyTransactionTests {
    final class EventLog: TransactionObserver, @unchecked Sendable {
        var events: [String] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { events.append("change") }
        func databaseWillCommit() throws { events.append("willCommit") }
        func databaseDidCommit(_ db: Database) { events.append("didCommit") }
        func databaseDidRollback(_ db: Database) { events.append("didRollback") }
    }

    final class Refuser: TransactionObserver, @unchecked Sendable {
        struct Refusal: Error {}
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseWillCommit() throws { throw Refusal() }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    private func events(_ body: (DatabaseQueue) throws -> Void) throws -> [String] {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let log = EventLog()
        dbQueue.add(transactionObserver: log)
        try body(dbQueue)
        return log.events
    }

    @Test func everyCommitIsTold() throws {
        #expect(try events { try $0.write { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } }
            == ["willCommit", "didCommit"])
        #expect(try events { try $0.writeWithoutTransaction { db in try db.execute(sql: "BEGIN; COMMIT") } }
            == ["willCommit", "didCommit"])
        #expect(try events { try $0.writeWithoutTransaction { db in try db.execute(sql: "BEGIN DEFERRED; SELECT * FROM t; END") } }
            == ["willCommit", "didCommit"])
        #expect(try events { try $0.writeWithoutTransaction { db in try db.execute(sql: "SAVEPOINT a; RELEASE a") } }
            == ["willCommit", "didCommit"])
        #expect(try events { try $0.writeWithoutTransaction { db in try db.inTransaction(.deferred) { .commit } } }
            == ["willCommit", "didCommit"])
    }

    @Test func rollbacksAndReadsAreToldAsBefore() throws {
        #expect(try events { try $0.writeWithoutTransaction { db in try db.execute(sql: "BEGIN; SELECT 1; ROLLBACK") } }
            == ["didRollback"])
        #expect(try events { try $0.writeWithoutTransaction { db in try db.inTransaction { .rollback } } }
            == ["didRollback"])
        // A savepoint inside a transaction does not commit when released.
        #expect(try events { try $0.writeWithoutTransaction { db in try db.execute(sql: "BEGIN; SAVEPOINT a; RELEASE a; COMMIT") } }
            == ["willCommit", "didCommit"])
        // Reads and statements outside transactions are not transactions
        // of the caller's.
        #expect(try events { try $0.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } } == [])
        #expect(try events { try $0.writeWithoutTransaction { db in _ = try Int.fetchOne(db, sql: "SELECT 1") } } == [])
    }

    @Test func anObserverCanRefuseAnEmptyCommit() throws {
        let dbQueue = try DatabaseQueue()
        let log = EventLog()
        dbQueue.add(transactionObserver: log)
        let refuser = Refuser()
        dbQueue.add(transactionObserver: refuser)  // observers are held weakly
        #expect(throws: Refuser.Refusal.self) {
            try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN; COMMIT") }
        }
        withExtendedLifetime(refuser) {}
        #expect(log.events == ["willCommit", "didRollback"])
        #expect(try dbQueue.writeWithoutTransaction { db in db.isInsideTransaction } == false)
        // The connection goes on.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }
}
