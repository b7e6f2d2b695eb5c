import Foundation
import Testing
import Trellis

// Values as application schemas hold them, often written by raw SQL or by
// SQLite itself: timestamps from CURRENT_TIMESTAMP defaults, dates as Unix
// seconds, UUIDs as text, URLs, sets and optional enums in Codable records,
// and values read back through row subscripts with a fallback.

private struct Entry: Codable, FetchableRecord, PersistableRecord, Equatable {
    enum Mood: Int, Codable { case low = 1, high = 2 }

    var id: UUID
    var createdAt: Date
    var link: URL?
    var labels: Set<String>
    var mood: Mood?
    var score: Double
}

private func makeEntryQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "entry") { t in
            t.primaryKey("id", .text)
            t.column("createdAt", .datetime).notNull().defaults(sql: "CURRENT_TIMESTAMP")
            t.column("link", .text)
            t.column("labels", .text).notNull().defaults(to: "[]")
            t.column("mood", .integer)
            t.column("score", .double).notNull().defaults(to: 0)
        }
    }
    return dbQueue
}

@Suite("App usage: values")
struct AppUsageValuesTests {
    @Test("A row inserted by raw SQL with SQLite's defaults decodes: CURRENT_TIMESTAMP, text UUID, JSON text")
    func rawSQLRowDecodes() throws {
        let dbQueue = try makeEntryQueue()
        let before = Date(timeIntervalSinceNow: -2)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO entry (id) VALUES ('0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0')")
        }
        let entry = try #require(try dbQueue.read { db in try Entry.fetchOne(db) })
        #expect(entry.id.uuidString == "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")
        #expect(entry.createdAt >= before.addingTimeInterval(-1))
        #expect(entry.createdAt <= Date(timeIntervalSinceNow: 2))
        #expect(entry.labels.isEmpty)
        #expect(entry.mood == nil)
        #expect(entry.link == nil)
        #expect(entry.score == 0)
    }

    @Test("A record round-trips UUID, URL, Set and Int enum, and is found by its UUID")
    func recordRoundTrip() throws {
        let dbQueue = try makeEntryQueue()
        let entry = Entry(
            id: UUID(), createdAt: Date(timeIntervalSince1970: 1_000_000.25),
            link: URL(string: "https://example.com/a?b=c"), labels: ["x", "y"], mood: .high, score: 1.5)
        try dbQueue.write { db in try entry.insert(db) }
        let (byKey, row) = try dbQueue.read { db in
            (try Entry.fetchOne(db, key: entry.id), try Row.fetchOne(db, sql: "SELECT link, mood, typeof(id) AS idType FROM entry"))
        }
        #expect(byKey == entry)
        #expect(row?["link"] as String? == "https://example.com/a?b=c")
        #expect(row?["mood"] as Int? == 2)
        #expect(row?["idType"] as String? == "blob")
        let byURL = try dbQueue.read { db in try Entry.filter(Column("link") == entry.link).fetchCount(db) }
        #expect(byURL == 1)
    }

    @Test("Dates read from Unix seconds, from day-only text, and from ISO 8601 text with a time zone")
    func dateFormats() throws {
        let dbQueue = try DatabaseQueue()
        let dates = try dbQueue.read { db in
            (
                try Date.fetchOne(db, sql: "SELECT 86400"),
                try Date.fetchOne(db, sql: "SELECT 1.5"),
                try Date.fetchOne(db, sql: "SELECT '1970-01-02'"),
                try Date.fetchOne(db, sql: "SELECT '1970-01-01T01:00:00+01:00'"),
                try Date.fetchOne(db, sql: "SELECT '1970-01-01 00:01'")
            )
        }
        #expect(dates.0 == Date(timeIntervalSince1970: 86_400))
        #expect(dates.1 == Date(timeIntervalSince1970: 1.5))
        #expect(dates.2 == Date(timeIntervalSince1970: 86_400))
        #expect(dates.3 == Date(timeIntervalSince1970: 0))
        #expect(dates.4 == Date(timeIntervalSince1970: 60))
    }

    @Test("Row subscripts with a fallback for missing columns and NULL values")
    func rowSubscriptsWithFallback() throws {
        let dbQueue = try DatabaseQueue()
        let row = try #require(try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT 1 AS a, NULL AS b, 'x' AS c") })
        let a: Int = row["a"] ?? 0
        let b: Int = row["b"] ?? 7
        let missing: String = row["missing"] ?? "default"
        #expect(a == 1)
        #expect(b == 7)
        #expect(missing == "default")
        #expect(row.hasColumn("c"))
        #expect(!row.hasColumn("missing"))
        #expect(row["C"] as String? == "x")
        #expect(row["b"] as DatabaseValue? == .null)
        #expect(row["missing"] as DatabaseValue? == nil)
    }

    @Test("An Int enum with an unknown raw value in the database makes the record fetch throw")
    func unknownEnumValueThrows() throws {
        let dbQueue = try makeEntryQueue()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO entry (id, mood) VALUES ('0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0', 9)")
        }
        #expect(throws: (any Error).self) {
            _ = try dbQueue.read { db in try Entry.fetchAll(db) }
        }
    }
}
