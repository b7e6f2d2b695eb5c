import Testing
import Trellis

/// A subclass as GRDB's documentation writes them.
private class Player: Record {
    var id: Int64?
    var name: String
    var score: Int
    /// The callbacks that ran, in order.
    var events: [String] = []

    override class var databaseTableName: String { "player" }

    init(id: Int64? = nil, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = row["score"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["score"] = score
    }

    override func willSave(_ db: Database) throws {
        try super.willSave(db)
        events.append("willSave")
    }

    override func willInsert(_ db: Database) throws {
        try super.willInsert(db)
        events.append("willInsert")
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
        events.append("didInsert")
    }

    override func willUpdate(_ db: Database, columns: Set<String>) throws {
        try super.willUpdate(db, columns: columns)
        events.append("willUpdate \(columns.sorted())")
    }

    override func didUpdate(_ updated: PersistenceSuccess) {
        super.didUpdate(updated)
        events.append("didUpdate")
    }

    override func didSave(_ saved: PersistenceSuccess) {
        super.didSave(saved)
        events.append("didSave")
    }

    override func didDelete(deleted: Bool) {
        super.didDelete(deleted: deleted)
        events.append("didDelete \(deleted)")
    }
}

/// A subclass that keeps the default table name.
private final class Country: Record {
    var code = ""
    override init() { super.init() }
    required init(row: Row) throws {
        code = row["code"]
        try super.init(row: row)
    }
    override func encode(to container: inout PersistenceContainer) throws {
        container["code"] = code
    }
}

/// A subclass that replaces conflicting rows.
private final class Setting: Record {
    var key: String
    var value: String
    override class var databaseTableName: String { "setting" }
    override class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .replace, update: .replace)
    }
    init(key: String, value: String) {
        self.key = key
        self.value = value
        super.init()
    }
    required init(row: Row) throws {
        key = row["key"]
        value = row["value"]
        try super.init(row: row)
    }
    override func encode(to container: inout PersistenceContainer) throws {
        container["key"] = key
        container["value"] = value
    }
}

@Suite struct RecordClassTests {
    private func makeDatabase(_ trace: StatementTrace? = nil) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: trace?.configuration() ?? Configuration())
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                CREATE TABLE country(code TEXT PRIMARY KEY);
                CREATE TABLE setting(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
        }
        _ = trace?.take()
        return dbQueue
    }

    @Test func aNewRecordHasChangesInAllColumns() throws {
        let player = Player(name: "Arthur", score: 100)
        #expect(player.hasDatabaseChanges)
        let changes = try player.databaseChanges
        #expect(changes.keys.sorted() == ["id", "name", "score"])
        #expect(changes.values.allSatisfy { $0 == nil })
    }

    @Test func insertRunsTheCallbacksOfTheSubclassAndResetsChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(player.events == ["willSave", "willInsert", "didInsert", "didSave"])
            #expect(!player.hasDatabaseChanges)
            #expect(try player.databaseChanges.isEmpty)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM player") == ["id": 1, "name": "Arthur", "score": 100])
        }
    }

    @Test func aFetchedRecordTracksItsChanges() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100)")
            let player = try #require(try Player.fetchOne(db, key: 1))
            #expect(!player.hasDatabaseChanges)
            #expect(try player.databaseChanges.isEmpty)
            _ = trace.take()
            // No change: no statement.
            #expect(try player.updateChanges(db) == false)
            #expect(trace.take().isEmpty)

            player.score = 1000
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges == ["score": .some(100.databaseValue)])
            #expect(try player.updateChanges(db) == true)
            #expect(trace.take().filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "player" SET "score" = ? WHERE "id" = ?"#])
            #expect(player.events == ["willSave", #"willUpdate ["score"]"#, "didUpdate", "didSave"])
            #expect(!player.hasDatabaseChanges)
            #expect(try player.updateChanges(db) == false)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 1000)

            // Setting a value back to the saved one is no change.
            player.name = "Barbara"
            player.name = "Arthur"
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func fetchesDecodeTheSubclass() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200)")
            let players = try Player.order(Column("id")).fetchAll(db)
            #expect(players.map(\.name) == ["Arthur", "Barbara"])
            #expect(players.allSatisfy { !$0.hasDatabaseChanges })
            let cursor = try Player.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id DESC")
            let first = try #require(try cursor.next())
            #expect(first.name == "Barbara")
            #expect(!first.hasDatabaseChanges)
        }
    }

    @Test func updateChangesOfARecordThatWasNeverSavedWritesAllColumns() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100)")
            _ = trace.take()
            let player = Player(id: 1, name: "Barbara", score: 200)
            #expect(try player.updateChanges(db))
            #expect(trace.take().filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "player" SET "name" = ?, "score" = ? WHERE "id" = ?"#])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM player") == ["id": 1, "name": "Barbara", "score": 200])

            let missing = Player(id: 2, name: "Craig", score: 0)
            #expect(throws: RecordError.self) { try missing.updateChanges(db) }
            #expect(missing.hasDatabaseChanges)
        }
    }

    @Test func hasDatabaseChangesCanBeSet() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100)")
            let player = Player(id: 1, name: "Arthur", score: 100)
            player.hasDatabaseChanges = false
            #expect(try player.databaseChanges.isEmpty)
            _ = trace.take()
            #expect(try player.updateChanges(db) == false)

            // All columns are written again.
            player.hasDatabaseChanges = true
            #expect(try player.databaseChanges.keys.sorted() == ["id", "name", "score"])
            #expect(try player.updateChanges(db))
            #expect(trace.take().filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "player" SET "name" = ?, "score" = ? WHERE "id" = ?"#])
        }
    }

    @Test func aDeletedRecordHasChangesAndSaveInsertsItAgain() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            player.events = []
            #expect(try player.delete(db))
            #expect(player.events == ["didDelete true"])
            #expect(player.hasDatabaseChanges)
            try player.save(db)
            #expect(try Player.fetchCount(db) == 1)
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func copyKeepsTheValuesAndTheChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100)")
            let player = try #require(try Player.fetchOne(db, key: 1))
            player.score = 1000
            let copy = try player.copy()
            #expect(copy !== player)
            #expect(copy.id == 1 && copy.name == "Arthur" && copy.score == 1000)
            #expect(try copy.databaseChanges == ["score": .some(100.databaseValue)])
            // The copy is another record.
            copy.name = "Barbara"
            #expect(player.name == "Arthur")
            #expect(try player.databaseChanges.keys.sorted() == ["score"])

            let fresh = try Player(name: "Craig", score: 0).copy()
            #expect(try fresh.databaseChanges.keys.sorted() == ["id", "name", "score"])
        }
    }

    @Test func insertAndFetchReturnsTheSubclassWithoutChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let player = Player(name: "Arthur", score: 100)
            let inserted = try player.insertAndFetch(db)
            #expect(inserted.id == 1)
            #expect(inserted.name == "Arthur")
            #expect(!inserted.hasDatabaseChanges)
            #expect(!player.hasDatabaseChanges)
            #expect(player.id == 1)
        }
    }

    @Test func theTableNameDefaultsToTheClassName() throws {
        #expect(Country.databaseTableName == "country")
        #expect(Player.databaseTableName == "player")
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let country = Country()
            country.code = "FR"
            try country.insert(db)
            #expect(try Country.fetchAll(db).map(\.code) == ["FR"])
        }
    }

    @Test func theConflictPolicyOfTheSubclassApplies() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try Setting(key: "theme", value: "light").insert(db)
            try Setting(key: "theme", value: "dark").insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT value FROM setting") == ["dark"])
        }
    }
}
