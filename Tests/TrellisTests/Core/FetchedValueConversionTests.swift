import Foundation
import Testing
import Trellis

// Values fetched as optionals, from blobs, and dates, converted as GRDB 7
// converts them.

@Suite("Conversions of fetched values")
struct FetchedValueConversionTests {
    @Test("Optional<Int>.fetchOne converts text as Int.fetchOne does")
    func optionalFetchOneConvertsLikeTheWrappedType() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT '12'") == .some(.some(12)))
            // GRDB gives 20: Trellis refuses a conversion with a loss.
            #expect(throws: RowDecodingError.self) {
                try Optional<Int>.fetchOne(db, sql: "SELECT '20 small cigars'")
            }
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(.none))
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 1 WHERE 0") == .none)
            #expect(try Optional<Double>.fetchAll(db, sql: "SELECT '1.5' UNION ALL SELECT NULL") == [1.5, nil])
            #expect(throws: RowDecodingError.self) {
                try Optional<Int8>.fetchOne(db, sql: "SELECT 256")
            }
        }
    }

    @Test("Optional<DatabaseValue>.fetchOne keeps a NULL as DatabaseValue.null")
    func optionalDatabaseValueKeepsNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Optional<DatabaseValue>.fetchOne(db, sql: "SELECT NULL") == .some(.some(.null)))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .some(.null))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try Optional<String>.fetchOne(db, sql: "SELECT NULL") == .some(.none))
        }
    }

    @Test("A failed conversion of fetchOne names Optional<T>, of fetchAll T")
    func fetchOneErrorsNameTheOptional() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let one = try #require(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT 1000") }
            #expect("\(one)".hasPrefix("could not decode Optional<Int8> from database value 1000"))
            let date = try #require(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT 'nope'") }
            #expect("\(date)".hasPrefix("could not decode Optional<Date> from database value \"nope\""))
            let all = try #require(throws: RowDecodingError.self) { try UInt.fetchAll(db, sql: "SELECT -1") }
            #expect("\(all)".hasPrefix("could not decode UInt from database value -1"))
        }
    }

    @Test("Row subscripts of optionals read NULL and missing columns as nil")
    func optionalSubscripts() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT NULL AS a, '7' AS b")
            let row = try #require(try rows.next())
            #expect(row["a"] as Int? == nil)
            #expect(row["b"] as Int? == 7)
            #expect(row["missing"] as Int? == nil)
            #expect(row[0] as String? == nil)
            #expect(row[1] as String? == "7")
        }
    }

    @Test("A blob of UTF-8 converts to String and URL; invalid UTF-8 does not")
    func blobToString() throws {
        #expect(String.fromDatabaseValue(Data("abc".utf8).databaseValue) == "abc")
        #expect(String.fromDatabaseValue(Data([0xFF, 0x41]).databaseValue) == nil)
        #expect(URL.fromDatabaseValue(Data("https://example.com".utf8).databaseValue)?.host == "example.com")
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT CAST('é' AS BLOB) AS a"))
            #expect(try row.decode(String.self, forColumn: "a") == "é")
        }
    }

    @Test("Dates keep milliseconds and drop further digits")
    func dateFractionIsTruncatedToMilliseconds() throws {
        let date = try #require(Date.fromDatabaseValue("2024-01-02 03:04:05.6789".databaseValue))
        #expect(date.timeIntervalSince1970 == 1_704_164_645.678)
        let components = try #require(DatabaseDateComponents.fromDatabaseValue("2024-01-02 03:04:05.999999".databaseValue))
        #expect(components.dateComponents.nanosecond == 999_000_000)
    }

    @Test("Dates are stored to the nearest millisecond")
    func dateIsStoredToTheNearestMillisecond() throws {
        #expect(Date(timeIntervalSince1970: 86_399.9999).databaseValue == "1970-01-02 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 0.9996).databaseValue == "1970-01-01 00:00:01.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 0.0004).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: -0.0004).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 1.2344).databaseValue == "1970-01-01 00:00:01.234".databaseValue)
    }
}
