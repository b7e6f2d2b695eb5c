import Foundation
import Testing
import Trellis

// GRDB's README, "Requests", "Update Requests" and "Column Values": the
// one-line samples, written as the README writes them, with their results.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String?
    var score: Int
    var bonus: Int
    var initial: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
        static let bonus = Column(CodingKeys.bonus)
        static let initial = Column(CodingKeys.initial)
    }
}

@Suite struct ReadmeRequestsOneLinersDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("score", .integer).notNull()
                t.column("bonus", .integer).notNull()
                t.column("initial", .text).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100, bonus: 10, initial: "A").insert(db)
            try Player(id: 2, name: nil, score: 200, bonus: 20, initial: "N").insert(db)
            try Player(id: 3, name: "Craig", score: 300, bonus: 30, initial: "C").insert(db)
        }
        return dbQueue
    }

    @Test func compoundAssignments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            #expect(try Player.updateAll(db) { $0.score += 1 } == 3)
            #expect(try Player.updateAll(db) { $0.score -= $0.bonus } == 3)
            #expect(try Player.updateAll(db) { $0.score *= 2 } == 3)
            #expect(try Player.updateAll(db) { $0.score /= 2 } == 3)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [91, 181, 271])
            #expect(try Player.filter(id: 1).updateAll(db) { [$0.score.set(to: 0), $0.name.set(to: nil)] } == 1)
            #expect(try Row.fetchOne(db, sql: "SELECT name, score FROM player WHERE id = 1") == ["name": nil, "score": 0])
            #expect(try Player.updateAll(db, onConflict: .ignore) { $0.bonus.set(to: $0.bonus + 1) } == 3)
            #expect(try Int.fetchAll(db, sql: "SELECT bonus FROM player ORDER BY id") == [11, 21, 31])
        }
    }

    @Test func requestOneLiners() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.select { max($0.score) }
            #expect(try Int.fetchOne(db, request) == 300)
            #expect(try Player.select({ max($0.score) }, as: Int.self).fetchOne(db) == 300)
            #expect(try Player.select(\.name).distinct().fetchCount(db) == 2)
            #expect(try Player.select { [$0.name, $0.score] }.distinct().fetchCount(db) == 3)
            #expect(try String.fetchAll(db, Player.select(\.initial).order(\.initial)) == ["A", "C", "N"])
            #expect(try Player.filter { ("A"..."N").contains($0.initial) }.fetchCount(db) == 3)
            #expect(try Player.filter { ("A"..<"N").contains($0.initial) }.fetchCount(db) == 2)
            #expect(try Player.order(\.name.desc).fetchAll(db).map(\.id) == [3, 1, 2])
            #expect(try Player.order(\.name.descNullsFirst).fetchAll(db).map(\.id) == [2, 3, 1])
            #expect(try Player.order(\.name).reversed().fetchAll(db).map(\.id) == [3, 1, 2])
            #expect(try Player.order(\.name.ascNullsLast).reversed().fetchAll(db).map(\.id) == [2, 3, 1])
            #expect(try Player.order(\.name.descNullsFirst).reversed().fetchAll(db).map(\.id) == [1, 3, 2])
            #expect(try Player.filter { $0.name == nil }.fetchOne(db)?.id == 2)
            #expect(try Player.filter { $0.name != nil }.fetchCount(db) == 2)
            #expect(try Player.filter { $0.name === nil }.fetchCount(db) == 1)
            #expect(try Player.filter { $0.name !== "Arthur" }.fetchCount(db) == 2)
            #expect(try Player.filter { $0.name != "Arthur" }.fetchCount(db) == 1)
            #expect(try Player.filter { !($0.name == "Arthur") }.fetchCount(db) == 1)
            #expect(try Player.filter { $0.score > 150 }.filter { $0.score < 250 }.fetchAll(db).map(\.id) == [2])
            #expect(try Player.filter { $0.score > 150 || $0.name == nil }.fetchCount(db) == 2)

            let row = try #require(try Row.fetchOne(db, sql: "SELECT name, score AS bookCount FROM player WHERE id = 1"))
            let name: String = row[0]
            let name2: String = row["NAME"]
            let name3: String = row[Column("name")]
            #expect([name, name2, name3] == ["Arthur", "Arthur", "Arthur"])
            #expect(try row.decode(String.self, atIndex: 0) == "Arthur")
            #expect(try row.decode(Int.self, forColumn: "bookCount") == 100)
            let hasBooks: Bool = row["bookCount"]
            #expect(hasBooks)
            #expect(row["bookCount"] as Int64 == 100)
        }
    }
}
