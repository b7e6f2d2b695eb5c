import Testing
import Trellis

@Suite struct SmokeTests {
    @Test func rowSubscriptsDecodeValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score INT); INSERT INTO t(name, score) VALUES ('a', 1), (NULL, 2)")
        }
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY id")
            let name: String? = rows[1]["name"]
            let name0: String = rows[0]["name"]
            let score: Int = rows[0]["SCORE"]
            let id: Int64 = rows[1][0]
            #expect(name == nil)
            #expect(name0 == "a")
            #expect(score == 1)
            #expect(id == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t WHERE name IS NOT NULL") == ["a"])
        }
    }
}
