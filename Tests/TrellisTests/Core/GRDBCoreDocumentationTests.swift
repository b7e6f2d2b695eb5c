import Foundation
import Testing
import Trellis

/// Snippets of GRDB's documentation on connections, raw SQL, rows,
/// statements, transactions and errors, written as a GRDB user writes
/// them, with `import Trellis`.
@Suite struct GRDBCoreDocumentationTests {
    private func makePlayers(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  name TEXT NOT NULL,
                  score INT)
                """)
        }
    }

    @Test func executeWithPositionalNamedAndInterpolatedArguments() throws {
        let dbQueue = try DatabaseQueue()
        try makePlayers(dbQueue)
        try dbQueue.write { db in
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Barbara", 1000])
            try db.execute(
                sql: "UPDATE player SET score = :score WHERE id = :id",
                arguments: ["score": 1001, "id": 1])
            let name = "Arthur"
            let score = 500
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(score))")
            #expect(db.lastInsertedRowID == 2)
            #expect(db.changesCount == 1)
        }
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id") }
        #expect(rows == [["name": "Barbara", "score": 1001], ["name": "Arthur", "score": 500]])
    }

    @Test func rowCursorsAndColumnAccess() throws {
        let dbQueue = try DatabaseQueue()
        try makePlayers(dbQueue)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', NULL), ('Barbara', 1000)")
        }
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
            var names: [String] = []
            var scores: [Int?] = []
            while let row = try rows.next() {
                let id: Int64 = row["id"]
                let name: String = row["name"]
                let score: Int? = row["score"]
                #expect(id > 0)
                names.append(name)
                scores.append(score)
            }
            #expect(names == ["Arthur", "Barbara"])
            #expect(scores == [nil, 1000])

            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [2]))
            #expect(row.columnNames == ["id", "name", "score"])
            #expect(row.hasColumn("score"))
            #expect(!row.hasColumn("missing"))
            #expect(row[1] as String == "Barbara")
            let dbValue: DatabaseValue = row["score"]
            #expect(!dbValue.isNull)
            switch dbValue.storage {
            case .int64(let score): #expect(score == 1000)
            default: Issue.record("expected an integer")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 2)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name") == ["Arthur", "Barbara"])
            #expect(try String.fetchSet(db, sql: "SELECT name FROM player") == ["Arthur", "Barbara"])
            #expect(try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [nil, 1000])
        }
    }

    @Test func preparedAndCachedStatements() throws {
        let dbQueue = try DatabaseQueue()
        try makePlayers(dbQueue)
        try dbQueue.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            try insert.execute(arguments: ["name": "Arthur", "score": 1000])
            try insert.execute(arguments: ["name": "Barbara", "score": 750])
            let select = try db.cachedStatement(sql: "SELECT name FROM player WHERE score > ?")
            #expect(try String.fetchAll(select, arguments: [800]) == ["Arthur"])
            try select.setArguments([700])
            #expect(try String.fetchAll(select).sorted() == ["Arthur", "Barbara"])
        }
    }

    @Test func transactionsAndSavepoints() throws {
        let dbQueue = try DatabaseQueue()
        try makePlayers(dbQueue)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            return .commit
        }
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            return .rollback
        }
        try dbQueue.inDatabase { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (name) VALUES ('David')")
                    return .rollback
                }
                return .commit
            }
        }
        let names = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") }
        #expect(names == ["Arthur", "Craig"])
    }

    @Test func asyncAccesses() async throws {
        let dbQueue = try DatabaseQueue()
        try makePlayers(dbQueue)
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 100])
        }
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        #expect(count == 1)
    }

    @Test func configurationAndTracing() throws {
        final class Log: @unchecked Sendable { var statements: [String] = [] }
        let log = Log()
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.label = "MyDatabase"
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            db.trace { log.statements.append($0.expandedDescription) }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [42])
        }
        #expect(log.statements.contains("INSERT INTO t VALUES (42)"))
    }

    @Test func databaseErrorsCanBeMatchedByCode() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id));
                """)
        }
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO book (authorId) VALUES (1)") }
            Issue.record("expected a foreign key violation")
        } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
            // GRDB's documented pattern.
        }
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO book (authorId) VALUES (NULL)") }
            Issue.record("expected a NOT NULL violation")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
            #expect(error.message?.contains("NOT NULL") == true)
            #expect(error.sql == "INSERT INTO book (authorId) VALUES (NULL)")
        }
    }
}
