import Foundation
import Testing
import Trellis

/// Names that GRDB 7 documents and that code written for it uses.
@Suite struct GRDB7CompatibilityNamesTests {
    private struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }

    // Deprecated, as in GRDB: the test uses the old name on purpose.
    @available(*, deprecated)
    @Test func persistenceErrorIsTheFormerNameOfRecordError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        do {
            _ = try dbQueue.read { db in try Player.find(db, key: 1) }
            Issue.record("find should throw")
        } catch PersistenceError.recordNotFound(let table, let key) {
            #expect(table == "player")
            #expect(key == ["id": 1.databaseValue])
        }
    }

    @Test func snapshotsAreSnapshotReaders() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapreader-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = Configuration()
        configuration.persistentReadOnlyConnections = true
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try Player(id: 1, name: "Arthur").insert(db)
        }
        func count(_ reader: some DatabaseSnapshotReader) throws -> Int {
            try reader.read { db in try Player.fetchCount(db) }
        }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try Player(id: 2, name: "Barbara").insert(db) }
        #expect(try count(snapshot) == 1)
        #expect(try dbPool.read { db in try Player.fetchCount(db) } == 2)
    }
}
