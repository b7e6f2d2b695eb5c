import Foundation
import Testing
import Trellis

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var name: String
    var score: Int?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Encodes `score` only when it has one: records of one array may encode
/// different columns.
private struct SparsePlayer: MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    var score: Int?

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        if let score { container["score"] = score }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Logs its callbacks.
private final class Log: @unchecked Sendable {
    var events: [String] = []
}

private struct LoggedPlayer: MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    let log: Log

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
    }

    func willInsert(_ db: Database) throws { log.events.append("willInsert \(name)") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        log.events.append("aroundInsert enter \(name)")
        _ = try insert()
        log.events.append("aroundInsert exit \(name)")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        log.events.append("didInsert \(name) \(inserted.rowID)")
    }
}

@Suite struct InsertAllTests {
    private func makeDatabase(autoIncrement: Bool = false) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                  id INTEGER PRIMARY KEY \(autoIncrement ? "AUTOINCREMENT" : ""),
                  name TEXT NOT NULL UNIQUE,
                  score INTEGER DEFAULT 1000)
                """)
        }
        return dbQueue
    }

    @Test func insertAllFillsEachIdAcrossSeveralStatements() throws {
        let dbQueue = try makeDatabase()
        let players = (1...250).map { (index: Int) in Player(id: nil, name: "P\(index)", score: index) }
        let inserted = try dbQueue.write { db in try players.insertAll(db) }
        #expect(inserted.map(\.id) == (1...250).map { Int64($0) })
        try dbQueue.read { (db: Database) throws in
            let stored = try Player.order(Column("id")).fetchAll(db)
            #expect(stored == inserted)
        }
    }

    @Test func explicitIdsAreKeptAndOthersFollowTheLargestId() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var existing = Player(id: 20, name: "Existing", score: nil)
            try existing.insert(db)
            let inserted = try [
                Player(id: nil, name: "A", score: nil),
                Player(id: 30, name: "B", score: nil),
                Player(id: nil, name: "C", score: nil),
            ].insertAll(db)
            #expect(inserted.map(\.id) == [31, 30, 32])
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM player WHERE name IN ('A', 'B', 'C') ORDER BY name") == [31, 30, 32])
        }
    }

    @Test func autoIncrementedIdsOfDeletedRowsAreNotReused() throws {
        let dbQueue = try makeDatabase(autoIncrement: true)
        try dbQueue.write { db in
            _ = try [Player(id: nil, name: "A", score: nil), Player(id: nil, name: "B", score: nil)].insertAll(db)
            try db.execute(sql: "DELETE FROM player WHERE name = 'B'")
            let inserted = try [Player(id: nil, name: "C", score: nil)].insertAll(db)
            #expect(inserted.map(\.id) == [3])
            // And SQLite goes on from there.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('D')")
            #expect(db.lastInsertedRowID == 4)
        }
    }

    @Test func insertAndFetchAllReturnsTheStoredRowsInOrder() throws {
        let dbQueue = try makeDatabase()
        let fetched = try dbQueue.write { db in
            try [SparsePlayer(id: nil, name: "A", score: nil), SparsePlayer(id: nil, name: "B", score: 5)]
                .insertAll(db)
                .count
        }
        #expect(fetched == 2)
        let players = try dbQueue.write { db in
            try [Player(id: nil, name: "C", score: 7), Player(id: nil, name: "D", score: nil)].insertAndFetchAll(db)
        }
        #expect(players == [Player(id: 3, name: "C", score: 7), Player(id: 4, name: "D", score: nil)])
        let sparse = try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT score FROM player WHERE name IN ('A', 'B') ORDER BY name") }
        #expect(sparse == [1000, 5])
    }

    @Test func callbacksOfOneStatementAreNestedAroundIt() throws {
        let dbQueue = try makeDatabase()
        let log = Log()
        let inserted = try dbQueue.write { db in
            try [LoggedPlayer(id: nil, name: "A", log: log), LoggedPlayer(id: nil, name: "B", log: log)].insertAll(db)
        }
        #expect(inserted.map(\.id) == [1, 2])
        #expect(log.events == [
            "willInsert A", "aroundInsert enter A", "willInsert B", "aroundInsert enter B",
            "aroundInsert exit B", "didInsert B 2", "aroundInsert exit A", "didInsert A 1",
        ])
    }

    @Test func ignoredConflictsAndWithoutRowIDTablesInsertOneByOne() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            _ = try [Player(id: nil, name: "A", score: nil)].insertAll(db)
            let inserted = try [Player(id: nil, name: "A", score: 1), Player(id: nil, name: "B", score: 2)]
                .insertAll(db, onConflict: .ignore)
            #expect(inserted.last?.id == 2)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") == ["A", "B"])

            try db.execute(sql: "CREATE TABLE tag (name TEXT PRIMARY KEY, color TEXT) WITHOUT ROWID")
            struct Tag: Codable, PersistableRecord, FetchableRecord, Equatable {
                var name: String
                var color: String
            }
            let tags = try [Tag(name: "a", color: "red"), Tag(name: "b", color: "blue")].insertAndFetchAll(db)
            #expect(tags == [Tag(name: "a", color: "red"), Tag(name: "b", color: "blue")])
        }
    }

    @Test func rowsThatATriggerIgnoresGetNoIdAndNoDidInsert() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TRIGGER skipSome BEFORE INSERT ON player WHEN NEW.name LIKE 'skip%'
                BEGIN SELECT RAISE(IGNORE); END
                """)
            let players = ["A", "skip B", "C"].map { Player(id: nil, name: $0, score: nil) }
            #expect(try players.insertAll(db).map(\.id) == [1, nil, 3])
            #expect(try Player.fetchAll(db) == [
                Player(id: 1, name: "A", score: nil), Player(id: 3, name: "C", score: nil),
            ])
            #expect(throws: RecordError.self) {
                try [Player(id: nil, name: "D", score: nil), Player(id: nil, name: "skip E", score: nil)].insertAndFetchAll(db)
            }
        }
    }

    @Test func aFailingRowFailsTheWholeWrite() throws {
        let dbQueue = try makeDatabase()
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                _ = try [Player(id: nil, name: "A", score: nil), Player(id: nil, name: "A", score: nil)].insertAll(db)
            }
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        #expect(try dbQueue.write { db in try [Player]().insertAll(db) }.isEmpty)
    }
}
