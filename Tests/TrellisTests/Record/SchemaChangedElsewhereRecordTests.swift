import Foundation
import Testing
import Trellis

private struct ReshapedPlayer: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var first: String
    var middle: String?
    var last: String
}

private struct ReshapedHandPlayer: FetchableRecord, TableRecord {
    static let databaseTableName = "reshapedPlayer"
    var first: String
    var middle: String?
    var last: String

    init(row: Row) throws {
        first = try row.decode(forColumn: "first")
        middle = try row.decodeIfPresent(forColumn: "middle")
        last = try row.decode(forColumn: "last")
    }
}

private struct AnnotatedPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "annotatedPlayer"
    var id: Int64
    var name: String
    var note: String?
}

/// Another connection changes a table between two fetches of a cached
/// statement: SQLite prepares the statement again at its first step, and
/// the columns it reads move. The records must read the columns left.
@Suite struct SchemaChangedElsewhereRecordTests {
    @Test func recordsReadTheColumnsLeftAfterAnotherConnectionDropsOne() throws {
        let path = NSTemporaryDirectory() + "trellis-reshaped-records-" + UUID().uuidString + ".sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.create(table: "reshapedPlayer") { t in
                t.primaryKey("id", .integer)
                t.column("first", .text).notNull()
                t.column("middle", .text)
                t.column("last", .text).notNull()
            }
            try ReshapedPlayer(id: 1, first: "A", middle: "B", last: "C").insert(db)
        }
        func fetch() throws -> [[String?]] {
            try dbQueue.read { db in
                let codable = try #require(try ReshapedPlayer.fetchOne(db, key: 1))
                let hand = try #require(try ReshapedHandPlayer.fetchOne(db, key: 1))
                let all = try #require(try ReshapedPlayer.fetchAll(db).first)
                let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM reshapedPlayer"))
                return [
                    [codable.first, codable.middle, codable.last],
                    [hand.first, hand.middle, hand.last],
                    [all.first, all.middle, all.last],
                    [row["first"], row["middle"], row["last"]],
                ]
            }
        }
        #expect(try fetch() == Array(repeating: ["A", "B", "C"], count: 4))

        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "ALTER TABLE reshapedPlayer DROP COLUMN middle") }
        try other.close()

        #expect(try fetch() == Array(repeating: ["A", nil, "C"], count: 4))
    }

    @Test func anUpdateWritesAColumnThatAnotherConnectionAdded() throws {
        let path = NSTemporaryDirectory() + "trellis-annotated-" + UUID().uuidString + ".sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.create(table: "annotatedPlayer") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO annotatedPlayer (id, name) VALUES (1, 'A')")
            // The table has no note column yet: an update writes the others.
            try AnnotatedPlayer(id: 1, name: "B", note: "first").update(db)
        }

        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "ALTER TABLE annotatedPlayer ADD COLUMN note TEXT") }
        try other.close()

        try dbQueue.write { db in try AnnotatedPlayer(id: 1, name: "C", note: "second").update(db) }
        let row = try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT name, note FROM annotatedPlayer") }
        #expect(row == ["name": "C", "note": "second"])
    }
}
