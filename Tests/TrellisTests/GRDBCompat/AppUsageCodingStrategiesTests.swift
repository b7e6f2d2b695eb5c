import Foundation
import Testing
import Trellis

// Coding strategies as records declare them: snake-case column strategies,
// date strategies per column, uppercase UUIDs, JSON encoders with sorted
// keys for nested values, and the former `static var` spelling of the date
// strategies, which GRDB 7 does not read (records declaring it keep the
// default format).

private struct Expense: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "expense"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: Int64
    var paidAt: Date
    var bookedAt: Date
    var receiptId: UUID
    var tags: [String]
    var extras: [String: Int]

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        column == "paid_at" ? .timeIntervalSince1970 : .iso8601
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        column == "paid_at" ? .timeIntervalSince1970 : .iso8601
    }

    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// Declares the date strategies as static properties, the spelling of
/// former GRDB versions: they are no protocol requirement any longer.
private struct LegacyStamp: Codable, FetchableRecord, PersistableRecord, Equatable {
    static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    var id: Int64
    var at: Date
}

/// Dates as text through a custom formatter in both directions.
private struct Checkpoint: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .formatted(formatter)
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .custom { dbValue in
            guard let string = String.fromDatabaseValue(dbValue) else { return nil }
            return formatter.date(from: string)
        }
    }

    var id: Int64
    var day: Date
}

@Suite("App usage: coding strategies")
struct AppUsageCodingStrategiesTests {
    @Test("Snake-case columns, per-column date strategies, uppercase UUIDs and sorted JSON")
    func declaredStrategies() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "expense") { t in
                t.primaryKey("id", .integer)
                t.column("paid_at", .double).notNull()
                t.column("booked_at", .text).notNull()
                t.column("receipt_id", .text).notNull()
                t.column("tags", .jsonText).notNull()
                t.column("extras", .jsonText).notNull()
            }
        }
        let uuid = try #require(UUID(uuidString: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
        let expense = Expense(
            id: 1, paidAt: Date(timeIntervalSince1970: 1_700_000_000), bookedAt: Date(timeIntervalSince1970: 0),
            receiptId: uuid, tags: ["a/b", "c"], extras: ["z": 1, "a": 2])
        try dbQueue.write { db in try expense.insert(db) }
        let row = try #require(try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT * FROM expense") })
        #expect(row["paid_at"] as Double? == 1_700_000_000)
        #expect(row["booked_at"] as String? == "1970-01-01T00:00:00Z")
        #expect(row["receipt_id"] as String? == "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")
        #expect(row["tags"] as String? == #"["a/b","c"]"#)
        #expect(row["extras"] as String? == #"{"a":2,"z":1}"#)
        #expect(try dbQueue.read { db in try Expense.fetchOne(db) } == expense)
        let byUUID = try dbQueue.read { db in try Expense.filter(Column("receipt_id") == uuid.uuidString).fetchCount(db) }
        #expect(byUUID == 1)
    }

    @Test("Date strategies declared as static properties are not read: dates keep the default text format")
    func staticPropertyStrategiesAreIgnored() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "legacyStamp") { t in
                t.primaryKey("id", .integer)
                t.column("at", .datetime).notNull()
            }
            try LegacyStamp(id: 1, at: Date(timeIntervalSince1970: 1.5)).insert(db)
        }
        let stored = try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT at FROM legacyStamp") }
        #expect(stored == "1970-01-01 00:00:01.500")
        #expect(try dbQueue.read { db in try LegacyStamp.fetchOne(db) }?.at == Date(timeIntervalSince1970: 1.5))
    }

    @Test("Formatted and custom date strategies store and read the formatter's text")
    func formattedDates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "checkpoint") { t in
                t.primaryKey("id", .integer)
                t.column("day", .text).notNull()
            }
            try Checkpoint(id: 1, day: Date(timeIntervalSince1970: 86_400 * 3)).insert(db)
            try db.execute(sql: "INSERT INTO checkpoint (id, day) VALUES (2, 'yesterday')")
        }
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT day FROM checkpoint WHERE id = 1") } == "1970-01-04")
        let first = try dbQueue.read { db in try Checkpoint.fetchOne(db, key: 1) }
        #expect(first?.day == Date(timeIntervalSince1970: 86_400 * 3))
        #expect(throws: (any Error).self) {
            _ = try dbQueue.read { db in try Checkpoint.fetchOne(db, key: 2) }
        }
    }
}
