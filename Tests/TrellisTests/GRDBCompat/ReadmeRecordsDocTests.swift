import Foundation
import Testing
import Trellis

// GRDB's README, "Records": persistence methods, upsert, the RETURNING
// clause, callbacks, record comparison, conflict resolution and the
// Codable options, run as written, with the results the README shows.

private struct Place: Codable, FetchableRecord, MutablePersistableRecord, Identifiable {
    var id: Int64?
    var title: String
    var isFavorite: Bool

    enum Columns {
        static let title = Column(CodingKeys.title)
        static let isFavorite = Column(CodingKeys.isFavorite)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct Player: Codable, PersistableRecord, FetchableRecord, Identifiable {
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

private struct PartialPlayer: Encodable, PersistableRecord {
    static let databaseTableName = "player"
    var name: String

    typealias Columns = Player.Columns
}

private struct Vocabulary: Codable, FetchableRecord, PersistableRecord {
    var word: String
    var kind: String
    var isTainted: Bool
}

private struct Message: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var text: String
    var date: Date
}

private struct ReplacingPlayer: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(
        insert: .replace,
        update: .replace)
    var id: Int64?
    var email: String

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct IgnoringPlayer: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .ignore)
    var id: Int64?
    var email: String
}

private struct ValidationError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

private struct ValidatedLink: Codable, PersistableRecord {
    static let databaseTableName = "link"
    var id: Int64
    var url: URL

    func willSave(_ db: Database) throws {
        if url.host == nil {
            throw ValidationError("url must be absolute.")
        }
    }
}

private final class CallbackLog: @unchecked Sendable {
    private var events: [String] = []
    private let lock = NSLock()
    func append(_ event: String) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }
    func take() -> [String] {
        lock.lock()
        defer { events = []; lock.unlock() }
        return events
    }
}

private let callbackLog = CallbackLog()

private struct Tracked: Codable, MutablePersistableRecord {
    var id: Int64?
    var name: String

    func willSave(_ db: Database) throws { callbackLog.append("willSave") }
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        callbackLog.append("aroundSave>")
        _ = try save()
        callbackLog.append("<aroundSave")
    }
    func didSave(_ saved: PersistenceSuccess) { callbackLog.append("didSave") }
    mutating func willInsert(_ db: Database) throws { callbackLog.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        callbackLog.append("aroundInsert>")
        let inserted = try insert()
        callbackLog.append("<aroundInsert \(inserted.rowID)")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        callbackLog.append("didInsert")
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws { callbackLog.append("willUpdate") }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        callbackLog.append("aroundUpdate>")
        _ = try update()
        callbackLog.append("<aroundUpdate")
    }
    func didUpdate(_ updated: PersistenceSuccess) { callbackLog.append("didUpdate") }
    func willDelete(_ db: Database) throws { callbackLog.append("willDelete") }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        callbackLog.append("aroundDelete>")
        let deleted = try delete()
        callbackLog.append("<aroundDelete \(deleted)")
    }
    func didDelete(deleted: Bool) { callbackLog.append("didDelete \(deleted)") }
}

private enum AchievementColor: String, Codable {
    case bronze, silver, gold
}

private struct Achievement: Codable, Equatable {
    var name: String
    var color: AchievementColor
}

private struct AchievementPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var name: String
    var score: Int
    var achievements: [Achievement]
}

private struct SnakePlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    var playerName: String
    var teamId: Int
}

private struct StringUUIDPlayer: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "player"
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }
    var id: UUID
    var name: String

    enum Columns {
        static let id = Column(CodingKeys.id)
    }
}

private struct TimestampEvent: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "event"
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSince1970
    }
    var date: Date
}

private let decoderName = CodingUserInfoKey(rawValue: "decoderName")!

private struct UserInfoPlayer: FetchableRecord, Decodable {
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] {
        [decoderName: "database row"]
    }
    var decodedFrom: String

    init(from decoder: Decoder) throws {
        decodedFrom = decoder.userInfo[decoderName] as? String ?? "unknown decoder"
    }
}

private struct Country: Identifiable, FetchableRecord, PersistableRecord, Hashable {
    var isoCode: String
    var name: String
    var population: Int

    var id: String { isoCode }

    init(isoCode: String, name: String, population: Int) {
        self.isoCode = isoCode
        self.name = name
        self.population = population
    }

