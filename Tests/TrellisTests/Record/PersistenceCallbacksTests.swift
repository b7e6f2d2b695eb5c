import Testing
import Trellis

private final class CallLog: @unchecked Sendable {
    var events: [String] = []
}

private struct ValidationError: Error, Equatable {
    var message: String
}

/// Which `around` callbacks forget to call their closure.
private struct Skips: OptionSet {
    let rawValue: Int
    static let aroundInsert = Skips(rawValue: 1)
    static let aroundUpdate = Skips(rawValue: 2)
    static let aroundSave = Skips(rawValue: 4)
    static let aroundDelete = Skips(rawValue: 8)
}

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score = 0
    private var skips: Skips = []
    private let log: CallLog

    enum CodingKeys: String, CodingKey { case id, name, score }

    init(id: Int64?, name: String, log: CallLog, skips: Skips = []) {
        self.id = id
        self.name = name
        self.log = log
        self.skips = skips
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64?.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        score = try container.decode(Int.self, forKey: .score)
        log = CallLog()
    }

    mutating func willInsert(_ db: Database) throws { log.events.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        log.events.append("aroundInsert enter")
        if skips.contains(.aroundInsert) { return }
        let inserted = try insert()
        log.events.append("aroundInsert exit \(inserted.rowID)")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        log.events.append("didInsert")
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws {
        log.events.append("willUpdate \(columns.sorted())")
    }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundUpdate enter")
        if skips.contains(.aroundUpdate) { return }
        _ = try update()
        log.events.append("aroundUpdate exit")
    }
    func didUpdate(_ updated: PersistenceSuccess) { log.events.append("didUpdate") }
    func willSave(_ db: Database) throws {
        log.events.append("willSave")
        if name.isEmpty { throw ValidationError(message: "name must not be empty") }
    }
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundSave enter")
        if skips.contains(.aroundSave) { return }
        _ = try save()
        log.events.append("aroundSave exit")
    }
    func didSave(_ saved: PersistenceSuccess) { log.events.append("didSave") }
    func willDelete(_ db: Database) throws { log.events.append("willDelete") }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        log.events.append("aroundDelete enter")
        if skips.contains(.aroundDelete) { return }
        _ = try delete()
        log.events.append("aroundDelete exit")
    }
    func didDelete(deleted: Bool) { log.events.append("didDelete \(deleted)") }
}

/// A class record: callbacks of PersistableRecord are not mutating.
private final class Author: Codable, PersistableRecord, @unchecked Sendable {
    var id: Int64?
    var name: String
    var events: [String] = []
    enum CodingKeys: String, CodingKey { case id, name }
    init(name: String) { self.name = name }
    func willInsert(_ db: Database) throws { events.append("willInsert") }
    func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        events.append("didInsert \(inserted.rowID)")
    }
}

