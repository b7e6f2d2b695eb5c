import Testing
import Trellis

/// `DatabaseQueue.inDatabase` takes closures that throw, and closures that
/// do not, which need no `try`, as GRDB's `rethrows` method does.
@Suite struct DatabaseQueueInDatabaseTests {
    @Test func aClosureThatDoesNotThrowNeedsNoTry() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
        }
        // No `try`: this line would not compile with a throwing method.
        let changes: Int = dbQueue.inDatabase { db in db.totalChangesCount }
        #expect(changes == 2)
        let isInsideTransaction = dbQueue.inDatabase { db in db.isInsideTransaction }
        #expect(isInsideTransaction == false)
    }

    @Test func aClosureThatDoesNotThrowNeedsNoTryInAnAsynchronousFunction() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        // Neither `try` nor `await`: the synchronous method, as in GRDB.
        let changes = dbQueue.inDatabase { db in db.totalChangesCount }
        #expect(changes == 1)
        let count = try dbQueue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 1)
    }

    @Test func aThrowingClosureStillThrowsOnAClosedConnection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        #expect {
            try dbQueue.inDatabase { db in try db.execute(sql: "SELECT 1") }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
        }
        // A closure that can not throw gets the closed connection.
        let isClosed = dbQueue.inDatabase { db in db.isClosed }
        #expect(isClosed)
    }

    @Test func aThrowingClosureStillThrowsInsteadOfDeadlocking() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { _ in
            _ = #expect {
                try dbQueue.inDatabase { db in try db.execute(sql: "SELECT 1") }
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
            }
        }
    }

    @Test func aClosureThatDoesNotThrowRunsInTheAccessOfItsCaller() throws {
        let dbQueue = try DatabaseQueue()
        let nested = try dbQueue.write { _ in
            dbQueue.inDatabase { db in db.isInsideTransaction }
        }
        // The nested call ran in the transaction of `write`.
        #expect(nested)
    }
}
