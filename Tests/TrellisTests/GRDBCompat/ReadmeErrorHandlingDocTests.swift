import Foundation
import Testing
import Trellis

// GRDB's README, "Executing Updates", "Raw SQLite Pointers" and "Error
// Handling": each sample run as written, with the values the README shows.

private struct Pet: Codable, PersistableRecord {
    var masterId: Int64
    var name: String
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String
}

@Suite struct ReadmeErrorHandlingDocTests {
    private func makePetQueue(_ config: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE master(id INTEGER PRIMARY KEY);
                CREATE TABLE pet(masterId INTEGER REFERENCES master(id), name TEXT);
                """)
        }
        return dbQueue
    }

    // MARK: Executing Updates

    @Test func executingUpdates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    score INT)
                """)
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Barbara", 100])
            try db.execute(
                sql: "UPDATE player SET score = :score WHERE id = :id",
                arguments: ["score": 1000, "id": 1])
            let name = "O'Brien"
            let score = 550
            try db.execute(literal: """
                INSERT INTO player (name, score) VALUES (\(name), \(score))
                """)
            #expect(db.lastInsertedRowID == 2)
            try db.execute(sql: """
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (?, ?);
                """, arguments: ["Arthur", 750, "Craig", 1000])
            try db.execute(literal: """
                INSERT INTO player (name, score) VALUES (\("David"), \(750));
                INSERT INTO player (name, score) VALUES (\("Elena"), \(1000));
                """)
            try db.execute(
                literal: "UPDATE player SET name = \("Arthur II") WHERE id = \(3)")
            let rows = try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
            #expect(rows == [
                ["name": "Barbara", "score": 1000],
                ["name": "O'Brien", "score": 550],
                ["name": "Arthur II", "score": 750],
                ["name": "Craig", "score": 1000],
                ["name": "David", "score": 750],
                ["name": "Elena", "score": 1000],
            ])
            #expect(db.lastInsertedRowID == 6)
        }
    }

    // MARK: Raw SQLite Pointers

    @Test func rawPointers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let sqliteConnection = db.sqliteConnection
            #expect(sqliteConnection != nil)
            let statement = try db.makeStatement(sql: "SELECT 1")
            let sqliteStatement = statement.sqliteStatement
            // The pointer belongs to the statement: it stays the same.
            #expect(sqliteStatement == statement.sqliteStatement)
        }
    }

    // The SQLCipher chapter reads the message of a failed raw SQLite call
    // from `db.lastErrorMessage`.
    @Test func lastErrorMessage() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM nope") }
            #expect(db.lastErrorMessage == "no such table: nope")
        }
    }

    // MARK: DatabaseError

    @Test func databaseErrorFields() throws {
        let dbQueue = try makePetQueue()
        try dbQueue.write { db in
            do {
                try Pet(masterId: 1, name: "Bobby").insert(db)
                Issue.record("Expected DatabaseError")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.resultCode.rawValue == 19)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                #expect(error.extendedResultCode.rawValue == 787)
                #expect(error.message == "FOREIGN KEY constraint failed")
                #expect(error.sql == #"INSERT INTO "pet" ("masterId", "name") VALUES (?, ?)"#)
                #expect(error.description == #"SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT INTO "pet" ("masterId", "name") VALUES (?, ?)`"#)
            }
        }
    }

    @Test func publicStatementArgumentsShowInErrors() throws {
        var config = Configuration()
        config.publicStatementArguments = true
        let dbQueue = try makePetQueue(config)
        try dbQueue.write { db in
            do {
                try Pet(masterId: 1, name: "Bobby").insert(db)
                Issue.record("Expected DatabaseError")
            } catch let error as DatabaseError {
                #expect(error.arguments == [1, "Bobby"])
                #expect(error.description.contains(#"with arguments [1, "Bobby"]"#))
            }
        }
    }

    @Test func matchingResultCodes() throws {
        let dbQueue = try makePetQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE unique_name(name TEXT UNIQUE); INSERT INTO unique_name VALUES ('a')")
            func classify(_ body: () throws -> Void) -> String {
                do {
                    try body()
                    return "success"
                } catch let error as DatabaseError {
                    switch error {
                    case DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY:
                        return "foreign key"
                    case DatabaseError.SQLITE_CONSTRAINT:
                        return "constraint"
                    default:
                        return "database"
                    }
                } catch {
                    return "other"
                }
            }
            #expect(classify { try Pet(masterId: 1, name: "Bobby").insert(db) } == "foreign key")
            #expect(classify { try db.execute(sql: "INSERT INTO unique_name VALUES ('a')") } == "constraint")
            #expect(classify { try db.execute(sql: "SELECT * FROM nowhere") } == "database")

            func classifyByCatch(_ body: () throws -> Void) -> String {
                do {
                    try body()
                    return "success"
                } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                    return "foreign key"
                } catch DatabaseError.SQLITE_CONSTRAINT {
                    return "constraint"
                } catch {
                    return "other"
                }
            }
            #expect(classifyByCatch { try Pet(masterId: 1, name: "Bobby").insert(db) } == "foreign key")
            #expect(classifyByCatch { try db.execute(sql: "INSERT INTO unique_name VALUES ('a')") } == "constraint")
            #expect(classifyByCatch { try db.execute(sql: "SELECT * FROM nowhere") } == "other")
            #expect(classifyByCatch { try db.execute(sql: "INSERT INTO unique_name VALUES ('b')") } == "success")

            // The primary code matches its extended codes, not the other way around.
            #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(!(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY ~= ResultCode.SQLITE_CONSTRAINT))
            #expect(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY.primaryResultCode == .SQLITE_CONSTRAINT)
        }
    }

    // MARK: RecordError

    @Test func recordNotFoundCarriesTableAndKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
            var messages: [String] = []
            do {
                try Player(id: 42, name: "Arthur").update(db)
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                messages.append("Key \(key) was not found in table \(table).")
            }
            do {
                _ = try Player.find(db, id: 42)
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                messages.append("Key \(key) was not found in table \(table).")
            }
            #expect(messages == [
                "Key [\"id\": 42] was not found in table player.",
                "Key [\"id\": 42] was not found in table player.",
            ])
        }
    }

    // MARK: RowDecodingError

    @Test func rowDecodingErrorFromNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS name"))
            do {
                _ = try row.decode(String.self, forColumn: "name")
                Issue.record("Expected RowDecodingError")
            } catch let error as RowDecodingError {
                #expect("\(error)".contains("could not decode String from database value NULL"))
            }
        }
    }
}
