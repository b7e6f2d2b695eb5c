import Foundation
import Testing
import Trellis

// GRDB's `DatabaseMigrator.registerMigration(_:foreignKeyChecks:merging:migrate:)`
// ("Registers a merged migration") and `Database.reindex(collation:)`, run
// as their documentation writes them.

@Suite struct MergedMigrationsDocTests {
    /// The old code: three migrations.
    private func oldMigrator(upTo count: Int = 3) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let all: [(String, String)] = [
            ("v1", "CREATE TABLE a (id INTEGER PRIMARY KEY)"),
            ("v2", "CREATE TABLE b (id INTEGER PRIMARY KEY)"),
            ("v3", "CREATE TABLE c (id INTEGER PRIMARY KEY)"),
        ]
        for (identifier, sql) in all.prefix(count) {
            migrator.registerMigration(identifier) { db in
                // Apply schema version n
                try db.execute(sql: sql)
            }
        }
        return migrator
    }

    /// The new code: migrations v1 and v2 are deleted, and migration v3 is
    /// redefined and merges v1 and v2. It records the IDs it is given.
    private func newMigrator(log: Log) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
            log.append(appliedIDs)
            if !appliedIDs.contains("v1") {
                // Apply schema version 1
                try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)")
            }
            if !appliedIDs.contains("v2") {
                // Apply schema version 2
                try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY)")
            }
            // Apply schema version 3
            try db.execute(sql: "CREATE TABLE c (id INTEGER PRIMARY KEY)")
        }
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "CREATE TABLE d (id INTEGER PRIMARY KEY)")
        }
        return migrator
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [Set<String>] = []
        func append(_ entry: Set<String>) { lock.withLock { entries.append(entry) } }
        var values: [Set<String>] { lock.withLock { entries } }
    }

    private func tables(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { db throws in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('a', 'b', 'c', 'd') ORDER BY name")
        }
    }

    @Test(arguments: [0, 1, 2, 3])
    func aMergedMigrationAppliesWhatIsMissing(oldCount: Int) throws {
        let dbQueue = try DatabaseQueue()
        try oldMigrator(upTo: oldCount).migrate(dbQueue)
        let log = Log()
        let migrator = newMigrator(log: log)
        try migrator.migrate(dbQueue)
        #expect(try tables(dbQueue) == ["a", "b", "c", "d"])
        switch oldCount {
        case 0: #expect(log.values == [[]])
        case 1: #expect(log.values == [["v1"]])
        case 2: #expect(log.values == [["v1", "v2"]])
        default: #expect(log.values == []) // v3 was applied: it does not run again.
        }
        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.appliedMigrations(db) == ["v3", "v4"])
            #expect(try migrator.completedMigrations(db) == ["v3", "v4"])
            // The merged identifiers are known: the database was not
            // migrated by a newer version of the application.
            #expect(try migrator.hasBeenSuperseded(db) == false)
        }
        // Migrating again does nothing.
        try migrator.migrate(dbQueue)
        #expect(log.values.count == (oldCount == 3 ? 0 : 1))
    }

    @Test func aMergedMigrationWithANewName() throws {
        let dbQueue = try DatabaseQueue()
        try oldMigrator(upTo: 2).migrate(dbQueue)
        // The new migration v3-new merges v1, v2 and v3:
        var migrator = DatabaseMigrator()
        let log = Log()
        migrator.registerMigration("v3-new", merging: ["v1", "v2", "v3"]) { db, appliedIDs in
            log.append(appliedIDs)
            if !appliedIDs.contains("v1") {
                try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)")
            }
            if !appliedIDs.contains("v2") {
                try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY)")
            }
            if !appliedIDs.contains("v3") {
                try db.execute(sql: "CREATE TABLE c (id INTEGER PRIMARY KEY)")
            }
        }
        try migrator.migrate(dbQueue)
        #expect(log.values == [["v1", "v2"]])
        #expect(try tables(dbQueue) == ["a", "b", "c"])
        #expect(try dbQueue.read { db in try migrator.appliedIdentifiers(db) } == ["v1", "v2", "v3-new"])
    }

    @Test func aFailingMergedMigrationIsRolledBack() throws {
        struct Failure: Error {}
        let dbQueue = try DatabaseQueue()
        try oldMigrator(upTo: 1).migrate(dbQueue)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v3", foreignKeyChecks: .immediate, merging: ["v1", "v2"]) { db, _ in
            try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY)")
            throw Failure()
        }
        #expect(throws: Failure.self) { try migrator.migrate(dbQueue) }
        #expect(try tables(dbQueue) == ["a"])
        #expect(try dbQueue.read { db in try migrator.appliedIdentifiers(db) } == ["v1"])
    }

    @Test func mergingARegisteredMigrationIsAnError() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in }
        migrator.registerMigration("v2", merging: ["v1"]) { _, _ in }
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message == #"migration "v2" merges the registered migration "v1""#)
    }

    @Test func reindexCollation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let byLength = DatabaseCollation("byLength") { lhs, rhs in
                lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
            }
            db.add(collation: byLength)
            try db.execute(sql: """
                CREATE TABLE word (text TEXT COLLATE byLength);
                CREATE INDEX word_text ON word(text);
                INSERT INTO word VALUES ('ccc'), ('a'), ('bb');
                """)
            try db.reindex(collation: byLength)
            try db.reindex(collation: .localizedCompare)
            try db.reindex(collation: .nocase)
            #expect(try String.fetchAll(db, sql: "SELECT text FROM word INDEXED BY word_text ORDER BY text") == ["a", "bb", "ccc"])
        }
    }
}