@Suite struct PersistenceCallbacksTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        return dbQueue
    }

    private let insertEvents = [
        "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit 1",
        "didInsert", "aroundSave exit", "didSave",
    ]

    @Test func insertCallbacksRunInTheDocumentedOrder() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { db in try player.insert(db) }
        #expect(log.events == insertEvents)
        #expect(player.id == 1)
    }

    @Test func updateAndDeleteCallbacksRunInTheDocumentedOrder() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { (db: Database) throws in
            try player.insert(db)
            log.events = []
            player.name = "Barbara"
            try player.update(db)
            #expect(log.events == ["willSave", "aroundSave enter", "willUpdate [\"id\", \"name\", \"score\"]",
                                   "aroundUpdate enter", "aroundUpdate exit", "didUpdate", "aroundSave exit", "didSave"])
            log.events = []
            #expect(try player.delete(db))
            #expect(log.events == ["willDelete", "aroundDelete enter", "aroundDelete exit", "didDelete true"])
            log.events = []
            #expect(try !player.delete(db))
            #expect(log.events == ["willDelete", "aroundDelete enter", "aroundDelete exit", "didDelete false"])
        }
    }

    @Test func willUpdateReceivesTheUpdatedColumns() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { (db: Database) throws in
            try player.insert(db)
            log.events = []
            try player.update(db, columns: ["score"])
            #expect(log.events.contains("willUpdate [\"score\"]"))
            log.events = []
            let changed = try player.updateChanges(db) { $0.score = 10 }
            #expect(changed)
            #expect(log.events.contains("willUpdate [\"score\"]"))
        }
    }

    @Test func updateChangesWithoutChangesRunsNoCallback() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { (db: Database) throws in
            try player.insert(db)
            log.events = []
            let changed = try player.updateChanges(db) { $0.name = "Arthur" }
            #expect(!changed)
            #expect(log.events.isEmpty)
        }
    }

    @Test func saveOfANewRecordRunsTheInsertCallbacks() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { db in try player.save(db) }
        #expect(log.events == insertEvents)
    }

    @Test func saveOfAnExistingRecordRunsTheUpdateCallbacks() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { (db: Database) throws in
            try player.insert(db)
            log.events = []
            try player.save(db)
        }
        #expect(log.events == ["willSave", "aroundSave enter", "willUpdate [\"id\", \"name\", \"score\"]",
                               "aroundUpdate enter", "aroundUpdate exit", "didUpdate", "aroundSave exit", "didSave"])
    }

    @Test func saveOfAMissingRowTriesUpdateThenInserts() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: 42, name: "Arthur", log: log)
        try dbQueue.write { db in try player.save(db) }
        #expect(log.events == [
            "willSave", "aroundSave enter", "willUpdate [\"id\", \"name\", \"score\"]", "aroundUpdate enter",
            "willInsert", "aroundInsert enter", "aroundInsert exit 42", "didInsert", "aroundSave exit", "didSave",
        ])
        #expect(try dbQueue.read { try Player.fetchOne($0, key: 42)?.name } == "Arthur")
    }

    @Test func upsertRunsTheInsertCallbacksOnly() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: 1, name: "Arthur", log: log)
        try dbQueue.write { (db: Database) throws in
            try player.upsert(db)
            player.name = "Barbara"
            try player.upsert(db)
            _ = try player.upsertAndFetch(db)
        }
        #expect(log.events.filter { $0 == "didInsert" }.count == 3)
        #expect(!log.events.contains { $0.hasPrefix("willUpdate") })
        #expect(try dbQueue.read { try Player.fetchAll($0).map(\.name) } == ["Barbara"])
    }

    @Test func insertAndFetchRunsTheInsertCallbacks() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        let player = Player(id: nil, name: "Arthur", log: log)
        let fetched = try dbQueue.write { db in try player.insertAndFetch(db) }
        #expect(log.events == insertEvents)
        #expect(fetched.id == 1)
        // The callbacks ran on a copy, which is returned.
        #expect(player.id == nil)
    }

    @Test func willSaveCanRejectARecord() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var invalid = Player(id: nil, name: "", log: CallLog())
            #expect(throws: ValidationError(message: "name must not be empty")) { try invalid.insert(db) }
            #expect(throws: ValidationError(message: "name must not be empty")) { try invalid.save(db) }
            #expect(throws: ValidationError(message: "name must not be empty")) { try invalid.upsert(db) }
            #expect(try Player.fetchCount(db) == 0)
            var valid = Player(id: nil, name: "Arthur", log: CallLog())
            try valid.insert(db)
            valid.name = ""
            #expect(throws: ValidationError(message: "name must not be empty")) { try valid.update(db) }
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur")
        }
    }

    @Test(arguments: [Skips.aroundInsert, .aroundSave])
    fileprivate func anAroundCallbackThatSkipsItsClosureFailsTheInsert(skips: Skips) throws {
        let dbQueue = try makeDatabase()
        var player = Player(id: nil, name: "Arthur", log: CallLog(), skips: skips)
        // GRDB's error and message.
        let error = #expect(throws: DatabaseError.self) { try dbQueue.write { db in try player.insert(db) } }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message?.contains("persistence callback: the action function was not called") == true)
        #expect(error?.message?.contains(skips == .aroundInsert ? "Player.aroundInsert`" : "Player.aroundSave`") == true)
        #expect(try dbQueue.read { try Player.fetchCount($0) } == 0)
        #expect(player.id == nil)
    }

    @Test(arguments: [Skips.aroundUpdate, .aroundSave])
    fileprivate func anAroundCallbackThatSkipsItsClosureFailsTheUpdate(skips: Skips) throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", log: CallLog())
            try player.insert(db)
            var skipping = Player(id: player.id, name: "Barbara", log: CallLog(), skips: skips)
            #expect(throws: DatabaseError.self) { try skipping.update(db) }
            #expect(throws: DatabaseError.self) { try skipping.save(db) }
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur")
        }
    }

    @Test func anAroundDeleteThatSkipsItsClosureFailsTheDelete() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", log: CallLog())
            try player.insert(db)
            let skipping = Player(id: player.id, name: "Arthur", log: CallLog(), skips: .aroundDelete)
            #expect(throws: DatabaseError.self) { try skipping.delete(db) }
            #expect(try Player.fetchCount(db) == 1)
        }
    }

    @Test func batchOperationsRunNoCallback() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        try dbQueue.write { (db: Database) throws in
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.insert(db)
            log.events = []
            try Player.updateAll(db, Column("score").set(to: 5))
            try Player.deleteOne(db, key: 1)
            try Player.deleteAll(db)
        }
        #expect(log.events.isEmpty)
    }

    @Test func classRecordsRunNonMutatingInsertCallbacks() throws {
        let dbQueue = try makeDatabase()
        let author = Author(name: "Herman Melville")
        try dbQueue.write { db in try author.insert(db) }
        #expect(author.events == ["willInsert", "didInsert 1"])
        #expect(author.id == 1)
    }

    @Test func updatingAMissingRowThrowsRecordNotFound() throws {
        let dbQueue = try makeDatabase()
        let player = Player(id: 7, name: "Ghost", log: CallLog())
        do {
            try dbQueue.write { db in try player.update(db) }
            Issue.record("expected recordNotFound")
        } catch RecordError.recordNotFound(let table, let key) {
            #expect(table == "player")
            #expect(key == ["id": 7])
        }
    }
}
