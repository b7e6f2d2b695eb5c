import Foundation
import Testing
import Trellis

/// A `Database` used after the closure of its access returned throws a
/// misuse error, and runs nothing.
@Suite struct EscapedDatabaseTests {
    private func expectMisuse(_ body: () throws -> Void) {
        let error = #expect(throws: DatabaseError.self) { try body() }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message?.contains("outside of its access") == true)
    }

    @Test func anEscapedDatabaseOfAQueueThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let escaped = try dbQueue.read { db in db }
        expectMisuse { try escaped.execute(sql: "INSERT INTO t VALUES (1)") }
        expectMisuse { _ = try Int.fetchOne(escaped, sql: "SELECT count(*) FROM t") }
        expectMisuse { _ = try escaped.makeStatement(sql: "SELECT 1") }
        // Nothing ran.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func anEscapedDatabaseOfAPoolThrows() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("escaped-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let reader = try dbPool.read { db in db }
        let writer = try dbPool.write { db in db }
        expectMisuse { _ = try Int.fetchOne(reader, sql: "SELECT count(*) FROM t") }
        expectMisuse { try writer.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 0)
    }

    /// A statement kept past its access throws the same error.
    @Test func anEscapedStatementThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let statement = try dbQueue.write { db in try db.makeStatement(sql: "INSERT INTO t VALUES (1)") }
        expectMisuse { try statement.execute() }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 0)
    }

    /// The connection works again in its next access.
    @Test func theDatabaseWorksInItsNextAccess() throws {
        let dbQueue = try DatabaseQueue()
        let escaped = dbQueue.inDatabase { db in db }
        expectMisuse { try escaped.execute(sql: "CREATE TABLE t(a)") }
        try dbQueue.inDatabase { db in
            #expect(db === escaped)
            try db.execute(sql: "CREATE TABLE t(a)")
        }
    }
}
