import Foundation
import Testing
import Trellis

/// The statements a connection runs, as its trace reports them.
private final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func append(_ statement: String) {
        lock.lock()
        statements.append(statement)
        lock.unlock()
    }

    var transactionStatements: [String] {
        lock.lock()
        defer { lock.unlock() }
        return statements.filter { $0.hasPrefix("BEGIN") }
    }
}

@Suite struct TransactionKindTests {
    @Test func writesAreImmediateAndReadsDeferredAsInGRDB7() throws {
        let dbQueue = try DatabaseQueue()
        let log = StatementLog()
        dbQueue.inDatabase { db in db.trace { log.append($0.description) } }
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        try dbQueue.inDatabase { db in
            try db.inTransaction { .commit }
            try db.inTransaction(.exclusive) { .commit }
        }
        #expect(log.transactionStatements == [
            "BEGIN IMMEDIATE TRANSACTION", "BEGIN DEFERRED TRANSACTION",
            "BEGIN IMMEDIATE TRANSACTION", "BEGIN EXCLUSIVE TRANSACTION",
        ])
    }

    @Test func theConfiguredKindAppliesToWrites() throws {
        var configuration = Configuration()
        configuration.defaultTransactionKind = .deferred
        let dbQueue = try DatabaseQueue(configuration: configuration)
        let log = StatementLog()
        dbQueue.inDatabase { db in db.trace { log.append($0.description) } }
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(log.transactionStatements == ["BEGIN DEFERRED TRANSACTION"])
    }

    @Test func poolReadersNeverOpenImmediateTransactions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let log = StatementLog()
        try dbPool.unsafeReentrantRead { db in
            db.trace { log.append($0.description) }
            try db.inTransaction { .commit }
        }
        #expect(log.transactionStatements == ["BEGIN DEFERRED TRANSACTION"])
    }
}

@Suite struct DatabasePoolWriteInTransactionTests {
    @Test func theClosureCommitsOrRollsBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        try dbPool.writeInTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            return .commit
        }
        try dbPool.writeInTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            return .rollback
        }
        #expect(throws: DatabaseError.self) {
            try dbPool.writeInTransaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                try db.execute(sql: "INSERT INTO missing VALUES (4)")
                return .commit
            }
        }
        #expect(try dbPool.read { try Int.fetchAll($0, sql: "SELECT a FROM t") } == [1])
    }
}
