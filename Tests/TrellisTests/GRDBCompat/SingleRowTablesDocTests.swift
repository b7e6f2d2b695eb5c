import Foundation
import Testing
import Trellis

// Snippets from GRDB's "Single-Row Tables" guide, written as the
// documentation writes them (the "Wrap-Up" template), with
// `AppSettings` for `AppConfiguration`, a name that another test holds.

private struct AppSettings: Codable {
    static let databaseTableName = "appConfiguration"

    // Support for the single row guarantee
    private var id = 1

    // The stored properties
    private var storedFlag: Bool?
    // ... other properties
}

// Support for default values
extension AppSettings {
    var flag: Bool {
        get { storedFlag ?? true /* the default value */ }
        set { storedFlag = newValue }
    }

    mutating func resetFlag() {
        storedFlag = nil
    }
}

extension AppSettings {
    /// The default configuration
    static let `default` = AppSettings(storedFlag: nil)
}

// Database Access
extension AppSettings: FetchableRecord, PersistableRecord {
    // Customize the default PersistableRecord behavior
    func willUpdate(_ db: Database, columns: Set<String>) throws {
        // Insert the default configuration if it does not exist yet.
        if try !exists(db) {
            try AppSettings.default.insert(db)
        }
    }

    /// Returns the persisted configuration, or the default one if the
    /// database table is empty.
    static func find(_ db: Database) throws -> AppSettings {
        try fetchOne(db) ?? .default
    }
}

/// The simplified setup for non-nullable columns
private struct RequiredConfiguration: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "appConfiguration"
    // Support for the single row guarantee
    private var id = 1

    // The stored properties
    var flag: Bool

    init(flag: Bool) {
        self.flag = flag
    }
}

@Suite struct GRDBCompatSingleRowTablesTests {
    private func makeDatabase(trace: StatementTrace? = nil) throws -> DatabaseQueue {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("appConfiguration") { db throws in
            // CREATE TABLE appConfiguration (
            //   id INTEGER PRIMARY KEY ON CONFLICT REPLACE CHECK (id = 1),
            //   storedFlag BOOLEAN,
            //   ...)
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
        let dbQueue = try DatabaseQueue(configuration: trace?.configuration() ?? Configuration())
        try migrator.migrate(dbQueue)
        return dbQueue
    }

    @Test func singleRowTable() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace: trace)
        #expect(trace.take().contains(
            #"CREATE TABLE "appConfiguration" ("id" INTEGER PRIMARY KEY ON CONFLICT REPLACE CHECK ("id" = 1), "storedFlag" BOOLEAN)"#))

        try dbQueue.write { db throws in
            // Inserts replace the existing row.
            try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (1, 0)")
            try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (1, 1)")
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM appConfiguration") == [["id": 1, "storedFlag": 1]])

            // The id column is always 1.
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (2, 1)")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        }
    }

    @Test func requiredColumn() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("appConfiguration") { db throws in
            try db.create(table: "appConfiguration") { t in
                t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }

                t.column("flag", .boolean).notNull() // required
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.write { db throws in
            try RequiredConfiguration(flag: false).insert(db)
            try RequiredConfiguration(flag: true).insert(db)
            #expect(try RequiredConfiguration.fetchAll(db).map(\.flag) == [true])
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO appConfiguration (id, flag) VALUES (1, NULL)")
            }
        }
    }

    @Test func defaultValues() throws {
        var config = AppSettings.default
        #expect(config.flag == true)
        config.flag = false
        #expect(config.flag == false)
        config.resetFlag()
        #expect(config.flag == true)
    }

    @Test func readTheEmptyTable() throws {
        let dbQueue = try makeDatabase()
        // READ
        let config = try dbQueue.read { db throws in
            try AppSettings.find(db)
        }
        #expect(config.flag)
    }

    @Test func updateChangesInsertsTheMissingRow() throws {
        let dbQueue = try makeDatabase()
        // WRITE
        try dbQueue.write { db throws in
            // Update the config in the database
            var config = try AppSettings.find(db)
            try config.updateChanges(db) {
                $0.flag = false
            }
        }
        try dbQueue.read { db throws in
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM appConfiguration") == [["id": 1, "storedFlag": 0]])
            #expect(try AppSettings.find(db).flag == false)
        }
    }

    @Test func otherWaysToSaveTheConfig() throws {
        // Other possible ways to save the config: all the same
        let ways: [(inout AppSettings, Database) throws -> Void] = [
            { (config: inout AppSettings, db: Database) throws in try config.save(db) },
            { (config: inout AppSettings, db: Database) throws in try config.update(db) },
            { (config: inout AppSettings, db: Database) throws in try config.insert(db) },
            { (config: inout AppSettings, db: Database) throws in try config.upsert(db) },
        ]
        for way in ways {
            let dbQueue = try makeDatabase()
            // On the empty table, then on the table that holds the row.
            for flag in [false, true] {
                try dbQueue.write { db throws in
                    var config = try AppSettings.find(db)
                    config.flag = flag
                    try way(&config, db)
                }
                try dbQueue.read { db throws in
                    #expect(try Row.fetchAll(db, sql: "SELECT * FROM appConfiguration") == [["id": 1, "storedFlag": flag]])
                }
            }
        }
    }

    @Test func updatesFailOnAnEmptyTableWithoutTheCallback() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "appConfiguration") { t in
                t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
                t.column("flag", .boolean).notNull()
            }
            #expect(throws: RecordError.self) {
                try RequiredConfiguration(flag: true).update(db)
            }
        }
    }
}
