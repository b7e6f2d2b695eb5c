import Foundation
import Testing
import Trellis

// `DatabaseWriter.spawnConcurrentRead(_:)`, as GRDB's documentation
// writes it: "the number of players is fetched concurrently with the
// player insertion. Yet it is guaranteed to return zero".

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var name: String
}

private final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Result<Int, any Error>] = []
    private let semaphore = DispatchSemaphore(value: 0)
    func append(_ value: Result<Int, any Error>) {
        lock.withLock { values.append(value) }
        semaphore.signal()
    }
    func next() -> Result<Int, any Error>? {
        guard semaphore.wait(timeout: .now() + 10) == .success else { return nil }
        return lock.withLock { values.removeFirst() }
    }
}

@Suite struct SpawnConcurrentReadDocTests {
    private func check(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try Player(id: nil, name: "Arthur").insert(db)
        }
        let counts = Counts()
        try writer.writeWithoutTransaction { db in
            // Delete all players
            try Player.deleteAll(db)

            // Count players concurrently
            writer.spawnConcurrentRead { dbResult in
                counts.append(Result { try Player.fetchCount(dbResult.get()) })
            }

            // Insert a player
            try Player(id: nil, name: "Barbara").insert(db)
        }
        // Guaranteed to be zero
        let count = try #require(counts.next())
        #expect(try count.get() == 0)
        #expect(try writer.read { db in try Player.fetchCount(db) } == 1)

        // From a transaction, or outside of a write access: a misuse.
        try writer.write { _ in
            writer.spawnConcurrentRead { dbResult in counts.append(Result { try Player.fetchCount(dbResult.get()) }) }
        }
        writer.spawnConcurrentRead { dbResult in counts.append(Result { try Player.fetchCount(dbResult.get()) }) }
        for _ in 0..<2 {
            let misuse = try #require(counts.next())
            #expect(throws: DatabaseError.self) { try misuse.get() }
        }
    }

    @Test func withADatabaseQueue() throws {
        try check(DatabaseQueue())
        try check(AnyDatabaseWriter(DatabaseQueue()))
    }

    @Test func withADatabasePool() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try check(DatabasePool(path: directory.appendingPathComponent("a.sqlite").path))
        try check(AnyDatabaseWriter(DatabasePool(path: directory.appendingPathComponent("b.sqlite").path)))
    }

    @Test func aQueueReadIsReadOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let counts = Counts()
        try dbQueue.writeWithoutTransaction { _ in
            dbQueue.spawnConcurrentRead { dbResult in
                counts.append(Result {
                    try dbResult.get().execute(sql: "INSERT INTO t VALUES (1)")
                    return 1
                })
            }
        }
        let result = try #require(counts.next())
        #expect(throws: DatabaseError.self) { try result.get() }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
    }
}
