import Testing
import Trellis

// GRDB's DatabaseSchemaIntegrityChecks.md lists the foreign key checks
// (and Migrations.md shows their error): checked here against the errors
// and violations GRDB 7 reports for the same rows.

@Suite struct DatabaseSchemaIntegrityChecksDocTests {
    /// A book whose author is missing, and a tag (in a table without rowid)
    /// whose book is missing.
    private func makeDatabase() throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author")
                t.column("name", .text)
            }
            try db.create(table: "tag", options: .withoutRowID) { t in
                t.primaryKey("name", .text)
                t.belongsTo("book")
            }
            try db.execute(sql: "INSERT INTO book (id, authorId, name) VALUES (1, 2, 'Moby-Dick')")
            try db.execute(sql: "INSERT INTO tag (name, bookId) VALUES ('classic', 3)")
        }
        return dbQueue
    }

    @Test func checkForeignKeysThrowsADetailedError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            do {
                try db.checkForeignKeys(in: "book")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                #expect(error.message == #"FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 name:"Moby-Dick"]"#)
                #expect(error.description == #"SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 name:"Moby-Dick"]"#)
            }
            do {
                try db.checkForeignKeys(in: "book", in: "main")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            }
            // A row without rowid is described without its values.
            do {
                try db.checkForeignKeys(in: "tag")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "FOREIGN KEY constraint violation - from tag(bookId) to book(id)")
            }
            // The whole database: the first violation that SQLite reports.
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            // No violation, no error.
            try db.checkForeignKeys(in: "author")
            do {
                try db.checkForeignKeys(in: "missing")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "no such table: missing")
            }
        }
    }

    @Test func aKeyToAMissingTableIsAViolation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            try db.execute(sql: """
                PRAGMA foreign_keys = OFF;
                CREATE TABLE child(id INTEGER PRIMARY KEY, ghostId INT REFERENCES ghost);
                INSERT INTO child VALUES (1, 5), (2, NULL);
                """)
            let error = #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "child") }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error?.message == "FOREIGN KEY constraint violation - from child to ghost, in [id:1 ghostId:5]")
        }
    }

    @Test func foreignKeyViolationsIsACursorOfViolations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let violations = try Array(db.foreignKeyViolations()).sorted { $0.originTable < $1.originTable }
            #expect(violations.map(\.originTable) == ["book", "tag"])
            #expect(violations.map(\.destinationTable) == ["author", "book"])
            #expect(violations.map(\.originRowID) == [1, nil])
            #expect(violations.map(\.foreignKeyId) == [0, 0])
            #expect(violations.map(\.description) == [
                "FOREIGN KEY constraint violation - from book to author, in rowid 1",
                "FOREIGN KEY constraint violation - from tag to book",
            ])
            #expect(try violations.map { try $0.failureDescription(db) } == [
                #"FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 name:"Moby-Dick"]"#,
                "FOREIGN KEY constraint violation - from tag(bookId) to book(id)",
            ])
            #expect(try Array(db.foreignKeyViolations(in: "book")).map(\.originTable) == ["book"])
            #expect(try Array(db.foreignKeyViolations(in: "book", in: "main")).map(\.originTable) == ["book"])
            #expect(try Array(db.foreignKeyViolations(in: "author")).isEmpty)
        }
    }
}
