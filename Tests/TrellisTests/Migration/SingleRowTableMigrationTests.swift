import Testing
import Trellis

// The migration of a single-row table, as the single-row table guide
// writes it, and its NOT NULL variant.

@Suite struct SingleRowTableMigrationTests {
    @Test func theSingleRowTableReplacesItsRowAndRejectsOtherIds() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("appConfiguration") { db in
            // CREATE TABLE appConfiguration (
            // id INTEGER PRIMARY KEY ON CONFLICT REPLACE CHECK (id = 1),
            // storedFlag BOOLEAN,
            // ...)
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
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (1, 0)")
            try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (1, 1)")
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM appConfiguration") == [["id": 1, "storedFlag": 1]])
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (2, 1)")
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
        }
        #expect(try dbQueue.read { try migrator.appliedMigrations($0) } == ["appConfiguration"])
    }

    @Test func theNotNullVariantRequiresAValue() throws {
        // DO NOT hesitate requiring NOT NULL columns when the app requires it.
        var migrator = DatabaseMigrator()
        migrator.registerMigration("appConfiguration") { db in
            try db.create(table: "appConfiguration") { t in
                t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
                t.column("flag", .boolean).notNull() // required
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO appConfiguration (id) VALUES (1)")
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
        }
    }
}
