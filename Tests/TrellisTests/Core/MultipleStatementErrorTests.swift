import Foundation
import Testing
import Trellis

/// Errors of SQL strings with several statements: the statements before
/// the failing one have run, and the error names the failing statement.
@Suite struct MultipleStatementErrorTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in try db.execute(sql: "CREATE TABLE t(a)") }
        return dbQueue
    }

    @Test func anInvalidStatementIsNamedAloneAfterThePreviousOnesRan() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            let error = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (1); SELEC 2; INSERT INTO t VALUES (3)")
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.sql == "SELEC 2;")
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1])

            let missing = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (4);\n  INSERT INTO nope VALUES (5);\nINSERT INTO t VALUES (6);")
            }
            #expect(missing.message == "no such table: nope")
            #expect(missing.sql == "INSERT INTO nope VALUES (5);")
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1, 4])
        }
    }

    @Test func semicolonsInStringsAndTriggersDoNotEndTheFailingStatement() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            let error = try #require(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO t VALUES ('a;b'); CREATE TRIGGER tr AFTER INSERT ON nope BEGIN SELECT ';'; END; SELECT 1
                    """)
            }
            #expect(error.sql == "CREATE TRIGGER tr AFTER INSERT ON nope BEGIN SELECT ';'; END;")
        }
    }

    @Test func aSingleInvalidStatementIsNamedWhole() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let error = try #require(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM nope;") }
            #expect(error.sql == "SELECT * FROM nope;")
            let unterminated = try #require(throws: DatabaseError.self) { try db.execute(sql: "SELECT 'a;b' FROM nope") }
            #expect(unterminated.sql == "SELECT 'a;b' FROM nope")
        }
    }

    @Test func argumentCountErrorsAreMisuseAndNameTheStatement() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            let tooFew = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1])
            }
            #expect(tooFew.resultCode == .SQLITE_MISUSE)
            #expect(tooFew.message == "wrong number of statement arguments: expected 1, got 0")
            #expect(tooFew.sql == "INSERT INTO t VALUES (?)")
            // The first statement ran.
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1])

            let tooMany = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [2, 3, 4])
            }
            #expect(tooMany.resultCode == .SQLITE_MISUSE)
            // The last statement takes the values left: 2 for its 1 parameter.
            #expect(tooMany.message == "wrong number of statement arguments: expected 1, got 2")
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1, 2])
        }
    }
}
