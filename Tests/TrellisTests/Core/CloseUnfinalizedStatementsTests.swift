import Foundation
import Testing
import Trellis

/// A connection that can not close because statements were kept past their
/// access throws `SQLITE_BUSY` and reports each statement to the error log,
/// as GRDB does. The connection is closed all the same for later accesses.
@Suite struct CloseUnfinalizedStatementsTests {
    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var _lines: [(ResultCode, String)] = []
        func append(_ code: ResultCode, _ message: String) { lock.withLock { _lines.append((code, message)) } }
        var lines: [(ResultCode, String)] { lock.withLock { _lines } }
    }

    /// Runs `body` with the error log set, and returns what `marker`
    /// lines were logged. The error log is a process-wide setting that
    /// another test may change meanwhile: a few attempts are made.
    private func logging(marker: String, _ body: () throws -> Void) throws -> [(ResultCode, String)] {
        var found: [(ResultCode, String)] = []
        for _ in 0..<5 {
            let log = Log()
            Database.logError = { code, message in log.append(code, message) }
            defer { Database.logError = nil }
            try body()
            found = log.lines.filter { $0.1.contains(marker) }
            if !found.isEmpty { break }
        }
        return found
    }

    @Test func aQueueReportsItsUnfinalizedStatements() throws {
        var closeErrors: [DatabaseError] = []
        var keptStatements: [Statement] = []
        let logged = try logging(marker: "kept_by_queue_test") {
            let dbQueue = try DatabaseQueue()
            let statement = try dbQueue.read { (db: Database) throws in try db.makeStatement(sql: "SELECT 'kept_by_queue_test'") }
            keptStatements.append(statement)
            do {
                try dbQueue.close()
            } catch let error as DatabaseError {
                closeErrors.append(error)
            }
            // Closed for Trellis, whatever the statement.
            #expect(throws: DatabaseError.self) { try dbQueue.read { (db: Database) throws in try db.execute(sql: "SELECT 1") } }
        }
        #expect(closeErrors.first?.resultCode == .SQLITE_BUSY)
        #expect(logged.first?.0 == .SQLITE_BUSY)
        #expect(logged.first?.1 == "unfinalized statement: SELECT 'kept_by_queue_test'")
        keptStatements.removeAll()
    }

    @Test func aPoolReportsItsUnfinalizedStatementsAndClosesAllConnections() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("close-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var closeErrors: [DatabaseError] = []
        var keptStatements: [Statement] = []
        let logged = try logging(marker: "kept_by_pool_test") {
            let dbPool = try DatabasePool(path: path)
            let statement = try dbPool.read { (db: Database) throws in try db.makeStatement(sql: "SELECT 'kept_by_pool_test'") }
            keptStatements.append(statement)
            do {
                try dbPool.close()
            } catch let error as DatabaseError {
                closeErrors.append(error)
            }
            // The writer closed too.
            #expect(throws: DatabaseError.self) { try dbPool.write { (db: Database) throws in try db.execute(sql: "CREATE TABLE t(a)") } }
        }
        #expect(closeErrors.first?.resultCode == .SQLITE_BUSY)
        #expect(logged.first?.1 == "unfinalized statement: SELECT 'kept_by_pool_test'")
        keptStatements.removeAll()
    }

    @Test func aConnectionWithoutKeptStatementsClosesWithoutError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)")
            _ = try Row.fetchAll(db, sql: "SELECT * FROM t")
            _ = try Int.fetchOne(db.cachedStatement(sql: "SELECT a FROM t"))
        }
        try dbQueue.close()
    }
}
