import Foundation
import Testing
import Trellis

// GRDB's README, "How to Deal with Untrusted Inputs" and "FAQ: Errors":
// each sample run as written, with the errors the README describes.

@Suite struct ReadmeUntrustedInputsDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, birthDate TEXT);
                INSERT INTO player VALUES (1, 'Arthur', '1970-01-01 00:00:00.000');
                INSERT INTO player VALUES (2, 'Barbara', 'Mom’s birthday');
                INSERT INTO player VALUES (3, 'Craig', NULL);
                """)
        }
        return dbQueue
    }

    @Test func untrustedArgumentsAndDatabaseContent() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let sql = "SELECT birthDate FROM player WHERE id >= :minId ORDER BY id"
            let untrusted: [String: Any] = ["minId": 1]
            let arguments = try #require(StatementArguments(untrusted))
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(arguments)
            var outcomes: [String] = []
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                let dbValue: DatabaseValue = row[0]
                if dbValue.isNull {
                    outcomes.append("null")
                } else if let date = Date.fromDatabaseValue(dbValue) {
                    outcomes.append("date \(date.timeIntervalSince1970)")
                } else {
                    outcomes.append("invalid")
                }
            }
            #expect(outcomes == ["date 0.0", "invalid", "null"])

            // Values that are not database values, and missing keys.
            let invalid: [String: Any] = ["minId": NSObject()]
            #expect(StatementArguments(invalid) == nil)
            #expect(StatementArguments([1, NSObject()] as [Any]) == nil)
            let incomplete = try #require(StatementArguments(["other": 1] as [String: Any]))
            #expect(throws: DatabaseError.self) { try statement.setArguments(incomplete) }
        }
    }

    @Test func doubleQuotedStringLiteralsAreRefused() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: #"UPDATE player SET name = "Arthur""#)
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such column: Arthur")
            let name = "O'Brien"
            try db.execute(sql: "UPDATE player SET name = ? WHERE id = 1", arguments: [name])
            try db.execute(literal: "UPDATE player SET name = \(name) WHERE id = 2")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player WHERE name = ?", arguments: [name]).count == 2)
        }
        var config = Configuration()
        config.acceptsDoubleQuotedStringLiterals = true
        let lenient = try DatabaseQueue(configuration: config)
        try lenient.write { db throws in
            try db.execute(sql: #"CREATE TABLE t(name TEXT); INSERT INTO t VALUES ("Arthur")"#)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM t") == "Arthur")
        }
    }

    @Test func questionMarksInsideLiteralsAreNotParameters() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let name = "rth"
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name LIKE '%?%'", arguments: [name])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            let pattern = "%\(name)%"
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name LIKE ?", arguments: [pattern])
            #expect(rows.map { $0["name"] as String } == ["Arthur"])
        }
    }

    @Test func nonReentrantAccessesAndNonUniqueKeysThrow() throws {
        let dbQueue = try makeDatabase()
        #expect(throws: (any Error).self) {
            try dbQueue.write { _ in
                try dbQueue.write { _ in }
            }
        }
        try dbQueue.write { db throws in
            #expect(throws: (any Error).self) {
                try Table("player").deleteOne(db, key: ["name": "Arthur"])
            }
            #expect(try Table("player").filter(Column("name") == "Arthur").deleteAll(db) == 1)
        }
    }
}
