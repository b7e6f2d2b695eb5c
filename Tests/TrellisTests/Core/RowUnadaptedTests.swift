import Testing
import Trellis

// The rows that GRDB 7 gives for the same adapters (checked with GRDB).
@Suite struct RowUnadaptedTests {
    private let sql = "SELECT 1 AS a, 2 AS b, 3 AS c"

    @Test func anAdaptedRowAndItsScopesRememberTheFetchedRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let adapter = ScopeAdapter(["b": SuffixRowAdapter(fromIndex: 1)])
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            #expect(row.unadapted.description == "[a:1 b:2 c:3]")
            let scope = try #require(row.scopes["b"])
            #expect(scope.description == "[b:2 c:3]")
            #expect(scope.unadapted.description == "[a:1 b:2 c:3]")
            #expect(row.copy().unadapted.description == "[a:1 b:2 c:3]")
            #expect(scope.copy().unadapted.description == "[a:1 b:2 c:3]")
        }
    }

    @Test func aRenamedRowRemembersTheOriginalNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: ColumnMapping(["x": "c"])))
            #expect(row.description == "[x:3]")
            #expect(row.unadapted.description == "[a:1 b:2 c:3]")
        }
    }

    @Test func nestedScopesAndFetchedArraysKeepTheFetchedRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let adapter = ScopeAdapter([
                "s": ScopeAdapter(base: SuffixRowAdapter(fromIndex: 1), scopes: ["t": SuffixRowAdapter(fromIndex: 2)]),
            ])
            let rows = try Row.fetchAll(db, sql: "\(sql) UNION ALL SELECT 4, 5, 6", adapter: adapter)
            #expect(rows.map(\.unadapted.description) == ["[a:1 b:2 c:3]", "[a:4 b:5 c:6]"])
            let nested = try #require(rows.last?.scopes["s"]?.scopes["t"])
            #expect(nested.description == "[c:6]")
            #expect(nested.unadapted.description == "[a:4 b:5 c:6]")
        }
    }

    @Test func aRowWithoutAdapterIsItsOwnUnadaptedRow() throws {
        let dbQueue = try DatabaseQueue()
        let row = try #require(try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT 1 AS a") })
        #expect(row.unadapted === row)
        let literal: Row = ["a": 1]
        #expect(literal.unadapted === literal)
    }
}
