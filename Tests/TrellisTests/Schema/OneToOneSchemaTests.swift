import Testing
import Trellis

// A one-to-one schema: a country and its demographics, linked by a
// foreign key with a unique index, and deleted with the country.

@Suite struct OneToOneSchemaTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "country") { t in
                t.column("code", .text).primaryKey()           // (1)
                t.column("name", .text)
            }
            try db.create(table: "demographics") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("countryCode", .text)                 // (2)
                    .notNull()                                 // (3)
                    .unique()                                  // (4)
                    .references("country", onDelete: .cascade) // (5)
                t.column("population", .integer)
                t.column("density", .double)
            }
        }
        return dbQueue
    }

    @Test func theSchemaHasTheForeignKeyAndUniqueIndex() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            #expect(try db.primaryKey("country").columns == ["code"])
            let foreignKeys = try db.foreignKeys(on: "demographics")
            #expect(foreignKeys.count == 1)
            #expect(foreignKeys[0].destinationTable == "country")
            #expect(foreignKeys[0].mapping.map(\.origin) == ["countryCode"])
            #expect(foreignKeys[0].mapping.map(\.destination) == ["code"])
            #expect(try db.table("demographics", hasUniqueKey: ["countryCode"]))
            #expect(try db.columns(in: "demographics").first { $0.name == "countryCode" }?.isNotNull == true)
        }
    }

    @Test func aProfileNeedsACountryAndDiesWithIt() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO country (code, name) VALUES ('FR', 'France')")
            try db.execute(sql: "INSERT INTO demographics (countryCode, population) VALUES ('FR', 68000000)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO demographics (countryCode, population) VALUES ('XX', 1)")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO demographics (countryCode, population) VALUES ('FR', 1)")
            }
            try db.execute(sql: "DELETE FROM country WHERE code = 'FR'")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM demographics") == 0)
        }
    }
}
