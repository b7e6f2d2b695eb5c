import Foundation
import Testing
import Trellis

// Persistence as application records customize it: a conflict policy that
// turns inserts into replacements, a selection listed from the coding keys
// (which may rename columns), the rowid selected next to all columns,
// containers filled by hand, `Record` subclasses that track their changes,
// and the persistence methods apps call on them.

// MARK: - Insert replaces

private struct CachedProfile: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    static let databaseTableName = "cached_profile"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)

    var rowNumber: Int64?
    var handle: String
    var displayName: String

    enum CodingKeys: String, CodingKey {
        case rowNumber = "id"
        case handle
        case displayName
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        rowNumber = inserted.rowID
    }
}

// MARK: - Selection from coding keys that rename columns

private struct SearchEntry: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "search_entry"

    var query: String
    var scope: String?
    var username: String

    enum CodingKeys: String, CodingKey, ColumnExpression, CaseIterable {
        case query = "search_query"
        case scope = "search_scope"
        case username
    }

    static let databaseSelection: [any SQLSelectable] = CodingKeys.allCases.map { $0 }
}

// MARK: - rowid next to all columns, container filled by hand

private struct Card: FetchableRecord, PersistableRecord, TableRecord, Hashable {
    static let databaseTableName = "cards"
    static let databaseSelection: [any SQLSelectable] = [AllColumns(), Column.rowID]

    var rowID: Int64?
    var name: String
    var recordedAt: Date

    nonisolated(unsafe) static let isoFormatter = ISO8601DateFormatter()

    init(name: String, recordedAt: Date) {
        self.name = name
        self.recordedAt = recordedAt
    }

    init(row: Row) throws {
        rowID = row["rowid"]
        name = row["name"]
        let text: String = row["recorded_at"]
        guard let date = Card.isoFormatter.date(from: text) else {
            throw UnreadableDate(text: text)
        }
        recordedAt = date
    }

    func encode(to container: inout PersistenceContainer) {
        container["name"] = name
        container["recorded_at"] = Card.isoFormatter.string(from: recordedAt)
    }
}

private struct UnreadableDate: Error {
    var text: String
}

// MARK: - A Record subclass

private final class Contact: Record {
    var id: Int64?
    var name: String
    var email: String?

    init(name: String, email: String?) {
        self.name = name
        self.email = email
        super.init()
    }

    override class var databaseTableName: String { "contact" }

    enum Columns: String, ColumnExpression {
        case id, name, email
    }

    required init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        email = row[Columns.email]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.name] = name
        container[Columns.email] = email
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}

private func makePersistenceQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "cached_profile") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("handle", .text).notNull().unique()
            t.column("display_name", .text).notNull()
        }
        try db.create(table: "search_entry") { t in
            t.column("search_query", .text).notNull()
            t.column("search_scope", .text)
            t.column("username", .text).notNull()
            t.column("createdAt", .datetime).notNull().defaults(sql: "CURRENT_TIMESTAMP")
        }
        try db.create(table: "cards") { t in
            t.column("name", .text).notNull()
            t.column("recorded_at", .text).notNull()
        }
        try db.create(table: "contact") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("email", .text)
        }
    }
    return dbQueue
}

@Suite("App usage: persistence")
struct AppUsagePersistenceTests {
    @Test("An insert with the replace policy replaces the row with the same unique key, and gets the new rowid")
    func insertReplaces() throws {
        let dbQueue = try makePersistenceQueue()
        var first = CachedProfile(handle: "@ann", displayName: "Ann")
        var second = CachedProfile(handle: "@ann", displayName: "Ann B.")
        try dbQueue.write { db in
            try first.insert(db)
            try second.insert(db)
        }
        #expect(first.rowNumber == 1)
        #expect(second.rowNumber == 2)
        let stored = try dbQueue.read { db in try CachedProfile.fetchAll(db) }
        #expect(stored == [CachedProfile(rowNumber: 2, handle: "@ann", displayName: "Ann B.")])
        var renamed = stored[0]
        renamed.displayName = "Annie"
        try dbQueue.write { db in try renamed.update(db) }
        #expect(try dbQueue.read { db in try CachedProfile.fetchOne(db, key: 2) }?.displayName == "Annie")
    }