    init(row: Row) {
        isoCode = row["isoCode"]
        name = row["name"]
        population = row["population"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["isoCode"] = isoCode
        container["name"] = name
        container["population"] = population
    }
}

private struct Coordinate {
    var latitude: Double
    var longitude: Double
}

private struct MappedPlace: MutablePersistableRecord {
    static let databaseTableName = "location"
    var id: Int64?
    var title: String
    var coordinate: Coordinate

    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.title] = title
        container[Columns.latitude] = coordinate.latitude
        container[Columns.longitude] = coordinate.longitude
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

@Suite struct ReadmeRecordsDocTests {
    private func makePlaceQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("isFavorite", .boolean).notNull()
            }
        }
        return dbQueue
    }

    private func makePlayerQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  name TEXT NOT NULL,
                  score INTEGER NOT NULL DEFAULT 1000)
                """)
        }
        return dbQueue
    }

    // MARK: Persistence Methods

    @Test func persistenceMethods() throws {
        let dbQueue = try makePlaceQueue()
        try dbQueue.write { db in
            var place = Place(id: nil, title: "Paris", isFavorite: false)
            try place.insert(db)
            #expect(place.id == 1)
            let insertedPlace = try Place(id: nil, title: "Rome", isFavorite: false).inserted(db)
            #expect(insertedPlace.id == 2)

            place.title = "Paris, France"
            place.isFavorite = true
            try place.update(db, columns: ["title"])
            let stored = try Place.find(db, id: 1)
            #expect(stored.title == "Paris, France")
            #expect(stored.isFavorite == false)

            let otherPlace = stored
            var newPlace = stored
            newPlace.isFavorite = true
            #expect(try newPlace.updateChanges(db, from: otherPlace))
            let unchanged = newPlace
            #expect(try newPlace.updateChanges(db, from: unchanged) == false)
            var inPlace = try Place.find(db, id: 2)
            #expect(try inPlace.updateChanges(db) { $0.isFavorite = true })
            #expect(try inPlace.updateChanges(db) { $0.isFavorite = true } == false)
            #expect(try Place.filter { $0.isFavorite == true }.fetchCount(db) == 2)

            // save: UPDATE, then INSERT when no row was modified
            var missing = Place(id: 10, title: "Oslo", isFavorite: false)
            try missing.save(db)
            #expect(try Place.find(db, id: 10).title == "Oslo")
            var unsaved = Place(id: nil, title: "Lima", isFavorite: false)
            try unsaved.save(db)
            #expect(unsaved.id == 11)
            let savedPlace = try Place(id: nil, title: "Kyiv", isFavorite: false).saved(db)
            #expect(savedPlace.id == 12)

            #expect(try savedPlace.exists(db))
            #expect(try savedPlace.delete(db))
            #expect(try savedPlace.delete(db) == false)
            #expect(try savedPlace.exists(db) == false)

            #expect(try Place.deleteOne(db, id: 11))
            #expect(try Place.deleteOne(db, id: 11) == false)
            #expect(try Place.deleteOne(db, key: 10))
            #expect(try Place.deleteAll(db, ids: [1, 2, 3]) == 2)
            #expect(try Place.updateAll(db) { $0.title.set(to: "x") } == 0)
            #expect(try Place.deleteAll(db) == 0)
        }
    }

    @Test func updateOfAMissingRowThrowsRecordNotFound() throws {
        let dbQueue = try makePlaceQueue()
        try dbQueue.write { db in
            var place = Place(id: 42, title: "Nowhere", isFavorite: false)
            do {
                try place.update(db)
                Issue.record("Expected RecordError")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "place")
                #expect(key == ["id": 42.databaseValue])
            }
            #expect(throws: RecordError.self) {
                try place.updateChanges(db) { $0.title = "Somewhere" }
            }
            do {
                _ = try Place.find(db, id: 42)
                Issue.record("Expected RecordError")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "place")
                #expect(key == ["id": 42.databaseValue])
            }
        }
    }

    // MARK: Upsert

    @Test func upsertOverwritesAllColumnsButThePrimaryKey() throws {
        let dbQueue = try makePlayerQueue()
        try dbQueue.write { db in
            try Player(id: 1, name: "Arthur", score: 1000).upsert(db)
            try Player(id: 1, name: "Arthur II", score: 2000).upsert(db)
            let players = try Player.fetchAll(db)
            #expect(players.count == 1)
            #expect(players.first?.name == "Arthur II")
            #expect(players.first?.score == 2000)
        }
    }

    @Test func upsertAndFetchWithConflictTargetAndAssignments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE vocabulary(
                  word TEXT NOT NULL PRIMARY KEY,
                  kind TEXT NOT NULL,
                  isTainted BOOLEAN DEFAULT 0,
                  count INT DEFAULT 1)
                """)
            let vocabulary = Vocabulary(word: "jovial", kind: "adjective", isTainted: false)
            let first = try vocabulary.upsertAndFetch(
                db, onConflict: ["word"],
                doUpdate: { _ in
                    [Column("count") += 1,
                     Column("isTainted").noOverwrite]
                })
            #expect(first.kind == "adjective")
            #expect(try Int.fetchOne(db, sql: "SELECT count FROM vocabulary") == 1)

            let second = Vocabulary(word: "jovial", kind: "noun", isTainted: true)
            let upserted = try second.upsertAndFetch(
                db, onConflict: ["word"],
                doUpdate: { _ in
                    [Column("count") += 1,
                     Column("isTainted").noOverwrite]
                })
            #expect(upserted.word == "jovial")
            #expect(upserted.kind == "noun")
            #expect(upserted.isTainted == false)
            #expect(try Int.fetchOne(db, sql: "SELECT count FROM vocabulary") == 2)
        }
    }

    @Test func upsertAndFetchWithExcludedAlias() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "message") { t in
                t.primaryKey("id", .integer)
                t.column("text", .text)
                t.column("date", .datetime)
            }
            let early = Date(timeIntervalSince1970: 1_000_000)
            let late = Date(timeIntervalSince1970: 2_000_000)
            _ = try Message(id: 1, text: "first", date: late).upsertAndFetch(db)
            let upserted = try Message(id: 1, text: "second", date: early).upsertAndFetch(db, doUpdate: { excluded in
                [Column("date").set(to: max(Column("date"), excluded["date"]))]
            })
            #expect(upserted.text == "second")
            #expect(upserted.date == late)
        }
    }

    // MARK: Persistence Methods and the RETURNING clause

    @Test func insertAndFetchAPartialRecord() throws {
        let dbQueue = try makePlayerQueue()
        try dbQueue.write { db in
            let partialPlayer = PartialPlayer(name: "Alice")
            let player = try partialPlayer.insertAndFetch(db, as: Player.self)
            #expect(player.id == 1)
            #expect(player.name == "Alice")
            #expect(player.score == 1000)

            let score = try partialPlayer.insertAndFetch(db) { statement in
                try Int.fetchOne(statement)
            } select: {
                [$0.score]
            }
            #expect(score == 1000)

            var saved = try Player.find(db, id: 2)
            saved.score = 5
            let savedPlayer = try saved.saveAndFetch(db)
            #expect(savedPlayer.score == 5)
            #expect(try Player.fetchCount(db) == 2)
        }
    }

    @Test func batchOperationsReturningValues() throws {
        let dbQueue = try makePlayerQueue()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 10), ('Barbara', 20), ('Craig', 30)")
            let request = Player.filter { $0.score >= 20 }

            let updatedPlayers = try request.updateAndFetchAll(db) { [$0.score += 10] }
            #expect(Set(updatedPlayers.map(\.score)) == [30, 40])

            let statement = try request.updateAndFetchStatement(db) {
                [$0.score += 10]
            } select: {
                [$0.score]
            }
            let updatedScores = try Int.fetchAll(statement)
            #expect(Set(updatedScores) == [40, 50, 40])

            let nameStatement = try Player.filter { $0.score < 20 }.deleteAndFetchStatement(db) { [$0.name] }
            let deletedNames = try String.fetchSet(nameStatement)
            #expect(deletedNames == ["Arthur"])

            let deletedPlayers = try request.deleteAndFetchAll(db)
            #expect(Set(deletedPlayers.map(\.name)) == ["Barbara", "Craig"])
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    // MARK: Persistence Callbacks

    @Test func callbacksRunInTheDocumentedOrder() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "tracked") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            _ = callbackLog.take()
            var record = Tracked(id: nil, name: "a")
            try record.insert(db)
            #expect(record.id == 1)
            #expect(callbackLog.take() == [
                "willSave", "aroundSave>", "willInsert", "aroundInsert>", "<aroundInsert 1",
                "didInsert", "<aroundSave", "didSave",
            ])
            try record.update(db)
            #expect(callbackLog.take() == [
                "willSave", "aroundSave>", "willUpdate", "aroundUpdate>", "<aroundUpdate",
                "didUpdate", "<aroundSave", "didSave",
            ])
            #expect(try record.delete(db))
            #expect(callbackLog.take() == ["willDelete", "aroundDelete>", "<aroundDelete true", "didDelete true"])

            // Type methods and batch operations do not call callbacks.
            try record.insert(db)
            _ = callbackLog.take()
            _ = try Tracked.deleteAll(db)
            #expect(callbackLog.take() == [])
        }
    }

    @Test func willSaveValidatesEveryPersistenceMethod() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "link") { t in
                t.primaryKey("id", .integer)
                t.column("url", .text)
            }
            let link = ValidatedLink(id: 1, url: try #require(URL(string: "relative/path")))
            #expect(throws: ValidationError.self) { try link.insert(db) }
            #expect(throws: ValidationError.self) { try link.update(db) }
            #expect(throws: ValidationError.self) { try link.save(db) }
            #expect(throws: ValidationError.self) { try link.upsert(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link") == 0)
            try ValidatedLink(id: 1, url: try #require(URL(string: "https://example.com"))).insert(db)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link") == 1)
        }
    }

    // MARK: Codable Records

    @Test func jsonColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
                t.column("achievements", .jsonText)
            }
            let achievement = Achievement(name: "Use Codable Records", color: .gold)
            let player = AchievementPlayer(name: "Arthur", score: 100, achievements: [achievement])
            try player.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT achievements FROM player")
                == #"[{"color":"gold","name":"Use Codable Records"}]"#)
            let fetched = try #require(try AchievementPlayer.fetchOne(db))
            #expect(fetched.achievements == [achievement])
        }
    }

    @Test func columnNameCodingStrategies() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("player_name", .text)
                t.column("team_id", .integer)
            }
            try SnakePlayer(playerName: "Arthur", teamId: 3).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(row["player_name"] as String? == "Arthur")
            #expect(row["team_id"] as Int? == 3)
            let player = try #require(try SnakePlayer.fetchOne(db))
            #expect(player.playerName == "Arthur")
            #expect(player.teamId == 3)
        }
    }

    @Test func uuidStrategyAppliesToRequestsByPrimaryKeyOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text)
            }
            let uuid = UUID()
            let player = StringUUIDPlayer(id: uuid, name: "Arthur")
            try player.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT id FROM player") == uuid.uuidString)

            #expect(try StringUUIDPlayer.filter(id: uuid).fetchOne(db)?.name == "Arthur")
            #expect(try StringUUIDPlayer.fetchOne(db, id: uuid)?.name == "Arthur")
            #expect(try StringUUIDPlayer.filter { $0.id == uuid }.fetchOne(db) == nil)
            #expect(try StringUUIDPlayer.filter { $0.id == uuid.uuidString }.fetchOne(db)?.name == "Arthur")
            #expect(try StringUUIDPlayer.deleteAll(db, keys: [uuid]) == 1)
        }
    }

    @Test func dateCodingStrategies() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "event") { t in t.column("date", .double) }
            try TimestampEvent(date: Date(timeIntervalSince1970: 1_000.5)).insert(db)
            #expect(try Double.fetchOne(db, sql: "SELECT date FROM event") == 1_000.5)
            #expect(try TimestampEvent.fetchOne(db)?.date == Date(timeIntervalSince1970: 1_000.5))
        }
    }

    @Test func decodingUserInfo() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(name TEXT); INSERT INTO player VALUES ('Arthur')")
            let player = try #require(try UserInfoPlayer.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(player.decodedFrom == "database row")
        }
        let decoder = JSONDecoder()
        decoder.userInfo = [decoderName: "JSON"]
        let player = try decoder.decode(UserInfoPlayer.self, from: Data("{}".utf8))
        #expect(player.decodedFrom == "JSON")
    }

    // MARK: Record Comparison

    @Test func databaseEqualsAndChanges() throws {
        let oldPlayer = Player(id: 1, name: "Arthur", score: 100)
        let newPlayer = Player(id: 1, name: "Arthur", score: 1000)
        #expect(newPlayer.databaseEquals(oldPlayer) == false)
        #expect(oldPlayer.databaseEquals(Player(id: 1, name: "Arthur", score: 100)))
        let changes = try newPlayer.databaseChanges(from: oldPlayer)
        #expect(changes == ["score": 100.databaseValue])
        var printed: [String] = []
        for (column, oldValue) in try newPlayer.databaseChanges(from: oldPlayer) {
            printed.append("\(column) was \(oldValue)")
        }
        #expect(printed == ["score was 100"])
    }

    @Test func updateChangesDoesNotHitTheDatabaseWithoutChanges() throws {
        let trace = StatementTrace()
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL)")
            try Player(id: 42, name: "Arthur", score: 10).insert(db)
        }
        _ = trace.take()
        try dbQueue.write { db in
            let oldPlayer = try #require(try Player.fetchOne(db, id: 42))
            var newPlayer = oldPlayer
            newPlayer.score = 100
            #expect(try newPlayer.updateChanges(db, from: oldPlayer))
            let unchanged = newPlayer
            #expect(try newPlayer.updateChanges(db, from: unchanged) == false)
        }
        #expect(trace.take() == [
            "BEGIN IMMEDIATE TRANSACTION",
            #"SELECT * FROM "player" WHERE "id" = ?"#,
            #"UPDATE "player" SET "score" = ? WHERE "id" = ?"#,
            "COMMIT TRANSACTION",
        ])
    }

    // MARK: Conflict Resolution

    @Test func conflictPolicyInTheTableDefinition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique(onConflict: .replace)
            }
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM player") == [2])
        }
    }

    @Test func persistenceConflictPolicyReplace() throws {
        let trace = StatementTrace()
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique()
            }
            try db.execute(sql: "INSERT OR REPLACE INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            try db.execute(sql: "INSERT OR REPLACE INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM player") == [2])
            _ = trace.take()

            var player = ReplacingPlayer(id: nil, email: "arthur@example.com")
            try player.insert(db)
            #expect(player.id == 3)
            #expect(trace.take().contains(#"INSERT OR REPLACE INTO "player" ("id", "email") VALUES (?, ?)"#))
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM player") == [3])

            try player.update(db)
            #expect(trace.take().contains(#"UPDATE OR REPLACE "player" SET "email" = ? WHERE "id" = ?"#))
        }
    }

    @Test func failedInsertOrIgnoreIsDetectedWithInsertAndFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique()
            }
            let inserted = try IgnoringPlayer(id: nil, email: "arthur@example.com").insertAndFetch(db)
            #expect(inserted.id == 1)
            do {
                _ = try IgnoringPlayer(id: nil, email: "arthur@example.com").insertAndFetch(db)
                Issue.record("Expected RecordError")
            } catch RecordError.recordNotFound {
                // Failed insertion due to IGNORE policy
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }
    // MARK: PersistableRecord Protocol and Identifiable Records

    @Test func encodeToContainerWithColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "location") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("latitude", .double)
                t.column("longitude", .double)
            }
            var paris = MappedPlace(
                id: nil,
                title: "Paris",
                coordinate: Coordinate(latitude: 48.8534100, longitude: 2.3488000))
            try paris.insert(db)
            #expect(paris.id == 1)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM location"))
            #expect(row == ["id": 1, "title": "Paris", "latitude": 48.8534100, "longitude": 2.3488000])
        }
    }

    @Test func identifiableWithAPrimaryKeyNotCalledId() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "country") { t in
                t.primaryKey("isoCode", .text)
                t.column("name", .text).notNull()
                t.column("population", .integer).notNull()
            }
            try Country(isoCode: "FR", name: "France", population: 67_848_156).insert(db)
            try Country(isoCode: "US", name: "United States", population: 331_900_000).insert(db)
            try Country(isoCode: "DE", name: "Germany", population: 83_200_000).insert(db)
        }
        let france = try dbQueue.read { db in
            try Country.fetchOne(db, id: "FR")
        }
        #expect(france?.name == "France")
        try dbQueue.write { (db) throws in
            #expect(try Country.find(db, id: "US").name == "United States")
            #expect(try Country.fetchAll(db, ids: ["FR", "US"]).map(\.id).sorted() == ["FR", "US"])
            #expect(try Country.fetchSet(db, ids: ["FR", "XX"]).map(\.id) == ["FR"])
            #expect(try Country.filter(id: "DE").fetchCount(db) == 1)
            #expect(try Country.filter(ids: ["DE", "FR"]).fetchCount(db) == 2)
            #expect(try Country.filter(keys: ["DE", "FR", "XX"]).fetchCount(db) == 2)
            #expect(try Country.fetchAll(db, keys: ["FR", "US"]).count == 2)
            #expect(try Country.exists(db, id: "FR"))
            #expect(try Country.deleteOne(db, id: "FR"))
            #expect(try Country.deleteAll(db, ids: ["US", "DE", "XX"]) == 2)
            #expect(try Country.fetchCount(db) == 0)
        }
    }
}
