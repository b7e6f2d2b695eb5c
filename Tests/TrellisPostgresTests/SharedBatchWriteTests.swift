import Foundation
import Testing
import Trellis
import TrellisPostgres

// `updateAll` and `deleteAll` whose expressions read other columns, the
// same table in a subquery, an aliased table or a joined one: one test
// body, run on SQLite and on PostgreSQL.

private struct Team: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    static let team = belongsTo(Team.self)
    var id: Int64
    var teamId: Int64
    var score: Int
    var bonus: Int
}

extension Engine {
    /// Two teams, and four players: ids 1 and 2 in team 1, 3 and 4 in
    /// team 2, scores 10, 20, 30 and 40, bonuses 1 to 4.
    fileprivate func createTeams(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE team (id \(generatedKey), name TEXT NOT NULL)")
        try db.execute(sql: """
            CREATE TABLE player (
                id \(generatedKey), "teamId" INTEGER NOT NULL REFERENCES team(id),
                score INTEGER NOT NULL, bonus INTEGER NOT NULL)
            """)
        try Team(id: 1, name: "Red").insert(db)
        try Team(id: 2, name: "Blue").insert(db)
        for id in Int64(1)...4 {
            try Player(id: id, teamId: id <= 2 ? 1 : 2, score: Int(id) * 10, bonus: Int(id)).insert(db)
        }
    }
}

@Suite struct SharedBatchWriteTests {
    private func scores(_ db: Database) throws -> [Int] {
        try Player.order(Column("id")).fetchAll(db).map(\.score)
    }

    @Test(arguments: Engine.available)
    func updateAllReadsOtherColumnsAndTheSameTable(_ engine: Engine) async throws {
        let (added, maximum) = try await engine.write { db in
            try engine.createTeams(db)
            try Player.filter(Column("score") > 15).updateAll(db, Column("score").set(to: Column("score") + Column("bonus")))
            let added = try scores(db)
            try Player.filter(Column("id") <= 2).updateAll(db, Column("score").set(to: Player.select(max(Column("score")))))
            return (added, try scores(db))
        }
        #expect(added == [10, 22, 33, 44])
        #expect(maximum == [44, 44, 33, 44])
    }

    @Test(arguments: Engine.available)
    func updateAllOfAnAliasedTableReadsItsAliasInASubquery(_ engine: Engine) async throws {
        let (ranks, doubled) = try await engine.write { db in
            try engine.createTeams(db)
            let current = TableAlias<Player>(name: "current")
            // The number of players who score at least as much.
            let rank = Player.select(count(Column("id"))).filter(Column("score") >= current[Column("score")])
            try Player.aliased(current).updateAll(db, Column("bonus").set(to: rank))
            let ranks = try Player.order(Column("id")).fetchAll(db).map(\.bonus)
            try Player.aliased(current).filter(current[Column("bonus")] <= 2)
                .updateAll(db, Column("score").set(to: current[Column("score")] * 2))
            return (ranks, try scores(db))
        }
        #expect(ranks == [4, 3, 2, 1])
        #expect(doubled == [10, 20, 60, 80])
    }

    @Test(arguments: Engine.available)
    func writesOfAJoinedRequestChangeTheRowsOfItsTable(_ engine: Engine) async throws {
        let (updated, remaining) = try await engine.write { db in
            try engine.createTeams(db)
            let red = Player.joining(required: Player.team.filter(Column("name") == "Red"))
            try red.updateAll(db, Column("score").set(to: Column("score") + Column("bonus")))
            let updated = try scores(db)
            try Player.joining(required: Player.team.filter(Column("name") == "Blue"))
                .filter(Column("score") > 35).deleteAll(db)
            let alias = TableAlias<Player>(name: "p")
            try Player.aliased(alias).filter(alias[Column("score")] < 15).deleteAll(db)
            return (updated, try Player.order(Column("id")).fetchAll(db).map(\.id))
        }
        #expect(updated == [11, 22, 30, 40])
        #expect(remaining == [2, 3])
    }
}
