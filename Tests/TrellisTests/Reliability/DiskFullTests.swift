import Foundation
import Testing
import Trellis

// A full disk, simulated with `PRAGMA max_page_count`: the failing call throws
// SQLITE_FULL, nothing of its transaction is visible, the connection stays
// usable, and what was committed before is intact.

@Suite struct DiskFullTests {
    private struct Item: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var payload: String

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    private static let payload = String(repeating: "x", count: 500)

    private func makeDatabase() throws -> (DatabaseQueue, String) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("disk-full-\(UUID().uuidString).sqlite").path
        return (try DatabaseQueue(path: path), path)
    }

    private func remove(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Caps the database at its current size plus `extraPages`.
    private func capDatabase(_ db: Database, extraPages: Int) throws {
        let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        try db.execute(sql: "PRAGMA max_page_count = \(pageCount + extraPages)")
    }

    private func integrityCheck(_ dbQueue: DatabaseQueue) throws -> String? {
        try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    }

    @Test func aMigrationThatFillsTheDiskLeavesTheDatabaseAsItWas() throws {
        let (dbQueue, path) = try makeDatabase()
        defer { remove(path) }

        var migrator = DatabaseMigrator()
        migrator.registerMigration("createItems") { db in
            try db.create(table: "item") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("payload", .text).notNull()
            }
        }
        migrator.registerMigration("fillItems") { db in
            for _ in 0..<2_000 {
                try db.execute(sql: "INSERT INTO item (payload) VALUES (?)", arguments: [Self.payload])
            }
        }
        try migrator.migrate(dbQueue, upTo: "createItems")
        try dbQueue.writeWithoutTransaction { db in try capDatabase(db, extraPages: 20) }

        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.resultCode == .SQLITE_FULL)

        let (applied, count) = try dbQueue.read { db in
            (try migrator.appliedMigrations(db), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item"))
        }
        #expect(applied == ["createItems"])
        #expect(count == 0)
        #expect(try integrityCheck(dbQueue) == "ok")

        // Room again: the same migration completes on the same connection.
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2_000)
    }

    @Test func anInsertAllThatFillsTheDiskInsertsNothing() throws {
        let (dbQueue, path) = try makeDatabase()
        defer { remove(path) }
        try dbQueue.write { db in
            try db.create(table: "item") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("payload", .text).notNull()
            }
            for _ in 0..<10 {
                var item = Item(id: nil, payload: "committed")
                try item.insert(db)
            }
        }
        try dbQueue.writeWithoutTransaction { db in try capDatabase(db, extraPages: 10) }

        let items = (0..<2_000).map { _ in Item(id: nil, payload: Self.payload) }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in _ = try items.insertAll(db) }
        }
        #expect(error?.resultCode == .SQLITE_FULL)

        let payloads = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT payload FROM item") }
        #expect(payloads == Array(repeating: "committed", count: 10))
        #expect(try integrityCheck(dbQueue) == "ok")

        // The connection goes on: a small write fits in the pages left.
        try dbQueue.write { db in
            var item = Item(id: nil, payload: "after")
            try item.insert(db)
        }
        #expect(try dbQueue.read { db in try Item.fetchCount(db) } == 11)
    }
}
