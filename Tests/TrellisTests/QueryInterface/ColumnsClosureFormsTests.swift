import Foundation
import Testing
import Trellis

// The closure forms of requests, which receive the record's `Columns`,
// and the array forms of `select` and `annotated(with:)`.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var country: String
    var score: Int
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let country = Column(CodingKeys.country)
        static let score = Column(CodingKeys.score)
    }
}

@Suite struct ColumnsClosureFormsTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("country", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", country: "FR", score: 5).insert(db)
            try Player(id: 2, name: "Barbara", country: "US", score: 20).insert(db)
            try Player(id: 3, name: "Craig", country: "FR", score: 15).insert(db)
        }
        return dbQueue
    }

    @Test func staticClosureForms() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try String.fetchAll(db, Player.select { $0.country }.order { $0.id }) == ["FR", "US", "FR"])
            let rows = try Row.fetchAll(db, Player.select { [$0.name, $0.score] }.order { $0.score.desc })
            #expect(rows.map { $0["name"] as String } == ["Barbara", "Craig", "Arthur"])
            #expect(rows.first?.count == 2)
            #expect(try Player.filter { $0.score > 10 }.order { $0.name }.fetchAll(db).map(\.id) == [2, 3])
            #expect(try Player.order { $0.score.desc }.fetchAll(db).map(\.id) == [2, 3, 1])
            #expect(try Player.order { [$0.country, $0.score.desc] }.fetchAll(db).map(\.id) == [3, 1, 2])
            let annotated = try Player.annotated { ($0.score * 2).forKey("double") }.order { $0.id }.asRequest(of: Row.self).fetchAll(db)
            #expect(annotated.map { $0["double"] as Int } == [10, 40, 30])
            let both = try Player.annotated { [$0.score.forKey("s"), $0.name.forKey("n")] }.filter(key: 1).asRequest(of: Row.self).fetchOne(db)
            #expect(both?["s"] == 5)
            #expect(both?["n"] == "Arthur")
        }
    }

    @Test func requestClosureForms() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Player.all()
                .filter { $0.country == "FR" }
                .order { $0.score.desc }
                .select { $0.name }
            #expect(try String.fetchAll(db, request) == ["Craig", "Arthur"])
            let grouped = Player.all()
                .select { [$0.country, max($0.score).forKey("best")] }
                .group { $0.country }
                .having { max($0.score) > 16 }
            let rows = try Row.fetchAll(db, grouped)
            #expect(rows.map { $0["country"] as String } == ["US"])
        }
    }

    @Test func arrayFormsOfSelectionAndAnnotation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let columns: [Column] = [Column.rowID]
            let rowIDs = try Player.annotated(with: columns).order(Column("id")).asRequest(of: Row.self).fetchAll(db)
            #expect(rowIDs.first?.count == 5)
            let extra: [Column] = [Column("score")]
            #expect(try Player.all().annotated(with: extra).asRequest(of: Row.self).fetchOne(db)?.count == 5)
            #expect(try Table("player").annotated(with: extra).fetchOne(db)?.count == 5)
            #expect(try Table("player").annotated(with: [Column("score"), Column("name")]).fetchOne(db)?.count == 6)
            let selected: [Column] = [Column("name"), Column("score")]
            #expect(try Player.select(selected).asRequest(of: Row.self).fetchOne(db)?.count == 2)
            #expect(try Table("player").select(selected).fetchOne(db)?.count == 2)
        }
    }
}
