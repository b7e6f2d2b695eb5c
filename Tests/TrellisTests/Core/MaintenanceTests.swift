import Foundation
import Testing
import Trellis

/// `erase()`, `vacuum()`, `vacuum(into:)` and `checkpoint(_:on:)`, as GRDB
/// documents them.
@Suite struct MaintenanceTests {
    private struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }

    private func makePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("maintenance-\(UUID().uuidString).sqlite").path
    }

    private func removeFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func fillSchema(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId INTEGER REFERENCES team(id));
                CREATE INDEX player_name ON player(name);
                CREATE VIEW playerName AS SELECT name FROM player;
                CREATE TRIGGER player_insert AFTER INSERT ON player BEGIN SELECT 1; END;
                INSERT INTO team VALUES (1, 'Reds');
                INSERT INTO player VALUES (1, 'Arthur', 1);
                """)
        }
    }

    @Test func eraseLeavesAnEmptyDatabaseThatWorksAsNew() throws {
        let queuePath = makePath()
        let poolPath = makePath()
        defer { removeFiles(queuePath); removeFiles(poolPath) }
        let writers: [any DatabaseWriter] = [try DatabaseQueue(), try DatabaseQueue(path: queuePath), try DatabasePool(path: poolPath)]
        for writer in writers {
            try fillSchema(writer)
            // Learn the old schema, so that a stale cache would show.
            #expect(try writer.read { db in try Player.fetchCount(db) } == 1)
            try writer.erase()
            let objects = try writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") }
            #expect(objects == [])
            // Same table name, another schema: nothing of the old one is kept.
            try writer.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
                try Player(id: 7, name: "Barbara").insert(db)
            }
            #expect(try writer.read { db in try Player.fetchAll(db).map(\.name) } == ["Barbara"])
            #expect(try writer.read { db in try db.columns(in: "player").map(\.name) } == ["id", "name"])
        }
    }

    @Test func eraseInsideATransactionThrows() throws {
        let dbQueue = try DatabaseQueue()
        try fillSchema(dbQueue)
        #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db in
                try db.execute(sql: "BEGIN")
                defer { try? db.execute(sql: "ROLLBACK") }
                try dbQueue.erase()
            }
        }
        // Nothing was erased.
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 1)
    }

    @Test func eraseAndVacuumAreAvailableAsynchronously() async throws {
        let dbQueue = try DatabaseQueue()
        try fillSchema(dbQueue)
        try await dbQueue.vacuum()
        #expect(try await dbQueue.read { db in try db.tableExists("player") })
        try await dbQueue.erase()
        #expect(try await dbQueue.read { db in try db.tableExists("player") } == false)
    }

    @Test func vacuumKeepsTheContentAndVacuumIntoWritesACopy() throws {
        let path = makePath()
        let copyPath = makePath()
        defer { removeFiles(path); removeFiles(copyPath) }
        let dbQueue = try DatabaseQueue(path: path)
        try fillSchema(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
        try dbQueue.vacuum()
        #expect(try dbQueue.read { db in try db.tableExists("player") })
        try dbQueue.write { db in try Player(id: 2, name: "Craig").insert(db) }
        try dbQueue.vacuum(into: copyPath)
        let copy = try DatabaseQueue(path: copyPath)
        #expect(try copy.read { db in try Player.fetchAll(db).map(\.name) } == ["Craig"])
        // The file of the copy exists now: a second copy there fails.
        #expect(throws: DatabaseError.self) { try dbQueue.vacuum(into: copyPath) }
    }

    @Test func checkpointCopiesTheWriteAheadLog() throws {
        let path = makePath()
        defer { removeFiles(path) }
        let dbPool = try DatabasePool(path: path)
        try fillSchema(dbPool)
        let (walFrameCount, checkpointedFrameCount) = try dbPool.writeWithoutTransaction { db in
            try db.checkpoint(.truncate)
        }
        #expect(walFrameCount == 0)   // truncated
        #expect(checkpointedFrameCount == 0)
        let walSize = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect(walSize == 0)
        #expect(try dbPool.read { db in try Player.fetchCount(db) } == 1)
        try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player VALUES (2, 'Barbara', 1)")
            let (logged, copied) = try db.checkpoint()
            #expect(logged > 0)
            #expect(copied == logged)
        }
    }

    @Test func checkpointOutsideOfWALModeReportsNoLog() throws {
        let dbQueue = try DatabaseQueue()
        let counts = try dbQueue.writeWithoutTransaction { db in try db.checkpoint(.full) }
        #expect(counts.walFrameCount == -1)
        #expect(counts.checkpointedFrameCount == -1)
    }
}
