import Foundation
import Testing
import Trellis
import TrellisPostgres

// Upserts whose `DO UPDATE SET` reads the existing row: SQLite takes its
// columns unqualified, PostgreSQL also sees `excluded` and needs the
// table's name. One test body, run on SQLite and on PostgreSQL.

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
    var score: Int
}

private struct PlayerScore: Decodable, FetchableRecord, Equatable, Sendable {
    var id: Int64
    var score: Int
}

/// A record whose only column is its primary key: an upsert has no other
/// column to overwrite.
private struct Tag: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var name: String
}

extension Engine {
    fileprivate func createScoredPlayers(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE player (id \(generatedKey), name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL)")
        try Player(id: 1, name: "Arthur", score: 100).insert(db)
    }
}

@Suite struct SharedUpsertTests {
    @Test(arguments: Engine.available)
    func doUpdateReadsTheExistingRowUnqualified(_ engine: Engine) async throws {
        let (kept, raised, rows) = try await engine.write { db in
            try engine.createScoredPlayers(db)
            let keepMaximum: (TableAlias<Player>) -> [ColumnAssignment] = { excluded in
                [Column("score").set(to: max(Column("score"), excluded["score"]))]
            }
            let kept = try Player(id: 1, name: "Arthur", score: 50)
                .upsertAndFetch(db, onConflict: ["id"], doUpdate: keepMaximum)
            let raised = try Player(id: 1, name: "Arthur", score: 150)
                .upsertAndFetch(db, onConflict: ["id"], doUpdate: keepMaximum)
            return (kept, raised, try Player.order(Column("id")).fetchAll(db))
        }
        #expect(kept == Player(id: 1, name: "Arthur", score: 100))
        #expect(raised == Player(id: 1, name: "Arthur", score: 150))
        #expect(rows == [Player(id: 1, name: "Arthur", score: 150)])
    }

    @Test(arguments: Engine.available)
    func doUpdateComputesFromBothRows(_ engine: Engine) async throws {
        let (fetched, rows) = try await engine.write { db in
            try engine.createScoredPlayers(db)
            // Conflict on the unique name; the key is not overwritten.
            let fetched = try Player(id: 7, name: "Arthur", score: 5).upsertAndFetch(
                db, as: PlayerScore.self, onConflict: ["name"],
                doUpdate: { excluded in [Column("score").set(to: Column("score") + excluded["score"])] })
            return (fetched, try Player.order(Column("id")).fetchAll(db))
        }
        #expect(fetched == PlayerScore(id: 1, score: 105))
        #expect(rows == [Player(id: 1, name: "Arthur", score: 105)])
    }

    @Test(arguments: Engine.available)
    func doUpdateKeepsOtherColumnsWhenAsked(_ engine: Engine) async throws {
        let rows = try await engine.write { db in
            try engine.createScoredPlayers(db)
            let count: (TableAlias<Player>) -> [ColumnAssignment] = { _ in [Column("score") += 1] }
            _ = try Player(id: 1, name: "Renamed", score: 0)
                .upsertAndFetch(db, onConflict: ["id"], updating: .noColumnUnlessSpecified, doUpdate: count)
            // No conflict: inserted as it is.
            _ = try Player(id: 2, name: "Barbara", score: 0)
                .upsertAndFetch(db, onConflict: ["id"], updating: .noColumnUnlessSpecified, doUpdate: count)
            // Interpolated columns of an SQL literal are the existing row's.
            let double: SQL = "\(Column("score")) * 2"
            _ = try Player(id: 1, name: "Arthur", score: 0)
                .upsertAndFetch(db, onConflict: ["id"], updating: .noColumnUnlessSpecified, doUpdate: { _ in
                    [Column("score").set(to: double)]
                })
            return try Player.order(Column("id")).fetchAll(db)
        }
        #expect(rows == [Player(id: 1, name: "Arthur", score: 202), Player(id: 2, name: "Barbara", score: 0)])
    }

    @Test(arguments: Engine.available)
    func anUpsertWithNothingToOverwriteReturnsTheExistingRow(_ engine: Engine) async throws {
        let (tag, player, tags, players) = try await engine.write { db in
            try engine.createScoredPlayers(db)
            try db.execute(sql: "CREATE TABLE tag (name TEXT NOT NULL PRIMARY KEY)")
            try Tag(name: "swift").insert(db)
            try Tag(name: "swift").upsert(db)
            let tag = try Tag(name: "swift").upsertAndFetch(db)
            let player = try Player(id: 1, name: "Other", score: 0)
                .upsertAndFetch(db, onConflict: ["id"], updating: .noColumnUnlessSpecified)
            return (tag, player, try Tag.fetchAll(db), try Player.fetchAll(db))
        }
        #expect(tag == Tag(name: "swift"))
        #expect(player == Player(id: 1, name: "Arthur", score: 100))
        #expect(tags == [Tag(name: "swift")])
        #expect(players == [Player(id: 1, name: "Arthur", score: 100)])
    }

    @Test(arguments: Engine.available)
    func aTableUpsertWithoutConflictTargetUpdatesByPrimaryKey(_ engine: Engine) async throws {
        let rows = try await engine.write { db in
            try engine.createScoredPlayers(db)
            let player = Table("player")
            try player.upsert(db, values: ["id": 1, "name": "Arthur", "score": 110], onConflict: [])
            try player.upsert(db, values: ["id": 2, "name": "Barbara", "score": 50], onConflict: [])
            try player.upsert(db, values: ["id": 2, "name": "Barbara", "score": 60], onConflict: ["id"], doUpdate: [])
            try player.upsert(
                db, values: ["id": 1, "name": "Arthur", "score": 120], onConflict: ["name"], doUpdate: ["score"])
            return try Player.order(Column("id")).fetchAll(db)
        }
        #expect(rows == [Player(id: 1, name: "Arthur", score: 120), Player(id: 2, name: "Barbara", score: 50)])
    }
}
