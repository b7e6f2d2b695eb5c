import Foundation
import Testing
import Trellis

// GRDB's README, "Memory Management": the snippets run as written. The
// observable effect of freeing memory is that a cached statement is
// prepared again.
@Suite struct GRDBCompatReadmeMemoryManagementTests {
    @Test func releasingMemory() throws {
        let path = StatementTrace.temporaryPath("memory")
        defer { StatementTrace.removeDatabase(at: path) }
        let sql = "SELECT COUNT(*) FROM player"
        let dbQueue = try DatabaseQueue()
        let dbPool = try DatabasePool(path: path)
        for writer in [dbQueue, dbPool] as [any DatabaseWriter] {
            try writer.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        }
        let queueStatement = try dbQueue.read { db in try db.cachedStatement(sql: sql) }

        // Release as much memory as possible.
        dbQueue.releaseMemory()
        dbPool.releaseMemory()
        #expect(try dbQueue.read { db in try db.cachedStatement(sql: sql) } !== queueStatement)

        // On a DatabaseQueue
        let semaphore = DispatchSemaphore(value: 0)
        dbQueue.asyncWriteWithoutTransaction { db in
            db.releaseMemory()
            semaphore.signal()
        }
        semaphore.wait()
        // On a DatabasePool
        dbPool.releaseMemoryEventually()
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: sql) } == 0)
    }

    @Test func automaticMemoryManagementCanBeTurnedOff() throws {
        #expect(Configuration().automaticMemoryManagement)
        var config = Configuration()
        config.automaticMemoryManagement = false
        let dbQueue = try DatabaseQueue(configuration: config) // or DatabasePool
        #expect(dbQueue.configuration.automaticMemoryManagement == false)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
}
