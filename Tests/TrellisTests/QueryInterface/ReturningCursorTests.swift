import Testing
import Trellis

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

/// A record that selects one column.
private struct PlayerName: FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [Column("name")] }
    var name: String
    var columns: [String]
    init(row: Row) throws {
        name = row["name"]
        columns = row.columnNames
    }
}

@Suite struct ReturningCursorTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 500), (3, 'Craig', 20);
                """)
        }
        return dbQueue
    }

    @Test func deleteAndFetchCursorDeletesAndReturnsTheRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let cursor = try Player.filter { $0.score < 100 }.deleteAndFetchCursor(db)
            let deleted = try Array(cursor).map(\.name).sorted()
            #expect(deleted == ["Arthur", "Craig"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Barbara"])
            #expect(try Array(Player.deleteAndFetchCursor(db)).map(\.id) == [2])
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func updateAndFetchCursorUpdatesAndReturnsTheRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let cursor = try Player.filter { $0.score < 100 }.updateAndFetchCursor(db) { [$0.score += 5] }
            let updated = try Array(cursor).map { "\($0.name) \($0.score)" }.sorted()
            #expect(updated == ["Arthur 15", "Craig 25"])
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [15, 500, 25])
            let all = try Array(Player.updateAndFetchCursor(db, [Column("score").set(to: 0)]))
            #expect(all.count == 3)
            #expect(try Int.fetchAll(db, sql: "SELECT DISTINCT score FROM player") == [0])
        }
    }

    @Test func aCursorReadsTheSelectionOfTheRecord() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let names = try Array(PlayerName.filter(Column("id") == 2).deleteAndFetchCursor(db))
            #expect(names.map(\.name) == ["Barbara"])
            #expect(names.map(\.columns) == [["name"]])
        }
    }
}
