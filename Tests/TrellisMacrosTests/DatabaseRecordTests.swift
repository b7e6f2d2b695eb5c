import Foundation
import Testing
import TrellisMacros

@DatabaseRecord
struct MacroPlayer: FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var name: String
    @Column("player_score") var score: Int
    var bonus: Double?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

struct MacroAddress: Codable, Equatable {
    var street: String
    var city: String
}

enum MacroLevel: Int, Codable {
    case beginner = 1, expert = 2
}

@DatabaseRecord
struct MacroProfile: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var userName: String
    var address: MacroAddress
    var tags: [String]
    var level: MacroLevel
    var nickname: String?
    var createdAt: Date
    var token: UUID
    var avatar: Data?

    enum CodingKeys: String, CodingKey {
        case id, userName = "user_name", address, tags, level, nickname, createdAt = "created_at", token, avatar
    }

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
}

@DatabaseRecord
struct MacroAuthor: FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String

    static let books = hasMany(MacroBook.self, using: ForeignKey(["authorId"])).forKey("books")
}

@DatabaseRecord
struct MacroBook: FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var authorId: Int64
    var title: String

    static let author = belongsTo(MacroAuthor.self, using: ForeignKey(["authorId"])).forKey("author")
}

@DatabaseRecord
struct MacroBookInfo: FetchableRecord {
    var book: MacroBook
    var author: MacroAuthor
}

@DatabaseRecord
struct MacroOptionalAuthorBookInfo: FetchableRecord {
    var book: MacroBook
    var author: MacroAuthor?
}

@DatabaseRecord
struct MacroAuthorInfo: FetchableRecord {
    var author: MacroAuthor
    var books: [MacroBook]
}

/// A Codable record whose CodingKeys differ from its macro columns: the
/// macro's members are the ones used.
@DatabaseRecord
struct MacroWinsOverCodable: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "macroWins"
    var id: Int64
    @Column("label") var name: String
}

@DatabaseRecord
final class MacroClassRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "macroClass"
    var id: Int64
    var name: String
    let kind = "class"

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

@DatabaseRecord
public struct MacroPublicRecord: FetchableRecord, PersistableRecord, Sendable {
    public static let databaseTableName = "macroPublic"
    public var id: Int64
    public var `default`: String
    var transient = 3

    enum CodingKeys: String, CodingKey {
        case id, `default`
    }
}

