import Foundation
import Testing
import Trellis

/// Tables imported from other systems often have a column named `RowID`,
/// which hides the rowid in SQL: the statements that select rows by rowid
/// use `_rowid_` or `oid` instead.
@Suite struct ShadowedRowIDTests {
    private func names(_ db: Database, _ table: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM \(table) ORDER BY name")
    }

    @Test func deleteAllWithALimitDeletesTheRowsOfTheRequest() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE legacy("rowid" TEXT, name TEXT);
                INSERT INTO legacy VALUES ('dup', 'a'), ('dup', 'b'), ('dup', 'c'), ('x', 'd');
                """)
            let deleted = try Table("legacy").order(Column("name")).limit(1).deleteAll(db)
            #expect(deleted == 1)
            #expect(try names(db, "legacy") == ["b", "c", "d"])
        }
    }

    @Test func updateAllWithALimitUpdatesTheRowsOfTheRequest() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE legacy(RowID INTEGER, _ROWID_ INTEGER, name TEXT);
                INSERT INTO legacy VALUES (NULL, NULL, 'a'), (NULL, NULL, 'b'), (7, 7, 'c');
                """)
            let updated = try Table("legacy").order(Column("name").desc).limit(2).updateAll(db, Column("name").set(to: "Z"))
            #expect(updated == 2)
            #expect(try names(db, "legacy") == ["Z", "Z", "a"])
        }
    }

    @Test func insertAllGivesIdsAboveTheLargestRowID() throws {
        struct Record: Codable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "legacy"
            var id: Int64?
            var name: String
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE legacy(id INTEGER PRIMARY KEY, RowID INT DEFAULT 500, name TEXT);
                INSERT INTO legacy(id, name) VALUES (1000, 'first');
                """)
            let first = try [Record(id: nil, name: "a"), Record(id: nil, name: "b")].insertAll(db)
            #expect(first.map(\.id) == [1001, 1002])
            let second = try [Record(id: nil, name: "c"), Record(id: nil, name: "d")].insertAndFetchAll(db)
            #expect(second.map(\.id) == [1003, 1004])
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM legacy ORDER BY id") == [1000, 1001, 1002, 1003, 1004])
        }
    }

    @Test func insertAndFetchAllMatchesRowsByTheirRowID() throws {
        struct Record: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
            static let databaseTableName = "legacy"
            var RowID: Int
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE legacy(RowID INT, name TEXT)")
            let fetched = try [Record(RowID: 7, name: "p"), Record(RowID: 7, name: "q")].insertAndFetchAll(db)
            #expect(fetched == [Record(RowID: 7, name: "p"), Record(RowID: 7, name: "q")])
        }
    }

    @Test func aTableWhoseThreeRowIDNamesAreColumnsIsAClearError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE legacy(rowid TEXT, _rowid_ TEXT, oid TEXT, name TEXT);
                INSERT INTO legacy VALUES ('x', 'x', 'x', 'a'), ('x', 'x', 'x', 'b');
                """)
            let error = #expect(throws: DatabaseError.self) {
                try Table("legacy").order(Column("name")).limit(1).deleteAll(db)
            }
            #expect(error?.message == "the rowid of table legacy can not be selected: its columns rowid, _rowid_ and oid hide it")
            #expect(try names(db, "legacy") == ["a", "b"])
        }
    }
}
