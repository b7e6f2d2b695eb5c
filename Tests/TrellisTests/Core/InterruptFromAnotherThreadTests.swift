import Foundation
import Testing
import Trellis

/// `interrupt()` called from another thread while a statement runs: the
/// access throws, its transaction rolls back, and the connection is usable
/// again afterwards (GRDB's "Interrupt a Database").
@Suite struct InterruptFromAnotherThreadTests {
    /// Signals once, when a statement that calls `statementIsRunning()`
    /// evaluates it for the first time.
    private final class RunningSignal: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var signaled = false

        func signalOnce() {
            lock.withLock {
                guard !signaled else { return }
                signaled = true
                semaphore.signal()
            }
        }
    }

    private func install(_ signal: RunningSignal, in db: Database) {
        db.add(function: DatabaseFunction("statementIsRunning", argumentCount: 0, pure: false) { _ in
            signal.signalOnce()
            return 1
        })
    }

    /// Statements that never end on their own: only the interruption stops
    /// them, so the test does not depend on timing.
    private static let endlessWrites = [
        """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
        INSERT INTO t SELECT x FROM c WHERE statementIsRunning()
        """,
        """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
        INSERT INTO document(content) SELECT 'word' || x FROM c WHERE statementIsRunning()
        """,
    ]

    /// Interrupts `writer` from another thread once the statement runs.
    private func interruptWhenRunning(_ writer: some DatabaseWriter, _ signal: RunningSignal) {
        Thread.detachNewThread {
            signal.semaphore.wait()
            writer.interrupt()
        }
    }

    private func setUp(_ writer: some DatabaseWriter, _ signal: RunningSignal) throws {
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE t(a);
                CREATE VIRTUAL TABLE document USING fts5(content);
                INSERT INTO t VALUES (-1);
                """)
        }
        // Every connection of a pool gets the function.
        try writer.writeWithoutTransaction { db in install(signal, in: db) }
    }

    private func checkInterruptedWrite(_ writer: some DatabaseWriter, _ signal: RunningSignal, sql: String) throws {
        interruptWhenRunning(writer, signal)
        let error = try #require(throws: DatabaseError.self) {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (0)")
                // An open cursor keeps a statement running besides the
                // interrupted one, as a fetch loop does.
                let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t")
                _ = try cursor.next()
                try db.execute(sql: sql)
            }
        }
        #expect(error.resultCode == .SQLITE_INTERRUPT)
        // Rolled back, and usable again.
        try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try writer.read { try Int.fetchAll($0, sql: "SELECT a FROM t ORDER BY a") } == [-1, 1])
        #expect(try writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM document") } == 0)
    }

    @Test(arguments: [0, 1])
    func anInterruptedWriteOfAQueueRollsBackAndTheQueueStaysUsable(statement: Int) throws {
        let dbQueue = try DatabaseQueue()
        let signal = RunningSignal()
        try setUp(dbQueue, signal)
        try checkInterruptedWrite(dbQueue, signal, sql: Self.endlessWrites[statement])
    }

    @Test(arguments: [0, 1])
    func anInterruptedWriteOfAPoolRollsBackAndThePoolStaysUsable(statement: Int) throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("interrupt-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let dbPool = try DatabasePool(path: path)
        let signal = RunningSignal()
        try setUp(dbPool, signal)
        try checkInterruptedWrite(dbPool, signal, sql: Self.endlessWrites[statement])
    }

    /// A statement left running (here by a cursor kept past its access)
    /// would make SQLite interrupt every later statement of the connection,
    /// ROLLBACK included: the interrupted access resets it.
    @Test func aStatementLeftRunningDoesNotKeepTheConnectionInterrupted() throws {
        let dbQueue = try DatabaseQueue()
        let signal = RunningSignal()
        try setUp(dbQueue, signal)
        let keptCursor = try dbQueue.read { db in
            let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t")
            _ = try cursor.next()
            return cursor
        }
        interruptWhenRunning(dbQueue, signal)
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: Self.endlessWrites[0]) }
        }
        #expect(error.resultCode == .SQLITE_INTERRUPT)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t ORDER BY a") } == [-1, 2])
        withExtendedLifetime(keptCursor) {}
    }
}
