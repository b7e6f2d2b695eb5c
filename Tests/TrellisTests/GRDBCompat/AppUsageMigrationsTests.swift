import Foundation
import Testing
import Trellis

// Migrations as application layers organize them: one type per migration
// with a static `migrate(_:)` registered by reference, table bodies kept in
// static functions and passed as `body:`, guarded `try?` creations, FTS5
// tables synchronized with a content table, multi-statement SQL, and the
// questions apps ask the migrator at launch.

private protocol SchemaStep {
    static var identifier: String { get }
    static func migrate(_ db: Database) throws
}

private enum CreateLibrary: SchemaStep {
    static let identifier = "20240101_createLibrary"

    static func migrate(_ db: Database) throws {
        try db.create(table: "shelf") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull().collate(.nocase).unique()
            t.column("createdAt", .datetime).notNull().defaults(sql: "CURRENT_TIMESTAMP")
        }
        try db.create(table: "volume") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("shelf", onDelete: .cascade).notNull()
            t.column("title", .text).notNull()
            t.column("pages", .integer).notNull().check { $0 > 0 }
            t.column("isLent", .boolean).notNull().defaults(to: false)
        }
        try db.create(indexOn: "volume", columns: ["title"])
    }
}

private enum AddVolumeSearch: SchemaStep {
    static let identifier = "20240201_addVolumeSearch"

    static func migrate(_ db: Database) throws {
        try db.create(virtualTable: "volume_ft", ifNotExists: true, using: FTS5()) { t in
            t.synchronize(withTable: "volume")
            t.tokenizer = .porter(wrapping: .unicode61())
            t.column("title")
        }
    }
}

