import Foundation
import Testing
import Trellis

/// An interrupted write rolls its transaction back; the statements that
/// follow in the same `write` throw `SQLITE_ABORT`, and the connection is
/// usable once the write returns (GRDB's "Interrupt a Database").
@Suite struct InterruptTransactionTests {
    /// A queue whose `interruptNow()` SQL function interrupts the queue from
    /// inside the statement that calls it: the interruption reaches a
    /// running statement, whatever the timing.
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        let interrupt = DatabaseFunction("interruptNow", argumentCount: 0, pure: false) { [weak dbQueue] _ in
            dbQueue?.interrupt()
            return 1
        }
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            db.add(function: interrupt)
            try db.execute(sql: """
                CREATE TABLE t(a);
                CREATE VIRTUAL TABLE document USING fts5(content);
                INSERT INTO document(content) VALUES ('seed');
                """)
        }
        return dbQueue
    }

    private let interruptedInserts = [
        "INSERT INTO t SELECT value FROM json_each('[1,2,3]') WHERE interruptNow()",
        "INSERT INTO document(content) SELECT 'hello ' || value FROM json_each('[1,2,3]') WHERE interruptNow()",
        "INSERT INTO document(content) VALUES ('a ' || interruptNow())",
    ]

    @Test(arguments: [0, 1, 2])
    func anInterruptedWriteRollsBackAndTheConnectionStaysUsable(insert: Int) throws {
        let dbQueue = try makeDatabase()
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.write { (db: Database) throws in
                try db.execute(sql: "INSERT INTO t VALUES (0)")
                do {
                    try db.execute(sql: interruptedInserts[insert])
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_INTERRUPT)
                }
                try db.execute(sql: "INSERT INTO t VALUES (100)")
            }
        }
        #expect(error.resultCode == .SQLITE_ABORT)
        try dbQueue.write { (db: Database) throws in
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [])
            try db.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO document(content) VALUES ('after')")
        }
        #expect(try dbQueue.read { (db: Database) throws in try Int.fetchOne(db, sql: "SELECT count(*) FROM document") } == 2)
    }
}
