import Foundation
import Testing
import Trellis

// GRDB's README, "Row Queries" (column values, DatabaseValue, rows as
// dictionaries), "Value Queries" and "Values": each sample run as written,
// with the results the README shows.

private enum Color: Int, DatabaseValueConvertible {
    case red, white, rose
}

private enum Grape: String, DatabaseValueConvertible {
    case chardonnay, merlot, riesling
}

private struct Link: FetchableRecord, TableRecord {
    var url: URL
    var isVerified: Bool

    enum Columns {
        static let url = Column("url")
    }

    init(row: Row) {
        url = row["url"]
        isVerified = row["verified"]
    }
}

@Suite struct ReadmeValuesDocTests {
    // MARK: Column Values

    @Test func columnValuesByIndexNameAndColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Arthur' AS name, 0 AS bookCount, '2015-09-11 18:14:15.123' AS date"))
            let name0: String = row[0]
            let name1: String = row["NAME"]
            let name2: String = row[Column("name")]
            #expect([name0, name1, name2] == ["Arthur", "Arthur", "Arthur"])
            let optionalName: String? = row["name"]
            #expect(optionalName == "Arthur")

            let bookCount: Int = row["bookCount"]
            let bookCount64: Int64 = row["bookCount"]
            let hasBooks: Bool = row["bookCount"]
            #expect(bookCount == 0 && bookCount64 == 0 && hasBooks == false)

            let string: String = row["date"]
            let date: Date = row["date"]
            #expect(string == "2015-09-11 18:14:15.123")
            #expect(abs(date.timeIntervalSince1970 - 1_441_995_255.123) < 0.0005)
            #expect(row[0] as String? == "Arthur")