    @Test("A selection listed from renaming coding keys selects those columns only, and decodes")
    func selectionFromCodingKeys() throws {
        let dbQueue = try makePersistenceQueue()
        let entry = SearchEntry(query: "swift", scope: nil, username: "bob")
        try dbQueue.write { db in try entry.insert(db) }
        let (entries, row) = try dbQueue.read { db in
            (try SearchEntry.filter(SearchEntry.CodingKeys.username == "bob").fetchAll(db),
             try Row.fetchOne(db, SearchEntry.all()))
        }
        #expect(entries == [entry])
        #expect(row?.columnNames.sorted() == ["search_query", "search_scope", "username"])
    }

    @Test("rowid selected next to all columns, and dates stored as ISO 8601 text by a hand-written container")
    func rowIDAndHandWrittenContainer() throws {
        let dbQueue = try makePersistenceQueue()
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        try dbQueue.write { db in
            try Card(name: "a", recordedAt: date).insert(db)
            try Card(name: "b", recordedAt: date).insert(db)
            try db.execute(sql: "INSERT INTO cards (name, recorded_at) VALUES ('c', 'someday')")
        }
        let stored = try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT recorded_at FROM cards") }
        #expect(stored == "2020-09-13T12:26:40Z")
        let cards = try dbQueue.read { db in try Card.filter(Column("name") != "c").order(Column.rowID.desc).fetchAll(db) }
        #expect(cards.map(\.rowID) == [2, 1])
        #expect(cards.map(\.recordedAt) == [date, date])
        #expect(throws: UnreadableDate.self) {
            _ = try dbQueue.read { db in try Card.fetchAll(db) }
        }
    }

    @Test("A Record subclass inserts, tracks its changes, updates only what changed, and deletes")
    func recordSubclass() throws {
        let dbQueue = try makePersistenceQueue()
        let contact = Contact(name: "Ann", email: nil)
        try dbQueue.write { db in try contact.insert(db) }
        #expect(contact.id == 1)
        #expect(contact.hasDatabaseChanges == false)

        let fetched = try #require(try dbQueue.read { db in try Contact.fetchOne(db, key: 1) })
        #expect(fetched.hasDatabaseChanges == false)
        fetched.email = "ann@example.com"
        #expect(fetched.hasDatabaseChanges)
        #expect(try Array(fetched.databaseChanges.keys) == ["email"])
        let saved = try dbQueue.write { db in try fetched.updateChanges(db) }
        #expect(saved)
        #expect(fetched.hasDatabaseChanges == false)
        let savedAgain = try dbQueue.write { db in try fetched.updateChanges(db) }
        #expect(savedAgain == false)

        let copy = try fetched.copy()
        #expect(copy.email == "ann@example.com")
        let deleted = try dbQueue.write { db in try copy.delete(db) }
        #expect(deleted)
        #expect(try dbQueue.read { db in try Contact.fetchCount(db) } == 0)
    }

    @Test("save, upsert, insertAndFetch and deleteAll(ids:) on a Codable record")
    func persistenceMethods() throws {
        struct Note: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
            static let databaseTableName = "note"
            var id: String
            var text: String
            var revision: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "note") { t in
                t.primaryKey("id", .text)
                t.column("text", .text).notNull()
                t.column("revision", .integer).notNull().defaults(to: 0)
            }
        }
        let results = try dbQueue.write { db in
            try Note(id: "a", text: "first", revision: 1).save(db)
            try Note(id: "a", text: "second", revision: 2).save(db)
            try Note(id: "b", text: "other", revision: 1).upsert(db)
            try Note(id: "b", text: "other, edited", revision: 2).upsert(db)
            let fetched = try Note(id: "c", text: "third", revision: 1).insertAndFetch(db)
            let all = try Note.order(Column("id")).fetchAll(db)
            let deleted = try Note.deleteAll(db, ids: ["a", "c", "missing"])
            return (fetched, all, deleted)
        }
        #expect(results.0 == Note(id: "c", text: "third", revision: 1))
        #expect(results.1.map(\.text) == ["second", "other, edited", "third"])
        #expect(results.2 == 2)
        #expect(try dbQueue.read { db in try Note.fetchAll(db) }.map(\.id) == ["b"])
        #expect(throws: RecordError.self) {
            try dbQueue.write { db in try Note(id: "zzz", text: "", revision: 0).update(db) }
        }
    }
}
