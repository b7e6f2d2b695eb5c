import Foundation
import Testing
import Trellis

// Transactions and errors as application layers handle them: explicit
// transactions that commit or roll back, savepoints that undo part of a
// write, work scheduled after the next commit, errors matched by result
// code or by case, and observations whose fetch fails.

private struct Ledger: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
    var id: Int64
    var amount: Int
}

private func makeLedgerQueue() throws -> DatabaseQueue {
    var config = Configuration()
    config.foreignKeysEnabled = true
    let dbQueue = try DatabaseQueue(configuration: config)
    try dbQueue.write { db in
        try db.create(table: "ledger") { t in
            t.primaryKey("id", .integer)
            t.column("amount", .integer).notNull().check { $0 >= 0 }
        }
        try db.create(table: "line") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("ledger", onDelete: .restrict).notNull()
        }
    }
    return dbQueue
}

@Suite("App usage: transactions and errors")
struct AppUsageTransactionsTests {
    @Test("inTransaction commits or rolls back as the closure says")
    func inTransaction() throws {
        let dbQueue = try makeLedgerQueue()
        try dbQueue.inTransaction { db in
            try Ledger(id: 1, amount: 10).insert(db)
            return .commit
        }
        try dbQueue.inTransaction { db in
            try Ledger(id: 2, amount: 20).insert(db)
            return .rollback
        }
        let (inside, ids) = try dbQueue.inDatabase { db in
            (db.isInsideTransaction, try Ledger.fetchAll(db).map(\.id))
        }
        #expect(!inside)
        #expect(ids == [1])
    }

    @Test("A savepoint rolled back undoes its part of the write only")
    func savepoint() throws {
        let dbQueue = try makeLedgerQueue()
        try dbQueue.write { db in
            try Ledger(id: 1, amount: 10).insert(db)
            try db.inSavepoint {
                try Ledger(id: 2, amount: 20).insert(db)
                return .rollback
            }
            try db.inSavepoint {
                try Ledger(id: 3, amount: 30).insert(db)
                return .commit
            }
        }
        #expect(try dbQueue.read { db in try Ledger.fetchAll(db).map(\.id) } == [1, 3])
    }

    @Test("An error thrown in write rolls back the whole write, and afterNextTransaction sees the outcome")
    func writeRollsBack() throws {
        struct Abort: Error {}
        let dbQueue = try makeLedgerQueue()
        let outcomes = Outcomes()
        #expect(throws: Abort.self) {
            try dbQueue.write { db in
                db.afterNextTransaction { _ in outcomes.append("commit") } onRollback: { _ in outcomes.append("rollback") }
                try Ledger(id: 1, amount: 10).insert(db)
                throw Abort()
            }
        }
        try dbQueue.write { db in
            db.afterNextTransaction { _ in outcomes.append("commit") }
            try Ledger(id: 2, amount: 20).insert(db)
        }
        #expect(outcomes.values == ["rollback", "commit"])
        #expect(try dbQueue.read { db in try Ledger.fetchAll(db).map(\.id) } == [2])
    }

    @Test("Constraint errors are told apart by their extended result codes")
    func constraintErrors() throws {
        let dbQueue = try makeLedgerQueue()
        try dbQueue.write { db in
            try Ledger(id: 1, amount: 10).insert(db)
            try db.execute(sql: "INSERT INTO line (ledgerId) VALUES (1)")
        }
        func code(_ sql: String) -> ResultCode? {
            do {
                try dbQueue.write { db in try db.execute(sql: sql) }
                return nil
            } catch let error as DatabaseError {
                return error.extendedResultCode
            } catch {
                return nil
            }
        }
        #expect(code("INSERT INTO ledger (id, amount) VALUES (1, 5)") == .SQLITE_CONSTRAINT_PRIMARYKEY)
        #expect(code("INSERT INTO ledger (id, amount) VALUES (2, -5)") == .SQLITE_CONSTRAINT_CHECK)
        #expect(code("INSERT INTO ledger (id) VALUES (3)") == .SQLITE_CONSTRAINT_NOTNULL)
        // SQLite reports an ON DELETE RESTRICT violation as a trigger's.
        #expect(code("DELETE FROM ledger") == .SQLITE_CONSTRAINT_TRIGGER)
        #expect(code("INSERT INTO line (ledgerId) VALUES (42)") == .SQLITE_CONSTRAINT_FOREIGNKEY)
        do {
            try dbQueue.write { db in try Ledger(id: 1, amount: 1).insert(db) }
            Issue.record("Expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.message == "UNIQUE constraint failed: ledger.id")
            #expect(error.sql?.hasPrefix("INSERT INTO \"ledger\"") == true)
        }
    }

    @Test("find throws RecordError.recordNotFound, matched by case, and fetchOne returns nil")
    func recordNotFound() throws {
        let dbQueue = try makeLedgerQueue()
        do {
            _ = try dbQueue.read { db in try Ledger.find(db, id: 7) }
            Issue.record("Expected an error")
        } catch RecordError.recordNotFound(databaseTableName: let table, key: let key) {
            #expect(table == "ledger")
            #expect(key == ["id": 7.databaseValue])
        }
        #expect(try dbQueue.read { db in try Ledger.fetchOne(db, id: 7) } == nil)
    }

    @Test("An observation whose fetch fails ends with the error")
    func failingObservation() async throws {
        let dbQueue = try makeLedgerQueue()
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missingTable") ?? 0
        }
        await #expect(throws: DatabaseError.self) {
            for try await _ in observation.values(in: dbQueue) {}
        }
    }
}

private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ value: String) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
