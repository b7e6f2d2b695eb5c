import Testing
import Trellis

/// Inserts and upserts into a table named at run time, without a record
/// type: `Table.insert`, `upsert`, and their statements.
@Suite struct TableInsertTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
        }
        return dbQueue
    }

    @Test func insertWritesTheValuesAndDefaultsTheOtherColumns() throws {
        let dbQueue = try makeDatabase()
        let (rowID, rows) = try dbQueue.write { db in
            try Table("player").insert(db, values: ["name": "Arthur", "score": 100])
            let rowID = db.lastInsertedRowID
            try Table("player").insert(db, values: ["name": "Barbara"])
            return (rowID, try Row.fetchAll(db, sql: "SELECT id, name, score FROM player ORDER BY id"))
        }
        #expect(rowID == 1)
        #expect(rows == [["id": 1, "name": "Arthur", "score": 100], ["id": 2, "name": "Barbara", "score": 0]])
    }

    @Test func insertOfNoValuesInsertsARowOfDefaults() throws {
        let dbQueue = try DatabaseQueue()
        let count = try dbQueue.write { db in
            try db.create(table: "event") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).defaults(to: "ping")
            }
            try Table("event").insert(db, values: [:])
            return try String.fetchOne(db, sql: "SELECT kind FROM event WHERE id = ?", arguments: [db.lastInsertedRowID])
        }
        #expect(count == "ping")
    }

    @Test func aConflictThrowsUnlessTheConflictResolutionSaysOtherwise() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try Table("player").insert(db, values: ["name": "Arthur", "score": 100])
            let error = #expect(throws: DatabaseError.self) {
                try Table("player").insert(db, values: ["name": "Arthur", "score": 5])
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            try Table("player").insert(db, values: ["name": "Arthur", "score": 5], onConflict: .ignore)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE name = 'Arthur'") == 100)
            try Table("player").insert(db, values: ["name": "Arthur", "score": 7], onConflict: .replace)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE name = 'Arthur'") == 7)
            #expect(try Table("player").fetchCount(db) == 1)
        }
    }

    @Test func upsertInsertsThenUpdatesTheConflictingRow() throws {
        let dbQueue = try makeDatabase()
        let rows = try dbQueue.write { db in
            try Table("player").upsert(db, values: ["id": 1, "name": "Arthur", "score": 100], onConflict: ["id"])
            try Table("player").upsert(db, values: ["id": 1, "name": "Arthur II", "score": 150], onConflict: ["id"])
            return try Row.fetchAll(db, sql: "SELECT id, name, score FROM player")
        }
        #expect(rows == [["id": 1, "name": "Arthur II", "score": 150]])
    }

    @Test func upsertUpdatesTheChosenColumnsOnly() throws {
        let dbQueue = try makeDatabase()
        let rows = try dbQueue.write { db in
            try Table("player").insert(db, values: ["name": "Arthur", "score": 100])
            // A conflict on the unique name keeps the id, takes the score.
            try Table("player").upsert(
                db, values: ["id": 9, "name": "Arthur", "score": 150], onConflict: ["name"], doUpdate: ["score"])
            return try Row.fetchAll(db, sql: "SELECT id, name, score FROM player")
        }
        #expect(rows == [["id": 1, "name": "Arthur", "score": 150]])
    }

    @Test func upsertWithNoUpdatedColumnLeavesTheExistingRow() throws {
        let dbQueue = try makeDatabase()
        let (rows, sql) = try dbQueue.write { db in
            try Table("player").insert(db, values: ["name": "Arthur", "score": 100])
            try Table("player").upsert(db, values: ["name": "Arthur", "score": 1], onConflict: ["name"], doUpdate: [])
            let statement = try Table("player").upsertStatement(db, columns: ["name", "score"], onConflict: ["name"], doUpdate: [])
            return (try Row.fetchAll(db, sql: "SELECT name, score FROM player"), statement.sql)
        }
        #expect(rows == [["name": "Arthur", "score": 100]])
        #expect(sql == #"INSERT INTO "player" ("name", "score") VALUES (?, ?) ON CONFLICT("name") DO NOTHING"#)
    }

    @Test func upsertOfNoValuesThrowsAClearError() throws {
        let dbQueue = try makeDatabase()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try Table("player").upsert(db, values: [:], onConflict: ["id"]) }
        }
        let message = error?.message ?? ""
        #expect(message.contains("needs at least one column"))
        #expect(try dbQueue.read { db in try Table("player").fetchCount(db) } == 0)
    }

    @Test func theStatementsHaveTheSQLOfTheirColumnsAndAreCached() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let insert = try Table("player").insertStatement(db, columns: ["name", "score"], onConflict: .ignore)
            #expect(insert.sql == #"INSERT OR IGNORE INTO "player" ("name", "score") VALUES (?, ?)"#)
            for (name, score) in [("Arthur", 100), ("Barbara", 1000), ("Arthur", 5)] {
                try insert.execute(arguments: [name, score])
            }
            #expect(try Table("player").insertStatement(db, columns: ["name", "score"], onConflict: .ignore) === insert)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [100, 1000])

            let upsert = try Table("player").upsertStatement(db, columns: ["id", "name", "score"], onConflict: ["id"])
            #expect(upsert.sql == #"INSERT INTO "player" ("id", "name", "score") VALUES (?, ?, ?) ON CONFLICT("id") DO UPDATE SET "name" = excluded."name", "score" = excluded."score""#)
        }
    }

    @Test func aMissingTableOrColumnThrowsSQLitesError() throws {
        let dbQueue = try makeDatabase()
        let missingTable = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try Table("team").insert(db, values: ["name": "Red"]) }
        }
        let missingTableMessage = missingTable?.message ?? ""
        #expect(missingTableMessage.contains("no such table: team"))
        let missingColumn = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try Table("player").insert(db, values: ["name": "Arthur", "level": 3]) }
        }
        let missingColumnMessage = missingColumn?.message ?? ""
        #expect(missingColumnMessage.contains("level"))
    }
}
