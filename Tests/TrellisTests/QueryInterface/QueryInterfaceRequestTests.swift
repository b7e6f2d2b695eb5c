import Foundation
import Testing
import Trellis

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    enum Columns: String, ColumnExpression { case id, name, score, team, email }
    var id: Int64
    var name: String
    var score: Int
    var team: String?
    var email: String?
}

@Suite struct QueryInterfaceRequestTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("team", .text)
                t.column("email", .text).unique()
            }
            try Player(id: 1, name: "Arthur", score: 100, team: "red", email: "arthur@example.com").insert(db)
            try Player(id: 2, name: "Barbara", score: 300, team: "blue", email: nil).insert(db)
            try Player(id: 3, name: "Craig", score: 200, team: "red", email: "craig@test.org").insert(db)
            try Player(id: 4, name: "O'Brien", score: 50, team: nil, email: nil).insert(db)
        }
        return dbQueue
    }

    @Test func operatorsFilterRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            func ids(_ request: QueryInterfaceRequest<Player>) throws -> [Int64] {
                try request.order(Column("id")).fetchAll(db).map(\.id)
            }
            let score = Player.Columns.score
            #expect(try ids(Player.filter(score > 100)) == [2, 3])
            #expect(try ids(Player.filter(score >= 100 && score <= 200)) == [1, 3])
            #expect(try ids(Player.filter(score < 100 || Column("team") == nil)) == [4])
            #expect(try ids(Player.filter(Column("team") != nil)) == [1, 2, 3])
            #expect(try ids(Player.filter(Column("team") === "red")) == [1, 3])
            #expect(try ids(Player.filter(!(Column("team") == "red"))) == [2])
            #expect(try ids(Player.filter([1, 3, 9].contains(Column("id")))) == [1, 3])
            #expect(try ids(Player.filter((100...200).contains(score))) == [1, 3])
            #expect(try ids(Player.filter((100..<200).contains(score))) == [1])
            #expect(try ids(Player.filter(Column("email").like("%@example.com"))) == [1])
            #expect(try ids(Player.filter(Column("name").collating(.nocase) == "arthur")) == [1])
            #expect(try ids(Player.filter(score * 2 + 10 == 210)) == [1])
            #expect(try ids(Player.filter((Column("team") ?? "none") == "none")) == [4])
            #expect(try ids(Player.filter(sql: "score > ?", arguments: [250])) == [2])
            #expect(try ids(Player.filter(literal: "name = \("O'Brien")")) == [4])
            #expect(try ids(Player.filter { $0.name == "Craig" }) == [3])
            #expect(try ids(Player.filter(id: 2)) == [2])
            #expect(try ids(Player.filter(ids: [2, 4])) == [2, 4])
            #expect(try ids(Player.none()) == [])
        }
    }

    @Test func orderingSelectionGroupingAndLimits() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.order(Player.Columns.score.desc).fetchAll(db).map(\.id) == [2, 3, 1, 4])
            #expect(try Player.order(Column("score")).reversed().fetchAll(db).map(\.id) == [2, 3, 1, 4])
            #expect(try Player.all().reversed().fetchAll(db).map(\.id) == [4, 3, 2, 1])
            #expect(try Player.orderByPrimaryKey().limit(2, offset: 1).fetchAll(db).map(\.id) == [2, 3])
            #expect(try Player.select(Column("name"), as: String.self).order(Column("name")).fetchAll(db) == ["Arthur", "Barbara", "Craig", "O'Brien"])
            #expect(try Player.select(max(Column("score")), as: Int.self).fetchOne(db) == 300)
            let teams = try Row.fetchAll(db, Player
                .select(Column("team"), count(Column("id")).forKey("n"), sum(Column("score")).forKey("total"))
                .filter(Column("team") != nil)
                .group(Column("team"))
                .having(count(Column("id")) > 1))
            #expect(teams == [["team": "red", "n": 2, "total": 300]])
            #expect(try Player.select(Column("team")).distinct().fetchCount(db) == 3)
            #expect(try Player.filter(Column("score") > 60).fetchCount(db) == 3)
            #expect(try Player.limit(2).fetchCount(db) == 2)
            #expect(try Player.filter(Column("score") > 1000).isEmpty(db))
            #expect(try Player.filter(Column("score") > 250).exists(db))
            let annotated = try Row.fetchOne(db, Player.annotated(with: (Column("score") * 2).forKey("double")).filter(id: 1))
            #expect(annotated?["double"] == 200)
        }
    }

    @Test func functions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            func value<T: DatabaseValueConvertible>(_ selection: some SQLSelectable, as type: T.Type) throws -> T? {
                try Player.select([selection], as: T.self).fetchOne(db)
            }
            #expect(try value(count(Column("email")), as: Int.self) == 2)
            #expect(try value(count(distinct: Column("team")), as: Int.self) == 2)
            #expect(try value(min(Column("score")), as: Int.self) == 50)
            #expect(try value(average(Column("score")), as: Double.self) == 162.5)
            #expect(try value(total(Column("score")), as: Double.self) == 650)
            #expect(try Player.filter(Column("score") > 1000).select([sum(Column("score"))], as: Int?.self).fetchOne(db) == nil)
            #expect(try Player.filter(id: 4).select([Column("name").uppercased], as: String.self).fetchOne(db) == "O'BRIEN")
            #expect(try Player.filter(id: 4).select([Column("name").lowercased], as: String.self).fetchOne(db) == "o'brien")
            #expect(try Player.filter(id: 4).select([length(Column("name"))], as: Int.self).fetchOne(db) == 7)
            #expect(try Player.filter(id: 4).select([abs(Column("score") - 100)], as: Int.self).fetchOne(db) == 50)
            #expect(try Player.filter(id: 1).select([Column("score").cast(as: .text)], as: String.self).fetchOne(db) == "100")
        }
    }

    @Test func subqueriesAndAliases() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let best = Player.select(max(Column("score")))
            #expect(try Player.filter(Column("score") == best).fetchAll(db).map(\.name) == ["Barbara"])
            let redIds = Player.select(Column("id")).filter(Column("team") == "red")
            #expect(try Player.filter(redIds.contains(Column("id"))).fetchCount(db) == 2)
            let playerAlias = TableAlias<Player>(name: "p")
            let teammates = Player.filter(Column("team") == playerAlias[Column("team")] && Column("id") != playerAlias[Column("id")])
            let withTeammates = try Player.aliased(playerAlias).filter(teammates.exists()).order(Column("id")).fetchAll(db)
            #expect(withTeammates.map(\.id) == [1, 3])
        }
    }

    @Test func batchUpdatesAndDeletes() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try Player.filter(Column("team") == "red").updateAll(db, Column("score") += 10) == 2)
            #expect(try Player.updateAll(db, Column("team").set(to: "none"), Column("email").set(to: nil)) == 4)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [110, 300, 210, 50])
            #expect(try Player.order(Column("score")).limit(1).deleteAll(db) == 1)
            #expect(try Player.deleteAll(db, ids: [1, 2]) == 2)
            #expect(try Player.deleteOne(db, id: 3))
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func keysFindAndExists() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.fetchOne(db, id: 2)?.name == "Barbara")
            #expect(try Player.fetchOne(db, key: ["email": "craig@test.org"])?.id == 3)
            #expect(try Player.fetchAll(db, ids: [3, 1]).map(\.id).sorted() == [1, 3])
            #expect(try Player.exists(db, id: 4))
            #expect(try !Player.exists(db, key: 99))
            #expect(throws: RecordError.self) { try Player.find(db, id: 99) }
            let notUnique = #expect(throws: DatabaseError.self) { try Player.fetchOne(db, key: ["name": "Arthur"]) }
            #expect(notUnique?.message?.contains("no unique key") == true)
            #expect(try Set(Player.fetchAll(db)).count == 4)
        }
    }

    @Test func valuesAreBoundAndIdentifiersQuoted() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "select") { t in
                t.column("order", .text)
                t.column("group", .integer)
            }
            try db.execute(sql: "INSERT INTO \"select\" VALUES ('x''); DROP TABLE \"select\"; --', 1)")
            struct Weird: TableRecord { static let databaseTableName = "select" }
            let hostile = "x'); DROP TABLE \"select\"; --"
            #expect(try Weird.filter(Column("order") == hostile).fetchCount(db) == 1)
            #expect(try Row.fetchAll(db, Weird.select(Column("group")).order(Column("order"))).count == 1)
            #expect(try db.tableExists("select"))
        }
    }

    @Test func badInputIsAClearError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let unknownColumn = #expect(throws: DatabaseError.self) { try Player.filter(Column("nope") == 1).fetchAll(db) }
            #expect(unknownColumn?.message == "no such column: nope")
            struct Ghost: Codable, FetchableRecord, PersistableRecord { var id: Int64 }
            let missingTable = #expect(throws: DatabaseError.self) { try Ghost.fetchAll(db) }
            #expect(missingTable?.message == "no such table: ghost")
            struct Strict: Decodable, FetchableRecord { var team: String }
            let null = #expect(throws: RowDecodingError.self) { try Strict.fetchAll(db, sql: "SELECT team FROM player ORDER BY id") }
            #expect(null?.description.contains("team") == true)
            #expect(null?.description.contains("Strict") == true)
            #expect(try Player.fetchCount(db) == 4)
        }
    }
}
