import Foundation
import Testing
import Trellis

// Hand-written SQL requests as application layers build them: requests
// written as string literals with interpolated record types, columns,
// values and collections, adapted into scopes with `splittingRowAdapters`
// and decoded into nested records, and statement arguments built from
// dictionaries for named parameters.

private struct Account: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "accounts"
    var id: Int64
    var name: String
    var kind: Kind

    enum Kind: String, Codable, DatabaseValueConvertible { case checking, savings }
}

private struct Balance: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "balances"
    var id: Int64
    var cents: Int
}

private struct AccountInfo: Decodable, FetchableRecord, Equatable {
    var account: Account
    var balance: Balance?
    var total: Int

    private enum CodingKeys: String, CodingKey {
        case account = "Account"
        case balance = "Balance"
        case total
    }

    static func all(kinds: [Account.Kind]) -> AdaptedFetchRequest<SQLRequest<AccountInfo>> {
        let request: SQLRequest<AccountInfo> = """
            SELECT
                \(columnsOf: Account.self),
                \(columnsOf: Balance.self, tableAlias: "b"),
                COALESCE(b.cents, 0) * 2 AS total
            FROM \(Account.self)
            LEFT JOIN \(Balance.self) b USING (id)
            WHERE \(Column("kind")) IN \(kinds)
            ORDER BY \(Column("name"))
            """
        return request.adapted { db in
            let adapters = try splittingRowAdapters(columnCounts: [
                Account.numberOfSelectedColumns(db),
                Balance.numberOfSelectedColumns(db),
            ])
            return ScopeAdapter([
                CodingKeys.account.stringValue: adapters[0],
                CodingKeys.balance.stringValue: adapters[1],
                "rest": adapters[2],
            ])
        }
    }
}

private func makeAccountQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "accounts") { t in
            t.primaryKey("id", .integer)
            t.column("name", .text).notNull()
            t.column("kind", .text).notNull()
        }
        try db.create(table: "balances") { t in
            t.primaryKey("id", .integer)
            t.column("cents", .integer).notNull()
        }
        try Account(id: 1, name: "Main", kind: .checking).insert(db)
        try Account(id: 2, name: "Rainy day", kind: .savings).insert(db)
        try Account(id: 3, name: "Old", kind: .checking).insert(db)
        try Balance(id: 1, cents: 500).insert(db)
        try Balance(id: 2, cents: 900).insert(db)
    }
    return dbQueue
}

@Suite("App usage: SQL requests")
struct AppUsageSQLRequestsTests {
    @Test("A literal request with interpolated tables, columns and arrays, split into scopes, decodes nested records")
    func splitScopes() throws {
        let dbQueue = try makeAccountQueue()
        let (infos, restRow) = try dbQueue.read { db in
            (
                try AccountInfo.all(kinds: [.checking]).fetchAll(db),
                try Row.fetchOne(db, AccountInfo.all(kinds: [.savings]))?.scopes["rest"]
            )
        }
        #expect(infos == [
            AccountInfo(account: Account(id: 1, name: "Main", kind: .checking), balance: Balance(id: 1, cents: 500), total: 1000),
            AccountInfo(account: Account(id: 3, name: "Old", kind: .checking), balance: nil, total: 0),
        ])
        #expect(restRow == ["total": 1800])
    }

    @Test("splittingRowAdapters returns one adapter per count, and one more for the remaining columns")
    func splittingCounts() throws {
        let adapters = splittingRowAdapters(columnCounts: [1, 2])
        #expect(adapters.count == 3)
        let dbQueue = try DatabaseQueue()
        let row = try #require(try dbQueue.read { db in
            try Row.fetchOne(
                db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c, 4 AS d, 5 AS e",
                adapter: ScopeAdapter(["first": adapters[0], "second": adapters[1], "rest": adapters[2]]))
        })
        #expect(row.scopes["first"] == ["a": 1])
        #expect(row.scopes["second"] == ["b": 2, "c": 3])
        #expect(row.scopes["rest"] == ["d": 4, "e": 5])
        #expect(row.unscoped == ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5])
    }

    @Test("SQLRequest(literal:) with interpolated values, enums and a set, fetched as rows")
    func literalWithValues() throws {
        let dbQueue = try makeAccountQueue()
        let excluded: Set<Int64> = [3]
        let kind = Account.Kind.checking
        let request = SQLRequest<Row>(literal: """
            SELECT a.name, b.cents FROM accounts a
            JOIN balances b ON b.id = a.id
            WHERE a.kind != \(kind) AND a.id NOT IN \(excluded)
            ORDER BY b.cents DESC
            """)
        let rows = try dbQueue.read { db in try request.fetchAll(db) }
        #expect(rows == [["name": "Rainy day", "cents": 900]])
    }

    @Test("Named arguments built from a dictionary, and arguments appended to positional ones")
    func argumentsFromDictionaries() throws {
        let dbQueue = try makeAccountQueue()
        let kinds: [Account.Kind] = [.checking, .savings]
        let names = kinds.indices.map { ":kind\($0)" }.joined(separator: ", ")
        let arguments = StatementArguments(kinds.enumerated().reduce(into: [String: (any DatabaseValueConvertible)?]()) {
            $0["kind\($1.offset)"] = $1.element
        })
        let request = SQLRequest<Account>(sql: "SELECT * FROM accounts WHERE kind IN (\(names)) ORDER BY id", arguments: arguments)
        let all = try dbQueue.read { db in try request.fetchAll(db) }
        #expect(all.map(\.id) == [1, 2, 3])

        var positional: StatementArguments = [1]
        positional += [3]
        positional.append(contentsOf: [Account.Kind.checking])
        let some = try dbQueue.read { db in
            try Account.fetchAll(db, sql: "SELECT * FROM accounts WHERE id IN (?, ?) AND kind = ?", arguments: positional)
        }
        #expect(some.map(\.id) == [1, 3])
    }

    @Test("Missing and extra statement arguments throw instead of binding NULL or ignoring them")
    func argumentMismatch() throws {
        let dbQueue = try makeAccountQueue()
        #expect(throws: DatabaseError.self) {
            _ = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM accounts WHERE id = ? AND name = ?", arguments: [1]) }
        }
        #expect(throws: DatabaseError.self) {
            _ = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM accounts WHERE id = ?", arguments: [1, 2]) }
        }
        #expect(throws: DatabaseError.self) {
            _ = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM accounts WHERE id = :id", arguments: ["identifier": 1]) }
        }
    }
}
