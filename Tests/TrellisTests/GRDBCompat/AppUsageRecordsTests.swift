import Foundation
import Testing
import Trellis

// Record shapes that application database layers declare, in the shape they
// use them: auto-incremented ids set in `didInsert`, nested string enums,
// column enums derived from coding keys, strategies declared per record,
// records that are database values themselves, and manual `init(row:)`
// built on top of another record.

// MARK: - An outbox of queued intents

private struct QueuedIntent: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Sendable {
    static let databaseTableName = "queuedIntent"

    enum Kind: String, Codable, Sendable, CaseIterable {
        case post
        case like
    }

    var id: Int64?
    var token: String
    var kind: Kind
    var body: Data?
    var createdAt: Date
    var attempts: Int
    var lastError: String?

    init(id: Int64? = nil, token: String, kind: Kind, body: Data? = nil, createdAt: Date, attempts: Int = 0) {
        self.id = id
        self.token = token
        self.kind = kind
        self.body = body
        self.createdAt = createdAt
        self.attempts = attempts
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private func makeIntentQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "queuedIntent") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("token", .text).notNull().unique()
            t.column("kind", .text).notNull()
            t.column("body", .blob)
            t.column("createdAt", .datetime).notNull()
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("lastError", .text)
        }
    }
    return dbQueue
}

@Suite("App usage: records")
struct AppUsageRecordsTests {
    @Test("An outbox record gets its id in didInsert, and is found, ordered, counted and deleted by key")
    func outboxRecord() throws {
        let dbQueue = try makeIntentQueue()
        let early = Date(timeIntervalSince1970: 1_000)
        let late = Date(timeIntervalSince1970: 2_000)
        let inserted: [QueuedIntent] = try dbQueue.write { db in
            var second = QueuedIntent(token: "b", kind: .like, createdAt: late)
            try second.insert(db)
            var first = QueuedIntent(token: "a", kind: .post, body: Data([1, 2]), createdAt: early)
            try first.insert(db)
            return [first, second]
        }
        #expect(inserted.map(\.id) == [2, 1])

        let pending = try dbQueue.read { db in
            try QueuedIntent.order(Column("createdAt"), Column("id")).limit(10).fetchAll(db)
        }
        #expect(pending == inserted)
        #expect(pending[0].kind == .post)
        #expect(pending[0].body == Data([1, 2]))

        let kindOnDisk = try dbQueue.read { db in
            try String.fetchOne(db, sql: "SELECT kind FROM queuedIntent WHERE token = 'b'")
        }
        #expect(kindOnDisk == "like")

        let existing = try dbQueue.read { db in
            try QueuedIntent.filter(Column("token") == "a").fetchOne(db)
        }
        #expect(existing?.id == 2)

        try dbQueue.write { db in
            try db.execute(
                sql: "UPDATE queuedIntent SET attempts = attempts + 1, lastError = ? WHERE id = ?",
                arguments: ["offline", 1])
        }
        let retried = try dbQueue.read { db in try QueuedIntent.fetchOne(db, key: 1) }
        #expect(retried?.attempts == 1)
        #expect(retried?.lastError == "offline")

        let deleted = try dbQueue.write { db in try QueuedIntent.deleteOne(db, key: 1) }
        let deletedAgain = try dbQueue.write { db in try QueuedIntent.deleteOne(db, key: 1) }
        #expect(deleted)
        #expect(!deletedAgain)
        #expect(try dbQueue.read { db in try QueuedIntent.fetchCount(db) } == 1)
    }

    @Test("A unique constraint violation on insert throws SQLITE_CONSTRAINT and leaves the id nil")
    func uniqueViolation() throws {
        let dbQueue = try makeIntentQueue()
        try dbQueue.write { db in
            var first = QueuedIntent(token: "same", kind: .post, createdAt: Date())
            try first.insert(db)
        }
        var duplicate = QueuedIntent(token: "same", kind: .like, createdAt: Date())
        do {
            try dbQueue.write { db in try duplicate.insert(db) }
            Issue.record("Expected a constraint error")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        }
        #expect(duplicate.id == nil)
    }
}

// MARK: - Columns derived from coding keys, unsigned integers, hasOne requests

private struct Visit: Equatable, Hashable, Sendable, Identifiable {
    var id: Int64?
    var lastSeen: Date?
    var seenCount: UInt
    var isPinned: Bool
}

extension Visit: Codable, FetchableRecord, MutablePersistableRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let lastSeen = Column(CodingKeys.lastSeen)
        static let seenCount = Column(CodingKeys.seenCount)
        static let isPinned = Column(CodingKeys.isPinned)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    static let place = hasOne(Place.self)

    var place: QueryInterfaceRequest<Place> {
        request(for: Visit.place)
    }
}

private struct Place: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: String
    var visitId: Int64
    var title: String
}

