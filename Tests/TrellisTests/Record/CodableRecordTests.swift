import Foundation
import Testing
import Trellis

@Suite struct CodableRecordTests {
    struct Address: Codable, Equatable {
        var street: String
        var city: String
    }

    enum Level: Int, Codable {
        case beginner = 1, expert = 2
    }

    enum Color: String, Codable {
        case red, green
    }

    struct Profile: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var userName: String
        var address: Address
        var tags: [String]
        var level: Level
        var nickname: String?
        var createdAt: Date
        var token: UUID

        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE profile (id INTEGER PRIMARY KEY, user_name TEXT NOT NULL, address TEXT NOT NULL,
                  tags TEXT NOT NULL, level INTEGER NOT NULL, nickname TEXT, created_at DOUBLE NOT NULL, token TEXT NOT NULL)
                """)
        }
        return dbQueue
    }

    @Test func nestedValuesStrategiesAndKeysRoundTrip() throws {
        let dbQueue = try makeDatabase()
        let profile = Profile(
            id: 1, userName: "arthur", address: Address(street: "1 Main St", city: "Paris"),
            tags: ["a", "b"], level: .expert, nickname: nil,
            createdAt: Date(timeIntervalSince1970: 1_000), token: UUID())
        try dbQueue.write { db in try profile.insert(db) }
        let row = try #require(try dbQueue.read { try Row.fetchOne($0, sql: "SELECT * FROM profile") })
        #expect(row["user_name"] as String == "arthur")
        #expect(row["created_at"] as Double == 1_000)
        #expect(row["level"] as Int == 2)
        #expect(row["token"] as String == profile.token.uuidString)
        #expect((row["address"] as String).contains("\"city\":\"Paris\""))
        #expect(row["tags"] as String == "[\"a\",\"b\"]")
        #expect(row["nickname"] as DatabaseValue? == .null)
        let fetched = try dbQueue.read { try Profile.fetchOne($0) }
        #expect(fetched == profile)
    }

    @Test func nestedStructsArraysAndDictionariesAreStoredAsSortedJSON() throws {
        struct Achievement: Codable, Equatable {
            var name: String
            var color: Color
        }
        struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
            var name: String
            var achievements: [Achievement]
            var stats: [String: Int]
            var best: Achievement?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT, achievements TEXT, stats TEXT, best TEXT)")
            let player = Player(
                name: "Arthur",
                achievements: [Achievement(name: "Use Codable Records", color: .red)],
                stats: ["wins": 3, "losses": 1],
                best: nil)
            try player.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(row["achievements"] as String == #"[{"color":"red","name":"Use Codable Records"}]"#)
            #expect(row["stats"] as String == #"{"losses":1,"wins":3}"#)
            #expect(row["best"] as DatabaseValue? == .null)
            #expect(try Player.fetchOne(db) == player)
        }
    }

    @Test func enumsWithRawValuesAreStoredAsTheirRawValue() throws {
        struct Shirt: Codable, FetchableRecord, PersistableRecord, Equatable {
            var id: Int64
            var color: Color
            var level: Level
            var spare: Color?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE shirt (id INTEGER PRIMARY KEY, color TEXT, level INTEGER, spare TEXT)")
            try Shirt(id: 1, color: .green, level: .beginner, spare: .red).insert(db)
            try Shirt(id: 2, color: .red, level: .expert, spare: nil).insert(db)
            #expect(try Row.fetchAll(db, sql: "SELECT color, level, spare FROM shirt ORDER BY id") == [
                ["color": "green", "level": 1, "spare": "red"],
                ["color": "red", "level": 2, "spare": nil],
            ])
            #expect(try Shirt.fetchAll(db).map(\.color) == [.green, .red])
            #expect(try Shirt.fetchAll(db).map(\.spare) == [.red, nil])
            // A raw value that is not a case is an error that names the culprit.
            try db.execute(sql: "UPDATE shirt SET color = 'blue' WHERE id = 1")
            let error = #expect(throws: RowDecodingError.self) { try Shirt.fetchAll(db) }
            #expect(error?.description.contains("color") == true)
            #expect(error?.description.contains("Color") == true)
        }
    }

    @Test func integerPropertiesOfEveryWidthAreRangeChecked() throws {
        struct Sample: Codable, FetchableRecord {
            var small: Int8
            var byte: UInt8
            var count: UInt
            var total: Int
            var bonus: Int16?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let sample = try #require(try Sample.fetchOne(db, sql: "SELECT -128 AS small, 255 AS byte, 7 AS count, 3.0 AS total, NULL AS bonus"))
            #expect(sample.small == -128)
            #expect(sample.byte == 255)
            #expect(sample.count == 7)
            #expect(sample.total == 3) // a real with no fraction converts
            // A fraction would be lost: an error.
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 0 AS small, 0 AS byte, 0 AS count, 2.5 AS total, NULL AS bonus")
            }
            #expect(sample.bonus == nil)
            #expect(try Sample.fetchOne(db, sql: "SELECT 0 AS small, 0 AS byte, 0 AS count, 0 AS total, 12 AS bonus")?.bonus == 12)

            // Text converts when it is a number, and only then: GRDB reads
            // 'many' as 0.
            #expect(try Sample.fetchOne(db, sql: "SELECT 0 AS small, 0 AS byte, 0 AS count, '12' AS total, NULL AS bonus")?.total == 12)
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 0 AS small, 0 AS byte, 0 AS count, 'many' AS total, NULL AS bonus")
            }

            // Each value that does not fit its property is an error naming the column and the type.
            let failures: [(sql: String, column: String, type: String)] = [
                ("SELECT 128 AS small, 0 AS byte, 0 AS count, 0 AS total, NULL AS bonus", "small", "Int8"),
                ("SELECT 0 AS small, 256 AS byte, 0 AS count, 0 AS total, NULL AS bonus", "byte", "UInt8"),
                ("SELECT 0 AS small, 0 AS byte, -1 AS count, 0 AS total, NULL AS bonus", "count", "UInt"),
                ("SELECT 0 AS small, 0 AS byte, 0 AS count, NULL AS total, NULL AS bonus", "total", "Int"),
                ("SELECT 0 AS small, 0 AS byte, 0 AS count, 0 AS total, 40000 AS bonus", "bonus", "Int16"),
            ]
            for failure in failures {
                let error = #expect(throws: RowDecodingError.self, "\(failure.sql)") { try Sample.fetchOne(db, sql: failure.sql) }
                #expect(error?.description.contains("\"\(failure.column)\"") == true, "\(String(describing: error))")
                #expect(error?.description.contains(failure.type) == true, "\(String(describing: error))")
            }
            // The connection is still usable.
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
        }
    }

    @Test func unsignedIntegersAboveInt64MaxDoNotCrash() throws {
        struct Counter: Codable, PersistableRecord {
            var value: UInt
            var big: UInt64
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE counter (value, big)")
            try Counter(value: .max, big: .max).insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT typeof(value) || typeof(big) FROM counter") == ["realreal"])
        }
    }

    @Test func optionalPropertiesReadNullAndMissingColumnsAsNil() throws {
        struct Person: Decodable, FetchableRecord {
            var name: String
            var age: Int?
            var email: String?
            var address: Address?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let person = try #require(try Person.fetchOne(db, sql: "SELECT 'Arthur' AS name, NULL AS age, NULL AS address"))
            #expect(person.name == "Arthur")
            #expect(person.age == nil)
            #expect(person.email == nil)
            #expect(person.address == nil)
            let other = try #require(try Person.fetchOne(db, sql: """
                SELECT 'Barbara' AS name, 42 AS age, 'b@example.com' AS email, '{"street":"2 Rue","city":"Lyon"}' AS address
                """))
            #expect(other.age == 42)
            #expect(other.email == "b@example.com")
            #expect(other.address == Address(street: "2 Rue", city: "Lyon"))
        }
    }

    @Test func datesAreStoredAsUTCTextByDefault() throws {
        struct Event: Codable, FetchableRecord, PersistableRecord {
            var date: Date
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE event (date)")
            try Event(date: Date(timeIntervalSince1970: 86_400.25)).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT date FROM event") == "1970-01-02 00:00:00.250")
            #expect(try Event.fetchOne(db)?.date == Date(timeIntervalSince1970: 86_400.25))
            // The default decoding also reads timestamps.
            #expect(try Event.fetchOne(db, sql: "SELECT 86400 AS date")?.date == Date(timeIntervalSince1970: 86_400))
        }
    }

    @Test func dateEncodingAndDecodingStrategies() throws {
        struct Millis: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "event"
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
            var date: Date
        }
        struct Seconds: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "event"
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .secondsSince1970 }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
            var date: Date
        }
        struct ISO: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "event"
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .iso8601 }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .iso8601 }
            var date: Date
        }
        struct Reference: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "event"
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }
            var date: Date
        }
        struct Custom: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "event"
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .custom { "day \(Int($0.timeIntervalSince1970 / 86_400))" } }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                .custom { dbValue in
                    String.fromDatabaseValue(dbValue).flatMap { Double($0.dropFirst(4)) }.map { Date(timeIntervalSince1970: $0 * 86_400) }
                }
            }
            var date: Date
        }
        let date = Date(timeIntervalSince1970: 172_800.5)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE event (date)")
            func stored() throws -> DatabaseValue? {
                defer { _ = try? db.execute(sql: "DELETE FROM event") }
                return try DatabaseValue.fetchOne(db, sql: "SELECT date FROM event")
            }

            try Millis(date: date).insert(db)
            #expect(try Millis.fetchOne(db)?.date == date)
            #expect(try stored() == 172_800_500.databaseValue)

            try Seconds(date: date).insert(db)
            #expect(try Seconds.fetchOne(db)?.date == Date(timeIntervalSince1970: 172_800))
            #expect(try stored() == 172_800.databaseValue)

            try ISO(date: date).insert(db)
            #expect(try ISO.fetchOne(db)?.date == Date(timeIntervalSince1970: 172_800))
            #expect(try stored() == "1970-01-03T00:00:00Z".databaseValue)

            try Reference(date: date).insert(db)
            #expect(try Reference.fetchOne(db)?.date == date)
            #expect(try stored() == date.timeIntervalSinceReferenceDate.databaseValue)

            // A date beyond the range of 64-bit milliseconds is stored, not a crash.
            try Millis(date: Date(timeIntervalSince1970: 1e300)).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(date) FROM event") == "real")
            _ = try stored()

            try Custom(date: date).insert(db)
            #expect(try Custom.fetchOne(db)?.date == Date(timeIntervalSince1970: 172_800))
            #expect(try stored() == "day 2".databaseValue)
        }
    }

    @Test func strategiesCanDependOnTheColumn() throws {
        struct Log: Codable, FetchableRecord, PersistableRecord {
            var created: Date
            var updated: Date
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
                column == "created" ? .timeIntervalSince1970 : .deferredToDate
            }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                column == "created" ? .timeIntervalSince1970 : .deferredToDate
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE log (created, updated)")
            let date = Date(timeIntervalSince1970: 86_400)
            try Log(created: date, updated: date).insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM log") == ["created": 86_400.0, "updated": "1970-01-02 00:00:00.000"])
            let log = try #require(try Log.fetchOne(db))
            #expect(log.created == date)
            #expect(log.updated == date)
        }
    }

    @Test func uuidsAreBlobsByDefaultAndDecodeFromBlobsAndStrings() throws {
        struct Token: Codable, FetchableRecord, PersistableRecord {
            var uuid: UUID
        }
        struct LowerToken: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "token"
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .lowercaseString }
            var uuid: UUID
        }
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE token (uuid)")
            try Token(uuid: uuid).insert(db)
            try LowerToken(uuid: uuid).insert(db)
            let stored = try DatabaseValue.fetchAll(db, sql: "SELECT uuid FROM token ORDER BY rowid")
            #expect(stored[0] == withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue)
            #expect(stored[1] == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f".databaseValue)
            #expect(try Token.fetchAll(db).map(\.uuid) == [uuid, uuid])
            #expect(try Token.fetchOne(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' AS uuid")?.uuid == uuid)
        }
    }

    @Test func dataIsABlobByDefaultAndFollowsItsStrategies() throws {
        struct Blob: Codable, FetchableRecord, PersistableRecord {
            var payload: Data
        }
        struct TextBlob: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "blob"
            static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .text }
            static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
                .custom { dbValue in
                    String.fromDatabaseValue(dbValue).map { Data($0.utf8) } ?? Data.fromDatabaseValue(dbValue)
                }
            }
            var payload: Data
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE blob (payload)")
            try Blob(payload: Data("hello".utf8)).insert(db)
            try TextBlob(payload: Data("world".utf8)).insert(db)
            let types = try String.fetchAll(db, sql: "SELECT typeof(payload) FROM blob ORDER BY rowid")
            #expect(types == ["blob", "text"])
            #expect(try TextBlob.fetchAll(db).map { String(decoding: $0.payload, as: UTF8.self) } == ["hello", "world"])
            #expect(try Blob.fetchOne(db)?.payload == Data("hello".utf8))
            // Bytes that are not UTF-8 can not be text: an error, not NULL.
            let error = #expect(throws: EncodingError.self) { try TextBlob(payload: Data([0xFF])).insert(db) }
            if case .invalidValue(_, let context)? = error {
                #expect(context.debugDescription.hasPrefix("Non-UTF8 data can't be encoded as text in the database"))
            } else {
                Issue.record("unexpected \(String(describing: error))")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blob") == 2)
        }
    }

    @Test func snakeCaseStrategiesMapCodingKeysToColumns() throws {
        struct Team: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
            var teamID: Int64
            var displayName: String
            var homeURL: String?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE team (team_id INTEGER PRIMARY KEY, display_name TEXT, home_url TEXT)")
            let team = Team(teamID: 1, displayName: "Reds", homeURL: "https://example.com")
            try team.insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM team") == [
                "team_id": 1, "display_name": "Reds", "home_url": "https://example.com",
            ])
            #expect(try Team.fetchOne(db) == team)
            #expect(try Team.fetchOne(db, key: 1) == team)
            var renamed = team
            renamed.displayName = "Blues"
            try renamed.update(db)
            #expect(try String.fetchOne(db, sql: "SELECT display_name FROM team") == "Blues")
        }
    }

    @Test func snakeCaseDecodingFindsColumnsThatAreAlreadyCamelCased() throws {
        struct Player: Decodable, FetchableRecord, Equatable {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            var playerName: String
            var teamScore: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            // Real schemas mix conventions: GRDB converts each column name.
            #expect(try Player.fetchOne(db, sql: "SELECT 'Arthur' AS playerName, 3 AS team_score")
                == Player(playerName: "Arthur", teamScore: 3))
            #expect(try Player.fetchOne(db, sql: "SELECT 'Barbara' AS player_name, 4 AS teamScore")
                == Player(playerName: "Barbara", teamScore: 4))
        }
    }

    @Test func jsonColumnsAreCodedForTheirKeyWithTheRecordsUserInfo() throws {
        struct Suffixed: Codable, Equatable {
            static let key = CodingUserInfoKey(rawValue: "suffix")!
            var text: String
            init(text: String) { self.text = text }
            init(from decoder: any Decoder) throws {
                text = try decoder.singleValueContainer().decode(String.self) + ((decoder.userInfo[Self.key] as? String) ?? "")
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(text + ((encoder.userInfo[Self.key] as? String) ?? ""))
            }
        }
        final class Keys: @unchecked Sendable {
            var asked: [String] = []
        }
        let keys = Keys()
        struct Player: Codable, FetchableRecord, PersistableRecord {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
            static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [Suffixed.key: "/enc"] }
            static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [Suffixed.key: "/dec"] }
            nonisolated(unsafe) static var keys: Keys?
            static func databaseJSONEncoder(for column: String) -> JSONEncoder {
                keys?.asked.append("encoder \(column)")
                return JSONEncoder()
            }
            static func databaseJSONDecoder(for column: String) -> JSONDecoder {
                keys?.asked.append("decoder \(column)")
                return JSONDecoder()
            }
            var nickNames: [Suffixed]
        }
        Player.keys = keys
        defer { Player.keys = nil }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (nick_names TEXT)")
            try Player(nickNames: [Suffixed(text: "a")]).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT nick_names FROM player") == #"["a\/enc"]"#)
            #expect(try Player.fetchOne(db)?.nickNames == [Suffixed(text: "a/enc/dec")])
        }
        #expect(keys.asked == ["encoder nickNames", "decoder nickNames"])
    }

    @Test func allKeysFollowTheColumnStrategy() throws {
        struct Bag: Decodable, FetchableRecord {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            var keys: [String]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                keys = container.allKeys.map(\.stringValue).sorted()
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let bag = try Bag.fetchOne(db, sql: "SELECT 1 AS user_name, 2 AS id, 3 AS home_page_url")
            #expect(bag?.keys == ["homePageUrl", "id", "userName"])
        }
    }

    @Test func customColumnStrategies() throws {
        struct Item: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.custom { "c_" + $0.stringValue }
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
                AnyCodingKey(String(column.dropFirst(2)))
            }
            var name: String
            var price: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE item (c_name TEXT, c_price INTEGER)")
            try Item(name: "pen", price: 3).insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM item") == ["c_name": "pen", "c_price": 3])
            #expect(try Item.fetchOne(db) == Item(name: "pen", price: 3))
        }
    }

    @Test func userInfoReachesTheDecoderAndTheEncoder() throws {
        struct Tagged: Codable, FetchableRecord, PersistableRecord {
            static let key = CodingUserInfoKey(rawValue: "origin")!
            static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [key: "database row"] }
            static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [key: "database container"] }
            var name: String
            var origin: String?
            enum CodingKeys: String, CodingKey { case name, origin }
            init(name: String) { self.name = name }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                origin = decoder.userInfo[Self.key] as? String
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(encoder.userInfo[Self.key] as? String, forKey: .origin)
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE tagged (name, origin)")
            try Tagged(name: "a").insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT origin FROM tagged") == "database container")
            #expect(try Tagged.fetchOne(db)?.origin == "database row")
        }
    }

    @Test func decodingErrorsNameTheColumnTheTypeAndTheRecord() throws {
        struct Strict: Decodable, FetchableRecord {
            var id: Int
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let missing = #expect(throws: RowDecodingError.self) { try Strict.fetchAll(db, sql: "SELECT 1 AS id") }
            #expect(missing?.description.contains("\"name\"") == true)
            #expect(missing?.description.contains("String") == true)
            #expect(missing?.description.contains("Strict") == true)
            let null = #expect(throws: RowDecodingError.self) { try Strict.fetchAll(db, sql: "SELECT 1 AS id, NULL AS name") }
            #expect(null?.description.contains("\"name\"") == true)
            #expect(null?.description.contains("String") == true)
            #expect(null?.description.contains("Strict") == true)
            // Text that is not a number does not convert (GRDB reads 0).
            let lossy = #expect(throws: RowDecodingError.self) { try Strict.fetchAll(db, sql: "SELECT 'x' AS id, 'a' AS name") }
            #expect(lossy?.description.contains("\"id\"") == true)
            #expect(lossy?.description.contains("Int") == true)
            #expect(try Strict.fetchAll(db, sql: "SELECT '12' AS id, 'a' AS name").map(\.id) == [12])
            // The connection is still usable.
            #expect(try Strict.fetchAll(db, sql: "SELECT 1 AS id, 'a' AS name").map(\.name) == ["a"])
        }
    }

    @Test func aFloatDecodingErrorNamesFloat() throws {
        struct Measure: Decodable, FetchableRecord {
            var value: Float
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let null = #expect(throws: RowDecodingError.self) { try Measure.fetchAll(db, sql: "SELECT NULL AS value") }
            #expect(null?.description.hasPrefix("could not decode Float from database value NULL") == true)
            let missing = #expect(throws: RowDecodingError.self) { try Measure.fetchAll(db, sql: "SELECT 1 AS other") }
            #expect(missing?.description.hasSuffix("(decoding Float of Measure)") == true)
            #expect(try Measure.fetchAll(db, sql: "SELECT 1.5 AS value").map(\.value) == [1.5])
        }
    }

    @Test func nullIntoNonOptionalNestedValuesIsAnErrorThatNamesTheCulprit() throws {
        struct Holder: Decodable, FetchableRecord {
            var address: Address
            var level: Level
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let nullJSON = #expect(throws: RowDecodingError.self) {
                try Holder.fetchAll(db, sql: "SELECT NULL AS address, 1 AS level")
            }
            #expect(nullJSON?.description.contains("address") == true)
            #expect(nullJSON?.description.contains("Address") == true)
            // Invalid JSON is GRDB's DecodingError, whose description names
            // the column, the type and the record.
            let badJSON = #expect(throws: DecodingError.self) {
                try Holder.fetchAll(db, sql: "SELECT 'not json' AS address, 1 AS level")
            }
            #expect(String(describing: badJSON).contains("(decoding Address from JSON column \"address\" of Holder)"))
            guard case .dataCorrupted? = badJSON else {
                Issue.record("invalid JSON is DecodingError.dataCorrupted, got \(String(describing: badJSON))")
                return
            }
            let missingKey = #expect(throws: DecodingError.self) {
                try Holder.fetchAll(db, sql: #"SELECT '{"street":"s"}' AS address, 1 AS level"#)
            }
            guard case .keyNotFound(let key, _)? = missingKey else {
                Issue.record("a missing JSON key is DecodingError.keyNotFound, got \(String(describing: missingKey))")
                return
            }
            #expect(key.stringValue == "city")
            let nullEnum = #expect(throws: RowDecodingError.self) {
                try Holder.fetchAll(db, sql: #"SELECT '{"street":"s","city":"c"}' AS address, NULL AS level"#)
            }
            #expect(nullEnum?.description.contains("level") == true)
            #expect(nullEnum?.description.contains("Level") == true)
            #expect(try Holder.fetchAll(db, sql: #"SELECT '{"street":"s","city":"c"}' AS address, 2 AS level"#).map(\.level) == [.expert])
        }
    }

    @Test func handWrittenRecordsReportSubscriptFailuresFromTheFetch() throws {
        struct Hand: FetchableRecord {
            var score: Int
            init(row: Row) throws { score = row["score"] }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let error = #expect(throws: RowDecodingError.self) { try Hand.fetchAll(db, sql: "SELECT NULL AS score") }
            #expect(error?.description.contains("score") == true)
            #expect(try Hand.fetchAll(db, sql: "SELECT 3 AS score").map(\.score) == [3])
        }
    }

    // MARK: Decoding from joins and statements

    /// An employee and, when joined, their manager: a record that decodes
    /// a record of its own type while it is decoded.
    final class Employee: Decodable, FetchableRecord, TableRecord {
        static let manager = belongsTo(Employee.self, key: "manager", using: ForeignKey(["managerId"]))
        let id: Int64
        let name: String
        let manager: Employee?
    }

    @Test func recordsThatNestARecordOfTheirOwnTypeDecodeEachRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE employee (id INTEGER PRIMARY KEY, name TEXT NOT NULL, managerId INTEGER REFERENCES employee(id));
                INSERT INTO employee VALUES (1, 'Ada', NULL), (2, 'Brian', 1), (3, 'Carla', 2), (4, 'Dan', 1);
                """)
            let employees = try Employee.including(optional: Employee.manager).order(Column("id")).fetchAll(db)
            #expect(employees.map(\.name) == ["Ada", "Brian", "Carla", "Dan"])
            #expect(employees.map { $0.manager?.name } == [nil, "Ada", "Brian", "Ada"])
            #expect(employees.map { $0.manager?.id } == [nil, 1, 2, 1])
            // The same records, one by one from a cursor and from a statement.
            let cursor = try Employee.including(optional: Employee.manager).order(Column("id")).fetchCursor(db)
            var names: [String] = []
            while let employee = try cursor.next() { names.append("\(employee.name)/\(employee.manager?.name ?? "-")") }
            #expect(names == ["Ada/-", "Brian/Ada", "Carla/Brian", "Dan/Ada"])
            let statement = try db.makeStatement(sql: "SELECT id, name FROM employee WHERE id > ? ORDER BY id")
            #expect(try Employee.fetchAll(statement, arguments: [2]).map(\.name) == ["Carla", "Dan"])
            #expect(try Employee.fetchAll(statement, arguments: [3]).map(\.name) == ["Dan"])
        }
    }

    @Test func aRecordReadsItsRowsWithSeveralKeyTypes() throws {
        // The rows of a fetch share a decoder, which keeps the container of
        // the last key type: switching types must not mix them up.
        struct Dual: Decodable, FetchableRecord {
            enum NameKeys: String, CodingKey { case name }
            enum ScoreKeys: String, CodingKey { case score }
            var name: String
            var score: Int
            init(from decoder: any Decoder) throws {
                name = try decoder.container(keyedBy: NameKeys.self).decode(String.self, forKey: .name)
                score = try decoder.container(keyedBy: ScoreKeys.self).decode(Int.self, forKey: .score)
            }
        }
        let dbQueue = try DatabaseQueue()
        let duals = try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE dual (name TEXT NOT NULL, score INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO dual VALUES ('a', 1), ('b', 2), ('c', 3)")
            return try Dual.fetchAll(db, sql: "SELECT * FROM dual ORDER BY score")
        }
        #expect(duals.map(\.name) == ["a", "b", "c"])
        #expect(duals.map(\.score) == [1, 2, 3])
    }

    @Test func nestedContainersAndSuperCodersReadAndWriteTheColumnsOfTheRow() throws {
        // Containers do not retain their coder: the decoder of a nested
        // container must live as long as the record that uses it.
        struct Score: Codable, Equatable {
            var points: Int
        }
        struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
            enum CodingKeys: String, CodingKey { case id, place, score }
            enum PlaceKeys: String, CodingKey { case city, country }
            var id: Int64
            var city: String
            var country: String?
            var score: Score

            init(id: Int64, city: String, country: String?, score: Score) {
                (self.id, self.city, self.country, self.score) = (id, city, country, score)
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let place = try container.nestedContainer(keyedBy: PlaceKeys.self, forKey: .place)
                id = try container.decode(Int64.self, forKey: .id)
                score = try Score(from: container.superDecoder(forKey: .score))
                city = try place.decode(String.self, forKey: .city)
                country = try place.decodeIfPresent(String.self, forKey: .country)
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                var place = container.nestedContainer(keyedBy: PlaceKeys.self, forKey: .place)
                try place.encode(city, forKey: .city)
                try place.encodeIfPresent(country, forKey: .country)
                try score.encode(to: container.superEncoder(forKey: .score))
            }
        }
        let players = [
            Player(id: 1, city: "Paris", country: "France", score: Score(points: 10)),
            Player(id: 2, city: "Lyon", country: nil, score: Score(points: 20)),
            Player(id: 3, city: "Rome", country: "Italy", score: Score(points: 30)),
        ]
        let dbQueue = try DatabaseQueue()
        let (fetched, first, rows) = try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, city TEXT NOT NULL, country TEXT, points INTEGER NOT NULL)")
            for player in players { try player.insert(db) }
            return (try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id"),
                    try Player.fetchOne(db, sql: "SELECT * FROM player ORDER BY id"),
                    try Row.fetchAll(db, sql: "SELECT city, country, points FROM player ORDER BY id"))
        }
        #expect(fetched == players)
        #expect(first == players[0])
        #expect(rows.map { $0["city"] as String } == ["Paris", "Lyon", "Rome"])
        #expect(rows.map { $0["country"] as String? } == ["France", nil, "Italy"])
        #expect(rows.map { $0["points"] as Int } == [10, 20, 30])
    }

    @Test func decodersKeptByRecordsAreReleasedWithThem() throws {
        // A record may keep its decoder; the fetch that shared it between
        // rows must not keep it, nor its row, once it has ended.
        final class DecoderKeeper: Decodable, FetchableRecord {
            let id: Int64
            let decoder: AnyObject
            enum CodingKeys: String, CodingKey { case id }
            init(from decoder: any Decoder) throws {
                id = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .id)
                self.decoder = decoder as AnyObject
            }
        }
        let dbQueue = try DatabaseQueue()
        weak var decoder: AnyObject?
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE keeper (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO keeper VALUES (1), (2)")
            var keepers: [DecoderKeeper]? = try DecoderKeeper.fetchAll(db, sql: "SELECT * FROM keeper ORDER BY id")
            #expect(keepers?.map(\.id) == [1, 2])
            decoder = keepers?.first?.decoder
            #expect(decoder != nil)
            keepers = nil
        }
        #expect(decoder == nil)
    }

    @Test func statementsThatDecodedRecordsAreReleased() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO item VALUES (1, 'a'), (2, 'b')")
        }
        struct Item: Decodable, FetchableRecord { var id: Int64; var name: String }
        weak var released: Statement?
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT * FROM item ORDER BY id")
            released = statement
            #expect(try Item.fetchAll(statement).map(\.name) == ["a", "b"])
            #expect(try Item.fetchOne(statement)?.name == "a")
        }
        // Decoding records does not keep the statement alive.
        #expect(released == nil)
    }
}

/// A coding key built from a string, for custom column strategies.
private struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
