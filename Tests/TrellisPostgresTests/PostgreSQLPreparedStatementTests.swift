import Foundation
import PostgresNIO
import Testing
import Trellis
import TrellisPostgres

/// The statements that run again on a connection run prepared on the
/// server: their answers are those of the statements sent unnamed.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
struct PostgreSQLPreparedStatementTests {
    /// Runs `body` with two databases on the schema of one test: `single`
    /// has one connection, so that its accesses share its prepared
    /// statements, and `other` runs its statements on other connections.
    private func withDatabases(
        preparedStatementLimit: Int = 100,
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
                try await body(PostgreSQLDatabase(client: client, preparedStatementLimit: preparedStatementLimit), other)
            }
        }
    }

    /// The number of statements that Trellis prepared on the connection of
    /// the access.
    private static func preparedCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pg_prepared_statements WHERE name LIKE 'trellis\\_%'") ?? -1
    }

    @Test func aStatementRunManyTimesReturnsTheRightRows() async throws {
        try await withDatabases { single, _ in
            try await single.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
                for id in 1...20 {
                    try db.execute(sql: "INSERT INTO player VALUES (?, ?)", arguments: [id, "player \(id)"])
                }
            }
            let (names, missing, prepared) = try await single.read { db in
                (try (1...20).map { id in
                    try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [id])
                 },
                 try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [21]),
                 try Self.preparedCount(db))
            }
            #expect(names == (1...20).map { "player \($0)" })
            #expect(missing == nil)
            #expect(prepared >= 1, "the SELECT runs prepared")
            // A later access on the connection runs the prepared statement.
            let name = try await single.read { db in
                try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [7])
            }
            #expect(name == "player 7")
        }
    }

    @Test func valuesKeepTheirTypesAndTextThroughAPreparedStatement() async throws {
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

    /// Another connection alters the table: the prepared `SELECT *` of the
    /// first statement of an access runs again in a new transaction.
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

    /// A stale prepared statement that fails after another statement of
    /// the transaction throws the error of the statement the user wrote;
    /// the next access runs it afresh.
    @Test func aStalePlanInsideATransactionThrowsOnceAndTheNextAccessWorks() async throws {
        try await withDatabases { single, other in
            try await other.write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO item VALUES (1)")
            }
            try await single.read { db in
                for _ in 1...3 { _ = try Row.fetchAll(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [1]) }
            }
            try await other.write { db in try db.execute(sql: "ALTER TABLE item ADD COLUMN name TEXT") }
            let error = try await #require(throws: DatabaseError.self) {
                try await single.read { db in
                    _ = try Int.fetchOne(db, sql: "SELECT 1")
                    return try Row.fetchAll(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [1]).count
                }
            }
            #expect(error.sqlState == "0A000")
            #expect(error.sql == "SELECT * FROM item WHERE id = ?")
            #expect(error.arguments == [1])
            let columns = try await single.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT 1")
                return Array(try #require(try Row.fetchOne(db, sql: "SELECT * FROM item WHERE id = ?", arguments: [1])).columnNames)
            }
            #expect(columns == ["id", "name"])
        }
    }

    @Test func anErrorOfAPreparedStatementAbortsTheAccessAndTheNextAccessWorks() async throws {
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

    @Test func statementsBeyondTheLimitStillRunAndTheOldestAreDeallocated() async throws {
        try await withDatabases(preparedStatementLimit: 3) { single, _ in
            let values = try await single.read { db in
                try (1...10).flatMap { number in
                    try (1...2).map { _ in try Int.fetchOne(db, sql: "SELECT \(number) + ?", arguments: [1]) }
                }
            }
            let expected: [Int?] = (1...10).flatMap { number -> [Int?] in [number + 1, number + 1] }
            #expect(values == expected)
            let (count, again) = try await single.read { db in
                (try Self.preparedCount(db),
                 try (1...10).map { number in try Int.fetchOne(db, sql: "SELECT \(number) + ?", arguments: [2]) })
            }
            #expect(count <= 3)
            let expectedAgain: [Int?] = (1...10).map { number -> Int? in number + 2 }
            #expect(again == expectedAgain)
        }
    }

    /// postgres-nio hands the rows of a named statement over one by one:
    /// a statement of many rows runs unnamed, and returns all its rows.
    @Test func aStatementOfManyRowsIsNotPrepared() async throws {
        try await withDatabases { single, _ in
            // The count's own statement, prepared once it runs again, is
            // left out.
            let countSQL = """
                SELECT COUNT(*) FROM pg_prepared_statements
                WHERE statement LIKE '%FROM item WHERE%' AND statement NOT LIKE '%pg_prepared_statements%'
                """
            let (counts, prepared) = try await single.write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO item SELECT generate_series(1, 100)")
                let counts = try (1...3).map { _ in try Int.fetchAll(db, sql: "SELECT id FROM item WHERE id > ?", arguments: [0]).count }
                return (counts, try Int.fetchOne(db, sql: countSQL))
            }
            #expect(counts == [100, 100, 100])
            #expect(prepared == 0)
            // One that grows past the limit once prepared is forgotten, and
            // deallocated once the access ends.
            let (grown, preparedWhileSmall) = try await single.read { db in
                let sql = "SELECT id FROM item WHERE id > ? ORDER BY id"
                let small = try [99, 98].map { try Int.fetchAll(db, sql: sql, arguments: [$0]).count }
                let preparedWhileSmall = try Int.fetchOne(db, sql: countSQL)
                let large = try [97, 0, 0].map { try Int.fetchAll(db, sql: sql, arguments: [$0]).count }
                return (small + large, preparedWhileSmall)
            }
            #expect(grown == [1, 2, 3, 100, 100])
            #expect(preparedWhileSmall == 1)
            let preparedAfter = try await single.read { db in try Int.fetchOne(db, sql: countSQL) }
            #expect(preparedAfter == 0)
        }
    }

    @Test func aLimitOfZeroPreparesNothing() async throws {
        try await withDatabases(preparedStatementLimit: 0) { single, _ in
            let (values, count) = try await single.read { db in
                (try (1...3).map { _ in try Int.fetchOne(db, sql: "SELECT 1 + ?", arguments: [1]) },
                 try Self.preparedCount(db))
            }
            #expect(values == [2, 2, 2])
            #expect(count == 0)
        }
    }

    @Test func changesCountsOfPreparedStatements() async throws {
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
