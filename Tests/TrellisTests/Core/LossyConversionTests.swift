import Foundation
import Testing
import Trellis

/// A value that SQLite would convert with a loss (`'abc'` as 0, 3.7 as 3)
/// throws a decoding error that names the column, the value and the type,
/// on every path that reads values; lossless conversions go through.
@Suite struct LossyConversionTests {
    struct CodableRecord: Decodable, FetchableRecord {
        var value: Int
    }

    struct HandWrittenRecord: FetchableRecord {
        var value: Int
        init(row: Row) {
            value = row["value"]
        }
    }

    struct IndexRecord: FetchableRecord {
        var value: Int
        init(row: Row) {
            value = row[0]
        }
    }

    /// The `init(row:)` that the `@DatabaseRecord` macro writes.
    struct ReaderRecord: FetchableRecord {
        var value: Int
        init(row: Row) throws {
            var reader = RecordRowReader<ReaderRecord>(row: row)
            value = try reader.decode(forKey: "value")
        }
    }

    /// The SQL of values that do not convert to an integer without a loss.
    static let lossyIntegers = [
        "'abc'",
        "'20 small cigars'",
        "'12abc'",
        "''",
        "3.7",
        "-0.5",
        "9.3e18",
        "'3.7'",
        "X'3432'",
    ]

    /// Checks that `body` throws a decoding error naming the column
    /// `value`, the type `Int` and the value.
    private func expectLossy(_ sql: String, _ body: () throws -> Void) throws {
        let error = try #require(throws: (any Error).self) { try body() }
        let message = String(describing: error)
        #expect(message.contains("value"), "\(sql): \(message)")
        #expect(message.contains("Int"), "\(sql): \(message)")
        #expect(error is RowDecodingError || error is DecodingError, "\(error)")
    }

    @Test(arguments: lossyIntegers)
    func everyPathThrowsForALossyIntegerConversion(sql: String) throws {
        let dbQueue = try DatabaseQueue()
        let query = "SELECT \(sql) AS value"
        try dbQueue.read { (db: Database) throws in
            try expectLossy(sql) { _ = try CodableRecord.fetchOne(db, sql: query) }
            try expectLossy(sql) { _ = try CodableRecord.fetchAll(db, sql: query) }
            try expectLossy(sql) { _ = try HandWrittenRecord.fetchOne(db, sql: query) }
            try expectLossy(sql) { _ = try IndexRecord.fetchAll(db, sql: query) }
            try expectLossy(sql) { _ = try ReaderRecord.fetchOne(db, sql: query) }
            try expectLossy(sql) { _ = try Int.fetchOne(db, sql: query) }
            try expectLossy(sql) { _ = try Int.fetchAll(db, sql: query) }
            try expectLossy(sql) { _ = try Int64.fetchOne(db, sql: query) }
            try expectLossy(sql) { _ = try Optional<Int>.fetchAll(db, sql: query) }
            let row = try #require(try Row.fetchOne(db, sql: query))
            try expectLossy(sql) { _ = try row.decode(Int.self, forColumn: "value") }
            try expectLossy(sql) { _ = try row.decode(Int.self, atIndex: 0) }
            try expectLossy(sql) { _ = try row.decodeIfPresent(Int.self, forColumn: "value") }
            // A copied row converts as a statement row does.
            let statementRow = try #require(try Row.fetchCursor(db, sql: query).next())
            try expectLossy(sql) { _ = try statementRow.decode(Int.self, forColumn: "value") }
        }
    }

