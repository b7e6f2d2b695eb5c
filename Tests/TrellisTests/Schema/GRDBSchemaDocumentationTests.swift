import Foundation
import Testing
import Trellis

/// Snippets of GRDB's documentation on the schema DSL, introspection and
/// migrations, written as a GRDB user writes them, with `import Trellis`.
@Suite struct GRDBSchemaDocumentationTests {
    @Test func createTableWithColumnsKeysAndConstraints() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().collate(.localizedCaseInsensitiveCompare)
                t.column("email", .text).unique(onConflict: .replace)
                t.column("creationDate", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                t.column("isActive", .boolean).notNull().defaults(to: true)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade).notNull()
                t.column("title", .text).notNull().check { length($0) > 0 }
                t.column("price", .double)
                t.check(sql: "price IS NULL OR price >= 0")
            }
            try db.create(table: "tagging", options: [.ifNotExists, .withoutRowID]) { t in
                t.primaryKey {
                    t.belongsTo("book")
                    t.column("tag", .text)
                }
            }
            try db.create(table: "place") { t in
                t.primaryKey("uuid", .text)
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.uniqueKey(["latitude", "longitude"])
            }

            #expect(try db.tableExists("book"))
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name", "email", "creationDate", "isActive"])
            #expect(try db.primaryKey("tagging").columns == ["bookId", "tag"])
            #expect(try db.primaryKey("place").columns == ["uuid"])
            let foreignKeys = try db.foreignKeys(on: "book")
            #expect(foreignKeys.map(\.destinationTable) == ["author"])
            #expect(foreignKeys.map(\.originColumns) == [["authorId"]])
            #expect(try db.table("place", hasUniqueKey: ["latitude", "longitude"]))

            try db.execute(sql: "INSERT INTO author (name) VALUES ('Herman Melville')")
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (1, 'Moby-Dick')")
            #expect(try Bool.fetchOne(db, sql: "SELECT isActive FROM author") == true)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (1, '')")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (authorId, title, price) VALUES (1, 'Typee', -1)")
            }
            // Deleting the author deletes the book.
            try db.execute(sql: "DELETE FROM author")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 0)
        }
    }

    @Test func alterRenameDropAndIndexes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer)
            }
            try db.alter(table: "player") { t in
                t.add(column: "url", .text)
                t.rename(column: "url", to: "homeURL")
                t.drop(column: "score")
            }
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "homeURL"])

            try db.create(index: "player_on_name", on: "player", columns: ["name"], options: .unique)
            try db.create(indexOn: "player", columns: ["homeURL"])
            let indexes = try db.indexes(on: "player").map(\.name).sorted()
            #expect(indexes == ["index_player_on_homeURL", "player_on_name"])
            try db.drop(index: "player_on_name")
            #expect(try db.indexes(on: "player").map(\.name) == ["index_player_on_homeURL"])

            try db.rename(table: "player", to: "athlete")
            #expect(try db.tableExists("athlete"))
            #expect(try !db.tableExists("player"))
            try db.drop(table: "athlete")
            #expect(try !db.tableExists("athlete"))
        }
    }

    @Test func migrationsRunOnceAndInOrder() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createAuthor") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        migrator.registerMigration("addBirthYear") { db in
            try db.alter(table: "author") { t in
                t.add(column: "birthYear", .integer)
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue, upTo: "createAuthor")
        try dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["createAuthor"])
            #expect(try !migrator.hasCompletedMigrations(db))
        }
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)  // no-op
        try dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["createAuthor", "addBirthYear"])
            #expect(try migrator.completedMigrations(db) == ["createAuthor", "addBirthYear"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name", "birthYear"])
        }
    }
}
