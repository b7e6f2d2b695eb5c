import Foundation
import Testing
import Trellis

// Counts, aggregates and pages as application screens ask for them: the
// count of a limited, distinct or grouped request, aggregates of an empty
// table, pages with an offset, reversed orderings, and ranges in filters.

private struct Score: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var team: String?
    var points: Int
}

private func makeScoreQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "score") { t in
            t.primaryKey("id", .integer)
            t.column("team", .text)
            t.column("points", .integer).notNull()
        }
        try Score(id: 1, team: "red", points: 10).insert(db)
        try Score(id: 2, team: "blue", points: 30).insert(db)
        try Score(id: 3, team: "red", points: 20).insert(db)
        try Score(id: 4, team: nil, points: 40).insert(db)
        try Score(id: 5, team: "blue", points: 50).insert(db)
    }
    return dbQueue
}

@Suite("App usage: counts and pages")
struct AppUsageCountsTests {
    @Test("Counts of limited, distinct, grouped and filtered requests")
    func counts() throws {
        let dbQueue = try makeScoreQueue()
        let counts = try dbQueue.read { db in
            [
                try Score.limit(2).fetchCount(db),
                try Score.limit(10, offset: 3).fetchCount(db),
                try Score.select(Column("team")).distinct().fetchCount(db),
                try Score.group(Column("team")).fetchCount(db),
                try Score.filter((15...45).contains(Column("points"))).fetchCount(db),
                try Score.filter(Column("team") == nil).fetchCount(db),
                try Score.filter(Column("team") != "red").fetchCount(db),
            ]
        }
        // COUNT(DISTINCT team) leaves NULL out, as SQLite's count does.
        #expect(counts == [2, 2, 2, 3, 3, 1, 2])
    }

    @Test("Aggregates of an empty selection are nil, and of a table their value")
    func aggregates() throws {
        let dbQueue = try makeScoreQueue()
        let points = Column("points")
        let noRows = Score.filter(points > 100)
        let maxPoints = try dbQueue.read { db in try Score.select(max(points), as: Int.self).fetchOne(db) }
        let emptyMax = try dbQueue.read { db in try noRows.select(max(points), as: Int.self).fetchOne(db) }
        let emptySum = try dbQueue.read { db in try noRows.select(sum(points), as: Int?.self).fetchOne(db) }
        let emptyTotal = try dbQueue.read { db in try noRows.select(total(points), as: Double.self).fetchOne(db) }
        let redAverage = try dbQueue.read { db in
            try Score.filter(Column("team") == "red").select(average(points), as: Double.self).fetchOne(db)
        }
        #expect(maxPoints == 50)
        #expect(emptyMax == nil)
        #expect(emptySum == .some(nil))
        #expect(emptyTotal == 0)
        #expect(redAverage == 15)
    }

    @Test("Pages with limit and offset, reversed orderings, and the first row")
    func pages() throws {
        let dbQueue = try makeScoreQueue()
        let (page2, reversed, stableReversed, top, nullsLast) = try dbQueue.read { db in
            (
                try Score.order(Column("points").desc).limit(2, offset: 2).fetchAll(db).map(\.id),
                try Score.order(Column("points")).reversed().limit(2).fetchAll(db).map(\.id),
                try Score.all().withStableOrder().reversed().limit(2).fetchAll(db).map(\.id),
                try Score.order(Column("points").desc).fetchOne(db)?.id,
                try Score.order(Column("team").ascNullsLast, Column("id")).fetchAll(db).map(\.id)
            )
        }
        #expect(page2 == [2, 3])
        #expect(reversed == [5, 4])
        #expect(stableReversed == [5, 4])
        // Without an ordering, reversed() changes nothing.
        let unordered = try dbQueue.read { db in try Score.all().reversed().fetchAll(db).map(\.id) }
        #expect(unordered == [1, 2, 3, 4, 5])
        #expect(top == 5)
        #expect(nullsLast == [2, 5, 1, 3, 4])
    }

    @Test("Grouped rows with an aggregate and a having clause, decoded by column name")
    func grouped() throws {
        let dbQueue = try makeScoreQueue()
        let rows = try dbQueue.read { db in
            try Score
                .select(Column("team"), sum(Column("points")).forKey("total"), count(Column("id")).forKey("games"))
                .filter(Column("team") != nil)
                .group(Column("team"))
                .having(sum(Column("points")) > 25)
                .order(Column("team"))
                .asRequest(of: Row.self)
                .fetchAll(db)
        }
        #expect(rows == [["team": "blue", "total": 80, "games": 2], ["team": "red", "total": 30, "games": 2]])
    }
}
