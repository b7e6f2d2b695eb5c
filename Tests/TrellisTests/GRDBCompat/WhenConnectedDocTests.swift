import Foundation
import Testing
import Trellis

// `filterWhenConnected(_:)` and `havingWhenConnected(_:)`, which GRDB's
// FilteredRequest and AggregatingRequest list: conditions built from the
// database when the request runs.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    static let team = belongsTo(Team.self)
    var id: Int64
    var name: String
    var score: Int
    var teamId: Int64
}

private struct Team: Codable, FetchableRecord, PersistableRecord {
    static let players = hasMany(Player.self)
    var id: Int64
    var name: String
}

private struct Failure: Error {}

@Suite struct WhenConnectedDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.belongsTo("team").notNull()
            }
            try db.create(table: "setting") { t in
                t.column("minimumScore", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO setting VALUES (150)")
            try Team(id: 1, name: "Reds").insert(db)
            try Team(id: 2, name: "Blues").insert(db)
            try Player(id: 1, name: "O'Brien", score: 100, teamId: 1).insert(db)
            try Player(id: 2, name: "Barbara", score: 200, teamId: 1).insert(db)
            try Player(id: 3, name: "Craig", score: 300, teamId: 2).insert(db)
        }
        return dbQueue
    }

    @Test func filterWhenConnected() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT * FROM player WHERE name = 'O''Brien'
            let name = "O'Brien"
            let request = Player.all().filterWhenConnected { db in
                Column("name") == name
            }
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT * FROM "player" WHERE "name" = ?"#)
            #expect(try request.fetchAll(db).map(\.id) == [1])

            // The condition reads the database when the request runs.
            let best = Player.all()
                .filterWhenConnected { db in
                    try Column("score") > (Int.fetchOne(db, sql: "SELECT minimumScore FROM setting") ?? 0)
                }
                .order(Column("id"))
            #expect(try best.fetchAll(db).map(\.id) == [2, 3])
            #expect(try best.fetchCount(db) == 2)
            // Combined with other filters, and in associations.
            #expect(try best.filter(Column("name") != "Craig").fetchAll(db).map(\.id) == [2])
            let teams = try Team
                .joining(required: Team.players.filterWhenConnected { _ in Column("score") > 250 })
                .fetchAll(db)
            #expect(teams.map(\.id) == [2])
        }
    }

    @Test func filterWhenConnectedErrorsAreThrownByTheFetch() throws {
        let dbQueue = try makeDatabase()
        let request = Player.all().filterWhenConnected { _ in throw Failure() }
        try dbQueue.read { db throws -> Void in
            #expect(throws: Failure.self) { try request.fetchAll(db) }
        }
    }

    @Test func havingWhenConnected() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player
                .select(Column("teamId"), max(Column("score")))
                .group(Column("teamId"))
                .havingWhenConnected { db in
                    try max(Column("score")) > (Int.fetchOne(db, sql: "SELECT minimumScore FROM setting") ?? 0) + 100
                }
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "teamId", MAX("score") FROM "player" GROUP BY "teamId" HAVING MAX("score") > ?"#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0[0] as Int64 } == [2])
        }
    }
}
