import Foundation
import Testing
import Trellis

// Snippets from GRDB's "SQL, Prepared Statements, Rows, and Values" guide,
// and from the README chapters it points to: Executing Updates, Fetch
// Queries, Values, and the Data, Date, and UUID coding strategies of
// Codable records. They are written as the documentation writes them.

private struct Player: Decodable {
    var id: Int64
    var name: String
    var score: Int
}

extension Player: FetchableRecord {
    static func filter(name: String) -> SQLRequest<Player> {
        "SELECT * FROM player WHERE name = \(name)"
    }

    static func maximumScore() -> SQLRequest<Int> {
        "SELECT MAX(score) FROM player"
    }
}

private enum Color: Int {
    case red, white, rose
}

private enum Grape: String {
    case chardonnay, merlot, riesling
}

// Declare empty DatabaseValueConvertible adoption
extension Color: DatabaseValueConvertible {}
extension Grape: DatabaseValueConvertible {}

private struct Link: FetchableRecord, TableRecord {
    var url: URL
    var isVerified: Bool

    init(row: Row) {
        url = row["url"]
        isVerified = row["verified"]
    }

    enum Columns {
        static let url = Column("url")
    }
}

/// A record whose UUIDs are stored as strings.
private struct UUIDPlayer: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "uuidPlayer"

    // UUIDs are stored as strings
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    var id: UUID
    var name: String

    enum Columns {
        static let id = Column(CodingKeys.id)
    }
}

/// A record whose dates are stored as timestamps, and data as text.
private struct Event: Codable, FetchableRecord, PersistableRecord, Equatable {
    var date: Date
    var note: Data

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSince1970
    }

    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        .text
    }
}

@Suite struct GRDBCompatSQLSupportTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    score INT)
                """)
        }
        return dbQueue
    }

    // MARK: SQL Support

    @Test func sqlSupportOverview() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (?, ?);
                """, arguments: ["Arthur", 500, "Barbara", 1000])
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["O'Brien", 750])
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["O'Reilly", 250])
        }
        try dbQueue.read { db throws in
            let sql = "SELECT id, score FROM player WHERE name = ?"
            let statement = try db.makeStatement(sql: sql)
            let rows = try Row.fetchCursor(statement, arguments: ["O'Brien"])
            var scores: [Int64: Int] = [:]
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let score: Int = row[1]
                scores[id] = score
            }
            #expect(scores == [3: 750])

            let players = try Player.filter(name: "O'Reilly").fetchAll(db) // [Player]
            #expect(players.map(\.id) == [4])
            let maxScore = try Player.maximumScore().fetchOne(db)          // Int?
            #expect(maxScore == 1000)
        }
    }

    // MARK: Executing Updates

    @Test func executingUpdates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Barbara", 1000])
            try db.execute(
                sql: "UPDATE player SET score = :score WHERE id = :id",
                arguments: ["score": 500, "id": 1])
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1") == 500)

            let name = "O'Brien"
            let score = 550
            try db.execute(literal: """
                INSERT INTO player (name, score) VALUES (\(name), \(score))
                """)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE score = 550") == "O'Brien")

            let id: Int64 = 2
            try db.execute(
                sql: "UPDATE player SET name = :name WHERE id = :id",
                arguments: ["name": "Craig", "id": id])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 2") == "Craig")
            try db.execute(
                sql: "UPDATE player SET name = ? WHERE id = ?",
                arguments: ["Diane", id])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 2") == "Diane")
            try db.execute(
                literal: "UPDATE player SET name = \("Eve") WHERE id = \(id)")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 2") == "Eve")

            try db.execute(literal: """
                INSERT INTO player (name, score) VALUES (\("Arthur"), \(750));
                INSERT INTO player (name, score) VALUES (\("Barbara"), \(1000));
                """)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 4)

            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (?, ?)",
                arguments: ["Arthur", 1000])
            let playerId = db.lastInsertedRowID
            #expect(playerId == 5)
        }
    }

    // MARK: Fetch Queries

    @Test func fetchingMethodsAndValueQueries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                INSERT INTO player (name, score) VALUES ('Arthur', 500);
                INSERT INTO player (name, score) VALUES ('Barbara', 1000);
                INSERT INTO player (name, score) VALUES ('Craig', NULL);
                """)
        }
        try dbQueue.read { db throws in
            let maxScore = try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") // Int?
            #expect(maxScore == 1000)
            let names = try String.fetchAll(db, sql: "SELECT name FROM player")       // [String]
            #expect(names == ["Arthur", "Barbara", "Craig"])
            #expect(try String.fetchSet(db, sql: "SELECT name FROM player WHERE score > ?", arguments: [0]) == ["Arthur", "Barbara"])
            #expect(try Row.fetchSet(db, sql: "SELECT 1 UNION ALL SELECT 1").count == 1)

            // No row:
            #expect(try Int.fetchOne(db, sql: "SELECT 42 WHERE FALSE") == nil)
            // One row with a NULL value:
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            // One row with a non-NULL value:
            #expect(try Int.fetchOne(db, sql: "SELECT 42") == 42)

            #expect(try Optional<Int>.fetchAll(db, sql: "SELECT score FROM player") == [500, 1000, nil])
            #expect(try Optional<Int>.fetchSet(db, sql: "SELECT score FROM player") == [500, 1000, nil])
            #expect(try Array(Optional<Int>.fetchCursor(db, sql: "SELECT score FROM player")) == [500, 1000, nil])

            // No row:
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 42 WHERE FALSE") == .none)
            // One row with a NULL value:
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(.none))
            // One row with a non-NULL value:
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 42") == .some(.some(42)))

            let rows = try Row.fetchAll(db,
                sql: "SELECT * FROM player WHERE name = ?",
                arguments: ["Arthur"])
            #expect(rows == [["id": 1, "name": "Arthur", "score": 500]])
            let namedRows = try Row.fetchAll(db,
                sql: "SELECT * FROM player WHERE name = :name",
                arguments: ["name": "Arthur"])
            #expect(namedRows == rows)
        }
    }

    @Test func cursorsFeedCollections() throws {
        struct TeamPlayer: Decodable, FetchableRecord, TableRecord {
            static let databaseTableName = "teamPlayer"
            var id: Int64
            var teamID: Int64
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE teamPlayer (id INTEGER PRIMARY KEY, teamID INTEGER NOT NULL);
                INSERT INTO teamPlayer VALUES (1, 10), (2, 10), (3, 20);
                CREATE TABLE link (url TEXT NOT NULL, verified BOOLEAN NOT NULL);
                INSERT INTO link VALUES ('https://github.com/groue/GRDB.swift', 1), ('https://sqlite.org', 0);
                """)
        }
        try dbQueue.read { db throws in
            // [String]
            let strings = try String.fetchCursor(db, sql: "SELECT url FROM link")
            #expect(try Array(strings) == ["https://github.com/groue/GRDB.swift", "https://sqlite.org"])
            #expect(try Array(String.fetchCursor(db, sql: "SELECT url FROM link"), minimumCapacity: 10).count == 2)

            // Set<Int>
            let ints = try Int.fetchCursor(db, sql: "SELECT teamID FROM teamPlayer")
            #expect(try Set(ints) == [10, 20])

            // [Int64: [Player]]
            let cursor = try TeamPlayer.fetchCursor(db)
            let grouped = try Dictionary(grouping: cursor, by: { $0.teamID })
            #expect(grouped.mapValues { $0.map(\.id) } == [10: [1, 2], 20: [3]])

            // [Int64: Player]
            let pairs = try TeamPlayer.fetchCursor(db).map { ($0.id, $0) }
            let dictionary = try Dictionary(uniqueKeysWithValues: pairs)
            #expect(dictionary.keys.sorted() == [1, 2, 3])

            // Prints all Github links
            var githubLinks: [URL] = []
            try URL
                .fetchCursor(db, sql: "SELECT url FROM link")
                .filter { url in url.host == "github.com" }
                .forEach { url in githubLinks.append(url) }
            #expect(githubLinks == [URL(string: "https://github.com/groue/GRDB.swift")])

            let doubled = try Int.fetchCursor(db, sql: "SELECT id FROM teamPlayer").map { $0 * 2 }
            #expect(try doubled.reduce(0, +) == 12)
        }
    }

    @Test func columnValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT 'Arthur' AS name, 0 AS bookCount, '2015-09-11 18:14:15.123' AS date, NULL AS nickname
                """))
            let name: String = row[0]      // 0 is the leftmost column
            #expect(name == "Arthur")
            #expect(row["NAME"] as String == "Arthur") // lookup is case-insensitive
            #expect(row[Column("name")] as String == "Arthur")
            #expect(row["nickname"] as String? == nil)

            let bookCount: Int     = row["bookCount"]
            let bookCount64: Int64 = row["bookCount"]
            let hasBooks: Bool     = row["bookCount"] // false when 0
            let string: String     = row["date"]      // "2015-09-11 18:14:15.123"
            let date: Date         = row["date"]      // Date
            #expect(bookCount == 0)
            #expect(bookCount64 == 0)
            #expect(hasBooks == false)
            #expect(string == "2015-09-11 18:14:15.123")
            #expect(abs(date.timeIntervalSince1970 - 1_441_995_255.123) < 0.0001)

            #expect(try row.decode(String.self, atIndex: 0) == "Arthur")
            #expect(try row.decode(Int.self, forColumn: "bookCount") == 0)

            let coalesced: String? = row.coalesce(["nickname", "name"]) // GOOD
            #expect(coalesced == "Arthur")

            // NULL returns nil.
            let nullRow = try #require(try Row.fetchOne(db, sql: "SELECT NULL"))
            #expect(nullRow[0] as Int? == nil)
            #expect(nullRow[0] as DatabaseValue == DatabaseValue.null)
            #expect(throws: RowDecodingError.self) { try nullRow.decode(Int.self, atIndex: 0) }

            // Missing columns return nil.
            let fooRow = try #require(try Row.fetchOne(db, sql: "SELECT 'foo' AS foo"))
            #expect(fooRow["missing"] as String? == nil)
            #expect(fooRow.hasColumn("foo"))
            #expect(!fooRow.hasColumn("missing"))
            #expect(throws: RowDecodingError.self) { try fooRow.decode(String.self, forColumn: "missing") }

            // Invalid conversions throw, instead of stopping the process.
            let birthday = try #require(try Row.fetchOne(db, sql: "SELECT 'Mom’s birthday'"))
            #expect(birthday[0] as String == "Mom’s birthday")
            #expect(throws: RowDecodingError.self) { try birthday.decode(Date.self, atIndex: 0) }
            let big = try #require(try Row.fetchOne(db, sql: "SELECT 256"))
            #expect(big[0] as Int == 256)
            #expect(throws: RowDecodingError.self) { try big.decode(UInt8.self, atIndex: 0) }

            let dbValue: DatabaseValue = birthday[0]
            #expect(!dbValue.isNull)
            #expect(Date.fromDatabaseValue(dbValue) == nil)
        }

        // A failed subscript makes the access throw.
        #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db throws in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL"))
                _ = row[0] as Int // fatal error in GRDB
            }
        }
    }

    @Test func databaseValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT NULL, 1, 2.5, 'foo', x'00ff', 3 AS bookCount, '2015-09-11 18:14:15.123' AS date, 'Arthur' AS name
                """))
            var descriptions: [String] = []
            for index in 0..<5 {
                let dbValue: DatabaseValue = row[index]
                // All the five storage classes supported by SQLite:
                switch dbValue.storage {
                case .null:                 descriptions.append("NULL")
                case .int64(let int64):     descriptions.append("Int64: \(int64)")
                case .double(let double):   descriptions.append("Double: \(double)")
                case .string(let string):   descriptions.append("String: \(string)")
                case .blob(let data):       descriptions.append("Data: \(Array(data))")
                }
            }
            #expect(descriptions == ["NULL", "Int64: 1", "Double: 2.5", "String: foo", "Data: [0, 255]"])
            #expect((row[0] as DatabaseValue).isNull)
            #expect((row[1] as DatabaseValue).storage.value as? Int64 == 1)

            let missing: DatabaseValue? = row["missing"] // nil if and only if column does not exist
            #expect(missing == nil)
            #expect(row["name"] as DatabaseValue? == "Arthur".databaseValue)

            let bookCountValue: DatabaseValue = row["bookCount"]
            #expect(Int.fromDatabaseValue(bookCountValue) == 3)
            #expect(Int64.fromDatabaseValue(bookCountValue) == 3)
            #expect(Bool.fromDatabaseValue(bookCountValue) == true)

            let dateValue: DatabaseValue = row["date"]
            #expect(String.fromDatabaseValue(dateValue) == "2015-09-11 18:14:15.123")
            let fetchedDate = try #require(Date.fromDatabaseValue(dateValue))
            #expect(abs(fetchedDate.timeIntervalSince1970 - 1_441_995_255.123) < 0.0001)

            // fromDatabaseValue returns nil for invalid conversions
            let birthday: DatabaseValue = "Mom’s birthday".databaseValue
            #expect(String.fromDatabaseValue(birthday) == "Mom’s birthday")
            #expect(Int.fromDatabaseValue(birthday) == nil)
            #expect(Date.fromDatabaseValue(birthday) == nil)
        }
    }

    @Test func rowsAsDictionaries() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS foo, 2 AS foo"))
            #expect(row.columnNames == ["foo", "foo"])
            #expect(row.databaseValues == [1.databaseValue, 2.databaseValue])
            #expect(row["foo"] as Int == 1) // leftmost matching column
            var pairs: [String] = []
            for (columnName, dbValue) in row {
                pairs.append("\(columnName)=\(dbValue)")
            }
            #expect(pairs == ["foo=1", "foo=2"])

            let leftmost = Dictionary(row, uniquingKeysWith: { (left, _) in left })
            #expect(leftmost == ["foo": 1.databaseValue])
            let rightmost = Dictionary(
                row.map { (column, dbValue) in
                    (column, dbValue.storage.value as AnyObject)
                },
                uniquingKeysWith: { (_, right) in right })
            #expect(rightmost["foo"] as? Int64 == 2)
            let any = Dictionary(
                row.map { (column, dbValue) in
                    (column, dbValue.storage.value)
                },
                uniquingKeysWith: { (left, _) in left })
            #expect(any["foo"] as? Int64 == 1)
        }

        let literal: Row = ["name": "foo", "date": nil]
        #expect(literal.columnNames == ["name", "date"])
        #expect(literal["date"] as DatabaseValue == .null)
        let fromDictionary = Row(["name": "foo", "date": nil])
        #expect(fromDictionary["name"] as String == "foo")
        let anyDictionary: [AnyHashable: Any] = ["name": "foo", "score": 12]
        #expect(Row(anyDictionary)?["score"] as Int? == 12)
        let invalid: [AnyHashable: Any] = ["name": NSObject()]
        #expect(Row(invalid) == nil)
    }

    // MARK: Values

    @Test func valuesAsArgumentsRowsAndRecords() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE link (url TEXT NOT NULL, verified BOOLEAN NOT NULL)")
            let url = try #require(URL(string: "https://github.com/groue/GRDB.swift"))
            let verified = true
            try db.execute(
                sql: "INSERT INTO link (url, verified) VALUES (?, ?)",
                arguments: [url, verified])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM link") == ["url": url.absoluteString, "verified": 1])

            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM link")
            while let row = try rows.next() {
                let fetchedURL: URL = row["url"]
                let fetchedVerified: Bool = row["verified"]
                #expect(fetchedURL == url)
                #expect(fetchedVerified)
            }
            #expect(try URL.fetchAll(db, sql: "SELECT url FROM link") == [url])

            let link = try Link.filter { $0.url == url }.fetchOne(db)
            #expect(link?.isVerified == true)
        }
    }

    @Test func dataWithoutCopy() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
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

    @Test func dates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (creationDate DATETIME, birthDate TEXT, timeInterval DOUBLE)")
            let date = Date(timeIntervalSince1970: 1_441_995_255.123)
            try db.execute(
                sql: "INSERT INTO player (creationDate) VALUES (?)",
                arguments: [date])
            // "YYYY-MM-DD HH:MM:SS.SSS" in the UTC time zone
            #expect(try String.fetchOne(db, sql: "SELECT creationDate FROM player") == "2015-09-11 18:14:15.123")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT creationDate FROM player"))
            let creationDate: Date = row["creationDate"]
            #expect(abs(creationDate.timeIntervalSince(date)) < 0.001)

            // Read formats
            let reference = Date(timeIntervalSince1970: 1_441_929_600) // 2015-09-11 00:00:00 UTC
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11'") == reference)
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11 18:14'") == reference + 65_640)
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11T18:14:15'") == reference + 65_655)
            let isoDate = try #require(try Date.fetchOne(db, sql: "SELECT '2015-09-11T18:14:15.123'"))
            #expect(abs(isoDate.timeIntervalSince(date)) < 0.0001)
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11 20:14:15+02:00'") == reference + 65_655)
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11T18:14:15Z'") == reference + 65_655)
            // Timestamps since unix epoch
            #expect(try Date.fetchOne(db, sql: "SELECT 1441995255") == reference + 65_655)

            // An explicit format
            let timeInterval = date.timeIntervalSinceReferenceDate
            try db.execute(sql: "UPDATE player SET timeInterval = ?", arguments: [timeInterval])
            if let row = try Row.fetchOne(db, sql: "SELECT timeInterval FROM player") {
                let timeInterval: TimeInterval = row["timeInterval"]
                #expect(Date(timeIntervalSinceReferenceDate: timeInterval) == date)
            }

            // DateComponents
            var components = DateComponents()
            components.year = 1973
            components.month = 9
            components.day = 18
            // Store "1973-09-18"
            let dbComponents = DatabaseDateComponents(components, format: .YMD)
            try db.execute(
                sql: "UPDATE player SET birthDate = ?",
                arguments: [dbComponents])
            #expect(try String.fetchOne(db, sql: "SELECT birthDate FROM player") == "1973-09-18")
            // Read "1973-09-18"
            let birthRow = try #require(try Row.fetchOne(db, sql: "SELECT birthDate FROM player"))
            let fetched: DatabaseDateComponents = birthRow["birthDate"]
            #expect(fetched.format == .YMD) // the actual format found in the database
            #expect(fetched.dateComponents.year == 1973)
            #expect(fetched.dateComponents.month == 9)
            #expect(fetched.dateComponents.day == 18)

            let time = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '18:14:15'"))
            #expect(time.format == .HMS)
            #expect(time.dateComponents.hour == 18)
        }
    }

    @Test func numbersAndDecimals() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            #expect(try NSNumber.fetchOne(db, sql: "SELECT 10") == NSNumber(value: 10))
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT 1.23") == NSDecimalNumber(string: "1.23"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT -100") == Decimal(-100))

            let decimalNumber = try NSNumber.fetchOne(db, sql: "SELECT '10'")
            #expect(decimalNumber is NSDecimalNumber) // NSDecimalNumber (sic)
            #expect(decimalNumber == NSNumber(value: 10))
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'") == NSDecimalNumber(string: "1.23"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-100'") == Decimal(-100))

            try db.execute(sql: "CREATE TABLE transfer (amount)")
            func stored() throws -> [Row] {
                defer { try? db.execute(sql: "DELETE FROM transfer") }
                return try Row.fetchAll(db, sql: "SELECT amount, typeof(amount) AS type FROM transfer")
            }
            // INSERT INTO transfer VALUES (10)
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSNumber(value: 10)])
            #expect(try stored() == [["amount": 10, "type": "integer"]])
            // INSERT INTO transfer VALUES (10.0)
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSNumber(value: 10.0)])
            #expect(try stored() == [["amount": 10.0, "type": "real"]])
            // INSERT INTO transfer VALUES (10)
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSDecimalNumber(string: "10.0")])
            #expect(try stored() == [["amount": 10, "type": "integer"]])
            // INSERT INTO transfer VALUES (10.5)
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSDecimalNumber(string: "10.5")])
            #expect(try stored() == [["amount": 10.5, "type": "real"]])
            // INSERT INTO transfer VALUES ('10')
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [Decimal(10)])
            #expect(try stored() == [["amount": "10", "type": "text"]])
            // INSERT INTO transfer VALUES ('10.5')
            try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [Decimal(sign: .plus, exponent: -1, significand: 105)])
            #expect(try stored() == [["amount": "10.5", "type": "text"]])
        }
    }

    @Test func uuids() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            // 16-bytes data blobs
            #expect(uuid.databaseValue.storage == .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }))
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]) == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'") == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
        }
    }

    @Test func swiftEnums() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE wine (grape TEXT, color INTEGER)")
            // Store
            try db.execute(
                sql: "INSERT INTO wine (grape, color) VALUES (?, ?)",
                arguments: [Grape.merlot, Color.red])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM wine") == ["grape": "merlot", "color": 0])
            // Read
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM wine")
            while let row = try rows.next() {
                let grape: Grape = row["grape"]
                let color: Color = row["color"]
                #expect(grape == .merlot)
                #expect(color == .red)
            }

            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'syrah'"))
            #expect(row[0] as String == "syrah")
            #expect(throws: RowDecodingError.self) { try row.decode(Grape.self, atIndex: 0) }
            let dbValue: DatabaseValue = row[0]
            #expect(!dbValue.isNull)
            #expect(Grape.fromDatabaseValue(dbValue) == nil)
        }
    }

    // MARK: Data, Date, and UUID Coding Strategies

    @Test func uuidCodingStrategy() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "uuidPlayer") { t in
                t.primaryKey("id", .text)
                t.column("name", .text)
            }
            let uuid = UUID()
            let player = UUIDPlayer(id: uuid, name: "Arthur")

            // OK: inserts a player in the database, with a string uuid
            try player.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT id FROM uuidPlayer") == uuid.uuidString)

            // OK: performs a string-based query, finds the inserted player
            #expect(try UUIDPlayer.filter(id: uuid).fetchOne(db)?.name == "Arthur")
            #expect(try UUIDPlayer.fetchOne(db, id: uuid)?.name == "Arthur")

            // NOT OK: performs a blob-based query, fails to find the inserted player
            #expect(try UUIDPlayer.filter { $0.id == uuid }.fetchOne(db) == nil)

            // OK: performs a string-based query, finds the inserted player
            #expect(try UUIDPlayer.filter { $0.id == uuid.uuidString }.fetchOne(db)?.name == "Arthur")

            // Keys of deletions are encoded as well.
            #expect(try UUIDPlayer.deleteAll(db, ids: [uuid]) == 1)
        }
    }

    @Test func dateAndDataCodingStrategies() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "event") { t in
                t.column("date", .datetime)
                t.column("note", .blob)
            }
            let event = Event(date: Date(timeIntervalSince1970: 1000), note: Data("hello".utf8))
            try event.insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT date, typeof(note) AS type, note FROM event")
                == ["date": 1000.0, "type": "text", "note": "hello"])
            #expect(try Event.fetchOne(db) == event)
        }
    }
}
