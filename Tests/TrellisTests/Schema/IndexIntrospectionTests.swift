import Testing
import Trellis

/// `db.indexes(on:)` and `table(_:hasUniqueKey:)` on the indexes that real
/// schemas have: on expressions, partial, with collations. The expected
/// values are those of GRDB 7.10.0, run on the same schema, but for the
/// partial index: GRDB takes it for a unique key, and a key lookup or a
/// `deleteOne(key:)` then matches several rows.
@Suite struct IndexIntrospectionTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INT, c INT);
                CREATE UNIQUE INDEX onExpression ON t(lower(a));
                CREATE UNIQUE INDEX partial ON t(b) WHERE b > 0;
                CREATE UNIQUE INDEX mixed ON t(c, lower(a));
                CREATE INDEX collated ON t(a COLLATE NOCASE DESC);
                """)
        }
        return dbQueue
    }

    @Test func indexesOnExpressionsAreLeftOut() throws {
        let indexes = try makeDatabase().read { db in try db.indexes(on: "t") }
        #expect(indexes.map(\.name).sorted() == ["collated", "partial"])
        let collated = try #require(indexes.first { $0.name == "collated" })
        #expect(collated.columns == ["a"])
        #expect(!collated.isUnique)
    }

    @Test func anIndexOnAnExpressionDoesNotMakeAUniqueKey() throws {
        let keys: [[String]] = [["b"], ["c"], ["a"], ["a", "c"], ["id"]]
        let unique = try makeDatabase().read { db in try keys.map { try db.table("t", hasUniqueKey: $0) } }
        #expect(unique == [false, false, false, false, true])
    }
}
