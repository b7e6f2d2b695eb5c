import Foundation
import Testing
import Trellis

// `releaseMemory()` frees SQLite's caches and the statements Trellis keeps
// for reuse: the observable part is that a cached statement is prepared
// again afterwards. The tests hold the old statements, so that a new one
// can not take the address of a freed one.
@Suite struct ReleaseMemoryTests {
    private let sql = "SELECT COUNT(*) FROM player"

    private func makePoolPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("release-\(UUID().uuidString).sqlite").path
    }

    private func removeFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func theStatementsOfADatabaseAreForgotten() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
            let statement = try db.cachedStatement(sql: sql)
            #expect(try db.cachedStatement(sql: sql) === statement)
            db.releaseMemory()
            #expect(try db.cachedStatement(sql: sql) !== statement)
            #expect(try Int.fetchOne(db.cachedStatement(sql: sql)) == 0)
        }
    }

    @Test func aQueueReleasesItsConnectionBetweenAccessesOrInsideOne() throws {
        let dbQueue = try DatabaseQueue()
        let first = try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
            return try db.cachedStatement(sql: sql)
        }
        dbQueue.releaseMemory()
        let second = try dbQueue.read { db in try db.cachedStatement(sql: sql) }
        #expect(second !== first)
        // From an access of the queue, without waiting for itself.
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.cachedStatement(sql: sql)
            dbQueue.releaseMemory()
            #expect(try db.cachedStatement(sql: sql) !== statement)
        }
    }

    @Test func aPoolReleasesItsWriterAndItsReaders() throws {
        let path = makePoolPath()
        defer { removeFiles(path) }
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let writerStatement = try dbPool.writeWithoutTransaction { db in try db.cachedStatement(sql: sql) }
        let readerStatement = try dbPool.read { db in try db.cachedStatement(sql: sql) }
        dbPool.releaseMemory()
        #expect(try dbPool.writeWithoutTransaction { db in try db.cachedStatement(sql: sql) } !== writerStatement)
        #expect(try dbPool.read { db in try db.cachedStatement(sql: sql) } !== readerStatement)
    }

    @Test func aPoolReleasesEventuallyAfterTheAccessesItRuns() throws {
        let path = makePoolPath()
        defer { removeFiles(path) }
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let writerStatement = try dbPool.writeWithoutTransaction { db in try db.cachedStatement(sql: sql) }
        let readerStatement = try dbPool.read { db in try db.cachedStatement(sql: sql) }
        dbPool.releaseMemoryEventually()
        // Each connection runs its accesses in order: these come after.
        #expect(try dbPool.writeWithoutTransaction { db in try db.cachedStatement(sql: sql) } !== writerStatement)
        #expect(try dbPool.read { db in try db.cachedStatement(sql: sql) } !== readerStatement)
    }

    @Test func aClosedQueueHasNothingToRelease() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        dbQueue.releaseMemory()
        #expect(throws: DatabaseError.self) { try dbQueue.read { _ in } }
    }
}
