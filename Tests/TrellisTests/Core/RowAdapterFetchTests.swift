import Foundation
import Testing
import Trellis

// Values, rows and records fetched through row adapters.

@Suite("Fetching through row adapters")
struct RowAdapterFetchTests {
    struct Pair: FetchableRecord, Hashable {
        var b: Int
        var c: Int
        init(b: Int, c: Int) {
            self.b = b
            self.c = c
        }

        init(row: Row) throws {
            b = try row.decode(forColumn: "b")
            c = try row.decode(forColumn: "c")
        }
    }

    @Test("Values, rows and records fetch through an adapter, from SQL and from statements")
    func fetchMethodsTakeAnAdapter() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a, b, c); INSERT INTO t VALUES (1, 2, 3), (4, 5, 6)")
            let sql = "SELECT a, b, c FROM t ORDER BY a"
            let suffix = SuffixRowAdapter(fromIndex: 1)
            #expect(try Int.fetchAll(db, sql: sql, adapter: suffix) == [2, 5])
            #expect(try Int.fetchOne(db, sql: sql, adapter: suffix) == 2)
            #expect(try Array(Int.fetchCursor(db, sql: sql, adapter: suffix)) == [2, 5])
            #expect(try Int.fetchSet(db, sql: sql, adapter: suffix) == [2, 5])
            #expect(try String.fetchAll(db, sql: "SELECT 1, 'x'", arguments: [], adapter: SuffixRowAdapter(fromIndex: 1)) == ["x"])
            #expect(try Row.fetchSet(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)) == [["c": 3], ["c": 6]])

            let statement = try db.makeStatement(sql: "SELECT a, b, c FROM t WHERE a >= ? ORDER BY a")
            #expect(try Int.fetchAll(statement, arguments: [4], adapter: suffix) == [5])
            #expect(try Int.fetchOne(statement, arguments: [1], adapter: suffix) == 2)
            #expect(try Int.fetchSet(statement, arguments: [1], adapter: suffix) == [2, 5])
            #expect(try Array(Row.fetchCursor(statement, arguments: [1], adapter: suffix)).map { $0["b"] as Int } == [2, 5])
            #expect(try Row.fetchOne(statement, arguments: [4], adapter: suffix) == ["b": 5, "c": 6])
            #expect(try Pair.fetchAll(statement, arguments: [1], adapter: suffix) == [Pair(b: 2, c: 3), Pair(b: 5, c: 6)])
            #expect(try Pair.fetchOne(statement, arguments: [4], adapter: suffix) == Pair(b: 5, c: 6))
            #expect(try Array(Pair.fetchCursor(statement, arguments: [4], adapter: suffix)) == [Pair(b: 5, c: 6)])
            #expect(try Pair.fetchSet(db, sql: sql, adapter: suffix) == [Pair(b: 2, c: 3), Pair(b: 5, c: 6)])
            #expect(try Pair.fetchSet(statement, arguments: [1], adapter: suffix).count == 2)
            // An adapter that reaches past the columns is an error, not a crash.
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 9)) }
        }
    }

    @Test("addingScopes adds scopes; a scope of the same name replaces the base's")
    func addingScopes() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let sql = "SELECT 1 AS a, 'x' AS b, 3 AS c"
            let adapter = RangeRowAdapter(0..<2).addingScopes(["s": SuffixRowAdapter(fromIndex: 2)])
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            #expect(row.columnNames == ["a", "b"])
            #expect(row.scopes["s"] == ["c": 3])

            let overriding = ScopeAdapter(base: ScopeAdapter(["s": RangeRowAdapter(0..<1)]), scopes: ["s": RangeRowAdapter(1..<2)])
            let overridden = try #require(try Row.fetchOne(db, sql: sql, adapter: overriding))
            #expect(overridden.scopes.names == ["s"])
            #expect(overridden.scopes["s"] == ["b": "x"])
        }
    }
}
