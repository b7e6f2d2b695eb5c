import Foundation
import Testing
import Trellis

// Requests by several key dictionaries: `filter(keys: [[column: value]])`
// on requests, tables and associations, and fetching or deleting by them.

private struct Team: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    static let memberships = hasMany(Membership.self)
}

private struct Membership: Codable, FetchableRecord, PersistableRecord {
    var teamId: Int64
    var playerId: Int64
    var role: String
}

@Suite struct KeyDictionaryListTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.primaryKey("id", .integer)
            }
            try db.create(table: "membership") { t in
                t.primaryKey {
                    t.belongsTo("team")
                    t.column("playerId", .integer)
                }
                t.column("role", .text).notNull()
            }
            try Team(id: 1).insert(db)
            try Team(id: 2).insert(db)
            try Membership(teamId: 1, playerId: 1, role: "a").insert(db)
            try Membership(teamId: 1, playerId: 2, role: "b").insert(db)
            try Membership(teamId: 2, playerId: 1, role: "c").insert(db)
        }
        return dbQueue
    }

    private let keys: [[String: (any DatabaseValueConvertible)?]] = [
        ["teamId": 1, "playerId": 2],
        ["teamId": 2, "playerId": 1],
    ]

    @Test func requestsByKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Membership.filter(keys: keys).order(Column("role")).fetchAll(db).map(\.role) == ["b", "c"])
            #expect(try Membership.all().filter(keys: keys).fetchCount(db) == 2)
            #expect(try Table("membership").filter(keys: keys).fetchCount(db) == 2)
            #expect(try Membership.fetchAll(db, keys: keys).count == 2)
            #expect(try Membership.filter(keys: []).fetchCount(db) == 0)
        }
    }

    @Test func associationsByKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let rows = try Team.including(all: Team.memberships.filter(keys: keys).order(Column("role")))
                .order(Column("id"))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows.map { $0.prefetchedRows["memberships"]?.map { $0["role"] as String } ?? [] } == [["b"], ["c"]])
            #expect(try Team.joining(required: Team.memberships.filter(keys: [])).fetchCount(db) == 0)
        }
    }

    @Test func deleteByKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try Membership.deleteAll(db, keys: keys) == 2)
            #expect(try Membership.fetchAll(db).map(\.role) == ["a"])
            #expect(try Table("membership").deleteAll(db, keys: [["teamId": 1, "playerId": 1]]) == 1)
            #expect(try Membership.fetchCount(db) == 0)
        }
    }
}
