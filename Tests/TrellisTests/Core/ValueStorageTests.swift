import Foundation
import Testing
import Trellis

// How values are stored and read: large unsigned integers, Foundation
// reference types, dates in blobs, DateComponents.

@Suite("Storage of values")
struct ValueStorageTests {
    @Test("UInt above Int64.max is stored as a REAL, as UInt64 is, instead of stopping the process")
    func largeUnsignedIntegersAreStoredAsReals() throws {
        try DatabaseQueue().read { (db: Database) throws in
            #expect(try Double.fetchOne(db, sql: "SELECT ?", arguments: [UInt.max]) == Double(UInt.max))
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [UInt.max]) == "real")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [UInt(42)]) == "integer")
            #expect(try UInt.fetchOne(db, sql: "SELECT ?", arguments: [UInt(42)]) == 42)
        }
    }

    @Test("NSDate and NSData are stored as Date and Data are")
    func foundationReferenceTypes() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let date = NSDate(timeIntervalSince1970: 1_441_995_255)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "2015-09-11 18:14:15.000")
            #expect(try NSDate.fetchOne(db, sql: "SELECT '2015-09-11 18:14:15'")?.timeIntervalSince1970 == 1_441_995_255)
            let data = NSData(data: Data([1, 2, 3]))
            #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [data]) == Data([1, 2, 3]))
            #expect(try NSData.fetchOne(db, sql: "SELECT x'0102'").map { Data(referencing: $0) } == Data([1, 2]))
        }
    }

    @Test("A date stored as a UTF-8 blob is read, as text is")
    func dateFromBlob() throws {
        try DatabaseQueue().read { (db: Database) throws in
            #expect(try Date.fetchOne(db, sql: "SELECT CAST('2015-09-11' AS BLOB)")?.timeIntervalSince1970 == 1_441_929_600)
            #expect(Date.fromDatabaseValue(Data([0xff]).databaseValue) == nil)
        }
    }

    @Test("DatabaseValue(sqliteStatement:index:) reads a column of a stepped statement")
    func databaseValueFromStatement() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let statement = try db.makeStatement(sql: "SELECT 1, 'a', NULL")
            let rows = try Row.fetchCursor(statement)
            var values: [[DatabaseValue]] = []
            while try rows.next() != nil {
                values.append((0..<3).map { DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt($0)) })
            }
            #expect(values == [[1.databaseValue, "a".databaseValue, .null]])
        }
    }

    @Test("DateComponents is Codable only: a record stores it as JSON; DatabaseDateComponents is Codable, stored as text")
    func dateComponentsInRecords() throws {
        struct Event: Codable, FetchableRecord, PersistableRecord {
            var components: DateComponents?
            var day: DatabaseDateComponents?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE event(components, day)")
            var components = DateComponents()
            components.year = 2000; components.month = 1; components.day = 2
            try Event(components: components, day: DatabaseDateComponents(components, format: .YMD)).insert(db)
            let stored = try #require(try Row.fetchOne(db, sql: "SELECT * FROM event"))
            let json = try #require(stored["components"] as String?)
            #expect(json.hasPrefix("{") && json.contains("\"year\":2000"))
            #expect(stored["day"] as String? == "2000-01-02")
            let event = try #require(try Event.fetchOne(db, sql: "SELECT * FROM event"))
            #expect(event.components?.year == 2000)
            #expect(event.day?.format == .YMD)
            #expect(event.day?.dateComponents.day == 2)
            #expect(try Event.fetchOne(db, sql: "SELECT NULL AS components, '2000-01-02 10:11' AS day")?.day?.format == .YMD_HM)
        }
        let encoded = try JSONEncoder().encode([DatabaseDateComponents(DateComponents(year: 2000, month: 1, day: 2), format: .YMD)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["2000-01-02"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([DatabaseDateComponents].self, from: Data(#"["soon"]"#.utf8)) }
    }
}
