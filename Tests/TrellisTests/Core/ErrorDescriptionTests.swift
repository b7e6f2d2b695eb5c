import Foundation
import Testing
import Trellis

// The descriptions, codes and messages of errors, as GRDB 7 writes them.

@Suite("Error descriptions")
struct ErrorDescriptionTests {
    @Test("RowDecodingError describes the column, the row, the SQL and its arguments as GRDB does")
    func rowDecodingErrorDescriptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            do {
                _ = try Int.fetchAll(db, sql: "SELECT ? UNION ALL SELECT NULL", arguments: [1])
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == """
                    could not decode Int from database value NULL - column: "?", column index: 0, \
                    row: [?:NULL], sql: `SELECT ? UNION ALL SELECT NULL`, arguments: [1]
                    """)
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'x' AS a"))
            do {
                _ = try row.decode(Int.self, forColumn: "b")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == #"column not found: "b" - row: [a:"x"]"#)
            }
        }
    }

    private struct Book: Codable, FetchableRecord {
        var id: Int64
        var title: String
    }

    @Test("A record's decoding error is GRDB's, followed by the type and the record that failed")
    func recordDecodingErrorDescription() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            do {
                _ = try Book.fetchOne(db, sql: "SELECT 1 AS id")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == #"column not found: "title" - row: [id:1], sql: `SELECT 1 AS id`, arguments: [] (decoding String of Book)"#)
            }
        }
    }

    @Test("A DatabaseError without a message gets SQLite's text for its code")
    func defaultMessage() {
        #expect(DatabaseError().message == "SQL logic error")
        #expect(DatabaseError(resultCode: .SQLITE_BUSY).message == "database is locked")
        #expect(DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE).description == "SQLite error 19: constraint failed")
        #expect(DatabaseError(resultCode: .SQLITE_ERROR, sql: "SELECT ?").description
            == "SQLite error 1: SQL logic error - while executing `SELECT ?`")
    }

    @Test("A DatabaseError is an NSError of the extended code, described by its description")
    func nsErrorBridging() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            do {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                Issue.record("expected an error")
            } catch {
                #expect(error.localizedDescription
                    == "SQLite error 19: UNIQUE constraint failed: t.id - while executing `INSERT INTO t VALUES (1)`")
                #expect((error as NSError).code == 1555)
                #expect((error as NSError).localizedFailureReason == "UNIQUE constraint failed: t.id")
            }
        }
    }

    @Test("A primary result code matches its extended codes in patterns")
    func resultCodePatterns() {
        let code = ResultCode.SQLITE_CONSTRAINT_UNIQUE
        var matched = false
        if case ResultCode.SQLITE_CONSTRAINT = code { matched = true }
        #expect(matched)
        switch code {
        case .SQLITE_CONSTRAINT_PRIMARYKEY: Issue.record("wrong extended code")
        case .SQLITE_CONSTRAINT_UNIQUE: break
        default: Issue.record("no match")
        }
        if case ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY = code { Issue.record("wrong extended code") }
    }

    @Test("SQL without a statement is SQLite error 1, empty statement")
    func emptyStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let error = try #require(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "") }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "empty statement")
            let statementError = try #require(throws: DatabaseError.self) { try db.makeStatement(sql: " ") }
            #expect(statementError.message == "empty statement")
        }
    }

    private struct Missing: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "missing"
        var id: Int64
    }

    @Test("A missing table fails fetches and alterations with the SQL that failed, as in GRDB")
    func missingTableErrorsTellTheirSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let fetch = #expect(throws: DatabaseError.self) { try Missing.fetchAll(db) }
            #expect(fetch?.description == #"SQLite error 1: no such table: missing - while executing `SELECT * FROM "missing"`"#)
            let alter = #expect(throws: DatabaseError.self) { try db.alter(table: "missing") { t in t.add(column: "x") } }
            #expect(alter?.description == #"SQLite error 1: no such table: missing - while executing `ALTER TABLE "missing" ADD COLUMN "x"`"#)
            // GRDB tells no SQL for an insert: neither does Trellis.
            let insert = #expect(throws: DatabaseError.self) { try Missing(id: 1).insert(db) }
            #expect(insert?.description == "SQLite error 1: no such table: missing")
            // The connection is still usable.
            try db.create(table: "missing") { t in t.primaryKey("id", .integer) }
            try Missing(id: 1).insert(db)
            #expect(try Missing.fetchAll(db).map(\.id) == [1])
        }
    }
}
