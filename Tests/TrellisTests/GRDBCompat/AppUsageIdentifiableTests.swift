import Foundation
import Testing
import Trellis

// Identifiable records whose id is optional until insertion, in the calls
// that application layers make with them: lookups and filters by an
// optional id or by a collection of unwrapped ids, `inserted` and
// `upsertAndFetch` copies, `updateChanges` with a closure, methods passed
// by reference to `read` and `write`, and orderings and filters declared on
// an included association.

private struct Interaction: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
    var id: Int64?
    var bookmarked: Date?
    var lastViewed: Date?
    var viewCount: UInt = 0

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let bookmarked = Column(CodingKeys.bookmarked)
        static let lastViewed = Column(CodingKeys.lastViewed)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct Picture: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
    var id: String
    var name: String
    var fetchDate: Date
    var interactionId: Int64?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let interactionId = Column(CodingKeys.interactionId)
    }

    static let interaction = belongsTo(Interaction.self)
}

private struct PictureInfo: Decodable, FetchableRecord, Equatable {
    var picture: Picture
    var interaction: Interaction?
}

private func makePictureQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "interaction") { t in
            t.column("id", .integer).primaryKey(autoincrement: true)
            t.column("bookmarked", .datetime)
            t.column("lastViewed", .datetime)
            t.column("viewCount", .integer).notNull().defaults(to: 0)
        }
        try db.create(table: "picture") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull()
            t.column("fetchDate", .text).notNull()
        }
        try db.alter(table: "picture") { t in
            t.add(column: "interactionId").references("interaction", onDelete: .setNull).indexed()
        }
    }
    return dbQueue
}

@Suite("App usage: identifiable records with optional ids")
struct AppUsageIdentifiableTests {
    @Test("Adding a referencing column in an alteration creates its index, and its foreign key acts")
    func alterAddsIndexedReference() throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.create(table: "interaction") { t in
                t.column("id", .integer).primaryKey(autoincrement: true)
            }
            try db.create(table: "picture") { t in
                t.primaryKey("id", .text)
            }
            try db.alter(table: "picture") { t in
                t.add(column: "interactionId").references("interaction", onDelete: .setNull).indexed()
            }
        }
        let (indexedColumns, foreignKeys) = try dbQueue.read { db in
            (try db.indexes(on: "picture").map(\.columns), try db.foreignKeys(on: "picture").map(\.destinationTable))
        }
        #expect(indexedColumns.contains(["interactionId"]))
        #expect(foreignKeys == ["interaction"])
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO interaction DEFAULT VALUES")
            try db.execute(sql: "INSERT INTO picture (id, interactionId) VALUES ('p', 1)")
            try db.execute(sql: "DELETE FROM interaction")
        }
        let link = try dbQueue.read { db in try Int64.fetchOne(db, sql: "SELECT interactionId FROM picture") }
        #expect(link == nil)
    }

    @Test("Lookups by an optional id, and by collections of unwrapped ids")
    func optionalIDs() throws {
        let dbQueue = try makePictureQueue()
        let inserted = try dbQueue.write { db in
            try [Interaction(), Interaction(viewCount: 2), Interaction(viewCount: 5)].map { try $0.inserted(db) }
        }
        #expect(inserted.map(\.id) == [1, 2, 3])
        let noID: Int64? = nil
        let someID: Int64? = 2
        let results = try dbQueue.read { db in
            (
                try Interaction.fetchOne(db, id: noID),
                try Interaction.fetchOne(db, id: someID),
                try Interaction.filter(id: someID).fetchCount(db),
                try Interaction.filter(id: noID).fetchCount(db),
                try Interaction.fetchAll(db, ids: [3, 1]).map(\.id),
                try Interaction.filter(ids: [1, 2]).fetchCount(db),
                try Interaction.exists(db, id: 3)
            )
        }
        #expect(results.0 == nil)
        #expect(results.1?.viewCount == 2)
        #expect(results.2 == 1)
        #expect(results.3 == 0)
        #expect(Set(results.4) == [1, 3])
        #expect(results.5 == 2)
        #expect(results.6)
        let deleted = try dbQueue.write { db in try Interaction.deleteAll(db, ids: [1, 3, 99]) }
        #expect(deleted == 2)
    }

    @Test("upsertAndFetch, updateChanges with a closure, and an included association ordered and filtered")
    func upsertUpdateChangesAndIncludedOrdering() throws {
        let dbQueue = try makePictureQueue()
        let day = Date(timeIntervalSince1970: 86_400)
        try dbQueue.write { db in
            var first = try Interaction(bookmarked: day, lastViewed: day).inserted(db)
            var second = try Interaction(bookmarked: nil, lastViewed: day.addingTimeInterval(10)).inserted(db)
            _ = try Interaction(bookmarked: day.addingTimeInterval(5), lastViewed: day.addingTimeInterval(20)).inserted(db)
            _ = try Picture(id: "a", name: "A", fetchDate: day, interactionId: first.id).upsertAndFetch(db)
            _ = try Picture(id: "b", name: "B", fetchDate: day, interactionId: second.id).upsertAndFetch(db)
            _ = try Picture(id: "c", name: "C", fetchDate: day, interactionId: 3).upsertAndFetch(db)
            _ = try Picture(id: "d", name: "D", fetchDate: day, interactionId: nil).upsertAndFetch(db)
            let changed = try first.updateChanges(db) { $0.viewCount += 1 }
            let unchanged = try second.updateChanges(db) { $0.viewCount = 0 }
            #expect(changed)
            #expect(!unchanged)
        }
        let (recent, bookmarked, all) = try dbQueue.read { db in
            (
                try Picture
                    .including(required: Picture.interaction.order(\.lastViewed.desc))
                    .asRequest(of: PictureInfo.self)
                    .fetchAll(db),
                try Picture
                    .including(required: Picture.interaction.filter { $0.bookmarked != nil }.order(\.bookmarked.desc))
                    .asRequest(of: PictureInfo.self)
                    .fetchAll(db),
                try Picture.including(optional: Picture.interaction).order(Picture.Columns.id).asRequest(of: PictureInfo.self).fetchAll(db)
            )
        }
        #expect(recent.map(\.picture.id) == ["c", "b", "a"])
        #expect(bookmarked.map(\.picture.id) == ["c", "a"])
        #expect(all.map(\.interaction?.viewCount) == [1, 0, 0, nil])
    }

    @Test("Methods passed by reference to read and write")
    func methodReferences() throws {
        let dbQueue = try makePictureQueue()
        let day = Date(timeIntervalSince1970: 0)
        let picture = Picture(id: "a", name: "A", fetchDate: day, interactionId: nil)
        try dbQueue.write { db in try picture.insert(db) }
        let count = try dbQueue.read(Picture.fetchCount)
        let all = try dbQueue.read(Picture.fetchAll)
        let ids = try dbQueue.read { db in try Picture.select(\.id, as: String.self).fetchSet(db) }
        let deletedOne = try dbQueue.write(picture.delete)
        try dbQueue.write { db in try picture.insert(db) }
        let deletedAll = try dbQueue.write(Picture.deleteAll)
        #expect(count == 1)
        #expect(all == [picture])
        #expect(ids == ["a"])
        #expect(deletedOne)
        #expect(deletedAll == 1)
    }
}
