import Foundation
import Testing
import Trellis

// The row adapters of GRDB's documentation: each adapter on the rows of
// SQL requests, scopes, and the adapters that split joined rows.

private struct Author: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var name: String
}

private struct Book: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var title: String
}

@Suite struct GRDBCompatRowAdaptersTests {
    private let sql = "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d"

    @Test func adaptersPickAndRenameColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            // [b:1 c:2]
            let range = try #require(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1..<3)))
            #expect(range == ["b": 1, "c": 2])
            let closedRange = try #require(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1...2)))
            #expect(closedRange == ["b": 1, "c": 2])

            // [c:2 d:3]
            let suffix = try #require(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)))
            #expect(suffix == ["c": 2, "d": 3])

            // [consumed:"foo"]
            let mapping = ColumnMapping(["consumed": "produced"])
            let mapped = try #require(try Row.fetchOne(db, sql: "SELECT 'foo' AS produced", adapter: mapping))
            #expect(mapped == ["consumed": "foo"])

            // [arrr:0 brrr:1 ...]
            let renamed = try #require(try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { $0 + "rrr" }))
            #expect(renamed.columnNames == ["arrr", "brrr", "crrr", "drrr"])
            #expect(renamed["brrr"] as Int == 1)

            // []
            let empty = try #require(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter()))
            #expect(empty.isEmpty)

            // The adapted row still knows its fetched row.
            #expect(range.unadapted == ["a": 0, "b": 1, "c": 2, "d": 3])
        }
    }

    @Test func scopes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let adapter = ScopeAdapter([
                "left": RangeRowAdapter(0..<2),
                "right": RangeRowAdapter(2..<4)])
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            // The row itself has all columns, and its scopes hold parts.
            #expect(row.unscoped == ["a": 0, "b": 1, "c": 2, "d": 3])
            // Rows with scopes are equal when their scopes are equal too.
            #expect(row != ["a": 0, "b": 1, "c": 2, "d": 3])
            #expect(row.scopes["left"] == ["a": 0, "b": 1])
            #expect(row.scopes["right"] == ["c": 2, "d": 3])
            #expect(row.scopes["missing"] == nil)
            #expect(Set(row.scopes.names) == ["left", "right"])

            // A base adapter and nested scopes.
            let nested = ScopeAdapter(base: RangeRowAdapter(0..<1), scopes: [
                "outer": ScopeAdapter(base: RangeRowAdapter(1..<2), scopes: ["inner": SuffixRowAdapter(fromIndex: 3)]),
            ])
            let nestedRow = try #require(try Row.fetchOne(db, sql: sql, adapter: nested))
            #expect(nestedRow.unscoped == ["a": 0])
            #expect(nestedRow.scopes["outer"]?.unscoped == ["b": 1])
            #expect(nestedRow.scopes["outer"]?.scopes["inner"] == ["d": 3])
            #expect(nestedRow.scopesTree["inner"] == ["d": 3])

            // A scope added to an adapter.
            let added = RangeRowAdapter(0..<2).addingScopes(["tail": SuffixRowAdapter(fromIndex: 2)])
            let addedRow = try #require(try Row.fetchOne(db, sql: sql, adapter: added))
            #expect(addedRow.unscoped == ["a": 0, "b": 1])
            #expect(addedRow.scopes["tail"] == ["c": 2, "d": 3])
        }
    }

    @Test func splittingJoinedRows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, authorId INTEGER REFERENCES author(id));
                INSERT INTO author VALUES (1, 'Jules Verne');
                INSERT INTO book VALUES (10, 'Nord contre Sud', 1);
                """)
            let authorColumnCount = try db.columns(in: "author").count
            let adapters = splittingRowAdapters(columnCounts: [authorColumnCount])
            #expect(adapters.count == 2)
            let adapter = ScopeAdapter(base: adapters[0], scopes: ["book": adapters[1]])
            let request = SQLRequest<Row>(
                sql: "SELECT author.*, book.* FROM author JOIN book ON book.authorId = author.id",
                adapter: adapter)
            let row = try #require(try request.fetchOne(db))
            #expect(try Author(row: row) == Author(id: 1, name: "Jules Verne"))
            let bookRow = try #require(row.scopes["book"])
            #expect(try Book(row: bookRow) == Book(id: 10, title: "Nord contre Sud"))
            #expect(bookRow["authorId"] as Int64 == 1)

            // Three parts: the counts, and the columns after them.
            let threeParts = splittingRowAdapters(columnCounts: [1, 2])
            #expect(threeParts.count == 3)
            let last = try #require(try Row.fetchOne(db, sql: sql, adapter: threeParts[2]))
            #expect(last == ["d": 3])
            let middle = try #require(try Row.fetchOne(db, sql: sql, adapter: threeParts[1]))
            #expect(middle == ["b": 1, "c": 2])
        }
    }
}
