import Foundation
import Testing
import Trellis

// GRDB's docc extension article on `Statement` ("A prepared statement"):
// each sample, with the errors and values GRDB 7 gives (checked with GRDB
// itself). Where GRDB stops the process (an invalid `arguments` value),
// Trellis throws when the statement runs.

private struct Player: Codable, FetchableRecord, PersistableRecord, Hashable {
    var name: String
    var score: Int
}

@Suite struct StatementDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT NOT NULL, score INT NOT NULL)")
        }
        return dbQueue
    }

    // MARK: Building Prepared Statements

    @Test func buildAndExecuteStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let insertStatement = try db.makeStatement(sql: """
                INSERT INTO player (name, score) VALUES (:name, :score)
                """)

            let selectStatement = try db.makeStatement(sql: """
                SELECT * FROM player WHERE name = ?
                """)

            insertStatement.arguments = ["name": "Arthur", "score": 1000]
            selectStatement.arguments = ["Arthur"]
            #expect(insertStatement.arguments == ["name": "Arthur", "score": 1000])

            try insertStatement.execute()

            let cursor = try Player.fetchCursor(selectStatement) // A Cursor of Player
            #expect(try cursor.next() == Player(name: "Arthur", score: 1000))
            #expect(try Player.fetchAll(selectStatement) == [Player(name: "Arthur", score: 1000)])
            #expect(try Player.fetchSet(selectStatement) == [Player(name: "Arthur", score: 1000)])
            #expect(try Player.fetchOne(selectStatement) == Player(name: "Arthur", score: 1000))
            #expect(try Row.fetchOne(selectStatement) == ["name": "Arthur", "score": 1000])
            #expect(try String.fetchOne(selectStatement) == "Arthur")

            try insertStatement.execute(arguments: ["name": "Barbara", "score": 500])
            let player = try Player.fetchOne(selectStatement, arguments: ["Barbara"])
            #expect(player == Player(name: "Barbara", score: 500))
            #expect(try Player.fetchCount(db) == 2)

            // Extra named arguments are ignored, as in GRDB.
            try insertStatement.execute(arguments: ["name": "Craig", "score": 1, "extra": 3])
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test func literalStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let name = "O'Brien"
            let insertStatement = try db.makeStatement(literal: "INSERT INTO player (name, score) VALUES (\(name), \(42))")
            #expect(insertStatement.sql == "INSERT INTO player (name, score) VALUES (?, ?)")
            try insertStatement.execute()
            let selectStatement = try db.makeStatement(literal: "SELECT score FROM player WHERE name = \(name)")
            #expect(try Int.fetchOne(selectStatement) == 42)
        }
    }

    @Test func makeStatementRefusesMultipleStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let error = try #require(throws: DatabaseError.self) {
                try db.makeStatement(sql: "SELECT 1; SELECT 2")
            }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == "Multiple statements found. To execute multiple statements, use Database.execute(sql:) or Database.allStatements(sql:) instead.")
            #expect(throws: DatabaseError.self) { try db.cachedStatement(sql: "SELECT 1; SELECT 2") }
        }
    }

    // MARK: Arguments

    @Test func invalidArgumentsThrow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let insertStatement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            let missing = try #require(throws: DatabaseError.self) {
                try insertStatement.validateArguments(["name": "Arthur"])
            }
            #expect(missing.resultCode == .SQLITE_MISUSE)
            #expect(missing.message == "missing statement argument: score")

            #expect(throws: DatabaseError.self) { try insertStatement.setArguments(["Arthur", 1, 2]) }
            #expect(throws: DatabaseError.self) { try insertStatement.execute(arguments: ["name": "Arthur"]) }

            // GRDB stops the process when the `arguments` property is given
            // arguments that do not fit; Trellis throws when the statement runs.
            insertStatement.arguments = ["name": "Arthur"]
            let error = try #require(throws: DatabaseError.self) { try insertStatement.execute() }
            #expect(error.message == "missing statement argument: score")
            #expect(try Player.fetchCount(db) == 0)
            let selectStatement = try db.makeStatement(sql: "SELECT * FROM player WHERE name = ?")
            selectStatement.arguments = ["Arthur", "Barbara"]
            #expect(throws: DatabaseError.self) { try Player.fetchAll(selectStatement) }
            #expect(throws: DatabaseError.self) { try Row.fetchCursor(selectStatement) }
            // Valid arguments make the statement usable again.
            selectStatement.arguments = ["Arthur"]
            #expect(try Player.fetchAll(selectStatement).isEmpty)
            insertStatement.arguments = ["name": "Arthur", "score": 1]
            try insertStatement.execute()
            #expect(try Player.fetchAll(selectStatement) == [Player(name: "Arthur", score: 1)])
        }
    }

    @Test func setArgumentsThenExecute() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            // First option
            try statement.setArguments(["Arthur", 100])
            try statement.execute()
            try statement.execute()
            // Second option
            try statement.execute(arguments: ["Barbara", 200])
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY rowid") == [100, 100, 200])
        }
    }

    @Test func uncheckedArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT ?, :a")
            statement.arguments = [1, 2]
            #expect(try Row.fetchOne(statement)?.databaseValues == [1.databaseValue, 2.databaseValue])
            // As in GRDB: missing values are NULL, extra values are ignored.
            statement.setUncheckedArguments([5])
            #expect(try Row.fetchOne(statement)?.databaseValues == [5.databaseValue, .null])
            statement.setUncheckedArguments([5, 6, 7])
            #expect(try Row.fetchOne(statement)?.databaseValues == [5.databaseValue, 6.databaseValue])
            statement.setUncheckedArguments(["a": 9])
            #expect(try Row.fetchOne(statement)?.databaseValues == [.null, 9.databaseValue])
            #expect(statement.arguments == ["a": 9])
        }
    }

    // MARK: Caching Prepared Statements

    @Test func cachedStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            try statement.execute(arguments: ["Arthur", 100])
            #expect(try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)") === statement)

            let literalStatement = try db.cachedStatement(literal: "INSERT INTO player (name, score) VALUES (\("Barbara"), \(200))")
            try literalStatement.execute()
            #expect(try Player.fetchCount(db) == 2)
            #expect(literalStatement === statement)
        }
    }

    // MARK: Parsing Multiple Prepared Statements from a Single SQL String

    @Test func allStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statements = try db.allStatements(sql: """
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (?, ?);
                """, arguments: ["Arthur", 100, "O'Brien", 1000])
            while let statement = try statements.next() {
                try statement.execute()
            }
            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY rowid") == [
                Player(name: "Arthur", score: 100), Player(name: "O'Brien", score: 1000),
            ])

            let literalStatements = try db.allStatements(literal: """
                INSERT INTO player (name, score) VALUES (\("Barbara"), \(200));
                INSERT INTO player (name, score) VALUES (\("Craig"), \(300));
                """)
            // An alternative way to iterate all statements
            try literalStatements.forEach { statement in
                try statement.execute()
            }
            #expect(try Player.fetchCount(db) == 4)

            try db.execute(sql: """
                CREATE TABLE team (name TEXT);
                INSERT INTO team (name) VALUES ('Reds');
                """)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM team") == ["Reds"])
        }
    }

    @Test func allStatementsJoinSelects() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 100), ('Barbara', 200)")
            let statements = try db.allStatements(sql: """
                SELECT * FROM player WHERE score < 150;
                SELECT * FROM player WHERE score >= 150;
                """)
            // The guide writes `try` before flatMap, which does not throw:
            // the cursor it makes throws as it steps.
            let players = statements.flatMap { statement in
                try Player.fetchCursor(statement)
            }
            var names: [String] = []
            while let player = try players.next() {
                names.append(player.name)
            }
            #expect(names == ["Arthur", "Barbara"])
        }
    }

    @Test func arrayOfStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            // OK: Array of statements
            let statements = try Array(db.allStatements(sql: """
                INSERT INTO player (name, score) VALUES ('Arthur', 1);
                UPDATE player SET score = 2;
                """))
            #expect(statements.map(\.sql) == ["INSERT INTO player (name, score) VALUES ('Arthur', 1);", "UPDATE player SET score = 2;"]
                || statements.map(\.sql) == ["INSERT INTO player (name, score) VALUES ('Arthur', 1)", "UPDATE player SET score = 2"])

            // FAILURE: Can't build an array of statements since the INSERT won't
            // compile until CREATE TABLE is executed.
            let error = try #require(throws: DatabaseError.self) {
                try Array(db.allStatements(sql: """
                    CREATE TABLE team (name TEXT);
                    INSERT INTO team (name) VALUES ('Reds');
                    """))
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "no such table: team")
        }
    }

    @Test func allStatementsArgumentsMustFit() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let tooFew = try db.allStatements(sql: "SELECT ?; SELECT ?", arguments: [1])
            #expect(throws: DatabaseError.self) { try Array(tooFew.flatMap { try Int.fetchCursor($0) }) }
            let tooMany = try db.allStatements(sql: "SELECT ?; SELECT ?", arguments: [1, 2, 3])
            #expect(throws: DatabaseError.self) { try Array(tooMany.flatMap { try Int.fetchCursor($0) }) }
            let fitting = try db.allStatements(sql: "SELECT ?; SELECT ?", arguments: [1, 2])
            #expect(try Array(fitting.flatMap { try Int.fetchCursor($0) }) == [1, 2])
        }
    }

    // MARK: Statement Informations

    @Test func statementInformations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT name, score AS s FROM player WHERE name = ?")
            #expect(statement.columnCount == 2)
            #expect(statement.columnNames == ["name", "s"])
            #expect(statement.index(ofColumn: "S") == 1)
            #expect(statement.index(ofColumn: "score") == nil)
            #expect(statement.isReadonly)
            #expect(statement.sql == "SELECT name, score AS s FROM player WHERE name = ?")
            #expect(statement.databaseRegion.description == "player(name,score)")
            #expect(statement.databaseRegion.contains(table: "player"))
            _ = statement.sqliteStatement
        }
        try dbQueue.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            #expect(!insert.isReadonly)
            #expect(insert.databaseRegion.isEmpty) // as in GRDB: it reads nothing
        }
    }
}
