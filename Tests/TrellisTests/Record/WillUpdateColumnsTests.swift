import Foundation
import Testing
import Trellis

// The columns that an update tells `willUpdate`, as in GRDB 7.

@Suite("Columns told to willUpdate")
struct WillUpdateColumnsTests {
    private final class Log: @unchecked Sendable { var columns: [[String]] = [] }

    private struct Item: Codable, FetchableRecord, MutablePersistableRecord {
        static let log = Log()
        var id: Int64?
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        func willUpdate(_ db: Database, columns: Set<String>) throws {
            Self.log.columns.append(columns.sorted())
        }
    }

    @Test("update(db) tells willUpdate all the columns of the table, as GRDB does")
    func willUpdateGetsTheTableColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0)")
            var item = Item(id: nil, name: "a")
            try item.insert(db)
            try item.update(db)
            try item.update(db, columns: ["name"])
            try item.updateChanges(db) { $0.name = "b" }
        }
        #expect(Item.log.columns == [["id", "name", "score"], ["name"], ["name"]])
    }
}
