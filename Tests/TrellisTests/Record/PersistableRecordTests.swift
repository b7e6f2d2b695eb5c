import Foundation
import Testing
import Trellis

/// A struct with an auto-incremented id, as recommended by GRDB.
private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A partial player: the table fills the other columns.
private struct PartialPlayer: Encodable, PersistableRecord {
    static let databaseTableName = "player"
    var name: String

    typealias Columns = Player.Columns
}

/// A hand-written record, with no Codable.
private struct Country: FetchableRecord, PersistableRecord, Equatable {
    var code: String
    var name: String

    init(code: String, name: String) {
        self.code = code
        self.name = name
    }

    init(row: Row) {
        code = row["code"]
        name = row["name"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["code"] = code
        container["name"] = name
    }
}

/// The upsert example of GRDB's README.
private struct Vocabulary: Codable, FetchableRecord, PersistableRecord {
    var word: String
    var kind: String
    var isTainted: Bool
}

private struct Message: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var text: String
    var date: Int
}

/// A class record: PersistableRecord, with a non-mutating didInsert.
private final class Author: Codable, FetchableRecord, PersistableRecord, @unchecked Sendable {
    var id: Int64?
    var name: String
    init(name: String) { self.name = name }
    func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

@Suite struct PersistableRecordTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  name TEXT NOT NULL UNIQUE,
                  score INTEGER NOT NULL DEFAULT 1000);
                CREATE TABLE country (code TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE vocabulary (
                  word TEXT NOT NULL PRIMARY KEY,
                  kind TEXT NOT NULL,
                  isTainted BOOLEAN DEFAULT 0,
                  count INT DEFAULT 1);
                CREATE TABLE message (id INTEGER PRIMARY KEY, text TEXT NOT NULL, date INTEGER NOT NULL);
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE updateLog (id INTEGER PRIMARY KEY, playerId INTEGER);
                CREATE TRIGGER logPlayerUpdates AFTER UPDATE ON player BEGIN
                  INSERT INTO updateLog (playerId) VALUES (NEW.id);
                END;
                """)
        }
        return dbQueue
    }

    private func updateCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM updateLog") ?? -1
    }

    // MARK: Insert

    @Test func insertFillsTheAutoIncrementedIdThroughDidInsert() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var arthur = Player(id: nil, name: "Arthur", score: 100)
            try arthur.insert(db)
            #expect(arthur.id == 1)
            var barbara = Player(id: nil, name: "Barbara", score: 200)
            try barbara.insert(db)
            #expect(barbara.id == 2)
            #expect(try Player.fetchAll(db) == [arthur, barbara])
        }
    }

    @Test func insertedReturnsTheInsertedCopy() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let player = Player(id: nil, name: "Arthur", score: 100)
            let inserted = try player.inserted(db)
            #expect(player.id == nil)
            #expect(inserted.id == 1)
            #expect(try Player.fetchOne(db, key: 1) == inserted)
        }
    }

    @Test func errorsOfPersistenceMethodsHaveTheirArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Country(code: "FR", name: "France").insert(db)
            let insertError = #expect(throws: DatabaseError.self) { try Country(code: "FR", name: "Again").insert(db) }
            #expect(insertError?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            #expect(insertError?.arguments == ["FR", "Again"])
            // Private by default: the description does not show them.
            #expect(insertError?.description.contains("Again") == false)
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE UPDATE ON country BEGIN SELECT RAISE(ABORT, 'refused'); END")
            let updateError = #expect(throws: DatabaseError.self) { try Country(code: "FR", name: "Francia").update(db) }
            #expect(updateError?.message == "refused")
            #expect(updateError?.arguments == ["Francia", "FR"])
        }
    }

    @Test func returningFetchesChosenColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            // INSERT INTO player (name) VALUES ('Alice') RETURNING score
            let partialPlayer = PartialPlayer(name: "Alice")
            let score = try partialPlayer.insertAndFetch(db) { statement in
                try Int.fetchOne(statement)
            } select: {
                [$0.score]
            }
            #expect(score == 1000)
            var bob = Player(id: nil, name: "Bob", score: 5)
            let row = try bob.insertAndFetch(db, selection: [Column("id"), Column("score") * 2]) { try Row.fetchOne($0) }
            #expect(row == ["id": 2, "\"score\" * 2": 10])
            #expect(bob.id == 2)  // didInsert ran

            bob.score = 7
            let updatedScore = try bob.updateAndFetch(db) { try Int.fetchOne($0) } select: { [$0.score] }
            #expect(updatedScore == 7)
            let missing = Player(id: 42, name: "Nobody", score: 0)
            #expect(throws: RecordError.self) {
                try missing.updateAndFetch(db, selection: [Column("id")]) { try Int.fetchOne($0) }
            }

            // Batch operations.
            var craig = Player(id: nil, name: "Craig", score: 30)
            try craig.insert(db)
            let updateStatement = try Player.filter { $0.score < 20 }.updateAndFetchStatement(db) {
                [$0.score += 10]
            } select: {
                [$0.score]
            }
            #expect(try Set(Int.fetchAll(updateStatement)) == [17])
            let deleteStatement = try Player.filter { $0.score > 20 }.deleteAndFetchStatement(db) { [$0.name] }
            #expect(try String.fetchSet(deleteStatement) == ["Alice", "Craig"])
            #expect(try Player.fetchCount(db) == 1)
            #expect(throws: DatabaseError.self) { try Player.all().deleteAndFetchStatement(db, selection: []) }
        }
    }

    @Test func insertAndFetchReturnsDefaultValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let player = try PartialPlayer(name: "Alice").insertAndFetch(db, as: Player.self)
            #expect(player == Player(id: 1, name: "Alice", score: 1000))
            let partial = Player(id: nil, name: "Bob", score: 5)
            let fetched = try partial.insertAndFetch(db)
            #expect(fetched == Player(id: 2, name: "Bob", score: 5))
            // As in GRDB, the inserted record is the one returned.
            #expect(partial.id == nil)
            let saved = try Player(id: nil, name: "Carl", score: 6).saveAndFetch(db)
            #expect(saved == Player(id: 3, name: "Carl", score: 6))
        }
    }

    @Test func insertOfAHandWrittenRecordWritesItsContainer() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Country(code: "FR", name: "France").insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM country") == ["code": "FR", "name": "France"])
            #expect(try Country.fetchOne(db, key: "FR") == Country(code: "FR", name: "France"))
        }
    }

    @Test func persistenceContainersReadColumnsCaseInsensitively() throws {
        struct Place: EncodableRecord {
            enum Columns {
                static let title = Column("title")
            }
            var title: String
            var favorite: Bool
            func encode(to container: inout PersistenceContainer) {
                container[Columns.title] = title
                container["isFavorite"] = favorite
                container["isFavorite"] = !favorite  // the last value wins
            }
        }
        let place = Place(title: "Paris", favorite: true)
        let dictionary = try place.databaseDictionary
        #expect(dictionary == ["title": "Paris".databaseValue, "isFavorite": false.databaseValue])
        var container = PersistenceContainer()
        place.encode(to: &container)
        #expect(container.columnNames == ["title", "isFavorite"])
        #expect(container["TITLE"]?.databaseValue == "Paris".databaseValue)
        #expect(container.hasColumn("ISFAVORITE"))
        #expect(container["missing"] == nil)
    }

    @Test func containersTakeValuesOfEveryStaticType() throws {
        enum Columns: String, ColumnExpression { case code }
        let optionalScore: Int? = 3
        let missingScore: Int? = nil
        let anyValue: any DatabaseValueConvertible = "any"
        var container = PersistenceContainer()
        container["int"] = 1                      // a known type
        container[Columns.code] = "FR"            // a known type, by column
        container["optional"] = optionalScore     // an optional
        container["missing"] = missingScore
        container[Columns.code] = missingScore   // an optional, by column
        container[Columns.code] = optionalScore
        container["nil"] = nil
        container["any"] = anyValue               // an existential
        container["dbValue"] = DatabaseValue.null
        container[Column("date")] = Date(timeIntervalSince1970: 0)
        #expect(container.columnNames == ["int", "code", "optional", "missing", "nil", "any", "dbValue", "date"])
        #expect(container["int"]?.databaseValue == 1.databaseValue)
        #expect(container[Columns.code]?.databaseValue == 3.databaseValue)
        #expect(container["optional"]?.databaseValue == 3.databaseValue)
        #expect(container["missing"]?.databaseValue == .null)
        #expect(container["nil"]?.databaseValue == .null)
        #expect(container["any"]?.databaseValue == "any".databaseValue)
        #expect(container["dbValue"]?.databaseValue == .null)
        #expect(container["date"]?.databaseValue == "1970-01-01 00:00:00.000".databaseValue)
    }

    @Test func aColumnSetTwiceIsInsertedOnceWithItsLastValue() throws {
        final class Saved: @unchecked Sendable { var containers: [PersistenceContainer] = [] }
        struct Entry: MutablePersistableRecord {
            static let databaseTableName = "player"
            var id: Int64?
            var name: String
            let saved: Saved
            func encode(to container: inout PersistenceContainer) {
                container["id"] = id
                container["name"] = "draft"
                container["name"] = name
            }
            func didSave(_ success: PersistenceSuccess) { saved.containers.append(success.persistenceContainer) }
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let dbQueue = try makeDatabase()
        let saved = Saved()
        try dbQueue.write { db in
            // The second insert reuses the statement of the first.
            for name in ["Arthur", "Barbara"] {
                var entry = Entry(id: nil, name: name, saved: saved)
                try entry.insert(db)
            }
            #expect(try Row.fetchAll(db, sql: "SELECT id, name FROM player ORDER BY id")
                == [["id": 1, "name": "Arthur"], ["id": 2, "name": "Barbara"]])
        }
        #expect(saved.containers.map(\.columnNames) == [["id", "name"], ["id", "name"]])
        #expect(saved.containers.map { $0["id"]?.databaseValue } == [1.databaseValue, 2.databaseValue])
        #expect(saved.containers.map { $0["name"]?.databaseValue } == ["Arthur".databaseValue, "Barbara".databaseValue])
    }

    @Test func containersKeptFromInsertsKeepTheirValues() throws {
        final class Kept: @unchecked Sendable { var containers: [PersistenceContainer] = [] }
        struct Entry: PersistableRecord {
            static let databaseTableName = "country"
            var code: String
            let kept: Kept
            func encode(to container: inout PersistenceContainer) {
                container["code"] = code
                container["name"] = code.lowercased()
            }
            func didInsert(_ inserted: InsertionSuccess) { kept.containers.append(inserted.persistenceContainer) }
        }
        let dbQueue = try makeDatabase()
        let kept = Kept()
        try dbQueue.write { db in
            for code in ["FR", "DE", "IT"] { try Entry(code: code, kept: kept).insert(db) }
        }
        #expect(kept.containers.map { $0["code"]?.databaseValue } == ["FR", "DE", "IT"].map(\.databaseValue))
        #expect(kept.containers.map { $0["name"]?.databaseValue } == ["fr", "de", "it"].map(\.databaseValue))
    }

    @Test func theContainerOfAnInsertHasTheInsertedRowID() throws {
        // As in GRDB: `didInsert` sees the id that SQLite chose, not NULL,
        // for inserts and upserts.
        final class Kept: @unchecked Sendable { var ids: [DatabaseValue?] = [] }
        struct Player: Encodable, MutablePersistableRecord {
            var id: Int64?
            var name: String
            let kept: Kept
            enum CodingKeys: String, CodingKey { case id, name }
            mutating func didInsert(_ inserted: InsertionSuccess) {
                kept.ids.append(inserted.persistenceContainer["id"]?.databaseValue)
                id = inserted.rowID
            }
        }
        let dbQueue = try DatabaseQueue()
        let kept = Kept()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            var arthur = Player(id: nil, name: "Arthur", kept: kept)
            try arthur.insert(db)
            var barbara = Player(id: nil, name: "Barbara", kept: kept)
            try barbara.upsert(db)
        }
        #expect(kept.ids == [1.databaseValue, 2.databaseValue])
    }

    @Test func aRecordThatEncodesNoColumnInsertsDefaultValues() throws {
        struct Tick: MutablePersistableRecord {
            var id: Int64?
            func encode(to container: inout PersistenceContainer) {}
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE tick(id INTEGER PRIMARY KEY, label TEXT DEFAULT 'tock')")
            var first = Tick()
            var second = Tick()
            try first.insert(db)
            try second.insert(db)
            #expect(first.id == 1)
            #expect(second.id == 2)
            #expect(try String.fetchAll(db, sql: "SELECT label FROM tick ORDER BY id") == ["tock", "tock"])
        }
    }

    @Test func classRecordsLearnTheirIdWithANonMutatingDidInsert() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let author = Author(name: "Herman Melville")
            try author.insert(db)
            #expect(author.id == 1)
        }
    }

    @Test func insertIntoAMissingTableIsAClearErrorAndTheConnectionStaysUsable() throws {
        struct Ghost: Codable, PersistableRecord { var id: Int64 }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try Ghost(id: 1).insert(db) }
            #expect(error?.message == "no such table: ghost")
            try Country(code: "FR", name: "France").insert(db)
            #expect(try Country.fetchCount(db) == 1)
        }
    }

    @Test func insertOfADuplicateIsAConstraintError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Country(code: "FR", name: "France").insert(db)
            let error = #expect(throws: DatabaseError.self) { try Country(code: "FR", name: "Frankreich").insert(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            try Country(code: "FR", name: "Frankreich").insert(db, onConflict: .replace)
            #expect(try Country.fetchAll(db) == [Country(code: "FR", name: "Frankreich")])
            try Country(code: "FR", name: "Francia").insert(db, onConflict: .ignore)
            #expect(try Country.fetchAll(db) == [Country(code: "FR", name: "Frankreich")])
        }
    }

    @Test func persistenceConflictPolicyAppliesToInsertsAndUpdates() throws {
        struct ReplacingPlayer: Codable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "player"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
            var id: Int64?
            var name: String
            var score: Int
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var first = ReplacingPlayer(id: nil, name: "Arthur", score: 1)
            try first.insert(db)
            var second = ReplacingPlayer(id: nil, name: "Arthur", score: 2)
            try second.insert(db)  // INSERT OR REPLACE: replaces the row with the same name
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player") == [2])

            var barbara = ReplacingPlayer(id: nil, name: "Barbara", score: 3)
            try barbara.insert(db)
            barbara.name = "Arthur"
            try barbara.update(db)  // UPDATE OR REPLACE: the other Arthur is deleted
            #expect(try Row.fetchAll(db, sql: "SELECT id, name FROM player") == [["id": barbara.id, "name": "Arthur"]])
        }
    }

    // MARK: Update

    @Test func updateWritesAllColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            player.name = "Arthur II"
            player.score = 150
            try player.update(db)
            let id = try #require(player.id)
            #expect(try Player.fetchOne(db, key: id) == player)
        }
    }

    @Test func updateColumnsWritesOnlyThoseColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            player.name = "Ignored"
            player.score = 500
            try player.update(db, columns: ["score"])
            let id = try #require(player.id)
            #expect(try Player.fetchOne(db, key: id) == Player(id: id, name: "Arthur", score: 500))
            player.score = 600
            try player.update(db, columns: [Player.Columns.score])
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 600)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur")
        }
    }

    @Test func updatedColumnsMatchTheTableIgnoringCase() throws {
        // Column names are compared as SQLite compares them.
        struct Shouting: Encodable, PersistableRecord {
            static let databaseTableName = "player"
            var ID: Int64
            var NAME: String
            var SCORE: Int
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100)")
            try Shouting(ID: 1, NAME: "Barbara", SCORE: 200).update(db, columns: ["score"])
            #expect(try Row.fetchOne(db, sql: "SELECT id, name, score FROM player") == ["id": 1, "name": "Arthur", "score": 200])
            try Shouting(ID: 1, NAME: "Craig", SCORE: 300).update(db)
            #expect(try Row.fetchOne(db, sql: "SELECT id, name, score FROM player") == ["id": 1, "name": "Craig", "score": 300])
            let error = #expect(throws: RecordError.self) { try Shouting(ID: 2, NAME: "Dan", SCORE: 0).update(db) }
            #expect(error.map { "\($0)" }?.contains("player") == true)
        }
    }

    @Test func updateOfAMissingRowThrowsRecordNotFound() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let ghost = Player(id: 42, name: "Ghost", score: 0)
            do {
                try ghost.update(db)
                Issue.record("expected RecordError.recordNotFound")
            } catch RecordError.recordNotFound(let table, let key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
            let error = #expect(throws: RecordError.self) { try ghost.update(db, columns: ["score"]) }
            #expect(error?.description.contains("player") == true)
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func updateAndFetchReturnsTheStoredRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 42
            let fetched = try player.updateAndFetch(db)
            #expect(fetched == player)
            #expect(throws: RecordError.self) { try Player(id: 9, name: "x", score: 0).updateAndFetch(db) }
        }
    }

    @Test func saveAndFetchReturnsTheSavedRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let player = Player(id: nil, name: "Arthur", score: 100)
            var inserted = try player.saveAndFetch(db)
            #expect(inserted == Player(id: 1, name: "Arthur", score: 100))
            #expect(player.id == nil)
            inserted.score = 200
            let saved = try inserted.saveAndFetch(db)
            #expect(saved == Player(id: 1, name: "Arthur", score: 200))
            let country = try Country(code: "FR", name: "France").saveAndFetch(db)
            #expect(country == Country(code: "FR", name: "France"))
            let full = try PartialPlayer(name: "Alice").saveAndFetch(db, as: Player.self)
            #expect(full == Player(id: 2, name: "Alice", score: 1000))
            #expect(try Player.fetchCount(db) == 2)
        }
    }

    @Test func updateChangesAndFetchReturnsNilWithoutChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            let before = try updateCount(db)
            // Mutating calls stay out of #expect, which may evaluate them on a copy.
            let unchanged = try player.updateChangesAndFetch(db) { $0.score = 100 }
            #expect(unchanged == nil)
            #expect(try updateCount(db) == before)
            let updated = try player.updateChangesAndFetch(db) { $0.score = 300 }
            #expect(updated == Player(id: 1, name: "Arthur", score: 300))
            #expect(try updateCount(db) == before + 1)
        }
    }

    @Test func insertAndFetchWithIgnoreThatInsertsNothingThrowsRecordNotFound() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let player = Player(id: nil, name: "Arthur", score: 100)
            _ = try player.insertAndFetch(db, onConflict: .ignore)
            let duplicate = Player(id: nil, name: "Arthur", score: 200)
            #expect(throws: RecordError.self) { try duplicate.insertAndFetch(db, onConflict: .ignore) }
            #expect(duplicate.id == nil)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player") == [100])
        }
    }

    // MARK: Record comparison

    @Test func updateChangesFromWritesOnlyTheChangedColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var old = Player(id: nil, name: "Arthur", score: 100)
            try old.insert(db)
            // Another writer renames the player: updateChanges must not
            // overwrite the name, which did not change in our record.
            try db.execute(sql: "UPDATE player SET name = 'Renamed'")
            var new = old
            new.score = 200
            #expect(try new.updateChanges(db, from: old))
            #expect(try Row.fetchOne(db, sql: "SELECT name, score FROM player") == ["name": "Renamed", "score": 200])
        }
    }

    @Test func updateChangesReturnsFalseAndWritesNothingWithoutChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            let before = try updateCount(db)
            #expect(try !player.updateChanges(db, from: player))
            let unchanged = try player.updateChanges(db) { $0.score = 100 }
            #expect(!unchanged)
            #expect(try updateCount(db) == before)

            let changed = try player.updateChanges(db) { $0.score = 300 }
            #expect(changed)
            #expect(player.score == 300)
            #expect(try updateCount(db) == before + 1)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 300)
        }
    }

    @Test func updateChangesOfAMissingRowThrowsRecordNotFound() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var ghost = Player(id: 3, name: "Ghost", score: 0)
            #expect(throws: RecordError.self) { try ghost.updateChanges(db) { $0.score = 1 } }
        }
    }

    @Test func databaseEqualsAndDatabaseChangesCompareEncodedValues() throws {
        let old = Player(id: 1, name: "Arthur", score: 100)
        var new = old
        #expect(new.databaseEquals(old))
        #expect(try new.databaseChanges(from: old).isEmpty)
        new.score = 1000
        #expect(!new.databaseEquals(old))
        #expect(try new.databaseChanges(from: old) == ["score": 100.databaseValue])
        let changes = try new.databaseChanges { $0.name = "Barbara" }
        #expect(changes == ["name": "Arthur".databaseValue])
        #expect(new.name == "Barbara")
    }

    // MARK: Save

    @Test func saveUpdatesAnExistingRowAndInsertsOtherwise() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.save(db)  // nil id: insert
            #expect(player.id == 1)
            player.score = 200
            try player.save(db)  // existing row: update
            #expect(try Player.fetchAll(db) == [player])
            var other = Player(id: 10, name: "Barbara", score: 300)
            try other.save(db)  // no row 10: update fails, then insert
            #expect(other.id == 10)
            #expect(try Player.fetchCount(db) == 2)
            let saved = try Player(id: 10, name: "Barbara", score: 400).saved(db)
            #expect(saved.score == 400)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 10") == 400)
            try Country(code: "FR", name: "France").save(db)
            try Country(code: "FR", name: "République française").save(db)
            #expect(try Country.fetchAll(db) == [Country(code: "FR", name: "République française")])
        }
    }

    // MARK: Upsert

    @Test func upsertInsertsThenOverwritesAllColumnsButThePrimaryKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Country(code: "FR", name: "France").upsert(db)
            try Country(code: "FR", name: "Frankreich").upsert(db)
            #expect(try Country.fetchAll(db) == [Country(code: "FR", name: "Frankreich")])
            var player = Player(id: nil, name: "Arthur", score: 1)
            try player.upsert(db)
            #expect(player.id == 1)
            var again = Player(id: 1, name: "Arthur", score: 2)
            try again.upsert(db)
            #expect(try Player.fetchAll(db) == [Player(id: 1, name: "Arthur", score: 2)])
        }
    }

    @Test func upsertAndFetchIncrementsAndKeepsColumnsOnConflict() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let tainted = Vocabulary(word: "jovial", kind: "adjective", isTainted: true)
            try tainted.insert(db)
            let vocabulary = Vocabulary(word: "jovial", kind: "adj.", isTainted: false)
            let upserted = try vocabulary.upsertAndFetch(
                db, onConflict: ["word"],
                doUpdate: { _ in
                    [Column("count") += 1,
                     Column("isTainted").noOverwrite]
                })
            #expect(upserted.kind == "adj.")
            #expect(upserted.isTainted)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM vocabulary") == [
                "word": "jovial", "kind": "adj.", "isTainted": 1, "count": 2,
            ])
            let fresh = try Vocabulary(word: "glad", kind: "adjective", isTainted: false)
                .upsertAndFetch(db, onConflict: ["word"], doUpdate: { _ in [Column("count") += 1] })
            #expect(fresh.word == "glad")
            #expect(try Int.fetchOne(db, sql: "SELECT count FROM vocabulary WHERE word = 'glad'") == 1)
        }
    }

    @Test func upsertAndFetchUpdatingNoColumnUnlessSpecifiedKeepsTheStoredValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Vocabulary(word: "jovial", kind: "adjective", isTainted: true).insert(db)
            let vocabulary = Vocabulary(word: "jovial", kind: "adj.", isTainted: false)
            let kept = try vocabulary.upsertAndFetch(db, onConflict: ["word"], updating: .noColumnUnlessSpecified)
            #expect(kept.kind == "adjective")
            #expect(kept.isTainted)
            let counted = try vocabulary.upsertAndFetch(
                db, onConflict: ["word"], updating: .noColumnUnlessSpecified,
                doUpdate: { _ in [Column("count") += 1] })
            #expect(counted.kind == "adjective")
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM vocabulary") == [
                "word": "jovial", "kind": "adjective", "isTainted": 1, "count": 2,
            ])
            struct Kind: Decodable, FetchableRecord { var kind: String }
            let overwritten = try vocabulary.upsertAndFetch(db, as: Kind.self, onConflict: ["word"], updating: .allColumns)
            #expect(overwritten.kind == "adj.")
        }
    }

    @Test func upsertAndFetchCanReferToTheExcludedRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Message(id: 1, text: "hello", date: 20).insert(db)
            let upserted = try Message(id: 1, text: "hi", date: 10).upsertAndFetch(db, doUpdate: { excluded in
                [Column("date").set(to: max(Column("date"), excluded["date"]))]
            })
            #expect(upserted.text == "hi")
            #expect(upserted.date == 20)
            let later = try Message(id: 1, text: "hey", date: 30).upsertAndFetch(db, doUpdate: { excluded in
                [Column("date").set(to: max(Column("date"), excluded["date"]))]
            })
            #expect(later.date == 30)
            struct MessageText: Decodable, FetchableRecord { var text: String }
            let partial = try Message(id: 2, text: "new", date: 1).upsertAndFetch(db, as: MessageText.self)
            #expect(partial.text == "new")
        }
    }

    @Test func withoutRowIDTablesSupportEveryPersistenceMethod() throws {
        struct Tag: Codable, FetchableRecord, PersistableRecord, Equatable {
            var code: String
            var label: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE tag (code TEXT PRIMARY KEY, label TEXT NOT NULL) WITHOUT ROWID")
            try Tag(code: "a", label: "A").insert(db)
            try Tag(code: "a", label: "A2").upsert(db)
            let fetched = try Tag(code: "b", label: "B").upsertAndFetch(db)
            #expect(fetched == Tag(code: "b", label: "B"))
            #expect(try Tag(code: "c", label: "C").insertAndFetch(db) == Tag(code: "c", label: "C"))
            try Tag(code: "c", label: "C2").save(db)
            try Tag(code: "b", label: "B2").update(db)
            #expect(try Tag(code: "a", label: "").delete(db))
            #expect(try Tag.orderByPrimaryKey().fetchAll(db) == [Tag(code: "b", label: "B2"), Tag(code: "c", label: "C2")])
        }
    }

    // MARK: Delete and existence

    @Test func deleteReturnsWhetherARowWasDeleted() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(try player.exists(db))
            #expect(try player.delete(db))
            #expect(try !player.exists(db))
            #expect(try !player.delete(db))
            #expect(try Player.fetchCount(db) == 0)
            #expect(try !Player(id: nil, name: "Nobody", score: 0).exists(db))
        }
    }
}
