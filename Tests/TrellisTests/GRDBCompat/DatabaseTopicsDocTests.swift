import Foundation
import Testing
import Trellis
import TrellisSQLite

// APIs that the Topics of GRDB's documentation list for `Database`
// ("Database Information") and `TableRecord`, run as their documentation
// writes them.

private struct Player: TableRecord, Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

@Suite struct DatabaseTopicsDocTests {
    @Test func lastErrorCode() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            let code = sqlite3_exec(db.sqliteConnection, "INSERT INTO t (name) VALUES (NULL)", nil, nil, nil)
            #expect(code != SQLITE_OK)
            #expect(db.lastErrorCode == .SQLITE_CONSTRAINT_NOTNULL)
            #expect(db.lastErrorCode.primaryResultCode == .SQLITE_CONSTRAINT)
            #expect(db.lastErrorMessage?.contains("NOT NULL constraint failed") == true)
            let error = DatabaseError(resultCode: db.lastErrorCode, message: db.lastErrorMessage)
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)

            #expect(sqlite3_exec(db.sqliteConnection, "SELECT 1", nil, nil, nil) == SQLITE_OK)
            #expect(db.lastErrorCode == .SQLITE_OK)
        }
    }

    @Test func maximumStatementArgumentCount() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            let maximum = db.maximumStatementArgumentCount
            #expect(maximum == Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1)))
            #expect(maximum > 0)
            // A statement with that many arguments runs; one more does not.
            let placeholders = Array(repeating: "?", count: maximum).joined(separator: ",")
            let ids = Array(0..<Int64(maximum))
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM player WHERE id IN (\(placeholders))", arguments: StatementArguments(ids)) == 0)
            #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM player WHERE id IN (\(placeholders),?)", arguments: StatementArguments(ids + [0]))
            }
            // DELETE FROM player WHERE id IN (?, ?, ...)
            try Player(id: 1, name: "Arthur", score: 1).insert(db)
            try Player.deleteAll(db, keys: ids)
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func databaseComponents() throws {
        let column: Column = Player.databaseComponents.score
        #expect(column.name == "score")
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 10).insert(db)
            try Player(id: 2, name: "Barbara", score: 30).insert(db)
            let request = Player.order(\.score.desc)
            #expect(try request.fetchAll(db).map(\.id) == [2, 1])
            #expect(try Player.filter(Player.databaseComponents.name == "Arthur").fetchAll(db).map(\.id) == [1])
        }
    }
}
