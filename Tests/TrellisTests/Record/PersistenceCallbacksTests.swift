import Testing
import Trellis

private final class CallLog: @unchecked Sendable {
    var events: [String] = []
}

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var skipAroundInsert = false
    private let log: CallLog

    enum CodingKeys: String, CodingKey { case id, name }

    init(id: Int64?, name: String, log: CallLog, skipAroundInsert: Bool = false) {
        self.id = id
        self.name = name
        self.log = log
        self.skipAroundInsert = skipAroundInsert
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64?.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        log = CallLog()
    }

    mutating func willInsert(_ db: Database) throws { log.events.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        log.events.append("aroundInsert enter")
        if skipAroundInsert { return }
        _ = try insert()
        log.events.append("aroundInsert exit")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        log.events.append("didInsert")
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws { log.events.append("willUpdate") }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundUpdate enter")
        _ = try update()
        log.events.append("aroundUpdate exit")
    }
    func didUpdate(_ updated: PersistenceSuccess) { log.events.append("didUpdate") }
    func willSave(_ db: Database) throws { log.events.append("willSave") }
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundSave enter")
        _ = try save()
        log.events.append("aroundSave exit")
    }
    func didSave(_ saved: PersistenceSuccess) { log.events.append("didSave") }
    func willDelete(_ db: Database) throws { log.events.append("willDelete") }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        log.events.append("aroundDelete enter")
        _ = try delete()
        log.events.append("aroundDelete exit")
    }
    func didDelete(deleted: Bool) { log.events.append("didDelete \(deleted)") }
}

@Suite struct PersistenceCallbacksTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
            }
        }
        return dbQueue
    }

    @Test func insertCallbacksRunInTheDocumentedOrder() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { db in try player.insert(db) }
        #expect(log.events == ["willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit",
                               "didInsert", "aroundSave exit", "didSave"])
        #expect(player.id == 1)
    }

    @Test func updateAndDeleteCallbacksRunInTheDocumentedOrder() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: nil, name: "Arthur", log: log)
        try dbQueue.write { db in
            try player.insert(db)
            log.events = []
            player.name = "Barbara"
            try player.update(db)
            #expect(log.events == ["willSave", "aroundSave enter", "willUpdate", "aroundUpdate enter", "aroundUpdate exit",
                                   "didUpdate", "aroundSave exit", "didSave"])
            log.events = []
            #expect(try player.delete(db))
            #expect(log.events == ["willDelete", "aroundDelete enter", "aroundDelete exit", "didDelete true"])
        }
    }

    @Test func saveRunsTheSaveCallbacksOnce() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: 42, name: "Arthur", log: log)
        try dbQueue.write { db in try player.save(db) }  // no row 42: update fails, then insert
        #expect(log.events.filter { $0 == "willSave" }.count == 1)
        #expect(log.events.contains("willUpdate"))
        #expect(log.events.contains("didInsert"))
        #expect(try dbQueue.read { try Player.fetchOne($0, key: 42)?.name } == "Arthur")
    }

    @Test func upsertRunsTheInsertCallbacks() throws {
        let dbQueue = try makeDatabase()
        let log = CallLog()
        var player = Player(id: 1, name: "Arthur", log: log)
        try dbQueue.write { db in
            try player.upsert(db)
            player.name = "Barbara"
            try player.upsert(db)
        }
        #expect(log.events.filter { $0 == "didInsert" }.count == 2)
        #expect(!log.events.contains("willUpdate"))
        #expect(try dbQueue.read { try Player.fetchAll($0).map(\.name) } == ["Barbara"])
    }

    @Test func anAroundCallbackThatSkipsItsClosureIsAnError() throws {
        let dbQueue = try makeDatabase()
        var player = Player(id: nil, name: "Arthur", log: CallLog(), skipAroundInsert: true)
        #expect(throws: RecordError.self) { try dbQueue.write { db in try player.insert(db) } }
        #expect(try dbQueue.read { try Player.fetchCount($0) } == 0)
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
