import Trellis

extension DatabaseMigrator {
    /// Applies the migrations that have not been applied yet to a
    /// PostgreSQL database, each one in a transaction of its own: a
    /// migration that throws leaves the database as the previous one left
    /// it.
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// migrator.registerMigration("v1") { db in
    ///     try db.create(table: "player") { t in
    ///         t.autoIncrementedPrimaryKey("id")
    ///         t.column("name", .text).notNull()
    ///     }
    /// }
    /// try await migrator.migrate(database)
    /// ```
    ///
    /// PostgreSQL runs schema statements in transactions, and checks
    /// foreign keys as each statement runs: the `foreignKeyChecks` of a
    /// migration have no effect, and ``eraseDatabaseOnSchemaChange`` throws.
    /// Migrators that run at the same time, in several processes, run each
    /// migration once.
    public func migrate(_ database: PostgreSQLDatabase) async throws {
        try await migrate(database, upTo: nil)
    }

    /// Applies the migrations up to `targetIdentifier`, included, to a
    /// PostgreSQL database. A database already migrated beyond it is an
    /// error: migrations only run forward.
    ///
    /// ```swift
    /// try await migrator.migrate(database, upTo: "v2")
    /// ```
    public func migrate(_ database: PostgreSQLDatabase, upTo targetIdentifier: String) async throws {
        try await migrate(database, upTo: Optional(targetIdentifier))
    }

    private func migrate(_ database: PostgreSQLDatabase, upTo targetIdentifier: String?) async throws {
        let migrator = self
        let pending = try await database.write { db in
            try migrator.pendingMigrations(db, upTo: targetIdentifier)
        }
        for index in pending {
            try await database.write { db in
                // Until the access ends, other migrators wait here, then
                // find the migration applied.
                try db.execute(sql: "LOCK TABLE grdb_migrations IN SHARE ROW EXCLUSIVE MODE")
                try migrator.runMigrationOnServer(at: index, db)
            }
        }
    }
}
