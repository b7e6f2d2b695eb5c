import Foundation
import Testing
import Trellis

// Forms of the query interface: keys of composite primary keys, literal
// selections of tables, values in SQL functions, unscoped rows.

@Suite("Query interface forms")
struct QueryInterfaceFormsTests {
    private struct Membership: Codable, FetchableRecord, PersistableRecord {
        var teamId: Int64
        var playerId: Int64
        var role: String
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "membership") { t in
                t.primaryKey {
                    t.column("teamId", .integer)
                    t.column("playerId", .integer)
                }
                t.column("role", .text).notNull()
            }
            try Membership(teamId: 1, playerId: 1, role: "captain").insert(db)
            try Membership(teamId: 1, playerId: 2, role: "member").insert(db)
            try Membership(teamId: 2, playerId: 3, role: "coach").insert(db)
        }
        return dbQueue
    }

    @Test("filter(keys:) takes the keys of a primary key of several columns")
    func filterByCompositeKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let keys: [[String: (any DatabaseValueConvertible)?]] = [["teamId": 1, "playerId": 2], ["teamId": 2, "playerId": 3]]
            #expect(try Membership.filter(keys: keys).order(Column("role")).fetchAll(db).map(\.role) == ["coach", "member"])
            #expect(try Membership.all().filter(keys: [["teamId": 1, "playerId": 1]]).fetchAll(db).map(\.role) == ["captain"])
            #expect(try Table("membership").filter(keys: [["teamId": 2, "playerId": 3]]).fetchCount(db) == 1)
            #expect(try Membership.filter(keys: []).fetchCount(db) == 0)
            #expect(throws: DatabaseError.self) { try Membership.filter(keys: [["role": "coach"]]).fetchAll(db) }
        }
    }

    @Test("Table selects SQL literals, as requests do")
    func tableSelectLiteral() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Table("membership").select(literal: "MAX(playerId)", as: Int.self).fetchOne(db) == 3)
            #expect(try Table("membership").select(literal: "COUNT(*)").asRequest(of: Int.self).fetchOne(db) == 3)
        }
    }

    @Test("Database values are arguments of SQL functions")
    func databaseValueInFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let request = SQLRequest<String>("SELECT \(dateTime("2024-01-31".databaseValue, .month(1), .day(-1)))")
            #expect(try request.fetchOne(db) == "2024-03-01 00:00:00")
            #expect(try Double.fetchOne(db, SQLRequest<Double>("SELECT \(julianDay("2024-01-02".databaseValue, .startOfYear))")) == 2_460_310.5)
        }
    }

    @Test("Row.unscoped is the row without its scopes")
    func unscoped() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let adapter = ScopeAdapter(["s": SuffixRowAdapter(fromIndex: 1)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: adapter))
            #expect(row.scopes.names == ["s"])
            #expect(row.unscoped.scopes.names.isEmpty)
            #expect(row.unscoped == ["a": 1, "b": 2])
        }
    }
}
