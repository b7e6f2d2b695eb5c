import Foundation
import Testing
import TrellisMacros

@DatabaseRecord
private struct ReshapedMacroPlayer: FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "reshapedMacroPlayer"
    var id: Int64
    var first: String
    var middle: String?
    var last: String
}

/// Another connection drops a column between two fetches of a macro
/// record's cached statements: SQLite prepares them again at their first
/// step, and the record, which read by position, must read by name.
@Suite struct DatabaseRecordSchemaChangeTests {
    @Test func aMacroRecordReadsTheColumnsLeftAfterAnotherConnectionDropsOne() throws {
        let path = NSTemporaryDirectory() + "trellis-reshaped-macro-" + UUID().uuidString + ".sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.create(table: "reshapedMacroPlayer") { t in
                t.primaryKey("id", .integer)
                t.column("first", .text).notNull()
                t.column("middle", .text)
                t.column("last", .text).notNull()
            }
            try ReshapedMacroPlayer(id: 1, first: "A", middle: "B", last: "C").insert(db)
        }
        func fetch() throws -> [ReshapedMacroPlayer?] {
            try dbQueue.read { db in
                [try ReshapedMacroPlayer.fetchOne(db, key: 1), try ReshapedMacroPlayer.fetchAll(db).first]
            }
        }
        #expect(try fetch() == Array(repeating: ReshapedMacroPlayer(id: 1, first: "A", middle: "B", last: "C"), count: 2))

        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "ALTER TABLE reshapedMacroPlayer DROP COLUMN middle") }
        try other.close()

        #expect(try fetch() == Array(repeating: ReshapedMacroPlayer(id: 1, first: "A", middle: nil, last: "C"), count: 2))
    }
}
