import Foundation
import Testing
import Trellis

/// Dates are stored to the millisecond ("yyyy-MM-dd HH:mm:ss.SSS"): a date
/// with whole milliseconds reads back as the same `Date`, within the
/// precision of its interval.
@Suite struct DateRoundTripTests {
    @Test func datesWithWholeMillisecondsReadBackWithin10Nanoseconds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let statement = try db.makeStatement(sql: "SELECT ?")
            var farthest: TimeInterval = 0
            for millisecond in stride(from: 0, to: 100_000, by: 97) {
                let date = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(millisecond) / 1000)
                let read = try #require(try Date.fetchOne(statement, arguments: [date]))
                farthest = max(farthest, abs(read.timeIntervalSince(date)))
            }
            #expect(farthest < 1e-8)
        }
    }

    @Test func theStoredTextIsTheNearestMillisecondOfTheDate() throws {
        // 2023-03-08 20:26:40.123 UTC is 700_000_000.123 seconds after the
        // reference date.
        #expect(Date(timeIntervalSinceReferenceDate: 700_000_000.123).databaseValue == "2023-03-08 20:26:40.123".databaseValue)
        for millisecond in stride(from: 0, to: 1000, by: 7) {
            let date = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(millisecond) / 1000)
            let text = try #require(String.fromDatabaseValue(date.databaseValue))
            #expect(text.hasSuffix(String(format: ".%03d", millisecond)))
        }
    }

    @Test func julianDaysAreRoundedOnce() throws {
        for julianDay in [2_460_310.1, 2_451_910.6, 2_455_000.123456, 2_440_587.5] {
            let date = try #require(Date(julianDay: julianDay))
            // The subtraction is exact; the product is the only rounding.
            #expect(date.timeIntervalSinceReferenceDate == (julianDay - 2_451_910.5) * 86_400)
        }
        #expect(Date(julianDay: 2_451_910.5) == Date(timeIntervalSinceReferenceDate: 0))
    }

    @Test func numbersAreSecondsSince1970() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Date.fetchOne(db, sql: "SELECT 1700000000") == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try Date.fetchOne(db, sql: "SELECT 1700000000.25") == Date(timeIntervalSince1970: 1_700_000_000.25))
        }
    }
}
