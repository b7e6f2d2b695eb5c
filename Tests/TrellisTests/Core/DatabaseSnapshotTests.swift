import Foundation
import Testing
import Trellis

@Suite struct DatabaseSnapshotTests {
    /// A pool on a new file with two players, and the cleanup of its files.
    private func makePool(configuration: Configuration = Configuration()) throws -> (DatabasePool, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString).sqlite").path
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur'), ('Barbara')")
        }
        return (dbPool, path)
    }

    private func removeFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func playerCount(_ reader: some DatabaseReader) throws -> Int? {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
    }

    @Test func aSnapshotKeepsSeeingTheDatabaseAsItWas() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "DELETE FROM player WHERE name = 'Arthur'") }
        #expect(try playerCount(dbPool) == 1)
        #expect(try playerCount(snapshot) == 2)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE team (name TEXT)") }
        #expect(try snapshot.read { db in try db.tableExists("team") } == false)
        #expect(try playerCount(snapshot) == 2)
        #expect(snapshot.path == dbPool.path)
        #expect(snapshot.configuration.readonly)
    }

    @Test func aSnapshotRefusesWrites() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let snapshot = try dbPool.makeSnapshot()
        let error = #expect(throws: DatabaseError.self) {
            try snapshot.read { db in try db.execute(sql: "DELETE FROM player") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(throws: DatabaseError.self) {
            try snapshot.unsafeRead { db in try db.execute(sql: "DELETE FROM player") }
        }
        #expect(try playerCount(snapshot) == 2)
    }

    @Test func aSnapshotMadeInAWriteAccessSeesItsCommittedWrites() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let snapshot = try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player VALUES ('Craig')")
            return try dbPool.makeSnapshot()
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player VALUES ('David')") }
        #expect(try playerCount(snapshot) == 3)
    }

    @Test func makingASnapshotInsideATransactionThrows() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.write { _ in try dbPool.makeSnapshot() }
        }
        #expect(error?.message == "makeSnapshot() must not be called from inside a transaction.")
    }

    @Test func aSnapshotReadsAsynchronously() async throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let snapshot = try dbPool.makeSnapshot()
        try await dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        let count = try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        #expect(count == 2)
        let delivered = await withCheckedContinuation { continuation in
            snapshot.asyncRead { result in
                continuation.resume(returning: (try? result.get()).flatMap { db in
                    try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
                })
            }
        }
        #expect(delivered == 2)
    }

    @Test func aClosedSnapshotThrows() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        let snapshot = try dbPool.makeSnapshot()
        try snapshot.close()
        #expect(throws: DatabaseError.self) { try playerCount(snapshot) }
        // The pool goes on.
        #expect(try playerCount(dbPool) == 2)
    }

    @Test func aReadOnlyPoolMakesSnapshots() throws {
        let (dbPool, path) = try makePool()
        defer { removeFiles(path) }
        var configuration = Configuration()
        configuration.readonly = true
        let readOnlyPool = try DatabasePool(path: path, configuration: configuration)
        let snapshot = try readOnlyPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(try playerCount(snapshot) == 2)
        #expect(try playerCount(readOnlyPool) == 0)
    }
}
