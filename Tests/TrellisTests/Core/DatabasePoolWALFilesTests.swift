import Foundation
import Testing
import Trellis

/// A pool opens its database in the WAL mode: the `-wal` and `-shm` files
/// exist as soon as it is open, as with GRDB.
@Suite struct DatabasePoolWALFilesTests {
    @Test func aNewPoolHasItsWALFilesRightAfterOpening() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wal-files-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try dbPool.read { (db: Database) throws in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        try dbPool.close()
    }

    @Test func aQueueInTheWALModeHasItsWALFilesRightAfterOpening() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wal-queue-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = Configuration()
        configuration.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        try dbQueue.close()
    }
}
