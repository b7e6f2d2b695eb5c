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

    private struct Member: Codable, FetchableRecord, Identifiable, Hashable {
        var id: Int64
        var name: String
    }

    @Test func tablesOfIdentifiableRecordsTakeIds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT);
                INSERT INTO member VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig'), (4, 'Diane');
                CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode));
                INSERT INTO citizenship VALUES (1, 'FR'), (1, 'DE'), (2, 'FR');
                """)
            let members = Table<Member>("member")
            #expect(try members.fetchOne(db, id: 2)?.name == "Barbara")
            #expect(try members.filter(id: 3).fetchAll(db).map(\.name) == ["Craig"])
            #expect(try members.filter(ids: [1, 3]).order(Column("id")).fetchAll(db).map(\.name) == ["Arthur", "Craig"])
            #expect(try members.fetchAll(db, ids: [4]).map(\.name) == ["Diane"])
            #expect(try members.exists(db, id: 4))
            #expect(try members.selectID().order(Column("id")).fetchAll(db) == [1, 2, 3, 4])
            #expect(try members.deleteOne(db, id: 4))
            #expect(try members.deleteAll(db, ids: [3, 5]) == 1)
            #expect(try Table("member").selectPrimaryKey(as: Int64.self).fetchAll(db) == [1, 2])
            #expect(try Table("member").fetchAll(db, keys: [2]).map { $0["name"] as String } == ["Barbara"])
            #expect(try members.fetchSet(db, keys: [1]).map(\.name) == ["Arthur"])
            #expect(try Table("citizenship").deleteAll(db, keys: [["citizenId": 1, "countryCode": "FR"]]) == 1)
            #expect(try Table("citizenship").fetchCount(db) == 2)
        }
    }

    @Test func smallerNamesOfGRDB() throws {
        #expect(DatabaseError(resultCode: .SQLITE_INTERRUPT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT).isInterruptionError)
        #expect(!DatabaseError(resultCode: .SQLITE_BUSY).isInterruptionError)
        #expect(try Array(AnyCursor(iterator: [1, 2].makeIterator())) == [1, 2])
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT 'Arthur' AS name, NULL AS score") }
        #expect(try row?.decode(String.self, forColumn: Column("name")) == "Arthur")
        #expect(try row?.decodeIfPresent(Int.self, forColumn: Column("score")) == nil)
    }
}
