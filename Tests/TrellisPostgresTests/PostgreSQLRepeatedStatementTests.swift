import Foundation
import PostgresNIO
import Testing
import Trellis
import TrellisPostgres

/// Statements that run again, on the same connection or across accesses,
/// give the answers of their first run: the same rows, columns, changes
/// counts and errors.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
struct PostgreSQLRepeatedStatementTests {
    /// Runs `body` with two databases on the schema of one test: `single`
    /// has one connection, which all its accesses lease, and `other` runs
    /// its statements on other connections.
    private func withDatabases(
        _ body: (_ single: PostgreSQLDatabase, _ other: PostgreSQLDatabase) async throws -> Void) async throws
    {
        try await PostgresTestServer.withDatabase { other in
            let schema = try await other.read { db in try String.fetchOne(db, sql: "SELECT current_schema()") }
            var configuration = try PostgresTestServer.configuration(searchPath: schema)
            configuration.options.maximumConnections = 1
            let client = PostgresClient(configuration: configuration)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                try await body(PostgreSQLDatabase(client: client), other)
            }
        }
    }

    @Test func aStatementRunManyTimesReturnsTheRightRows() async throws {
        try await withDatabases { single, _ in
            try await single.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
                for id in 1...20 {
                    try db.execute(sql: "INSERT INTO player VALUES (?, ?)", arguments: [id, "player \(id)"])
                }
            }
            let (names, missing) = try await single.read { db in
                (try (1...20).map { id in
                    try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [id])
                 },
                 try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [21]))
            }
            #expect(names == (1...20).map { "player \($0)" })
            #expect(missing == nil)
            let name = try await single.read { db in
                try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [7])
            }
            #expect(name == "player 7")
        }
    }

    @Test func valuesKeepTheirTypesAndTextAcrossRuns() async throws {
        try await withDatabases { single, _ in
            let data = Data([0, 1, 0x5C, 0x27, 0xFF])
            let rows = try await single.write { db in
                try db.execute(sql: """
                    CREATE TABLE value (
                        id INTEGER PRIMARY KEY, flag BOOLEAN, amount NUMERIC, ratio DOUBLE PRECISION,
                        note TEXT, bytes BYTEA)
                    """)
                let notes = [#"it's"#, #"back\slash \' \\"#, "line\nbreak", "émoji 🎉", "$1 ? :name"]
                for (index, note) in notes.enumerated() {
                    try db.execute(
                        sql: "INSERT INTO value VALUES (?, ?, ?, ?, ?, ?) RETURNING 'returning'",
                        arguments: [index, index % 2, 1, 0.5, note, data])
                }
                try db.execute(sql: "INSERT INTO value VALUES (?, ?, ?, ?, ?, ?)", arguments: [9, nil, nil, nil, nil, nil])
                return try (0..<notes.count).map { index in
                    let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM value WHERE id = ?", arguments: [index]))
                    #expect(row["flag"] as Bool? == (index % 2 == 1))
                    #expect(row["amount"] as Int? == 1)
                    #expect(row["ratio"] as Double? == 0.5)
                    #expect(row["bytes"] as Data? == data)
                    #expect(Array(row.columnNames) == ["id", "flag", "amount", "ratio", "note", "bytes"])
                    return row["note"] as String?
                } + [try String.fetchOne(db, sql: "SELECT note FROM value WHERE id = ?", arguments: [9])]
            }
            #expect(rows == [#"it's"#, #"back\slash \' \\"#, "line\nbreak", "émoji 🎉", "$1 ? :name", nil])
        }
    }

    @Test func aColumnAddedByTrellisShowsInTheNextSelectStar() async throws {
        try await withDatabases { single, _ in
            let columns = try await single.write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO item VALUES (1)")
                for _ in 1...3 { _ = try Row.fetchAll(db, sql: "SELECT * FROM item") }
                try db.execute(sql: "ALTER TABLE item ADD COLUMN name TEXT DEFAULT 'a'")
                return try #require(try Row.fetchOne(db, sql: "SELECT * FROM item")).columnNames
            }
            #expect(Array(columns) == ["id", "name"])
            let later = try await single.read { db in try #require(try Row.fetchOne(db, sql: "SELECT * FROM item")).columnNames }
            #expect(Array(later) == ["id", "name"])
        }
    }

    /// Another connection alters the table between two runs of a
    /// `SELECT *`.
    @Test func aColumnAddedByAnotherConnectionShowsInTheNextSelectStar() async throws {
        try await withDatabases { single, other in
            try await other.write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO item VALUES (1)")
            }
            let before = try await single.read { db in
                try (1...3).map { _ in try #require(try Row.fetchOne(db, sql: "SELECT * FROM item")).columnNames }
            }
            #expect(before.map(Array.init) == Array(repeating: ["id"], count: 3))
            try await other.write { db in try db.execute(sql: "ALTER TABLE item ADD COLUMN name TEXT DEFAULT 'a'") }
            let (after, name) = try await single.read { db in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM item"))
                return (Array(row.columnNames), row["name"] as String?)
            }
            #expect(after == ["id", "name"])
            #expect(name == "a")
        }
    }

    @Test func anErrorOfARepeatedStatementAbortsTheAccessAndTheNextAccessWorks() async throws {
        try await withDatabases { single, _ in
            try await single.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            }
            let insert = "INSERT INTO player (id, name) VALUES (?, ?) RETURNING id"
            let error = try await #require(throws: DatabaseError.self) {
                try await single.write { db in
                    try db.execute(sql: insert, arguments: [1, "Arthur"])
                    try db.execute(sql: insert, arguments: [2, "Barbara"])
                    try db.execute(sql: insert, arguments: [3, "Arthur"])
                }
            }
            #expect(error.sqlState == "23505")
            #expect(error.message?.contains("duplicate key value violates unique constraint") == true)
            #expect(error.sql == insert)
            #expect(error.arguments == [3, "Arthur"])
            let cast = "SELECT CAST(? AS INTEGER)"
            let invalid = try await #require(throws: DatabaseError.self) {
                try await single.read { db in
                    for text in ["1", "2", "3", "x"] { _ = try Int.fetchOne(db, sql: cast, arguments: [text]) }
                }
            }
            #expect(invalid.sqlState == "22P02")
            #expect(invalid.message?.contains("invalid input syntax for type integer") == true)
            #expect(invalid.sql == cast)
            #expect(invalid.arguments == ["x"])
            let names = try await single.write { db in
                try db.execute(sql: insert, arguments: [1, "Arthur"])
                try db.execute(sql: insert, arguments: [2, "Barbara"])
                return try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
            }
            #expect(names == ["Arthur", "Barbara"])
        }
    }

    @Test func changesCountsOfRepeatedStatements() async throws {
        try await withDatabases { single, _ in
            let (inserted, updated, returned, returnedCount, deleted) = try await single.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER NOT NULL)")
                var inserted: [Int] = []
                for id in 1...4 {
                    try db.execute(sql: "INSERT INTO player VALUES (?, 0)", arguments: [id])
                    inserted.append(db.changesCount)
                }
                var updated: [Int] = []
                for limit in [2, 4, 0] {
                    try db.execute(sql: "UPDATE player SET score = score + 1 WHERE id <= ?", arguments: [limit])
                    updated.append(db.changesCount)
                }
                var returned: [[Int]] = []
                var returnedCount: [Int] = []
                for limit in [1, 3, 3] {
                    returned.append(try Int.fetchAll(
                        db, sql: "UPDATE player SET score = score + 10 WHERE id <= ? RETURNING id", arguments: [limit]))
                    returnedCount.append(db.changesCount)
                }
                var deleted: [Int] = []
                for id in [4, 4, 3] {
                    try db.execute(sql: "DELETE FROM player WHERE id = ?", arguments: [id])
                    deleted.append(db.changesCount)
                }
                for id in [2, 2, 1] {
                    _ = try Int.fetchAll(db, sql: "DELETE FROM player WHERE id = ? RETURNING id", arguments: [id])
                    deleted.append(db.changesCount)
                }
                return (inserted, updated, returned, returnedCount, deleted)
            }
            #expect(inserted == [1, 1, 1, 1])
            #expect(updated == [2, 4, 0])
            #expect(returned == [[1], [1, 2, 3], [1, 2, 3]])
            #expect(returnedCount == [1, 3, 3])
            #expect(deleted == [1, 0, 1, 1, 0, 1])
        }
    }
}
