import Foundation
import Testing
import Trellis

// `association(to: cte)` without `on:`: every row is joined with every row
// of the common table expression.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var score: Int
}

@Suite struct CTEAssociationWithoutConditionTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, score: 10).insert(db)
            try Player(id: 2, score: 30).insert(db)
        }
        return dbQueue
    }

    @Test func recordToCTE() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let maxScoreCTE = CommonTableExpression(
                named: "maxScore",
                request: Player.select(max(Column("score")).forKey("value")))
            let association = Player.association(to: maxScoreCTE)
            let rows = try Player.with(maxScoreCTE)
                .including(required: association.select(Column("value").forKey("maxScore")))
                .order(Column("id"))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows.count == 2)
            #expect(rows.map { $0.scopes["maxScore"]?["maxScore"] as Int? } == [30, 30])
            let alias = TableAlias<Player>()
            let bestPlayers = try Player.aliased(alias).with(maxScoreCTE)
                .joining(required: association.filter(Column("value") == alias[Column("score")]))
                .fetchAll(db)
            #expect(bestPlayers.map(\.id) == [2])
        }
    }

    @Test func cteToCTE() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let letters = CommonTableExpression(named: "letters", sql: "SELECT 'a' AS letter UNION ALL SELECT 'b'")
            let digits = CommonTableExpression(named: "digits", sql: "SELECT 1 AS digit UNION ALL SELECT 2")
            let association = letters.association(to: digits)
            let rows = try letters.all().with(letters).with(digits)
                .including(required: association)
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows.count == 4)
            // The key of a to-one association is the singular CTE name.
            let pairs = Set(rows.map { ($0["letter"] as String) + String($0.scopes["digit"]?["digit"] as Int? ?? 0) })
            #expect(pairs == ["a1", "a2", "b1", "b2"])
            let optional = try letters.all().with(letters).with(digits)
                .including(optional: association.filter(Column("digit") > 5))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(optional.count == 2)
        }
    }
}
