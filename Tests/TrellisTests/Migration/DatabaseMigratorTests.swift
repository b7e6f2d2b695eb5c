import Testing
import Trellis

@Suite struct DatabaseMigratorTests {
    private func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createAuthor") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        migrator.registerMigration("createBook") { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade).notNull()
                t.column("title", .text).notNull()
            }
        }
        return migrator
    }

    @Test func migrationsRunOnceInOrder() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        try migrator.migrate(dbQueue, upTo: "createAuthor")
        try dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["createAuthor"])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try db.tableExists("author"))
            #expect(try !db.tableExists("book"))
        }
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try migrator.completedMigrations(db) == ["createAuthor", "createBook"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
            let foreignKeys = try db.foreignKeys(on: "book")
            #expect(foreignKeys.first?.originColumns == ["authorId"])
            #expect(try db.indexes(on: "book").contains { $0.columns == ["authorId"] })
        }
    }

    @Test func aMigratorWithoutMigrationsLeavesTheSchemaEmpty() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = DatabaseMigrator()
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0)
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.appliedMigrations(db) == [])
        }
        #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "unknown") }
    }

    @Test func asyncMigrate() async throws {
        let dbQueue = try DatabaseQueue()
        try await makeMigrator().migrate(dbQueue)
        let tables = try await dbQueue.read { db in try db.tableExists("book") }
        #expect(tables)
    }

    @Test func aFailingMigrationLeavesTheDatabaseAsItWas() throws {
        var migrator = makeMigrator()
        struct Failure: Error {}
        migrator.registerMigration("broken") { db in
            try db.execute(sql: "CREATE TABLE half (id INTEGER)")
            throw Failure()
        }
        let dbQueue = try DatabaseQueue()
        #expect(throws: Failure.self) { try migrator.migrate(dbQueue) }
        try dbQueue.read { (db: Database) throws in
            #expect(try !db.tableExists("half"))
            #expect(try migrator.appliedMigrations(db) == ["createAuthor", "createBook"])
        }
    }

    @Test func foreignKeyViolationsFailTheMigration() throws {
        var migrator = makeMigrator()
        migrator.registerMigration("orphan") { db in
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (42, 'Orphan')")
        }
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.message?.hasPrefix("FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:42") == true)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book") } == 0)
        // Foreign keys are enforced again afterwards.
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (42, 'Orphan')") }
        }
    }

    @Test func disablingDeferredChecksLeavesViolationsToTheApplication() throws {
        var migrator = makeMigrator().disablingDeferredForeignKeyChecks()
        migrator.registerMigration("unchecked orphan") { db in
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (42, 'Orphan')")
        }
        migrator.registerMigration("partially checked") { db in
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (43, 'Another')")
            try db.checkForeignKeys(in: "author")
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book") } == 2)
        var checked = migrator
        checked.registerMigration("checked", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (44, 'Refused')")
        }
        #expect(throws: DatabaseError.self) { try checked.migrate(dbQueue) }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book") } == 2)
    }

    @Test func migratingToAnEarlierTargetIsAnError() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        try migrator.migrate(dbQueue)
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "createAuthor") }
        #expect(error?.message?.contains("already migrated beyond migration \"createAuthor\"") == true)
        // Migrating up to the last applied migration does nothing.
        try migrator.migrate(dbQueue, upTo: migrator.migrations.last ?? "")
    }

    @Test func registeringAnIdentifierTwiceIsReported() throws {
        var migrator = makeMigrator()
        migrator.registerMigration("createAuthor") { _ in }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(DatabaseQueue()) }
        #expect(error?.message?.contains("createAuthor") == true)
    }

    @Test func anUnknownTargetIsReported() throws {
        let error = #expect(throws: DatabaseError.self) { try makeMigrator().migrate(DatabaseQueue(), upTo: "nope") }
        #expect(error?.message?.contains("nope") == true)
    }

    @Test func eraseDatabaseOnSchemaChangeRebuildsChangedMigrations() throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO author (name) VALUES ('Arthur')") }
        var changed = DatabaseMigrator()
        changed.eraseDatabaseOnSchemaChange = true
        changed.registerMigration("createAuthor") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("email", .text)
            }
        }
        try changed.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name", "email"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM author") == 0)
            #expect(try !db.tableExists("book"))
        }
    }

    @Test func aSupersededDatabaseIsDetected() throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        var older = DatabaseMigrator()
        older.registerMigration("createAuthor") { _ in }
        #expect(try dbQueue.read { try older.hasBeenSuperseded($0) })
    }
}
