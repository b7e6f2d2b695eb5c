import Foundation
import Testing
import Trellis

// `DatabaseSnapshotReader.reentrantRead(_:)`, which GRDB lists for
// snapshots: a read that can be nested in another read of the snapshot.

@Suite struct SnapshotReentrantReadDocTests {
    private func makePool() throws -> (DatabasePool, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reentrant-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
        }
        return (dbPool, directory)
    }

    private func count(_ reader: some DatabaseSnapshotReader) throws -> Int? {
        let count = try reader.reentrantRead { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM player")
        }
        // Nested in a read of the same snapshot.
        let nested = try reader.read { _ in
            try reader.reentrantRead { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM player") }
        }
        #expect(nested == count)
        return count
    }

    @Test func reentrantReadOfASnapshot() throws {
        let (dbPool, directory) = try makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let snapshot = try dbPool.makeSnapshot()
        let snapshotPool = try dbPool.makeSnapshotPool()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        // The snapshots do not see the insert.
        #expect(try count(snapshot) == 2)
        #expect(try count(snapshotPool) == 2)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM player") } == 3)
    }

    @Test func reentrantReadIsReadOnly() throws {
        let (dbPool, directory) = try makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let snapshot = try dbPool.makeSnapshot()
        #expect(throws: DatabaseError.self) {
            try snapshot.reentrantRead { db in try db.execute(sql: "DELETE FROM player") }
        }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM player") } == 2)
    }
}

// `DatabaseSnapshotPool.init(_:configuration:)`, run as GRDB's
// documentation writes it.
@Suite struct SnapshotPoolFromDatabaseDocTests {
    private struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }

    private func makePool() throws -> (DatabasePool, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshotpool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try Player(id: 1, name: "Arthur").insert(db)
        }
        return (dbPool, directory)
    }

    @Test func aSnapshotPoolMadeFromADatabaseConnection() throws {
        let (dbPool, directory) = try makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let snapshot = try dbPool.writeWithoutTransaction { db -> DatabaseSnapshotPool in
            try db.inTransaction {
                try Player.deleteAll(db)
                return .commit
            }
            // Create the snapshot after all players have been deleted.
            return try DatabaseSnapshotPool(db)
        }
        // Later... Maybe some players have been created.
        try dbPool.write { db in try Player(id: 2, name: "Barbara").insert(db) }
        // The snapshot is guaranteed to see an empty table of players, though:
        let count = try snapshot.read { db in
            try Player.fetchCount(db)
        }
        #expect(count == 0)
        #expect(try dbPool.read { db in try Player.fetchCount(db) } == 1)
        #expect(snapshot.configuration.readonly)
    }

    @Test func aSnapshotPoolCanNotBeMadeInsideATransactionOrInMemory() throws {
        let (dbPool, directory) = try makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.write { db in try DatabaseSnapshotPool(db) }
        }
        #expect(error?.resultCode == .SQLITE_ERROR)

        let dbQueue = try DatabaseQueue()
        let memoryError = #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in try DatabaseSnapshotPool(db) }
        }
        #expect(memoryError?.resultCode == .SQLITE_ERROR)
    }
}
