/// Migrations: the ordered steps that build and evolve the schema of a
/// database, each applied once.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("createPlayer") { db in
///     try db.create(table: "player") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("name", .text).notNull()
///     }
/// }
/// migrator.registerMigration("addScore") { db in
///     try db.alter(table: "player") { t in
///         t.add(column: "score", .integer).notNull().defaults(to: 0)
///     }
/// }
/// try migrator.migrate(dbQueue)
/// ```
///
/// Applied migrations are recorded in the `grdb_migrations` table, as GRDB
/// does, so that databases migrated with GRDB keep their history. Each
/// migration runs in its own transaction: a migration that throws, or that
/// leaves foreign key violations, leaves the database as it was before it.
public struct DatabaseMigrator: Sendable {
    /// When foreign keys are checked during a migration.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys are disabled while the migration runs, and checked
        /// before it commits: the migration can recreate tables.
        case deferred
        /// Foreign keys stay enforced while the migration runs.
        case immediate
    }

    /// How a registered migration treats foreign keys.
    enum ForeignKeyMode: Sendable {
        /// Disabled while it runs, checked before it commits.
        case deferred
        /// Enforced while it runs.
        case immediate
        /// Disabled while it runs, not checked: see
        /// `disablingDeferredForeignKeyChecks()`.
        case unchecked
    }

    struct Migration: Sendable {
        let identifier: String
        let foreignKeyMode: ForeignKeyMode
        /// The identifiers of the former migrations that this one merges.
        var merged: Set<String> = []
        /// Runs the migration, given the merged migrations already applied.
        let migrate: @Sendable (Database, Set<String>) throws -> Void
    }

    private(set) var registered: [Migration] = []

    /// Whether migrations registered with deferred checks are checked.
    private var checksDeferredForeignKeys = true
    private var duplicates: [String] = []

    /// Whether the database is erased and migrated again when the migrations
    /// that built it have changed (see ``hasSchemaChanges(_:)``): a
    /// development convenience, which destroys data.
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// #if DEBUG
    /// migrator.eraseDatabaseOnSchemaChange = true
    /// #endif
    /// ```
    public var eraseDatabaseOnSchemaChange = false

    public init() {}

    /// The identifiers of the registered migrations, in order.
    ///
    /// ```swift
    /// migrator.migrations // ["createPlayer", "addScore"]
    /// ```
    public var migrations: [String] { registered.map(\.identifier) }

    /// Registers a migration. Registering an identifier twice is reported
    /// by `migrate`, which throws.
    ///
    /// ```swift
    /// migrator.registerMigration("Create authors") { db in
    ///     try db.create(table: "author") { t in
    ///         t.autoIncrementedPrimaryKey("id")
    ///         t.column("name", .text)
    ///     }
    /// }
    /// // Rename foreign keys with immediate foreign key checks.
    /// migrator.registerMigration("Guilds", foreignKeyChecks: .immediate) { db in
    ///     try db.rename(table: "team", to: "guild")
    /// }
    /// ```
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        register(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in try migrate(db) }
    }

    /// Registers a migration that merges and replaces migrations of a
    /// former version of the application. It runs when its identifier is
    /// not applied yet, and its closure gets the merged migrations that
    /// are already applied, so that it applies only the others.
    ///
    /// ```swift
    /// // Migrations v1 and v2 are deleted; v3 merges them:
    /// migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
    ///     if !appliedIDs.contains("v1") {
    ///         // Apply schema version 1
    ///     }
    ///     if !appliedIDs.contains("v2") {
    ///         // Apply schema version 2
    ///     }
    ///     // Apply schema version 3
    /// }
    /// ```
    ///
    /// A database where `v1`, `v2` and `v3` were applied skips `v3`; one
    /// where only `v1` was runs `v3` with `appliedIDs == ["v1"]`. Do not name
    /// the merged migration like the first migrations of the merged set.
    /// Merging a migration that is still registered is reported by
    /// `migrate`, which throws.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String>,
        migrate: @escaping @Sendable (_ db: Database, _ appliedIDs: Set<String>) throws -> Void)
    {
        register(identifier, foreignKeyChecks: foreignKeyChecks, merging: mergedIdentifiers, migrate: migrate)
    }

    private mutating func register(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks,
        merging mergedIdentifiers: Set<String>,
        migrate: @escaping @Sendable (Database, Set<String>) throws -> Void)
    {
        if registered.contains(where: { $0.identifier == identifier }) {
            duplicates.append(identifier)
            return
        }
        let mode: ForeignKeyMode
        switch foreignKeyChecks {
        case .deferred: mode = checksDeferredForeignKeys ? .deferred : .unchecked
        case .immediate: mode = .immediate
        }
        var mergedIdentifiers = mergedIdentifiers
        mergedIdentifiers.remove(identifier)
        registered.append(Migration(identifier: identifier, foreignKeyMode: mode, merged: mergedIdentifiers, migrate: migrate))
    }

    /// The identifiers that this migrator knows: those of the registered
    /// migrations, and those they merge.
    private var knownIdentifiers: Set<String> {
        registered.reduce(into: Set(migrations)) { $0.formUnion($1.merged) }
    }

    /// A migrator whose migrations registered from now on with deferred
    /// foreign key checks are not checked at all: they run faster, and the
    /// application becomes responsible for the foreign keys they leave.
    ///
    /// ```swift
    /// migrator = migrator.disablingDeferredForeignKeyChecks()
    /// migrator.registerMigration("Fast but unchecked") { db in ... }
    /// migrator.registerMigration("Partially checked") { db in
    ///     ...
    ///     try db.checkForeignKeys(in: "book")
    /// }
    /// ```
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.checksDeferredForeignKeys = false
        return migrator
    }

    /// Applies the migrations that have not been applied yet.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
    /// try migrator.migrate(dbQueue)
    /// ```
    ///
    /// - Throws: The error of a migration, which rolls it back; a
    ///   ``DatabaseError`` if two migrations have the same identifier, if a
    ///   migration leaves a foreign key violation, or if SQLite fails.
    public func migrate(_ writer: some DatabaseWriter) throws {
        try migrate(writer, upTo: registered.last?.identifier)
    }

    /// Applies the migrations up to `targetIdentifier`, included. A database
    /// already migrated beyond it is an error: migrations only run forward.
    ///
    /// ```swift
    /// try migrator.migrate(dbQueue, upTo: "v2")
    /// ```
    ///
    /// - Throws: The error of a migration, which rolls it back; a
    ///   ``DatabaseError`` if `targetIdentifier` is not registered, if the
    ///   database is migrated beyond it, if two migrations have the same
    ///   identifier, if a migration leaves a foreign key violation, or if
    ///   SQLite fails.
    public func migrate(_ writer: some DatabaseWriter, upTo targetIdentifier: String) throws {
        try migrate(writer, upTo: Optional(targetIdentifier))
    }

    /// Applies the migrations that have not been applied yet, without
    /// blocking the caller's thread.
    ///
    /// ```swift
    /// try await migrator.migrate(dbQueue)
    /// ```
    ///
    /// - Throws: The error of a migration, which rolls it back; a
    ///   ``DatabaseError`` if two migrations have the same identifier, if a
    ///   migration leaves a foreign key violation, or if SQLite fails;
    ///   `CancellationError` if the task is cancelled.
    public func migrate(_ writer: some DatabaseWriter) async throws {
        let migrator = self
        try await writer.barrierWriteWithoutTransaction { db in
            try migrator.runMigrations(db, upTo: migrator.registered.last?.identifier)
        }
    }

    private func migrate(_ writer: some DatabaseWriter, upTo targetIdentifier: String?) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try runMigrations(db, upTo: targetIdentifier)
        }
    }

    // MARK: Reading the history

    /// The identifiers of the applied migrations that are registered, in
    /// the order of registration.
    ///
    /// ```swift
    /// let applied = try dbQueue.read { db in try migrator.appliedMigrations(db) }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read the table of
    ///   applied migrations.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.filter { applied.contains($0) }
    }

    /// All identifiers recorded in the database, registered or not.
    ///
    /// ```swift
    /// let identifiers = try dbQueue.read { db in try migrator.appliedIdentifiers(db) }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read the table of
    ///   applied migrations.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
    }

    /// The applied migrations that are completed: the registered
    /// migrations, in order, up to the first one not applied.
    ///
    /// ```swift
    /// let completed = try dbQueue.read { db in try migrator.completedMigrations(db) }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read the table of
    ///   applied migrations.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        var completed: [String] = []
        for identifier in migrations {
            guard applied.contains(identifier) else { break }
            completed.append(identifier)
        }
        return completed
    }

    /// Whether all registered migrations are applied.
    ///
    /// ```swift
    /// if try migrator.hasCompletedMigrations(db) == false {
    ///     // database too old
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read the table of
    ///   applied migrations.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).count == registered.count
    }

    /// Whether the database has applied migrations that this migrator does
    /// not know: it was migrated by a newer version of the application.
    ///
    /// ```swift
    /// if try migrator.hasBeenSuperseded(db) {
    ///     // database too new
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read the table of
    ///   applied migrations.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        try !appliedIdentifiers(db).isSubset(of: knownIdentifiers)
    }

    /// Whether the schema of the database differs from the one its applied
    /// migrations build on an empty database (the migrations changed, or
    /// the schema was changed outside of them), or the database has
    /// applied migrations that this migrator does not know. What
    /// ``eraseDatabaseOnSchemaChange`` looks at.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     if try migrator.hasSchemaChanges(db) {
    ///         // The migrations have changed since the database was migrated
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the migrations fail on the in-memory
    ///   database that serves as a reference, or if SQLite fails.
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        if applied.isEmpty { return false }
        if !applied.isSubset(of: knownIdentifiers) { return true }
        let reference = try DatabaseQueue()
        var referenceMigrator = DatabaseMigrator()
        referenceMigrator.registered = registered.filter { applied.contains($0.identifier) }
        try referenceMigrator.migrate(reference)
        let referenceSchema = try reference.read { try Self.schema($0) }
        return try Self.schema(db) != referenceSchema
    }

    // MARK: Running

    func runMigrations(_ db: Database, upTo targetIdentifier: String?) throws {
        for index in try pendingMigrations(db, upTo: targetIdentifier) {
            try run(registered[index], db)
        }
    }

    /// The positions of the registered migrations that must run, in order,
    /// after the checks that come before any of them runs; creates the
    /// table of applied migrations.
    package func pendingMigrations(_ db: Database, upTo targetIdentifier: String?) throws -> [Int] {
        if let duplicate = duplicates.first {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "already registered migration: \"\(duplicate)\"")
        }
        let identifiers = Set(migrations)
        for migration in registered {
            if let merged = migration.merged.sorted().first(where: { identifiers.contains($0) }) {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "migration \"\(migration.identifier)\" merges the registered migration \"\(merged)\"")
            }
        }
        let lastIndex: Int
        if let targetIdentifier {
            guard let index = registered.firstIndex(where: { $0.identifier == targetIdentifier }) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "undefined migration: \"\(targetIdentifier)\"")
            }
            lastIndex = index
        } else {
            lastIndex = registered.count - 1
        }
        // No migration: the database is left as it is, without a table of
        // applied migrations.
        if registered.isEmpty { return [] }
        // The reference schema is SQLite's, built in memory.
        if eraseDatabaseOnSchemaChange { try db.checkSQLiteOnly("eraseDatabaseOnSchemaChange") }
        if eraseDatabaseOnSchemaChange, try hasSchemaChanges(db) {
            try erase(db)
        }
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = try appliedIdentifiers(db)
        if let targetIdentifier, registered.suffix(from: lastIndex + 1).contains(where: { applied.contains($0.identifier) }) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "database is already migrated beyond migration \"\(targetIdentifier)\"")
        }
        return registered.indices.prefix(lastIndex + 1).filter { !applied.contains(registered[$0].identifier) }
    }

    /// Runs the migration at `index` of the registered ones, on a server,
    /// in the transaction of the access: the server runs schema statements
    /// in transactions, and checks foreign keys as each statement runs
    /// (`ForeignKeyChecks` has no effect there).
    package func runMigrationOnServer(at index: Int, _ db: Database) throws {
        guard registered.indices.contains(index) else {
            throw DatabaseError.misuse("no registered migration at position \(index)")
        }
        let migration = registered[index]
        // Another process may have applied it since it was found pending.
        let applied = try appliedIdentifiers(db)
        if applied.contains(migration.identifier) { return }
        try migration.migrate(db, applied.intersection(migration.merged))
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
    }

    private func run(_ migration: Migration, _ db: Database) throws {
        let foreignKeysEnabled = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        let disablesForeignKeys = migration.foreignKeyMode != .immediate && foreignKeysEnabled
        if disablesForeignKeys {
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
        }
        defer {
            if disablesForeignKeys {
                try? db.execute(sql: "PRAGMA foreign_keys = ON")
            }
        }
        let appliedMerged = migration.merged.isEmpty ? [] : try appliedIdentifiers(db).intersection(migration.merged)
        try db.inTransaction(.immediate) {
            try migration.migrate(db, appliedMerged)
            if disablesForeignKeys && migration.foreignKeyMode == .deferred {
                try db.checkForeignKeys()
            }
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            return .commit
        }
    }

    // MARK: Erasing

    private static func schema(_ db: Database) throws -> [Row] {
        try Row.fetchAll(db, sql: """
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name
            """)
    }

    private func erase(_ db: Database) throws {
        let foreignKeys = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        if foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if foreignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
        try db.inTransaction {
            let objects = try Row.fetchAll(db, sql: """
                SELECT type, name FROM sqlite_master
                WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'view', 'trigger')
                """)
            for object in objects {
                let type: String = object["type"]
                let name: String = object["name"]
                try db.execute(sql: "DROP \(type.uppercased()) IF EXISTS \(name.quotedDatabaseIdentifier)")
            }
            return .commit
        }
    }
}
