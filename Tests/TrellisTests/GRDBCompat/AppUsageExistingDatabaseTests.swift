import Foundation
import Testing
import Trellis

// An application that moves to Trellis opens the database file that its
// previous version wrote with GRDB. The rows below are written as GRDB 7
// stores them (dates as UTC text with milliseconds, UUIDs as 16-byte
// blobs, booleans as integers, nested values as JSON with sorted keys and
// dates in milliseconds), with its migrations recorded in
// `grdb_migrations`: the migrator runs only the new migration, and the
// records read the same values.

private struct Trip: Codable, FetchableRecord, PersistableRecord, Equatable {
    struct Stop: Codable, Equatable {
        var name: String
        var arrival: Date
    }

    var id: Int64
    var uuid: UUID
    var startedAt: Date
    var isDone: Bool
    var stops: [Stop]
    var note: String?
}

private func makeMigrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
        try db.create(table: "trip") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("uuid", .blob).notNull()
            t.column("startedAt", .datetime).notNull()
            t.column("isDone", .boolean).notNull()
            t.column("stops", .jsonText).notNull()
        }
    }
    migrator.registerMigration("v2") { db in
        try db.alter(table: "trip") { t in
            t.add(column: "note", .text)
        }
    }
    return migrator
}

@Suite("App usage: a database written by GRDB")
struct AppUsageExistingDatabaseTests {
    @Test("Applied migrations are kept, the new one runs, and stored values read back")
    func openExistingDatabase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1');
                CREATE TABLE "trip" (
                  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                  "uuid" BLOB NOT NULL,
                  "startedAt" DATETIME NOT NULL,
                  "isDone" BOOLEAN NOT NULL,
                  "stops" TEXT NOT NULL);
                INSERT INTO trip (id, uuid, startedAt, isDone, stops) VALUES (
                  1,
                  X'0F1E2D3C4B5A69788796A5B4C3D2E1F0',
                  '2024-03-01 12:34:56.500',
                  1,
                  '[{"arrival":1709296496500,"name":"Lyon"}]');
                """)
        }
        let migrator = makeMigrator()
        try migrator.migrate(dbQueue)
        let (applied, trip) = try dbQueue.read { db in
            (try migrator.appliedMigrations(db), try Trip.fetchOne(db))
        }
        #expect(applied == ["v1", "v2"])
        let expectedDate = Date(timeIntervalSince1970: 1_709_296_496.5)
        #expect(trip == Trip(
            id: 1, uuid: try #require(UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")),
            startedAt: expectedDate, isDone: true,
            stops: [Trip.Stop(name: "Lyon", arrival: expectedDate)], note: nil))
    }

    @Test("Records written now are stored in the formats GRDB reads")
    func writtenFormats() throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        let date = Date(timeIntervalSince1970: 1_709_296_496.5)
        let trip = Trip(
            id: 1, uuid: try #require(UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")),
            startedAt: date, isDone: false, stops: [Trip.Stop(name: "Lyon", arrival: date)], note: "n")
        try dbQueue.write { db in try trip.insert(db) }
        let row = try #require(try dbQueue.read { db in
            try Row.fetchOne(db, sql: "SELECT hex(uuid) AS uuid, startedAt, isDone, typeof(isDone) AS isDoneType, stops FROM trip")
        })
        #expect(row["uuid"] as String? == "0F1E2D3C4B5A69788796A5B4C3D2E1F0")
        #expect(row["startedAt"] as String? == "2024-03-01 12:34:56.500")
        #expect(row["isDone"] as Int? == 0)
        #expect(row["isDoneType"] as String? == "integer")
        #expect(row["stops"] as String? == #"[{"arrival":1709296496500,"name":"Lyon"}]"#)
    }
}