            #expect(try row.decode(String.self, atIndex: 0) == "Arthur")
            #expect(try row.decode(Int.self, forColumn: "bookCount") == 0)
        }
    }

    @Test func nullAndMissingColumnsGiveNil() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL"))
            #expect(row[0] as Int? == nil)
            #expect(row[0] as DatabaseValue == .null)
            #expect(throws: (any Error).self) { try row.decode(Int.self, atIndex: 0) }

            let fooRow = try #require(try Row.fetchOne(db, sql: "SELECT 'foo' AS foo"))
            #expect(fooRow["missing"] as String? == nil)
            #expect(fooRow.hasColumn("foo"))
            #expect(!fooRow.hasColumn("missing"))
            #expect(throws: (any Error).self) { try fooRow.decode(String.self, forColumn: "missing") }
        }
    }

    @Test func invalidConversionsAreAvoidedWithDatabaseValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Mom’s birthday'"))
            #expect(row[0] as String == "Mom’s birthday")
            #expect(throws: (any Error).self) { try row.decode(Date.self, atIndex: 0) }
            #expect(throws: (any Error).self) { try row.decode(Date?.self, atIndex: 0) }
            let dbValue: DatabaseValue = row[0]
            #expect(!dbValue.isNull)
            #expect(String.fromDatabaseValue(dbValue) == "Mom’s birthday")
            #expect(Int.fromDatabaseValue(dbValue) == nil)
            #expect(Date.fromDatabaseValue(dbValue) == nil)

            let row256 = try #require(try Row.fetchOne(db, sql: "SELECT 256"))
            #expect(row256[0] as Int == 256)
            #expect(throws: (any Error).self) { try row256.decode(UInt8.self, atIndex: 0) }
            #expect(throws: (any Error).self) { try row256.decode(UInt8?.self, atIndex: 0) }
            #expect(UInt8.fromDatabaseValue(row256[0]) == nil)
        }
    }

    // Trellis refuses the conversion of '20 small cigars' to 20: see
    // DifferencesFromGRDB.md, "No conversion with a loss".
    @Test func lossyTextToIntegerConversionThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT '20 small cigars'")
            var count = 0
            while let row = try rows.next() {
                count += 1
                #expect(throws: (any Error).self) { try row.decode(Int.self, atIndex: 0) }
                #expect(row[0] as DatabaseValue == "20 small cigars".databaseValue)
            }
            #expect(count == 1)
        }
    }

    @Test func coalesceKeepsTheFirstNonNullValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS nickname, 'Arthur' AS name"))
            let name: String? = row.coalesce(["nickname", "name"])
            #expect(name == "Arthur")
            let other = try #require(try Row.fetchOne(db, sql: "SELECT 'Art' AS nickname, 'Arthur' AS name"))
            #expect(other.coalesce(["nickname", "name"]) as String? == "Art")
            let none = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS nickname"))
            #expect(none.coalesce(["nickname", "name"]) as String? == nil)
        }
    }

    // MARK: DatabaseValue

    @Test func databaseValueStorage() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL, 1, 2.5, 'foo', x'0102' AS name"))
            let described: [String] = row.databaseValues.map { dbValue in
                switch dbValue.storage {
                case .null: return "NULL"
                case .int64(let int64): return "Int64: \(int64)"
                case .double(let double): return "Double: \(double)"
                case .string(let string): return "String: \(string)"
                case .blob(let data): return "Data: \(data.count)"
                }
            }
            #expect(described == ["NULL", "Int64: 1", "Double: 2.5", "String: foo", "Data: 2"])
            #expect(row.databaseValues[0].storage.value == nil)
            #expect(row.databaseValues[1].storage.value as? Int64 == 1)
            #expect(row.databaseValues[2].storage.value as? Double == 2.5)
            #expect(row.databaseValues[3].storage.value as? String == "foo")
            #expect(row.databaseValues[4].storage.value as? Data == Data([1, 2]))

            let present: DatabaseValue? = row["name"]
            let missing: DatabaseValue? = row["missing"]
            #expect(present == Data([1, 2]).databaseValue)
            #expect(missing == nil)
        }
    }

    @Test func fromDatabaseValueExtractsValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS bookCount, '2015-09-11 18:14:15.123' AS date"))
            let dbValue: DatabaseValue = row["bookCount"]
            #expect(Int.fromDatabaseValue(dbValue) == 0)
            #expect(Int64.fromDatabaseValue(dbValue) == 0)
            #expect(Bool.fromDatabaseValue(dbValue) == false)
            let dateValue: DatabaseValue = row["date"]
            #expect(String.fromDatabaseValue(dateValue) == "2015-09-11 18:14:15.123")
            let date = try #require(Date.fromDatabaseValue(dateValue))
            #expect(abs(date.timeIntervalSince1970 - 1_441_995_255.123) < 0.0005)
        }
    }

    // MARK: Rows as Dictionaries

    @Test func rowsFromDictionaries() throws {
        let row: Row = ["name": "foo", "date": nil]
        #expect(row["name"] as String? == "foo")
        #expect(row["date"] as DatabaseValue? == .null)
        #expect(row.columnNames == ["name", "date"])
        // A Swift dictionary has no order: the columns are compared by name.
        let row2 = Row(["name": "foo", "date": nil])
        #expect(Set(row2.columnNames) == ["name", "date"])
        #expect(row2["name"] as String? == "foo")
        #expect(row2["date"] as DatabaseValue? == .null)

        let valid: [AnyHashable: Any] = ["name": "foo", "score": 12]
        let built = try #require(Row(valid))
        #expect(built["score"] as Int? == 12)
        let invalid: [AnyHashable: Any] = ["name": NSObject()]
        #expect(Row(invalid) == nil)
    }

    @Test func rowsWithDuplicateColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS foo, 2 AS foo"))
            #expect(row.columnNames == ["foo", "foo"])
            #expect(row.databaseValues == [1.databaseValue, 2.databaseValue])
            #expect(row["foo"] as Int == 1)
            var pairs: [String] = []
            for (columnName, dbValue) in row {
                pairs.append("\(columnName)=\(dbValue)")
            }
            #expect(pairs == ["foo=1", "foo=2"])

            let leftmost = Dictionary(row, uniquingKeysWith: { (left, _) in left })
            #expect(leftmost == ["foo": 1.databaseValue])

            let rightmost = Dictionary(
                row.map { (column, dbValue) in (column, dbValue.storage.value as AnyObject) },
                uniquingKeysWith: { (_, right) in right })
            #expect((rightmost["foo"] as? NSNumber)?.intValue == 2)

            let any = Dictionary(
                row.map { (column, dbValue) in (column, dbValue.storage.value) },
                uniquingKeysWith: { (left, _) in left })
            #expect(any["foo"] as? Int64 == 1)
        }
    }

    // MARK: Value Queries

    @Test func valueQueries() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(name TEXT, score INT)")
            try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 100), ('Barbara', 1000), ('Craig', NULL), ('Arthur', 100)")
        }
        try dbQueue.read { db in
            let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player WHERE score >= ?", arguments: [100])
            var total = 0
            while let score = try scores.next() { total += score }
            #expect(total == 1200)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player WHERE score > ?", arguments: [0]) == [100, 1000, 100])
            #expect(try Int.fetchSet(db, sql: "SELECT score FROM player WHERE score > ?", arguments: [0]) == [100, 1000])
            #expect(try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") == 1000)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Arthur", "Barbara", "Craig", "Arthur"])

            #expect(try Int.fetchOne(db, sql: "SELECT 42 WHERE FALSE") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT 42") == 42)

            #expect(try Optional<Int>.fetchAll(db, sql: "SELECT score FROM player") == [100, 1000, nil, 100])
            #expect(try Optional<Int>.fetchSet(db, sql: "SELECT score FROM player") == [100, 1000, nil])
            let cursor = try Optional<Int>.fetchCursor(db, sql: "SELECT score FROM player")
            #expect(try Array(cursor) == [100, 1000, nil, 100])

            let noRow: Int?? = try Optional<Int>.fetchOne(db, sql: "SELECT 42 WHERE FALSE")
            let nullRow: Int?? = try Optional<Int>.fetchOne(db, sql: "SELECT NULL")
            let valueRow: Int?? = try Optional<Int>.fetchOne(db, sql: "SELECT 42")
            #expect(noRow == .none)
            #expect(nullRow == .some(.none))
            #expect(valueRow == .some(.some(42)))
        }
    }

    // MARK: Values

    @Test func urlAndBoolValues() throws {
        let dbQueue = try DatabaseQueue()
        let url = try #require(URL(string: "https://example.com/a"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE link(url TEXT, verified BOOLEAN)")
            try db.execute(
                sql: "INSERT INTO link (url, verified) VALUES (?, ?)",
                arguments: [url, true])
            try db.execute(
                sql: "INSERT INTO link (url, verified) VALUES (?, ?)",
                arguments: [URL(string: "https://example.com/b"), false])
        }
        try dbQueue.read { db in
            #expect(try String.fetchOne(db, sql: "SELECT url FROM link") == "https://example.com/a")
            #expect(try Int.fetchOne(db, sql: "SELECT verified FROM link") == 1)
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM link")
            var read: [String] = []
            while let row = try rows.next() {
                let url: URL = row["url"]
                let verified: Bool = row["verified"]
                read.append("\(url.absoluteString) \(verified)")
            }
            #expect(read == ["https://example.com/a true", "https://example.com/b false"])
            #expect(try URL.fetchAll(db, sql: "SELECT url FROM link").map(\.absoluteString)
                == ["https://example.com/a", "https://example.com/b"])

            let link = try #require(try Link.filter { $0.url == url }.fetchOne(db))
            #expect(link.url == url)
            #expect(link.isVerified)
        }
    }

    @Test func dataWithoutCopy() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT x'010203' AS data UNION ALL SELECT NULL")
            var sizes: [Int?] = []
            while let row = try rows.next() {
                try row.withUnsafeData(name: "data") { (data: Data?) in
                    sizes.append(data?.count)
                }
            }
            #expect(sizes == [3, nil])
        }
    }

    // MARK: Date and DateComponents

    @Test func datesAreStoredInUTCWithMilliseconds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(creationDate DATETIME)")
            let date = Date(timeIntervalSince1970: 1_441_995_255.123)
            try db.execute(sql: "INSERT INTO player (creationDate) VALUES (?)", arguments: [date])
            #expect(try String.fetchOne(db, sql: "SELECT creationDate FROM player") == "2015-09-11 18:14:15.123")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            let creationDate: Date = row["creationDate"]
            #expect(abs(creationDate.timeIntervalSince(date)) < 0.001)
            // The format is comparable with CURRENT_TIMESTAMP.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE creationDate < CURRENT_TIMESTAMP") == 1)

            let timeInterval = date.timeIntervalSinceReferenceDate
            try db.execute(sql: "DELETE FROM player")
            try db.execute(sql: "INSERT INTO player (creationDate) VALUES (?)", arguments: [timeInterval])
            let stored = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            let storedInterval: TimeInterval = stored["creationDate"]
            #expect(Date(timeIntervalSinceReferenceDate: storedInterval) == date)
        }
    }

    @Test func dateReadFormats() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            func readDate(_ sql: String) throws -> Date? {
                try Date.fetchOne(db, sql: "SELECT \(sql)")
            }
            let base = Date(timeIntervalSince1970: 1_441_929_600) // 2015-09-11 00:00:00 UTC
            #expect(try readDate("'2015-09-11'") == base)
            #expect(try readDate("'2015-09-11 18:14'") == base.addingTimeInterval(65_640))
            #expect(try readDate("'2015-09-11 18:14:15'") == base.addingTimeInterval(65_655))
            #expect(try readDate("'2015-09-11 18:14:15.123'") == base.addingTimeInterval(65_655.123))
            #expect(try readDate("'2015-09-11T18:14'") == base.addingTimeInterval(65_640))
            #expect(try readDate("'2015-09-11T18:14:15'") == base.addingTimeInterval(65_655))
            #expect(try readDate("'2015-09-11T18:14:15.123'") == base.addingTimeInterval(65_655.123))
            #expect(try readDate("'2015-09-11 18:14:15+01:00'") == base.addingTimeInterval(65_655 - 3600))
            #expect(try readDate("'2015-09-11T18:14Z'") == base.addingTimeInterval(65_640))
            #expect(try readDate("1441929600") == base)
            #expect(try readDate("1441929600.5") == base.addingTimeInterval(0.5))
            #expect(Date.fromDatabaseValue("now".databaseValue) == nil)
            #expect(Date(julianDay: 2_440_587.5) == Date(timeIntervalSince1970: 0))
        }
    }

    @Test func databaseDateComponents() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(birthDate TEXT)")
            var components = DateComponents()
            components.year = 1973
            components.month = 9
            components.day = 18
            let dbComponents = DatabaseDateComponents(components, format: .YMD)
            try db.execute(sql: "INSERT INTO player (birthDate) VALUES (?)", arguments: [dbComponents])
            #expect(try String.fetchOne(db, sql: "SELECT birthDate FROM player") == "1973-09-18")

            let row = try #require(try Row.fetchOne(db, sql: "SELECT birthDate FROM player"))
            let read: DatabaseDateComponents = row["birthDate"]
            #expect(read.format == .YMD)
            #expect(read.dateComponents.year == 1973)
            #expect(read.dateComponents.month == 9)
            #expect(read.dateComponents.day == 18)

            let time = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '18:14:15'"))
            #expect(time.format == .HMS)
            #expect(time.dateComponents.hour == 18)
            #expect(time.dateComponents.minute == 14)
            #expect(time.dateComponents.second == 15)

            var hm = DateComponents()
            hm.hour = 9
            hm.minute = 5
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(hm, format: .HM)]) == "09:05")
        }
    }

    // MARK: NSNumber, NSDecimalNumber, and Decimal

    @Test func numbersDecodeIntegersDoublesAndStrings() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            #expect(try NSNumber.fetchOne(db, sql: "SELECT 10")?.intValue == 10)
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT 1.23") == NSDecimalNumber(string: "1.23"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT -100") == Decimal(-100))

            let fromString = try #require(try NSNumber.fetchOne(db, sql: "SELECT '10'"))
            #expect(fromString is NSDecimalNumber)
            #expect(fromString.intValue == 10)
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'") == NSDecimalNumber(string: "1.23"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-100'") == Decimal(-100))
        }
    }

    @Test func numbersEncodeAsDocumented() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE transfer(amount)")
            func stored(_ value: some DatabaseValueConvertible) throws -> String? {
                try db.execute(sql: "DELETE FROM transfer")
                try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [value])
                return try String.fetchOne(db, sql: "SELECT typeof(amount) || ' ' || quote(amount) FROM transfer")
            }
            #expect(try stored(NSNumber(value: 10)) == "integer 10")
            #expect(try stored(NSNumber(value: 10.0)) == "real 10.0")
            #expect(try stored(NSDecimalNumber(string: "10.0")) == "integer 10")
            #expect(try stored(NSDecimalNumber(string: "10.5")) == "real 10.5")
            #expect(try stored(Decimal(10)) == "text '10'")
            #expect(try stored(try #require(Decimal(string: "10.5"))) == "text '10.5'")
        }
    }

    // MARK: UUID

    @Test func uuidsAreBlobsAndDecodeFromStrings() throws {
        let dbQueue = try DatabaseQueue()
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        try dbQueue.read { (db) throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?) || length(?)", arguments: [uuid, uuid]) == "blob16")
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]) == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'") == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
        }
    }

    // MARK: Swift Enums

    @Test func enumsStoreTheirRawValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE wine(grape TEXT, color INT)")
            try db.execute(
                sql: "INSERT INTO wine (grape, color) VALUES (?, ?)",
                arguments: [Grape.merlot, Color.red])
            #expect(try String.fetchOne(db, sql: "SELECT grape || color FROM wine") == "merlot0")
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM wine")
            var wines: [String] = []
            while let row = try rows.next() {
                let grape: Grape = row["grape"]
                let color: Color = row["color"]
                wines.append("\(grape) \(color)")
            }
            #expect(wines == ["merlot red"])

            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'syrah'"))
            #expect(row[0] as String == "syrah")
            #expect(throws: (any Error).self) { try row.decode(Grape.self, atIndex: 0) }
            #expect(throws: (any Error).self) { try row.decode(Grape?.self, atIndex: 0) }
            let dbValue: DatabaseValue = row[0]
            #expect(!dbValue.isNull)
            #expect(Grape.fromDatabaseValue(dbValue) == nil)
            #expect(Grape.fromDatabaseValue("riesling".databaseValue) == .riesling)
        }
    }
}
