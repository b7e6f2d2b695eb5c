import Foundation
import Testing
import Trellis

/// Conversions of Foundation values that GRDB documents.
@Suite struct FoundationValueConversionTests {
    @Test func nsNullIsTheNullValue() throws {
        #expect(NSNull().databaseValue == .null)
        #expect(NSNull.fromDatabaseValue(.null) != nil)
        #expect(NSNull.fromDatabaseValue(1.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try NSNull.fetchAll(db, sql: "SELECT NULL").count == 1)
        }
    }

    @Test func numbersAndDecimalsConvertAsDocumented() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try NSNumber.fetchOne(db, sql: "SELECT 10") == NSNumber(value: 10))
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'") == NSDecimalNumber(string: "1.23"))
            #expect(try NSNumber.fetchOne(db, sql: "SELECT '10'") is NSDecimalNumber)
            #expect(try Decimal.fetchOne(db, sql: "SELECT -100") == Decimal(-100))
            #expect(NSDecimalNumber(string: "10.0").databaseValue == 10.databaseValue)
            #expect(Decimal(string: "10.5")!.databaseValue == "10.5".databaseValue)
            let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            #expect(try UUID.fetchOne(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'") == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]) == uuid)
        }
    }
}
