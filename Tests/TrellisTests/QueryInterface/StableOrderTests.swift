import Foundation
import Testing
import Trellis

// `withStableOrder()`: the request's ordering, then the primary key.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int
}

private struct Citizenship: Codable, FetchableRecord, PersistableRecord {
    var citizenId: Int64
    var countryCode: String
}

@Suite struct StableOrderTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try db.create(table: "citizenship") { t in
                t.column("citizenId", .integer).notNull()
                t.column("countryCode", .text).notNull()
                t.primaryKey(["citizenId", "countryCode"])
            }
            try db.create(table: "event") { t in
                t.column("name", .text)
            }
            try db.create(view: "playerName", as: SQLRequest<Row>(sql: "SELECT name, score FROM player"))
            // Inserted out of primary key order.
            try Player(id: 3, name: "Craig", score: 100).insert(db)
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
            try Player(id: 2, name: "Barbara", score: 200).insert(db)
            try Citizenship(citizenId: 2, countryCode: "FR").insert(db)
            try Citizenship(citizenId: 1, countryCode: "US").insert(db)
            try Citizenship(citizenId: 1, countryCode: "FR").insert(db)
            try db.execute(sql: "INSERT INTO event (rowid, name) VALUES (2, 'b'), (1, 'a')")
        }
        return dbQueue
    }

    private func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    @Test func ordersByPrimaryKeyAfterTheOrdering() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try sql(db, Player.all().withStableOrder()) == #"SELECT * FROM "player" ORDER BY "id""#)
            #expect(try Player.all().withStableOrder().fetchAll(db).map(\.id) == [1, 2, 3])
            let byScore = Player.order(Column("score").desc).withStableOrder()
            #expect(try sql(db, byScore) == #"SELECT * FROM "player" ORDER BY "score" DESC, "id""#)
            #expect(try Player.order(Column("score")).withStableOrder().fetchAll(db).map(\.id) == [1, 3, 2])
        }
    }

    @Test func reversedRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.all().reversed().withStableOrder().fetchAll(db).map(\.id) == [3, 2, 1])
            let request = Player.order(Column("score")).reversed().withStableOrder()
            #expect(try sql(db, request) == #"SELECT * FROM "player" ORDER BY "score" DESC, "id""#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 1, 3])
        }
    }

    @Test func compositePrimaryKeyRowIDAndViews() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let citizenships = try Citizenship.all().withStableOrder().fetchAll(db)
            #expect(citizenships.map { "\($0.citizenId)\($0.countryCode)" } == ["1FR", "1US", "2FR"])
            #expect(try sql(db, Table("event").all().withStableOrder()) == #"SELECT * FROM "event" ORDER BY "rowid""#)
            #expect(try Table("event").all().withStableOrder().fetchAll(db).map { $0["name"] as String? } == ["a", "b"])
            let names = try Table("playerName").order(Column("score").desc).withStableOrder().fetchAll(db)
            #expect(names.map { $0["name"] as String? } == ["Barbara", "Arthur", "Craig"])
        }
    }

    @Test func joinedRequestsOrderByTheMainTable() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let alias = TableAlias<Player>()
            let request = Player.aliased(alias).filter(alias[Column("score")] > 0).withStableOrder()
            #expect(try request.fetchAll(db).map(\.id) == [1, 2, 3])
        }
    }
}
