import Foundation
import Testing
import Trellis

// `AnyFetchRequest`, the type-erased request of GRDB's FetchRequest
// documentation: "An `AnyFetchRequest` forwards its operations to an
// underlying request, hiding its specifics", and its `asRequest(of:)`.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let books = hasMany(Book.self)
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

private struct Book: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var playerId: Int64
}

@Suite struct AnyFetchRequestDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("player").notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
            try Player(id: 2, name: "Barbara", score: 300).insert(db)
            try Player(id: 3, name: "Craig", score: 200).insert(db)
        }
        return dbQueue
    }

    private func bestPlayers(limit: Int?) -> AnyFetchRequest<Player> {
        if let limit {
            return AnyFetchRequest(Player.order(\.score.desc).limit(limit))
        }
        return AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player ORDER BY score DESC"))
    }

    @Test func anyFetchRequestForwardsToItsRequest() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // AnyFetchRequest<Player>
            let playerRequest = AnyFetchRequest(Player.all())
            #expect(try playerRequest.fetchAll(db).map(\.id).sorted() == [1, 2, 3])
            #expect(try playerRequest.fetchCount(db) == 3)
            #expect(try playerRequest.makePreparedRequest(db).statement.sql == #"SELECT * FROM "player""#)

            // AnyFetchRequest<Row>
            let rowRequest = playerRequest.asRequest(of: Row.self)
            let rows = try rowRequest.fetchAll(db)
            #expect(rows.count == 3)
            #expect(rows.first?["name"] as String? == "Arthur")

            #expect(try bestPlayers(limit: 2).fetchAll(db).map(\.name) == ["Barbara", "Craig"])
            #expect(try bestPlayers(limit: nil).fetchAll(db).map(\.name) == ["Barbara", "Craig", "Arthur"])
            #expect(try bestPlayers(limit: 2).fetchCount(db) == 2)
            #expect(try bestPlayers(limit: 1).fetchOne(db)?.name == "Barbara")
            #expect(try bestPlayers(limit: nil).fetchCursor(db).map(\.id).reduce(into: []) { $0.append($1) } == [2, 3, 1])

            let names = AnyFetchRequest(Player.select(\.name).order(\.name)).asRequest(of: String.self)
            #expect(try names.fetchAll(db) == ["Arthur", "Barbara", "Craig"])
            #expect(try names.fetchSet(db) == ["Arthur", "Barbara", "Craig"])
        }
    }

    @Test func anyFetchRequestKeepsPrefetchesAdaptersAndRegions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try Book(id: 1, playerId: 1).insert(db)
            try Book(id: 2, playerId: 1).insert(db)
            let request = AnyFetchRequest(Player.including(all: Player.books).order(\.id).asRequest(of: Row.self))
            let rows = try request.fetchAll(db)
            #expect(rows.map { $0.prefetchedRows["books"]?.count } == [2, 0, 0])
            let region = try request.databaseRegion(db)
            #expect(region.isModified(byEventsOfKind: .insert(tableName: "book")))

            // As a subquery.
            let bestIds = AnyFetchRequest(Player.select(\.id).filter { $0.score > 150 })
            #expect(try Player.filter { bestIds.contains($0.id) }.fetchCount(db) == 2)
        }
    }

    @Test func anyFetchRequestInAValueObservation() async throws {
        let dbQueue = try makeDatabase()
        let request = AnyFetchRequest(Player.filter { $0.score > 150 })
        let observation = ValueObservation.tracking { db in try request.fetchCount(db) }
        var values = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await values.next() == 2)
        try await dbQueue.write { db in try Player(id: 4, name: "David", score: 500).insert(db) }
        #expect(try await values.next() == 3)
    }
}