private enum AddTagsRawSQL: SchemaStep {
    static let identifier = "20240301_addTags"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE volumeTag (
              volumeId INTEGER NOT NULL REFERENCES volume(id) ON DELETE CASCADE,
              tagId INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
              PRIMARY KEY (volumeId, tagId)
            ) WITHOUT ROWID;
            CREATE INDEX volumeTag_tagId ON volumeTag(tagId);
            """)
    }
}

private struct Preference: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "preference"
    var key: String
    var value: String

    static func create(_ t: TableDefinition) {
        t.primaryKey("key", .text)
        t.column("value", .text).notNull()
    }
}

private func makeMigrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration(CreateLibrary.identifier, migrate: CreateLibrary.migrate)
    migrator.registerMigration(AddVolumeSearch.identifier, migrate: AddVolumeSearch.migrate)
    migrator.registerMigration(AddTagsRawSQL.identifier, migrate: AddTagsRawSQL.migrate)
    migrator.registerMigration("20240401_preferences") { db in
        try? db.create(table: Preference.databaseTableName, ifNotExists: true, body: Preference.create)
    }
    return migrator
}

@Suite("App usage: migrations")
struct AppUsageMigrationsTests {
    @Test("Migrations registered by reference build the schema, and are reported as completed")
    func registeredByReference() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        #expect(try dbQueue.read { db in try migrator.hasCompletedMigrations(db) } == false)
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        let (completed, applied, superseded) = try dbQueue.read { db in
            (try migrator.hasCompletedMigrations(db), try migrator.appliedIdentifiers(db), try migrator.hasBeenSuperseded(db))
        }
        #expect(completed)
        #expect(superseded == false)
        #expect(applied == Set(migrator.migrations))
        #expect(migrator.migrations == [
            "20240101_createLibrary", "20240201_addVolumeSearch", "20240301_addTags", "20240401_preferences",
        ])
        let tables = try dbQueue.read { db in
            try ["shelf", "volume", "volume_ft", "tag", "volumeTag", "preference"].map { try db.tableExists($0) }
        }
        #expect(tables.allSatisfy { $0 })
    }

    @Test("The schema enforces its defaults, checks, collations and cascades, and the FTS5 table follows its content")
    func schemaBehaviour() throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try makeMigrator().migrate(dbQueue)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO shelf (id, name) VALUES ('s1', 'Kitchen')")
            try db.execute(sql: "INSERT INTO volume (shelfId, title, pages) VALUES ('s1', 'Running shoes', 10)")
            try db.execute(sql: "INSERT INTO volume (shelfId, title, pages) VALUES ('s1', 'Cooking', 20)")
        }
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO shelf (id, name) VALUES ('s2', 'KITCHEN')") }
        }
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO volume (shelfId, title, pages) VALUES ('s1', 'Empty', 0)")
            }
        }
        let (createdAt, isLent, matches) = try dbQueue.read { db in
            (
                try Date.fetchOne(db, sql: "SELECT createdAt FROM shelf"),
                try Bool.fetchAll(db, sql: "SELECT isLent FROM volume"),
                try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM volume_ft WHERE volume_ft MATCH ?",
                    arguments: [FTS5Pattern(matchingAllTokensIn: "run")])
            )
        }
        #expect(createdAt != nil)
        #expect(isLent == [false, false])
        #expect(matches == [1])
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM shelf") }
        let remaining = try dbQueue.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM volume"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM volume_ft"))
        }
        #expect(remaining.0 == 0)
        #expect(remaining.1 == 0)
    }

    @Test("migrate(_:upTo:) stops at the named migration, and a later migrate completes the rest")
    func migrateUpTo() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        try migrator.migrate(dbQueue, upTo: AddVolumeSearch.identifier)
        let applied = try dbQueue.read { db in try migrator.appliedMigrations(db) }
        #expect(applied == [CreateLibrary.identifier, AddVolumeSearch.identifier])
        #expect(try dbQueue.read { db in try db.tableExists("tag") } == false)
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db in try migrator.completedMigrations(db) } == migrator.migrations)
    }

    @Test("A database migrated by a newer version of the app is superseded, and is left alone")
    func supersededDatabase() throws {
        let dbQueue = try DatabaseQueue()
        var newer = makeMigrator()
        newer.registerMigration("20250101_future") { db in
            try db.create(table: "future") { t in t.column("a") }
        }
        try newer.migrate(dbQueue)
        let older = makeMigrator()
        let superseded = try dbQueue.read { db in try older.hasBeenSuperseded(db) }
        #expect(superseded)
        try older.migrate(dbQueue)
        #expect(try dbQueue.read { db in try db.tableExists("future") })
    }

    @Test("A failing migration rolls back its changes and throws its error")
    func failingMigration() throws {
        struct Stop: Error {}
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("failing") { db in
            try db.create(table: "halfway") { t in t.column("a") }
            throw Stop()
        }
        #expect(throws: Stop.self) { try migrator.migrate(dbQueue) }
        let (halfway, applied) = try dbQueue.read { db in
            (try db.tableExists("halfway"), try migrator.appliedIdentifiers(db))
        }
        #expect(halfway == false)
        #expect(applied.contains("failing") == false)
        #expect(applied.contains("20240401_preferences"))
    }

    @Test("eraseDatabaseOnSchemaChange recreates a database whose migration changed", arguments: [false, true])
    func eraseOnSchemaChange(usesPool: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appusage-erase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path

        var first = DatabaseMigrator()
        first.eraseDatabaseOnSchemaChange = true
        first.registerMigration("v1") { db in
            try db.create(table: "draft") { t in
                t.autoIncrementedPrimaryKey("id")
            }
        }
        func open() throws -> any DatabaseWriter {
            usesPool ? try DatabasePool(path: path) : try DatabaseQueue(path: path)
        }
        try first.migrate(open())
        try open().write { db in try db.execute(sql: "INSERT INTO draft DEFAULT VALUES") }

        var edited = DatabaseMigrator()
        edited.eraseDatabaseOnSchemaChange = true
        edited.registerMigration("v1") { db in
            try db.create(table: "draft") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("text", .text)
            }
        }
        let writer = try open()
        try edited.migrate(writer)
        let (columns, count) = try writer.read { db in
            (try db.columns(in: "draft").map(\.name), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM draft"))
        }
        #expect(columns == ["id", "text"])
        #expect(count == 0)
    }
}
