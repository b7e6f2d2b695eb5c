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
        static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
        static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.timeIntervalSince1970
        static let databaseUUIDEncodingStrategy = DatabaseUUIDEncodingStrategy.uppercaseString
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
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
        let fetched = try dbQueue.read { try Profile.fetchOne($0) }
        #expect(fetched == profile)
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
            #expect(missing?.description.contains("Strict") == true)
            let null = #expect(throws: RowDecodingError.self) { try Strict.fetchAll(db, sql: "SELECT 1 AS id, NULL AS name") }
            #expect(null?.description.contains("String") == true)
            let mismatch = #expect(throws: RowDecodingError.self) { try Strict.fetchAll(db, sql: "SELECT 'x' AS id, 'a' AS name") }
            #expect(mismatch?.description.contains("Int") == true)
            #expect(try Strict.fetchAll(db, sql: "SELECT 1 AS id, 'a' AS name").map(\.name) == ["a"])
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
}