@Suite("App usage: record columns")
struct AppUsageRecordColumnsTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "visit") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("lastSeen", .datetime)
                t.column("seenCount", .integer).notNull()
                t.column("isPinned", .boolean).notNull()
            }
            try db.create(table: "place") { t in
                t.primaryKey("id", .text)
                t.belongsTo("visit", onDelete: .cascade).notNull()
                t.column("title", .text).notNull()
            }
        }
        return dbQueue
    }

    @Test("Columns made from coding keys filter, order and update; UInt round-trips; hasOne requests its row")
    func columnsFromCodingKeys() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            var visit = Visit(id: nil, lastSeen: nil, seenCount: UInt(UInt32.max) + 1, isPinned: true)
            try visit.insert(db)
            var other = Visit(id: nil, lastSeen: Date(timeIntervalSince1970: 10), seenCount: 3, isPinned: false)
            try other.insert(db)
            try Place(id: "p1", visitId: visit.id!, title: "Harbour").insert(db)
        }
        try dbQueue.read { db in
            let pinned = try Visit.filter(Visit.Columns.isPinned == true).fetchAll(db)
            #expect(pinned.map(\.seenCount) == [UInt(UInt32.max) + 1])
            let unseen = try Visit.filter(Visit.Columns.lastSeen == nil).fetchCount(db)
            #expect(unseen == 1)
            let ordered = try Visit.order(Visit.Columns.seenCount.desc).fetchAll(db)
            #expect(ordered.map(\.id) == [1, 2])
            let place = try pinned[0].place.fetchOne(db)
            #expect(place?.title == "Harbour")
            #expect(try ordered[1].place.fetchOne(db) == nil)
        }
        let updated = try dbQueue.write { db in
            try Visit.filter(Visit.Columns.id == 2).updateAll(db, Visit.Columns.seenCount += 1)
        }
        #expect(updated == 1)
        #expect(try dbQueue.read { db in try Visit.find(db, id: 2).seenCount } == 4)
    }

    @Test("A UInt above Int64.max is stored as a REAL, and reading it back throws rather than rounding")
    func unsignedAboveInt64() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            var visit = Visit(id: nil, lastSeen: nil, seenCount: UInt.max, isPinned: false)
            try visit.insert(db)
        }
        let storage = try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT typeof(seenCount) FROM visit") }
        #expect(storage == "real")
        #expect(throws: (any Error).self) {
            _ = try dbQueue.read { db in try Visit.fetchAll(db) }
        }
    }
}

// MARK: - A record that is a database value: JSON in a text column

private struct SavedFilter: Codable, Hashable, Sendable {
    var words: [String]
    var matchAll: Bool
}

extension SavedFilter: DatabaseValueConvertible {
    var databaseValue: DatabaseValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(self) else { return .null }
        return String(decoding: data, as: UTF8.self).databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> SavedFilter? {
        guard let string = String.fromDatabaseValue(dbValue) else { return nil }
        return try? JSONDecoder().decode(SavedFilter.self, from: Data(string.utf8))
    }
}

private struct SmartFolder: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String
    var filter: SavedFilter
    var backup: SavedFilter?
}

@Suite("App usage: records with database value properties")
struct AppUsageDatabaseValueRecordTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "smartFolder") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("filter", .text).notNull()
                t.column("backup", .text)
            }
        }
        return dbQueue
    }

    @Test("A Codable property that is DatabaseValueConvertible is stored through databaseValue")
    func storedThroughDatabaseValue() throws {
        let dbQueue = try makeQueue()
        let folder = SmartFolder(id: 1, name: "Work", filter: SavedFilter(words: ["a", "b"], matchAll: true), backup: nil)
        try dbQueue.write { db in try folder.insert(db) }
        let stored = try dbQueue.read { db in
            try Row.fetchOne(db, sql: "SELECT filter, backup FROM smartFolder")
        }
        #expect(stored?["filter"] as String? == #"{"matchAll":true,"words":["a","b"]}"#)
        #expect(stored?["backup"] as String? == nil)
        #expect(try dbQueue.read { db in try SmartFolder.fetchOne(db) } == folder)
    }

    @Test("A database value that fromDatabaseValue rejects makes the fetch throw")
    func rejectedValueThrows() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO smartFolder (id, name, filter) VALUES (1, 'Broken', 'not json')")
        }
        #expect(throws: (any Error).self) {
            _ = try dbQueue.read { db in try SmartFolder.fetchAll(db) }
        }
        // The raw value is still there for a repair.
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT filter FROM smartFolder") } == "not json")
    }

    @Test("A database value read through a row subscript in a typed optional")
    func rowSubscript() throws {
        let dbQueue = try makeQueue()
        let filter = SavedFilter(words: ["x"], matchAll: false)
        try dbQueue.write { db in
            try db.execute(
                sql: "INSERT INTO smartFolder (id, name, filter) VALUES (?, ?, ?)",
                arguments: [7, "Seven", filter])
        }
        let row = try #require(try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT * FROM smartFolder") })
        #expect(row["filter"] as SavedFilter? == filter)
        #expect(row["backup"] as SavedFilter? == nil)
        let direct = try dbQueue.read { db in try SavedFilter.fetchOne(db, sql: "SELECT filter FROM smartFolder") }
        #expect(direct == filter)
    }
}