    @Test func theErrorNamesTheColumnTheValueAndTheType() throws {
        let dbQueue = try DatabaseQueue()
        let error = try #require(throws: RowDecodingError.self) {
            try dbQueue.read { db in try CodableRecord.fetchOne(db, sql: "SELECT 'abc' AS value") }
        }
        #expect(error.reason == .valueMismatch)
        #expect(error.message.contains("Int"))
        #expect(error.message.contains("\"abc\""))
        #expect(error.message.contains("column: \"value\""))
    }

    @Test func aFetchedValueOfTheWrongTypeThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(throws: RowDecodingError.self) { try Double.fetchOne(db, sql: "SELECT 'abc'") }
            #expect(throws: RowDecodingError.self) { try Double.fetchOne(db, sql: "SELECT '1.5 meters'") }
            #expect(throws: RowDecodingError.self) { try Float.fetchOne(db, sql: "SELECT 1e300") }
            #expect(throws: RowDecodingError.self) { try Bool.fetchOne(db, sql: "SELECT 'yes'") }
            #expect(throws: RowDecodingError.self) { try String.fetchOne(db, sql: "SELECT X'FF00FE'") }
            #expect(throws: RowDecodingError.self) { try String.fetchOne(db, sql: "SELECT 0.1 + 0.2") }
            #expect(throws: RowDecodingError.self) { try Data.fetchOne(db, sql: "SELECT 12") }
            #expect(throws: RowDecodingError.self) { try UInt8.fetchOne(db, sql: "SELECT 256") }
            #expect(throws: RowDecodingError.self) { try UInt.fetchOne(db, sql: "SELECT -1") }
            #expect(throws: RowDecodingError.self) { try Int.fetchOne(db, sql: "SELECT 9223372036854775808.0") }
            #expect(throws: RowDecodingError.self) { try Decimal.fetchOne(db, sql: "SELECT '20 small cigars'") }
            #expect(throws: RowDecodingError.self) { try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.2.3'") }
        }
    }

    @Test func losslessConversionsGoThrough() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT '42'") == 42)
            #expect(try Int.fetchOne(db, sql: "SELECT ' -42 '") == -42)
            #expect(try Int.fetchOne(db, sql: "SELECT '+7'") == 7)
            #expect(try Int.fetchOne(db, sql: "SELECT '3.0'") == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT '1e3'") == 1000)
            #expect(try Int.fetchOne(db, sql: "SELECT 3.0") == 3)
            #expect(try Int64.fetchOne(db, sql: "SELECT -9223372036854775808") == .min)
            #expect(try UInt8.fetchOne(db, sql: "SELECT 255.0") == 255)
            #expect(try Double.fetchOne(db, sql: "SELECT 2") == 2.0)
            #expect(try Double.fetchOne(db, sql: "SELECT '2.5'") == 2.5)
            #expect(try Float.fetchOne(db, sql: "SELECT 0.5") == 0.5)
            #expect(try String.fetchOne(db, sql: "SELECT 42") == "42")
            #expect(try String.fetchOne(db, sql: "SELECT 0.99") == "0.99")
            #expect(try String.fetchOne(db, sql: "SELECT 3.0") == "3.0")
            #expect(try String.fetchOne(db, sql: "SELECT CAST('héllo' AS BLOB)") == "héllo")
            #expect(try Data.fetchOne(db, sql: "SELECT 'ab'") == Data("ab".utf8))
            #expect(try Bool.fetchOne(db, sql: "SELECT 0") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT 0.5") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT '1'") == true)
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-100.25'") == Decimal(string: "-100.25"))
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT '12'") == .some(.some(12)))
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT '42' AS value, 3.0 AS real"))
            #expect(row["value"] as Int == 42)
            #expect(row["real"] as Int == 3)
            #expect(try CodableRecord.fetchOne(db, sql: "SELECT '42' AS value")?.value == 42)
            #expect(try ReaderRecord.fetchOne(db, sql: "SELECT 42.0 AS value")?.value == 42)
        }
    }

    @Test func fromDatabaseValueRefusesLossyConversions() {
        #expect(Int.fromDatabaseValue("abc") == nil)
        #expect(Int.fromDatabaseValue("20 small cigars") == nil)
        #expect(Int.fromDatabaseValue(3.7) == nil)
        #expect(Int.fromDatabaseValue(3.0) == 3)
        #expect(Int.fromDatabaseValue("42") == 42)
        #expect(Int32.fromDatabaseValue(DatabaseValue(value: Int64.max)!) == nil)
        #expect(Double.fromDatabaseValue("x") == nil)
        #expect(String.fromDatabaseValue(DatabaseValue(value: Data([0xFF]))!) == nil)
        #expect(String.fromDatabaseValue(12) == "12")
    }

    /// A table column of INTEGER affinity stores text that is not a number
    /// as text: the Codable record of the issue.
    @Test func aStoredTextValueInAnIntegerColumnThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(value INTEGER); INSERT INTO t VALUES ('abc'), ('7')")
        }
        try dbQueue.read { (db: Database) throws in
            #expect(throws: RowDecodingError.self) { try CodableRecord.fetchAll(db, sql: "SELECT value FROM t") }
            #expect(try CodableRecord.fetchAll(db, sql: "SELECT value FROM t WHERE rowid = 2").map(\.value) == [7])
        }
    }

    /// Raw-representable and Codable single-value types convert their raw
    /// value with the same rules.
    @Test func wrappersOfIntegersConvertAsIntegers() throws {
        enum Level: Int, DatabaseValueConvertible, Codable { case low = 1, high = 2 }
        struct Item: Decodable, FetchableRecord { var level: Level }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Level.fetchOne(db, sql: "SELECT '2'") == .high)
            #expect(try Item.fetchOne(db, sql: "SELECT 1.0 AS level")?.level == .low)
            #expect(throws: RowDecodingError.self) { try Level.fetchOne(db, sql: "SELECT 1.5") }
            #expect(throws: (any Error).self) { try Item.fetchOne(db, sql: "SELECT '2 levels' AS level") }
        }
    }
}
