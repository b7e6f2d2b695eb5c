import Foundation
import Testing
import Trellis

/// Tables that the `sqlite3` shell's `.import` made from CSV files: every
/// column TEXT, names from the header line, and, when the file came from
/// another database's export, a column named `rowid` that hides the
/// rowid of the table. And a schema file written by hand, whose comments
/// hold parentheses.
@Suite struct CSVImportTests {
    static let script = #"""
        CREATE TABLE "people"("rowid" TEXT, "name" TEXT, "city" TEXT, "Joined On" TEXT);
        INSERT INTO people VALUES ('17', 'Ann', 'Paris', '2021-03-04'), ('3', 'Bob', 'Lyon', ''), ('x9', 'Cid', '', '2020-01-01');
        CREATE TABLE "everything"("rowid" TEXT, "oid" TEXT, "_rowid_" TEXT, "value" TEXT);
        INSERT INTO everything VALUES ('a', 'b', 'c', 'd');
        CREATE TABLE wr(id INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID /* keyed by (id) */;
        INSERT INTO wr VALUES (5, 'five');
        """#

    @Test func aRowIDColumnIsNotTheRowID() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            // The key of the table is its rowid, which the column hides:
            // the rowid is `_rowid_` here.
            let primaryKey = try db.primaryKey("people")
            #expect(primaryKey.isRowID)
            #expect(primaryKey.rowIDColumn == nil)
            #expect(primaryKey.columns == ["_rowid_"])
            // Row 1 is Ann, whatever her `rowid` column says.
            #expect(try Table("people").fetchOne(db, key: 1)?["name"] == "Ann")
            #expect(try Table("people").fetchOne(db, key: 3)?["name"] == "Cid")
            #expect(try Table("people").filter(key: 2).fetchOne(db)?["name"] == "Bob")
            #expect(try Table("people").filter(keys: [1, 2]).fetchCount(db) == 2)
            #expect(try Table("people").exists(db, key: 3))
            // The `rowid` column is text like any other, and no key.
            #expect(try db.table("people", hasUniqueKey: ["rowid"]) == false)
            #expect(try db.table("people", hasUniqueKey: ["_rowid_"]))
            let notAKey = #expect(throws: DatabaseError.self) { try Table("people").fetchOne(db, key: ["rowid": "17"]) }
            #expect(notAKey?.message == "table people has no unique key on column(s) rowid")
            #expect(try Table("people").filter(Column("rowid") == "17").fetchOne(db)?["name"] == "Ann")
            #expect(try Table("people").deleteOne(db, key: 2))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM people ORDER BY _rowid_") == ["Ann", "Cid"])
        }
    }

    @Test func recordsOfAnImportedTableUseTheRowIDAndTheColumn() throws {
        struct Person: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let databaseTableName = "people"
            var rowid: String?
            var name: String
            var city: String
            var joinedOn: String
            enum CodingKeys: String, CodingKey {
                case rowid, name, city
                case joinedOn = "Joined On"
            }
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            let ann = try #require(try Person.fetchOne(db, key: 1))
            #expect(ann == Person(rowid: "17", name: "Ann", city: "Paris", joinedOn: "2021-03-04"))
            #expect(try Person.fetchOne(db, key: 17) == nil)
            #expect(try Person.deleteOne(db, key: 3))
            #expect(try Person.fetchAll(db).map(\.name) == ["Ann", "Bob"])
            try Person(rowid: "40", name: "Dan", city: "Nice", joinedOn: "").insert(db)
            #expect(try Row.fetchOne(db, sql: #"SELECT _rowid_ AS r, "rowid" AS c FROM people WHERE name = 'Dan'"#) == ["r": 3, "c": "40"])
        }
    }

    @Test func aTableWhoseColumnsHideEveryRowIDNameHasNoKey() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try Table("everything").fetchAll(db).count == 1)
            let error = #expect(throws: DatabaseError.self) { try Table("everything").fetchOne(db, key: 1) }
            #expect(error?.message == "the rowid of table everything can not be selected: its columns rowid, _rowid_ and oid hide it")
        }
    }

    @Test func aCommentAfterTheOptionsDoesNotHideWithoutRowID() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.primaryKey("wr").rowIDColumn == nil)
            #expect(try db.primaryKey("wr").isRowID == false)
            #expect(try db.table("wr", hasUniqueKey: ["rowid"]) == false)
            #expect(try db.table("wr", hasUniqueKey: ["id"]))
            #expect(try Table("wr").fetchOne(db, key: 5)?["v"] == "five")
        }
    }
}

/// Records of an imported table learn the rowid, not their `rowid` column.
@Suite struct CSVImportInsertionTests {
    struct Person: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "people"
        var rowid: String?
        var name: String
        var city: String
        var insertedRowID: Int64?
        enum CodingKeys: String, CodingKey { case rowid, name, city }
        mutating func didInsert(_ inserted: InsertionSuccess) { insertedRowID = inserted.rowID }
    }

    @Test func insertionsReportTheRowIDOfTheRow() throws {
        let file = try RealDatabaseFile(CSVImportTests.script)
        try file.open().write { (db) throws in
            var dan = Person(rowid: "40", name: "Dan", city: "Nice")
            try dan.insert(db)
            #expect(dan.insertedRowID == 4)
            var eve = Person(rowid: "41", name: "Eve", city: "Metz")
            try eve.upsert(db)
            #expect(eve.insertedRowID == 5)
            let fetched = try Person(rowid: "42", name: "Fay", city: "Pau").insertAndFetch(db)
            #expect(fetched.rowid == "42")
            let rows = try Row.fetchAll(db, sql: #"SELECT _rowid_ AS r, "rowid" AS c FROM people WHERE _rowid_ > 3"#)
            #expect(rows == [["r": 4, "c": "40"], ["r": 5, "c": "41"], ["r": 6, "c": "42"]])
        }
    }
}
