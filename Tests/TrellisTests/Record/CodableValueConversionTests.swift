import Foundation
import Testing
import Trellis

// Codable values built on a single primitive, and date strategies of
// numbers, in decoded records.

@Suite("Codable values in records")
struct CodableValueConversionTests {
    enum Level: Int, Codable { case low = 1, high = 2 }

    struct Wrapped: Codable, Equatable {
        var raw: Int
        init(raw: Int) { self.raw = raw }
        init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(Int.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    struct Name: Codable, Equatable {
        var raw: String
        init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    struct Item: Decodable, FetchableRecord {
        var level: Level
        var id: Wrapped
        var name: Name
    }

    @Test("Values built on a single primitive convert with SQLite's rules, as a property of the primitive does")
    func singleValueWrappersConvertLikeTheirPrimitive() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let item = try #require(try Item.fetchOne(db, sql: "SELECT '2' AS level, '1' AS id, 5 AS name"))
            #expect(item.level == .high)
            #expect(item.id == Wrapped(raw: 1))
            #expect(item.name.raw == "5")
            // Not a raw value of the enum: an error names the column.
            let error = #expect(throws: (any Error).self) { try Item.fetchOne(db, sql: "SELECT 7 AS level, 1 AS id, 'a' AS name") }
            #expect("\(error.map { "\($0)" } ?? "")".contains("level"))
        }
    }

    @Test("Date strategies of numbers read numeric text")
    func dateStrategiesReadNumericText() throws {
        struct Stamp: Decodable, FetchableRecord {
            var d: Date
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
        }
        struct Reference: Decodable, FetchableRecord {
            var d: Date
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }
        }
        try DatabaseQueue().read { (db: Database) throws in
            #expect(try Stamp.fetchOne(db, sql: "SELECT '1000' AS d")?.d == Date(timeIntervalSince1970: 1000))
            #expect(try Stamp.fetchOne(db, sql: "SELECT 1000 AS d")?.d == Date(timeIntervalSince1970: 1000))
            #expect(try Reference.fetchOne(db, sql: "SELECT '-978306199.75' AS d")?.d == Date(timeIntervalSinceReferenceDate: -978_306_199.75))
            #expect(throws: RowDecodingError.self) { try Stamp.fetchOne(db, sql: "SELECT 'soon' AS d") }
        }
    }
}
