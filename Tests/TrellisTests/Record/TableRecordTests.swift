import Foundation
import Testing
import Trellis

private struct Place: TableRecord {}
private struct Country: TableRecord {}
private struct PostalAddress: TableRecord {}
private struct HTTPRequest: TableRecord {}
private struct TOEFL: TableRecord {}
private struct Location: TableRecord {
    static let databaseTableName = "place"
}
private enum Outer {
    struct InnerThing: TableRecord {}
}
private struct Box<Content>: TableRecord {}

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String
    var score: Int
}

/// Selects a limited set of columns.
private struct RestrictedPlayer: Decodable, FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "player"
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }
    static var databaseSelection: [any SQLSelectable] { [Columns.id, Columns.name] }
    var id: Int64
    var name: String
}

/// Selects all columns and the rowid.
private struct ExtendedPlayer: FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
    var row: Row
    init(row: Row) { self.row = row.copy() }
}

@Suite struct TableRecordTests {
    @Test func defaultTableNamesDeriveFromTheTypeName() {
        #expect(Place.databaseTableName == "place")
        #expect(Country.databaseTableName == "country")
        #expect(PostalAddress.databaseTableName == "postalAddress")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(TOEFL.databaseTableName == "toefl")
        #expect(Outer.InnerThing.databaseTableName == "innerThing")
        #expect(Box<Int>.databaseTableName == "box")
    }

    @Test func aCustomTableNameReplacesTheDefault() {
        #expect(Location.databaseTableName == "place")
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                INSERT INTO player VALUES (1, 'Arthur', 100);
                INSERT INTO player VALUES (2, 'Barbara', 200);
                """)
        }
        return dbQueue
    }

    @Test func databaseSelectionControlsTheSelectedColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, RestrictedPlayer.all()))
            #expect(row.columnNames == ["id", "name"])
            #expect(try RestrictedPlayer.fetchAll(db) == [
                RestrictedPlayer(id: 1, name: "Arthur"), RestrictedPlayer(id: 2, name: "Barbara"),
            ])
            #expect(try RestrictedPlayer.fetchOne(db)?.name == "Arthur")
            #expect(try Row.fetchOne(db, RestrictedPlayer.filter(Column("score") > 150))?.columnNames == ["id", "name"])
            #expect(try RestrictedPlayer.filter(Column("score") > 150).fetchOne(db)?.id == 2)
            #expect(try Row.fetchOne(db, RestrictedPlayer.all().reversed().orderByPrimaryKey()) == ["id": 1, "name": "Arthur"])
        }
    }

    @Test func databaseSelectionAppliesToKeyLookups() throws {
        struct KeyedPlayer: FetchableRecord, TableRecord {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [Column("name")] }
            var columnNames: [String]
            init(row: Row) { columnNames = row.columnNames }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try KeyedPlayer.fetchOne(db, key: 1)?.columnNames == ["name"])
            #expect(try KeyedPlayer.fetchAll(db, keys: [1, 2]).map(\.columnNames) == [["name"], ["name"]])
            #expect(try KeyedPlayer.find(db, key: 2).columnNames == ["name"])
        }
    }

    @Test func allColumnsAndRowIDCanBeSelected() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let player = try #require(try ExtendedPlayer.fetchOne(db))
            // SQLite names the rowid after its alias, the INTEGER PRIMARY KEY.
            #expect(player.row.count == 4)
            #expect(player.row.databaseValues == [1, "Arthur", 100, 1])
            let row = try #require(try Row.fetchOne(db, Player.select(.rowID, Column("name")).filter(key: 2)))
            #expect(row.databaseValues == [2, "Barbara"])
            #expect(try Row.fetchOne(db, Player.select([.allColumns]).filter(key: 1)) == ["id": 1, "name": "Arthur", "score": 100])
        }
    }

    @Test func tableRecordsBuildRequestsWithoutFetchableRecord() throws {
        struct PlayerTable: TableRecord {
            static let databaseTableName = "player"
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try PlayerTable.fetchCount(db) == 2)
            #expect(try Row.fetchAll(db, PlayerTable.order(Column("name").desc)).map { $0["name"] as String } == ["Barbara", "Arthur"])
            #expect(try PlayerTable.exists(db, key: 1))
            #expect(try PlayerTable.filter(Column("score") > 150).fetchCount(db) == 1)
            #expect(try PlayerTable.updateAll(db, Column("score").set(to: 0)) == 2)
            #expect(try PlayerTable.deleteAll(db) == 2)
            #expect(try PlayerTable.fetchCount(db) == 0)
        }
    }

    @Test func columnsAreDeclaredAsEnumsOrStaticProperties() throws {
        struct EnumPlayer: Decodable, FetchableRecord, TableRecord {
            static let databaseTableName = "player"
            enum Columns: String, ColumnExpression { case id, name, score }
            var name: String
        }
        struct KeyedPlayer: Decodable, FetchableRecord, TableRecord {
            static let databaseTableName = "player"
            var name: String
            var score: Int
            enum Columns {
                static let name = Column(CodingKeys.name)
                static let score = Column(CodingKeys.score)
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(EnumPlayer.Columns.score.name == "score")
            #expect(KeyedPlayer.Columns.name.name == "name")
            #expect(try EnumPlayer.filter { $0.score > 150 }.fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try KeyedPlayer.filter { $0.name == "Arthur" }.fetchOne(db)?.score == 100)
            #expect(try EnumPlayer.order(EnumPlayer.Columns.name.desc).fetchAll(db).map(\.name) == ["Barbara", "Arthur"])
            #expect(try KeyedPlayer.order(\.score.desc).fetchAll(db).map(\.name) == ["Barbara", "Arthur"])
        }
    }

    @Test func aMissingTableIsAClearError() throws {
        struct Ghost: Decodable, FetchableRecord, TableRecord { var id: Int64 }
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let fetchAll = #expect(throws: DatabaseError.self) { try Ghost.fetchAll(db) }
            #expect(fetchAll?.message == "no such table: ghost")
            let fetchOne = #expect(throws: DatabaseError.self) { try Ghost.fetchOne(db, key: 1) }
            #expect(fetchOne?.message?.contains("ghost") == true)
            let count = #expect(throws: DatabaseError.self) { try Ghost.fetchCount(db) }
            #expect(count?.message?.contains("ghost") == true)
            #expect(try Player.fetchCount(db) == 2)
        }
    }
}
