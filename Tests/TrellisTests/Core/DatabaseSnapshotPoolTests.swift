import Foundation
import Testing
import Trellis

@Suite struct DatabaseSnapshotPoolTests {
    /// A pool on a new file with two players, and the cleanup of its files.
    private func makePool() throws -> (DatabasePool, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-pool-\(UUID().uuidString).sqlite").path
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur'), ('Barbara')")
        }
        return (dbPool, path)
    }

    private func removeFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func playerCount(_ reader: some DatabaseSnapshotReader) throws -> Int? {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
    }

    @Test func aSnapshotPoolKeepsSeeingTheDatabaseAsItWas() async throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let snapshotPool = try dbPool.makeSnapshotPool()
        try await dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(try playerCount(snapshotPool) == 2)
        #expect(try await snapshotPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        #expect(snapshotPool.path == dbPool.path)
        #expect(throws: DatabaseError.self) {
            try snapshotPool.read { db in try db.execute(sql: "DELETE FROM player") }
        }
    }

    @Test func aSnapshotPoolOpensOnAWALFileAndRefusesOthers() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let snapshotPool = try DatabaseSnapshotPool(path: path)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Craig')") }
        #expect(try playerCount(snapshotPool) == 2)
        try snapshotPool.close()
        #expect(throws: DatabaseError.self) { try playerCount(snapshotPool) }

        let otherPath = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-pool-\(UUID().uuidString).sqlite").path
        defer { removeFiles(otherPath) }
        let dbQueue = try DatabaseQueue(path: otherPath)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (name TEXT)") }
        try dbQueue.close()
        #expect(throws: DatabaseError.self) { try DatabaseSnapshotPool(path: otherPath) }
    }

    @Test func aSnapshotPoolCanNotBeMadeInsideATransaction() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        try dbPool.write { _ in
            #expect(throws: DatabaseError.self) { try dbPool.makeSnapshotPool() }
            return
        }
    }
}
