import Testing
import Trellis

@Suite struct DatabaseMigratorAsyncMigrateTests {
    private func migrator(failing: Bool = false) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE player(name TEXT)")
        }
        migrator.registerMigration("v2") { db in
            if failing { try db.execute(sql: "SYNTAX ERROR") }
            try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER")
        }
        return migrator
    }

    /// The completion's result, with the applied migrations read in the
    /// access of the completion.
    private func asyncMigrate(_ migrator: DatabaseMigrator, _ writer: some DatabaseWriter) async -> Result<[String], any Error> {
        await withCheckedContinuation { continuation in
            migrator.asyncMigrate(writer) { dbResult in
                continuation.resume(returning: Result {
                    try migrator.appliedMigrations(dbResult.get())
                })
            }
        }
    }

    @Test func theCompletionReceivesTheMigratedDatabase() async throws {
        let dbQueue = try DatabaseQueue()
        let migrator = migrator()
        let applied = try await asyncMigrate(migrator, dbQueue).get()
        #expect(applied == ["v1", "v2"])
        #expect(try await dbQueue.read { db in try db.columns(in: "player").map(\.name) } == ["name", "score"])
    }

    @Test func theCompletionReceivesTheErrorOfAFailingMigration() async throws {
        let dbQueue = try DatabaseQueue()
        let result = await asyncMigrate(migrator(failing: true), dbQueue)
        #expect(throws: DatabaseError.self) { try result.get() }
        // The first migration is applied, the failing one rolled back.
        #expect(try await dbQueue.read { db in try migrator().appliedMigrations(db) } == ["v1"])
    }

    @Test func theCompletionReceivesTheErrorOfAClosedDatabase() async throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        let result = await asyncMigrate(migrator(), dbQueue)
        #expect {
            try result.get()
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
        }
    }

    @Test func migrationsRunAfterTheWritesAskedForBefore() async throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.asyncWriteWithoutTransaction { db in
            try? db.execute(sql: "CREATE TABLE early(a)")
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Fails unless the earlier write ran before.
            try db.execute(sql: "INSERT INTO early VALUES (1)")
        }
        let applied = try await asyncMigrate(migrator, dbQueue).get()
        #expect(applied == ["v1"])
    }
}
