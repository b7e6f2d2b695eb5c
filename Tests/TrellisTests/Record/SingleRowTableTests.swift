import Testing
import Trellis

// The single-row table guide: the template at its end, verbatim
// (with `import Trellis`), and every read and write path it shows.

// AppConfiguration.swift
struct AppConfiguration: Codable {
    // Support for the single row guarantee
    private var id = 1
    // The stored properties
    private var storedFlag: Bool?
    // ... other properties
}

// Support for default values
extension AppConfiguration {
    var flag: Bool {
        get { storedFlag ?? true /* the default value */ }
        set { storedFlag = newValue }
    }
    mutating func resetFlag() {
        storedFlag = nil
    }
}

extension AppConfiguration {
    /// The default configuration
    static let `default` = AppConfiguration(storedFlag: nil)
}

// Database Access
extension AppConfiguration: FetchableRecord, PersistableRecord {
    // Customize the default PersistableRecord behavior
    func willUpdate(_ db: Database, columns: Set<String>) throws {
        // Insert the default configuration if it does not exist yet.
        if try !exists(db) {
            try AppConfiguration.default.insert(db)
        }
    }
    /// Returns the persisted configuration, or the default one if the
    /// database table is empty.
    static func find(_ db: Database) throws -> AppConfiguration {
        try fetchOne(db) ?? .default
    }
}

@Suite struct SingleRowTableTests {
    private func makeDatabase() throws -> DatabaseQueue {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("appConfiguration") { db in
            // Table creation
            try db.create(table: "appConfiguration") { t in
                // Single row guarantee: have inserts replace the existing row,
                // and make sure the id column is always 1.
                t.primaryKey("id", .integer, onConflict: .replace)
                    .check { $0 == 1 }
                // The configuration columns
                t.column("storedFlag", .boolean)
                // ... other columns
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        return dbQueue
    }

    @Test func readingAnEmptyTableGivesTheDefault() throws {
        let dbQueue = try makeDatabase()
        let config = try dbQueue.read { db in
            try AppConfiguration.find(db)
        }
        #expect(config.flag == true)
        #expect(try dbQueue.read { try AppConfiguration.fetchCount($0) } == 0)
    }

    @Test func updateChangesInsertsTheMissingRowThenUpdates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var config = try AppConfiguration.find(db)
            let changed = try config.updateChanges(db) {
                $0.flag = false
            }
            #expect(changed)
        }
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT id, storedFlag FROM appConfiguration") }
        #expect(rows == [["id": 1, "storedFlag": false]])
        let config = try dbQueue.read { try AppConfiguration.find($0) }
        #expect(config.flag == false)
    }

    @Test func updateChangesWritesNothingWhenNothingChanged() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var config = try AppConfiguration.find(db)
            config.flag = true
            try config.save(db)
            let changed = try config.updateChanges(db) { $0.flag = true }
            #expect(!changed)
        }
    }

    @Test func everyWriteMethodStoresTheSingleRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var config = try AppConfiguration.find(db)
            config.flag = false
            try config.save(db)
            #expect(try AppConfiguration.find(db).flag == false)
            config.flag = true
            try config.update(db)
            #expect(try AppConfiguration.find(db).flag == true)
            config.flag = false
            try config.insert(db)
            #expect(try AppConfiguration.find(db).flag == false)
            config.flag = true
            try config.upsert(db)
            #expect(try AppConfiguration.find(db).flag == true)
            #expect(try AppConfiguration.fetchCount(db) == 1)
        }
    }

    @Test func resetFlagRestoresTheDefault() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var config = try AppConfiguration.find(db)
            try config.updateChanges(db) { $0.flag = false }
            try config.updateChanges(db) { $0.resetFlag() }
        }
        let rows = try dbQueue.read { try Row.fetchAll($0, sql: "SELECT storedFlag FROM appConfiguration") }
        #expect(rows == [["storedFlag": nil]])
        #expect(try dbQueue.read { try AppConfiguration.find($0) }.flag == true)
    }
}
