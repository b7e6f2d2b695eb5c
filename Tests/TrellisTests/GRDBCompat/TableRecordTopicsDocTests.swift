import Foundation
import Testing
import Trellis

// The APIs that the Topics of GRDB's documentation list for `TableRecord`
// ("Configuring the Generated SQL", "Throwing Record Not Found Errors")
// and for SQL expressions ("SQL Functions & Operators": the aggregates
// with a FILTER clause), run as their documentation writes them.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String?
    var score: Int?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

private struct PartialPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [Columns.id, Columns.name]
    }

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }
}

private struct ExtendedPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [.allColumns, .rowID]
    }
}

private struct AllButScore: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [.allColumns(excluding: ["score"])]
    }
}

private struct Citizenship: Codable, PersistableRecord {
    var playerId: Int64
    var country: String
}

private struct Book: Codable, FetchableRecord, PersistableRecord {
    var isbn: String
    var title: String
}

@Suite struct TableRecordTopicsDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("score", .integer)
            }
            try db.create(table: "citizenship") { t in
                t.column("playerId", .integer).notNull()
                t.column("country", .text).notNull()
                t.primaryKey(["playerId", "country"])
            }
            try db.create(table: "book") { t in
                t.primaryKey("isbn", .text)
                t.column("title", .text).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
            try Player(id: 2, name: "Barbara", score: -20).insert(db)
            try Player(id: 3, name: "Craig", score: 40).insert(db)
            try Player(id: 4, name: nil, score: nil).insert(db)
        }
        return dbQueue
    }

    @Test func numberOfSelectedColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Player.numberOfSelectedColumns(db) == 3)
            #expect(try PartialPlayer.numberOfSelectedColumns(db) == 2)
            #expect(try ExtendedPlayer.numberOfSelectedColumns(db) == 4)
            #expect(try AllButScore.numberOfSelectedColumns(db) == 2)
            // The count fits the rows that the requests fetch.
            #expect(try Row.fetchOne(db, ExtendedPlayer.all())?.count == 4)
            #expect(try Row.fetchOne(db, AllButScore.all())?.count == 2)
        }
    }

    @Test func numberOfSelectedColumnsOfAMissingTableIsAnError() throws {
        struct Missing: TableRecord {}
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws -> Void in
            #expect(throws: DatabaseError.self) {
                try Missing.numberOfSelectedColumns(db)
            }
        }
    }

    @Test func recordNotFoundErrors() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // By primary key, by id.
            let byKey = Player.recordNotFound(db, key: 42)
            guard case RecordError.recordNotFound(databaseTableName: "player", key: let key) = byKey else {
                Issue.record("unexpected error \(byKey)")
                return
            }
            #expect(key == ["id": 42.databaseValue])
            #expect("\(byKey)" == "Key not found in table player: [id:42]")

            let byId = Player.recordNotFound(db, id: 7)
            #expect("\(byId)" == "Key not found in table player: [id:7]")

            let byText = Book.recordNotFound(db, key: "978-0")
            #expect("\(byText)" == "Key not found in table book: [isbn:\"978-0\"]")

            // By key dictionary: no database needed.
            let byDictionary = Player.recordNotFound(key: ["name": "Zoe", "score": nil])
            guard case .recordNotFound(databaseTableName: "player", key: let dictionary) = byDictionary else {
                Issue.record("unexpected error \(byDictionary)")
                return
            }
            #expect(dictionary == ["name": "Zoe".databaseValue, "score": .null])

            // For a record.
            let player = Player(id: 12, name: "Zoe", score: 1)
            #expect("\(player.recordNotFound(db))" == "Key not found in table player: [id:12]")
            let citizenship = Citizenship(playerId: 3, country: "FR")
            let citizenshipError = citizenship.recordNotFound(db)
            guard case RecordError.recordNotFound(databaseTableName: "citizenship", key: let compositeKey) = citizenshipError else {
                Issue.record("unexpected error \(citizenshipError)")
                return
            }
            #expect(compositeKey == ["playerId": 3.databaseValue, "country": "FR".databaseValue])

            // The error that prevents the RecordError from being made.
            let composite = Citizenship.recordNotFound(db, key: 1)
            #expect(composite is DatabaseError)
            struct Missing: TableRecord {}
            #expect(Missing.recordNotFound(db, key: 1) is DatabaseError)
        }
    }

    @Test func recordNotFoundInACustomFind() throws {
        let dbQueue = try makeDatabase()
        func findByName(_ db: Database, _ name: String) throws -> Player {
            guard let player = try Player.filter({ $0.name == name }).fetchOne(db) else {
                throw Player.recordNotFound(key: ["name": name])
            }
            return player
        }
        try dbQueue.read { db throws -> Void in
            #expect(try findByName(db, "Arthur").id == 1)
            #expect(throws: RecordError.self) {
                try findByName(db, "Zoe")
            }
        }
    }

    @Test func aggregatesWithAFilterClause() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // AVG(length) FILTER (WHERE length > 0)
            let request = Player.select {
                [
                    average($0.score, filter: $0.score > 0),
                    max($0.score, filter: $0.score < 0),
                    min($0.score, filter: $0.score > 0),
                    sum($0.score, filter: $0.score > 0),
                    total($0.score, filter: $0.score > 1000),
                    sum($0.score, filter: $0.score > 1000),
                ]
            }
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT AVG("score") FILTER (WHERE "score" > ?), MAX("score") FILTER (WHERE "score" < ?), MIN("score") FILTER (WHERE "score" > ?), SUM("score") FILTER (WHERE "score" > ?), TOTAL("score") FILTER (WHERE "score" > ?), SUM("score") FILTER (WHERE "score" > ?) FROM "player""#)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row[0] as Double? == 70)
            #expect(row[1] as Int? == -20)
            #expect(row[2] as Int? == 40)
            #expect(row[3] as Int? == 140)
            #expect(row[4] as Double? == 0)
            #expect(row[5] as Int? == nil)

            // With Column, as the documentation writes them.
            let length = Column("score")
            #expect(try Double.fetchOne(db, Player.select(average(length, filter: length > 0))) == 70)
            #expect(try Int.fetchOne(db, Player.select(max(Column("score"), filter: Column("score") < 0))) == -20)
            #expect(try Int.fetchOne(db, Player.select(min(Column("score"), filter: Column("score") > 0))) == 40)
            #expect(try Int.fetchOne(db, Player.select(sum(Column("score"), filter: Column("score") > 0))) == 140)
            #expect(try Double.fetchOne(db, Player.select(total(Column("score"), filter: Column("score") > 0))) == 140)

            // In a grouped request, and in HAVING.
            let grouped = try Row.fetchAll(db, Player
                .select { [$0.score > 0, count($0.id), sum($0.score, filter: $0.score > 50)] }
                .group { $0.score > 0 }
                .having { total($0.score, filter: $0.score > 0) > 0 })
            #expect(grouped.count == 1)
            #expect(grouped.first?[1] as Int? == 2)
            #expect(grouped.first?[2] as Int? == 100)
        }
    }
}
