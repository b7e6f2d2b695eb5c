import Foundation
import Testing
import Trellis

@Suite struct FullTextSearchMigrationTests {
    @Test func fullTextTablesAreErasedWithTheDatabaseOnSchemaChange() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fts-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("library") { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            try db.create(virtualTable: "note", using: FTS4()) { t in t.column("text") }
        }
        let dbQueue = try DatabaseQueue(path: path)
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby Dick')") }

        // The same migration, changed: the database is erased and migrated
        // again.
        var changed = DatabaseMigrator()
        changed.eraseDatabaseOnSchemaChange = true
        changed.registerMigration("library") { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("author", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
                t.column("author")
            }
        }
        try changed.migrate(dbQueue)
        try dbQueue.write { db in
            #expect(try db.tableExists("book_ft"))
            #expect(try !db.tableExists("note"))
            #expect(try db.columns(in: "book_ft").map(\.name) == ["title", "author"])
            try db.execute(sql: "INSERT INTO book (title, author) VALUES ('Typee', 'Herman Melville')")
            #expect(try Table("book_ft").matching(FTS5Pattern(matchingAnyTokenIn: "melville")).fetchCount(db) == 1)
            #expect(try Table("book").fetchCount(db) == 1)
        }
    }
}
