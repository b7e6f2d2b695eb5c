import Foundation
import Testing
import Trellis

// The persistence methods that fetch what they write (RETURNING), and
// their conflict resolutions and selections.

@Suite("RETURNING persistence methods")
struct ReturningPersistenceTests {
    struct Partial: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        static let databaseTableName = "x"
        static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]
        var id: Int64?
        var name: String
        var score: Int?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Excluding: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
        static let databaseTableName = "x"
        static let databaseSelection: [any SQLSelectable] = [.allColumns(excluding: ["score"])]
        var id: Int64
        var name: String
        var score: Int?
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE x(id INTEGER PRIMARY KEY, name TEXT, score INT)")
        }
        return dbQueue
    }

    @Test("The …AndFetch methods return the columns of the record's databaseSelection")
    func andFetchMethodsHonorTheSelection() throws {
        try makeDatabase().write { (db: Database) throws in
            let inserted = try Partial(id: nil, name: "a", score: 5).insertAndFetch(db)
            #expect(inserted == Partial(id: 1, name: "a", score: nil))
            var record = inserted
            record.name = "b"
            #expect(try record.updateAndFetch(db) == Partial(id: 1, name: "b", score: nil))
            #expect(try record.saveAndFetch(db) == Partial(id: 1, name: "b", score: nil))
            #expect(try record.upsertAndFetch(db) == Partial(id: 1, name: "b", score: nil))
            let changed = try record.updateChangesAndFetch(db) { $0.name = "c" }
            #expect(changed == Partial(id: 1, name: "c", score: nil))

            let excluding = try Excluding(id: 2, name: "e", score: 7).insertAndFetch(db)
            #expect(excluding == Excluding(id: 2, name: "e", score: nil))
            #expect(try Excluding.filter(id: 2).deleteAndFetchAll(db) == [Excluding(id: 2, name: "e", score: nil)])
        }
    }

    @Test("updateChanges and saveAndFetch take a conflict resolution and a selection, as in GRDB")
    func moreConflictAndSelectionVariants() throws {
        try makeDatabase().write { (db: Database) throws in
            try db.execute(sql: "CREATE UNIQUE INDEX xName ON x(name)")
            var a = Partial(id: nil, name: "a", score: 1)
            try a.insert(db)
            var b = Partial(id: nil, name: "b", score: 2)
            try b.insert(db)
            // The conflict with a's name replaces a's row.
            #expect(try b.updateChanges(db, onConflict: .replace) { $0.name = "a" })
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM x") == 1)
            let old = b
            b.score = 3
            #expect(try b.updateChanges(db, onConflict: .abort, from: old))
            let score = try b.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
            #expect(score == 3)
        }
    }

    @Test("deleteAndFetchIds returns the set of deleted ids; a nil key finds and deletes nothing")
    func deleteAndFetchIdsAndNilKeys() throws {
        try makeDatabase().write { (db: Database) throws in
            for id in 1...3 { try Excluding(id: Int64(id), name: "\(id)", score: id).insert(db) }
            #expect(try Excluding.filter(Column("score") >= 2).deleteAndFetchIds(db) == [2, 3])
            #expect(try Excluding.fetchOne(db, key: nil) == nil)
            #expect(try Excluding.deleteOne(db, key: nil) == false)
            let key: Int64? = 1
            #expect(try Excluding.fetchOne(db, key: key)?.name == "1")
            #expect(try Excluding.deleteOne(db, key: key))
        }
    }
}