@Suite struct DatabaseRecordTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE macroPlayer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, player_score INTEGER NOT NULL, bonus REAL);
                CREATE TABLE macroProfile (id INTEGER PRIMARY KEY, user_name TEXT NOT NULL, address TEXT NOT NULL,
                  tags TEXT NOT NULL, level INTEGER NOT NULL, nickname TEXT, created_at DOUBLE NOT NULL, token TEXT NOT NULL,
                  avatar BLOB);
                CREATE TABLE macroAuthor (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE macroBook (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES macroAuthor(id), title TEXT NOT NULL);
                CREATE TABLE macroWins (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
                CREATE TABLE macroClass (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL);
                CREATE TABLE macroPublic (id INTEGER PRIMARY KEY, "default" TEXT NOT NULL);
                """)
        }
        return dbQueue
    }

    @Test func insertFetchUpdateAndDelete() throws {
        let dbQueue = try makeDatabase()
        var player = MacroPlayer(id: nil, name: "Arthur", score: 100, bonus: nil)
        try dbQueue.write { db in
            try player.insert(db)
        }
        #expect(player.id == 1)
        let row = try #require(try dbQueue.read { try Row.fetchOne($0, sql: "SELECT * FROM macroPlayer") })
        #expect(row["player_score"] as Int == 100)
        #expect(row["bonus"] as Double? == nil)

        player.score = 200
        player.bonus = 1.5
        try dbQueue.write { db in try player.update(db) }
        let fetched = try dbQueue.read { try MacroPlayer.fetchOne($0, key: 1) }
        #expect(fetched == player)

        let deleted = try dbQueue.write { try MacroPlayer.deleteOne($0, key: 1) }
        #expect(deleted)
        #expect(try dbQueue.read { try MacroPlayer.fetchCount($0) } == 0)
    }

    @Test func columnsEnumServesTheQueryInterface() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var arthur = MacroPlayer(id: nil, name: "Arthur", score: 100, bonus: nil)
            var barbara = MacroPlayer(id: nil, name: "Barbara", score: 1000, bonus: 2)
            try arthur.insert(db)
            try barbara.insert(db)
        }
        let names = try dbQueue.read { db in
            try MacroPlayer.filter { $0.score > 500 }.fetchAll(db).map(\.name)
        }
        #expect(names == ["Barbara"])
        #expect(MacroPlayer.Columns.score.name == "player_score")
        let ordered = try dbQueue.read { db in
            try MacroPlayer.order(MacroPlayer.Columns.score.desc).fetchAll(db).map(\.name)
        }
        #expect(ordered == ["Barbara", "Arthur"])
    }

    @Test func upsertAndReturning() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let inserted = try MacroPlayer(id: nil, name: "Arthur", score: 1, bonus: nil).insertAndFetch(db)
            #expect(inserted.id == 1)
            #expect(inserted.name == "Arthur")
            var changed = MacroPlayer(id: 1, name: "Arthur", score: 5, bonus: 0.5)
            try changed.upsert(db)
            let stored = try MacroPlayer.fetchOne(db, key: 1)
            #expect(stored?.score == 5)
            #expect(stored?.bonus == 0.5)
        }
    }

    @Test func nestedValuesStrategiesAndKeysRoundTrip() throws {
        let dbQueue = try makeDatabase()
        let profile = MacroProfile(
            id: 1, userName: "arthur", address: MacroAddress(street: "1 Main St", city: "Paris"),
            tags: ["a", "b"], level: .expert, nickname: nil,
            createdAt: Date(timeIntervalSince1970: 1_000), token: UUID(), avatar: Data([1, 2, 3]))
        try dbQueue.write { db in try profile.insert(db) }
        let row = try #require(try dbQueue.read { try Row.fetchOne($0, sql: "SELECT * FROM macroProfile") })
        #expect(row["user_name"] as String == "arthur")
        #expect(row["created_at"] as Double == 1_000)
        #expect(row["level"] as Int == 2)
        #expect(row["token"] as String == profile.token.uuidString)
        #expect((row["address"] as String).contains("\"city\":\"Paris\""))
        #expect(row["tags"] as String == "[\"a\",\"b\"]")
        #expect(row["avatar"] as Data == Data([1, 2, 3]))
        let fetched = try dbQueue.read { try MacroProfile.fetchOne($0) }
        #expect(fetched == profile)
    }

    @Test func macroRecordsWriteWhatCodableRecordsWrite() throws {
        // The macro record and the same Codable record store the same row.
        struct CodableProfile: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "macroProfile"
            var id: Int64
            var userName: String
            var address: MacroAddress
            var tags: [String]
            var level: MacroLevel
            var nickname: String?
            var createdAt: Date
            var token: UUID
            var avatar: Data?
            enum CodingKeys: String, CodingKey {
                case id, userName = "user_name", address, tags, level, nickname, createdAt = "created_at", token, avatar
            }
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
        }
        let dbQueue = try makeDatabase()
        let token = UUID()
        let date = Date(timeIntervalSince1970: 1_234.5)
        try dbQueue.write { db in
            try MacroProfile(id: 1, userName: "a", address: MacroAddress(street: "s", city: "c"), tags: ["x"],
                             level: .beginner, nickname: "n", createdAt: date, token: token, avatar: nil).insert(db)
            try CodableProfile(id: 2, userName: "a", address: MacroAddress(street: "s", city: "c"), tags: ["x"],
                               level: .beginner, nickname: "n", createdAt: date, token: token, avatar: nil).insert(db)
        }
        let rows = try dbQueue.read { try Row.fetchAll($0, sql: "SELECT * FROM macroProfile ORDER BY id") }
        #expect(rows.count == 2)
        for column in ["user_name", "address", "tags", "level", "nickname", "created_at", "token", "avatar"] {
            #expect(rows[0][column] as DatabaseValue == rows[1][column] as DatabaseValue, "column \(column)")
        }
    }

    @Test func joinedRecordsDecodeFromScopesAndTheBaseRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try MacroAuthor(id: 1, name: "Jules Verne").insert(db)
            try MacroBook(id: 1, authorId: 1, title: "Around the World").insert(db)
            try MacroBook(id: 2, authorId: 1, title: "Nautilus").insert(db)
        }
        let infos = try dbQueue.read { db in
            try MacroBook.including(required: MacroBook.author).order(Column("id")).asRequest(of: MacroBookInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.book.title) == ["Around the World", "Nautilus"])
        #expect(infos.map(\.author.name) == ["Jules Verne", "Jules Verne"])

        let optionalInfos = try dbQueue.read { db in
            try MacroBook.including(optional: MacroBook.author).asRequest(of: MacroOptionalAuthorBookInfo.self).fetchAll(db)
        }
        #expect(optionalInfos.map(\.author?.name) == ["Jules Verne", "Jules Verne"])

        let authorInfos = try dbQueue.read { db in
            try MacroAuthor.including(all: MacroAuthor.books.order(Column("id"))).asRequest(of: MacroAuthorInfo.self).fetchAll(db)
        }
        #expect(authorInfos.count == 1)
        #expect(authorInfos.first?.books.map(\.title) == ["Around the World", "Nautilus"])
    }

    @Test func aForgottenAssociationThrowsInsteadOfReadingTheBaseRowTwice() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try MacroAuthor(id: 1, name: "Jules Verne").insert(db)
            try MacroBook(id: 1, authorId: 1, title: "Nautilus").insert(db)
        }
        #expect(throws: (any Error).self) {
            try dbQueue.read { db in try MacroBook.all().asRequest(of: MacroBookInfo.self).fetchAll(db) }
        }
        #expect(throws: (any Error).self) {
            try dbQueue.read { db in try MacroAuthor.all().asRequest(of: MacroAuthorInfo.self).fetchAll(db) }
        }
    }

    @Test func macroMembersWinOverCodable() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try MacroWinsOverCodable(id: 1, name: "from the macro").insert(db)
        }
        let label = try dbQueue.read { try String.fetchOne($0, sql: "SELECT label FROM macroWins") }
        #expect(label == "from the macro")
        let fetched = try dbQueue.read { try MacroWinsOverCodable.fetchOne($0) }
        #expect(fetched?.name == "from the macro")
    }

    @Test func classRecordsKeepTheirConstantsAndInitializers() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try MacroClassRecord(id: 1, name: "one").insert(db)
        }
        let kind = try dbQueue.read { try String.fetchOne($0, sql: "SELECT kind FROM macroClass") }
        #expect(kind == "class")
        let fetched = try dbQueue.read { try MacroClassRecord.fetchOne($0) }
        #expect(fetched?.name == "one")
    }

    @Test func codingKeysExcludePropertiesAndKeywordsAreEscaped() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var record = MacroPublicRecord(id: 1, default: "value")
            record.transient = 10
            try record.insert(db)
        }
        let fetched = try #require(try dbQueue.read { try MacroPublicRecord.fetchOne($0) })
        #expect(fetched.default == "value")
        #expect(fetched.transient == 3)
        #expect(MacroPublicRecord.Columns.default.name == "default")
    }

    @Test func decodingErrorsAreTheErrorsOfCodableRecords() throws {
        struct CodablePlayer: Codable, FetchableRecord {
            var id: Int64?
            var name: String
            var player_score: Int
            var bonus: Double?
        }
        let dbQueue = try makeDatabase()
        func message<T: FetchableRecord>(_ type: T.Type, _ sql: String) -> String? {
            let fetched = Result { try dbQueue.read { db in try T.fetchAll(db, sql: sql) } }
            guard case .failure(let error) = fetched else { return nil }
            return "\(error)".replacingOccurrences(of: "\(T.self)", with: "Record")
        }
        for sql in [
            "SELECT 1 AS id, NULL AS name, 1 AS player_score",
            "SELECT 1 AS id, 'a' AS name",
        ] {
            let macroMessage = message(MacroPlayer.self, sql)
            #expect(macroMessage != nil, "\(sql)")
            #expect(macroMessage == message(CodablePlayer.self, sql), "\(sql)")
        }
    }

    @Test func missingOptionalColumnsAreNil() throws {
        let dbQueue = try makeDatabase()
        let player = try dbQueue.read { db in
            try MacroPlayer.fetchOne(db, sql: "SELECT 'Arthur' AS name, 3 AS player_score")
        }
        #expect(player == MacroPlayer(id: nil, name: "Arthur", score: 3, bonus: nil))
    }
}
