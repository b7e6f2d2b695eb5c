import Foundation
import Testing
import Trellis

// GRDB's Migrations.md: each sample, with the statements, schema, errors
// and migration history that GRDB 7 gives for it (where GRDB stops the
// process on a misuse, Trellis throws GRDB's message).

private enum Author {
    static let databaseTableName = "author"
    enum Columns {
        static let id = Column("id")
    }
}

@Suite struct MigrationsDocTests {
    /// The migrator of the overview.
    private func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()

        // 1st migration
        migrator.registerMigration("Create authors") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("creationDate", .datetime)
                t.column("name", .text)
            }
        }

        // 2nd migration
        migrator.registerMigration("Add books and author.birthYear") { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
            }

            try db.alter(table: "author") { t in
                t.add(column: "birthYear", .integer)
            }
        }
        return migrator
    }

    @Test func migrateRunsEachMigrationOnce() throws {
        let trace = StatementTrace()
        let path = StatementTrace.temporaryPath("migrations")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbQueue = try DatabaseQueue(path: path, configuration: trace.configuration())
        let migrator = makeMigrator()

        // Migrate the database up to the latest version
        try migrator.migrate(dbQueue)
        let schemaStatements = trace.take().filter { ["CREATE TABLE", "CREATE INDEX", "ALTER"].contains(where: $0.hasPrefix) }
        #expect(schemaStatements == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            #"CREATE TABLE "author" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "creationDate" DATETIME, "name" TEXT)"#,
            #"CREATE TABLE "book" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "authorId" INTEGER NOT NULL REFERENCES "author"("id"), "title" TEXT NOT NULL)"#,
            #"CREATE INDEX "book_on_authorId" ON "book"("authorId")"#,
            #"ALTER TABLE "author" ADD COLUMN "birthYear" INTEGER"#,
        ])
        try dbQueue.read { (db: Database) throws in
            // The memory of applied migrations is stored in the database itself.
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") == [
                "Create authors", "Add books and author.birthYear",
            ])
            #expect(try db.columns(in: "author").map(\.name) == ["id", "creationDate", "name", "birthYear"])
        }

        // When a user upgrades the application, only non-applied migrations run.
        try migrator.migrate(dbQueue)
        #expect(trace.take().filter { $0.hasPrefix("CREATE TABLE \"") || $0.hasPrefix("ALTER") }.isEmpty)
        var upgraded = migrator
        upgraded.registerMigration("Add author.email") { db in
            try db.alter(table: "author") { t in t.add(column: "email", .text) }
        }
        try upgraded.migrate(dbQueue)
        #expect(trace.take().filter { $0.hasPrefix("ALTER") } == [#"ALTER TABLE "author" ADD COLUMN "email" TEXT"#])
    }

    @Test func migrateUpToAVersion() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a (x)") }
        migrator.registerMigration("v2") { db in try db.execute(sql: "CREATE TABLE b (x)") }
        migrator.registerMigration("v3") { db in try db.execute(sql: "CREATE TABLE c (x)") }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue, upTo: "v2")
        try dbQueue.read { (db: Database) throws in
            #expect(try db.tableExists("b"))
            #expect(try !db.tableExists("c"))
        }

        // Migrations can only run forward:
        try migrator.migrate(dbQueue, upTo: "v2")
        do {
            try migrator.migrate(dbQueue, upTo: "v1")
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            // GRDB: fatal error: database is already migrated beyond migration "v1"
            #expect(error.message == #"database is already migrated beyond migration "v1""#)
        }
        do {
            try migrator.migrate(dbQueue, upTo: "v4")
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message == #"undefined migration: "v4""#)
        }
        var duplicated = migrator
        duplicated.registerMigration("v1") { _ in }
        do {
            try duplicated.migrate(dbQueue)
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message == #"already registered migration: "v1""#)
        }
    }

    @Test func extraChecksOfDeployedDatabases() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a (x)") }
        migrator.registerMigration("v2") { db in try db.execute(sql: "CREATE TABLE b (x)") }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue, upTo: "v1")

        try dbQueue.read { (db: Database) throws in
            // Read-only apps or extensions may want to check if the database
            // lacks expected migrations:
            #expect(try migrator.hasCompletedMigrations(db) == false)
            // Some apps may want to check if the database
            // contains unknown (future) migrations:
            #expect(try migrator.hasBeenSuperseded(db) == false)
            #expect(migrator.migrations == ["v1", "v2"])
            #expect(try migrator.appliedMigrations(db) == ["v1"])
            #expect(try migrator.appliedIdentifiers(db) == ["v1"])
            #expect(try migrator.completedMigrations(db) == ["v1"])
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.completedMigrations(db) == ["v1", "v2"])
        }

        // An older version of the application.
        var older = DatabaseMigrator()
        older.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a (x)") }
        try dbQueue.read { (db: Database) throws in
            #expect(try older.hasBeenSuperseded(db))
            #expect(try older.hasCompletedMigrations(db))
            #expect(try older.appliedMigrations(db) == ["v1"])
            #expect(try older.appliedIdentifiers(db) == ["v1", "v2"])
        }
    }

    @Test func eachMigrationRunsInATransaction() throws {
        var migrator = makeMigrator()
        migrator.registerMigration("Failing") { db in
            try db.execute(sql: "CREATE TABLE t4 (a)")
            try db.execute(sql: "INSERT INTO missing VALUES (1)")
        }
        migrator.registerMigration("Never run") { db in
            try db.execute(sql: "CREATE TABLE t5 (a)")
        }
        let dbQueue = try DatabaseQueue()
        do {
            try migrator.migrate(dbQueue)
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message == "no such table: missing")
        }
        try dbQueue.read { (db: Database) throws in
            #expect(try !db.tableExists("t4"))
            #expect(try !db.tableExists("t5"))
            #expect(try migrator.appliedMigrations(db) == ["Create authors", "Add books and author.birthYear"])
        }
    }

    // MARK: Foreign Key Checks

    private func registerViolation(_ name: String, in migrator: inout DatabaseMigrator,
                                   foreignKeyChecks: DatabaseMigrator.ForeignKeyChecks = .deferred)
    {
        migrator.registerMigration(name, foreignKeyChecks: foreignKeyChecks) { db in
            try db.create(table: "author") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author")
                t.column("name", .text)
            }
            try db.execute(sql: "INSERT INTO book (authorId, name) VALUES (2, 'Moby-Dick')")
        }
    }

    @Test func deferredForeignKeyChecks() throws {
        var migrator = DatabaseMigrator()
        registerViolation("Violation", in: &migrator)
        let dbQueue = try DatabaseQueue()
        do {
            try migrator.migrate(dbQueue)
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error.description == #"SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 name:"Moby-Dick"]"#)
        }
        try dbQueue.read { (db: Database) throws in
            #expect(try !db.tableExists("book"))
            // Foreign keys are enabled again.
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func immediateForeignKeyChecks() throws {
        var migrator = DatabaseMigrator()
        registerViolation("Fast migration", in: &migrator, foreignKeyChecks: .immediate)
        let dbQueue = try DatabaseQueue()
        do {
            try migrator.migrate(dbQueue)
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message == "FOREIGN KEY constraint failed")
        }
    }

    @Test func disabledDeferredForeignKeyChecks() throws {
        var migrator = DatabaseMigrator()
        migrator = migrator.disablingDeferredForeignKeyChecks()
        registerViolation("Fast but unchecked migration", in: &migrator)
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try Array(db.foreignKeyViolations()).count == 1)
        }

        migrator.registerMigration("Partially checked") { db in
            // Throws an error and stops migrations if there exists a
            // foreign key violation in the 'book' table.
            try db.checkForeignKeys(in: "book")
        }
        do {
            try migrator.migrate(dbQueue)
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message == #"FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 name:"Moby-Dick"]"#)
        }

        // Immediate checks still apply.
        var checked = DatabaseMigrator().disablingDeferredForeignKeyChecks()
        registerViolation("Fast and checked migration", in: &checked, foreignKeyChecks: .immediate)
        #expect(throws: DatabaseError.self) { try checked.migrate(DatabaseQueue()) }
    }

    // MARK: Defining the Database Schema from a Migration

    @Test func renameAForeignKeyWithImmediateChecks() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Teams") { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
            }
            try db.execute(sql: "INSERT INTO team DEFAULT VALUES")
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (1)")
        }
        // IMPORTANT: rename foreign keys with immediate foreign key checks.
        migrator.registerMigration("Guilds", foreignKeyChecks: .immediate) { db in
            try db.rename(table: "team", to: "guild")

            try db.alter(table: "player") { t in
                // Rename a foreign key
                t.rename(column: "teamId", to: "guildId")
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            let foreignKey = try db.foreignKeys(on: "player").first
            #expect(foreignKey?.destinationTable == "guild")
            #expect(foreignKey?.originColumns == ["guildId"])
            #expect(try Array(db.foreignKeyViolations()).isEmpty)
        }
    }

    @Test func recreateATable() throws {
        var migrator = makeMigrator()
        migrator.registerMigration("Add NOT NULL check on author.name") { db in
            try db.create(table: "new_author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("creationDate", .datetime)
                t.column("name", .text).notNull()
                t.column("birthYear", .integer)
            }
            try db.execute(sql: "INSERT INTO new_author SELECT * FROM author")
            try db.drop(table: "author")
            try db.rename(table: "new_author", to: "author")
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue, upTo: "Add books and author.birthYear")
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO author (name) VALUES ('Herman Melville')")
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (1, 'Moby-Dick')")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try db.columns(in: "author").first { $0.name == "name" }?.isNotNull == true)
            #expect(try String.fetchOne(db, sql: "SELECT title FROM book JOIN author ON author.id = book.authorId") == "Moby-Dick")
            // The foreign key of book follows the renamed table.
            #expect(try db.foreignKeys(on: "book").map(\.destinationTable) == ["author"])

            // Remember the format of the indexes, triggers, and views of a table.
            final class Output: TextOutputStream {
                var text = ""
                func write(_ string: String) { text += string }
            }
            let dump = Output()
            try db.dumpSQL("SELECT type, sql FROM sqlite_schema WHERE tbl_name='book'", to: dump)
            #expect(dump.text.contains(#"CREATE INDEX "book_on_authorId" ON "book"("authorId")"#))
        }
    }

    @Test func migrationsDefineTheSchemaWithStrings() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Create authors") { db in
            // NOT RECOMMENDED, but it compiles and works.
            try db.create(table: Author.databaseTableName) { t in
                t.autoIncrementedPrimaryKey(Author.Columns.id.name)
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db in try db.primaryKey("author").columns } == ["id"])
    }

    // MARK: The eraseDatabaseOnSchemaChange Option

    @Test func eraseDatabaseOnSchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        func count(_ table: String) throws -> Int? {
            try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") }
        }
        func migrator(_ migrations: [(String, String)]) -> DatabaseMigrator {
            var migrator = DatabaseMigrator()
            // Speed up development by nuking the database when migrations change
            migrator.eraseDatabaseOnSchemaChange = true
            for (identifier, sql) in migrations {
                migrator.registerMigration(identifier) { db in try db.execute(sql: sql) }
            }
            return migrator
        }

        try migrator([("v1", "CREATE TABLE a (x)")]).migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO a VALUES (1)") }

        // Unchanged migrations: the content stays.
        try migrator([("v1", "CREATE TABLE a (x)")]).migrate(dbQueue)
        #expect(try count("a") == 1)
        #expect(try dbQueue.read { db in try migrator([("v1", "CREATE TABLE a (x)")]).hasSchemaChanges(db) } == false)

        // A new migration: the content stays.
        try migrator([("v1", "CREATE TABLE a (x)"), ("v2", "CREATE TABLE b (x)")]).migrate(dbQueue)
        #expect(try count("a") == 1)

        // A changed migration: the database is erased and migrated again.
        let changed = migrator([("v1", "CREATE TABLE a (x, y)"), ("v2", "CREATE TABLE b (x)")])
        #expect(try dbQueue.read { db in try changed.hasSchemaChanges(db) })
        try changed.migrate(dbQueue)
        #expect(try count("a") == 0)
        #expect(try dbQueue.read { db in try db.columns(in: "a").map(\.name) } == ["x", "y"])

        // A renamed migration.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO a VALUES (1, 2)") }
        let renamed = migrator([("renamed", "CREATE TABLE a (x, y)"), ("v2", "CREATE TABLE b (x)")])
        try renamed.migrate(dbQueue)
        #expect(try count("a") == 0)
        #expect(try dbQueue.read { db in try renamed.appliedIdentifiers(db) } == ["renamed", "v2"])

        // A schema change outside of the migrations.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO a VALUES (1, 2); CREATE TABLE extra (z)") }
        #expect(try dbQueue.read { db in try renamed.hasSchemaChanges(db) })
        try renamed.migrate(dbQueue)
        #expect(try count("a") == 0)
        #expect(try dbQueue.read { db in try db.tableExists("extra") } == false)
    }
}
