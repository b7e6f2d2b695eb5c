import Testing
import Trellis

// TableDefinition's keys and constraints, each sample as documented,
// checked against the schema SQLite reports and the constraints it
// enforces.

@Suite struct TableConstraintsTests {
    @Test func autoIncrementedPrimaryKeyNeverReusesIds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            try db.execute(sql: "DELETE FROM player WHERE id = 2")
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM player ORDER BY id") == [1, 3])
            #expect(try db.primaryKey("player").rowIDColumn == "id")
        }
    }

    @Test func columnAppendsATypedColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in t.column("name", .text) }
            let columns = try db.columns(in: "player")
            #expect(columns.map(\.name) == ["name"])
            #expect(columns.map(\.type) == ["TEXT"])
        }
    }

    @Test func compositePrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "citizenship") { t in t.column("citizenID", .integer); t.column("countryCode", .text); t.primaryKey(["citizenID", "countryCode"]) }
            #expect(try db.primaryKey("citizenship").columns == ["citizenID", "countryCode"])
            try db.execute(sql: "INSERT INTO citizenship VALUES (1, 'FR')")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO citizenship VALUES (1, 'FR')") }
        }
    }

    @Test func uniqueKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "place") { t in t.column("latitude", .double); t.column("longitude", .double); t.uniqueKey(["latitude", "longitude"]) }
            #expect(try db.table("place", hasUniqueKey: ["latitude", "longitude"]))
            try db.execute(sql: "INSERT INTO place VALUES (1, 2)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO place VALUES (1, 2)") }
        }
    }

    @Test func foreignKeyOnSeveralColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "citizenship") { t in t.column("citizenID", .integer); t.column("countryCode", .text); t.primaryKey(["citizenID", "countryCode"]) }
            try db.create(table: "passport") { t in t.column("issueDate", .date); t.column("citizenID", .integer); t.column("countryCode", .text); t.foreignKey(["citizenID", "countryCode"], references: "citizenship", onDelete: .cascade) }
            let foreignKeys = try db.foreignKeys(on: "passport")
            #expect(foreignKeys.map(\.destinationTable) == ["citizenship"])
            #expect(foreignKeys.first?.originColumns == ["citizenID", "countryCode"])
            #expect(foreignKeys.first?.destinationColumns == ["citizenID", "countryCode"])
            try db.execute(sql: "INSERT INTO citizenship VALUES (1, 'FR')")
            try db.execute(sql: "INSERT INTO passport VALUES ('2020-01-01', 1, 'FR')")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO passport VALUES ('2020-01-01', 2, 'FR')") }
            try db.execute(sql: "DELETE FROM citizenship")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM passport") == 0)
        }
    }

    @Test func checkWithAnExpression() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in t.column("personalPhone", .text); t.column("workPhone", .text); let personalPhone = Column("personalPhone"); let workPhone = Column("workPhone"); t.check(personalPhone != nil || workPhone != nil) }
            try db.execute(sql: "INSERT INTO player VALUES ('1', NULL)")
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player VALUES (NULL, NULL)") }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
        }
    }

    @Test func checkWithSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in t.column("personalPhone", .text); t.column("workPhone", .text); t.check(sql: "personalPhone IS NOT NULL OR workPhone IS NOT NULL") }
            try db.execute(sql: "INSERT INTO player VALUES (NULL, '2')")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player VALUES (NULL, NULL)") }
        }
    }
}
