import Foundation
import Testing
import Trellis

/// Names of GRDB's documented API that Trellis had under another name or
/// not at all.
@Suite struct GRDBParityAPITests {
    @Test func jsonColumnsAreTextColumns() throws {
        let dbQueue = try DatabaseQueue()
        let sql = try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("address", .json)
            }
            return try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player'")
        }
        #expect(sql == #"CREATE TABLE "player" ("address" TEXT)"#)
    }

    @Test func recordsFetchCursorsByKeysAndIds() throws {
        struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
            var id: Int64
            var email: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("email", .text).unique()
            }
            for id in 1...3 { try Player(id: Int64(id), email: "p\(id)@example.com").insert(db) }
        }
        try dbQueue.read { db in
            let byIds = try Array(Player.fetchCursor(db, ids: [3, 1, 9]))
            #expect(byIds.map(\.id).sorted() == [1, 3])
            let byKeys = try Array(Player.fetchCursor(db, keys: [2]))
            #expect(byKeys.map(\.id) == [2])
            let byUniqueKeys = try Array(Player.fetchCursor(db, keys: [["email": "p3@example.com"]]))
            #expect(byUniqueKeys.map(\.id) == [3])
            let none = try Array(Player.fetchCursor(db, ids: []))
            #expect(none.isEmpty)
            #expect(throws: (any Error).self) { try Player.fetchCursor(db, keys: [["score": 1]]) }
        }
    }

    @Test func sqlInterpolationCanBeExtended() throws {
        let dbQueue = try DatabaseQueue()
        let value = try dbQueue.read { db in
            try SQLRequest<String>(literal: "SELECT \(shouted: "arthur")").fetchOne(db)
        }
        #expect(value == "ARTHUR")
    }

    @Test func sendableMetatypesCanBeRequired() throws {
        struct Player: FetchableRecord, TableRecord, Decodable { var name: String }
        func tableName<T: TableRecord & GRDBSendableMetatype>(_ type: T.Type) -> String { type.databaseTableName }
        #expect(tableName(Player.self) == "player")
    }
}

extension SQLInterpolation {
    /// An uppercased value, for the test of extensions.
    fileprivate mutating func appendInterpolation(shouted value: String) {
        appendLiteral("UPPER(")
        appendInterpolation(value)
        appendLiteral(")")
    }
}
