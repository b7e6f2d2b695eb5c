import Testing
import Trellis

@Suite struct SQLStatementCursorTests {
    @Test func statementsArePreparedOneAtATimeWithTheirShareOfArguments() throws {
        let dbQueue = try DatabaseQueue()
        let names = try dbQueue.write { db in
            let statements = try db.allStatements(sql: """
                CREATE TABLE player (name TEXT, score INTEGER);
                INSERT INTO player (name, score) VALUES (?, ?);
                -- a comment between statements
                INSERT INTO player (name, score) VALUES (?, :score);
                """, arguments: StatementArguments(["Arthur", 100, "Barbara"]) + ["score": 1000])
            var sqls: [String] = []
            while let statement = try statements.next() {
                sqls.append(statement.sql)
                try statement.execute()
            }
            #expect(sqls.count == 3)
            return try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY name").map { "\($0[0] as String):\($0[1] as Int)" }
        }
        #expect(names == ["Arthur:100", "Barbara:1000"])
    }

    @Test func aStatementOfTheCursorCanBeFetched() throws {
        let dbQueue = try DatabaseQueue()
        let counts = try dbQueue.write { db in
            let statements = try db.allStatements(literal: """
                CREATE TABLE t (a);
                INSERT INTO t VALUES (\(1)), (\(2));
                SELECT COUNT(*) FROM t WHERE a > \(0);
                """)
            var counts: [Int] = []
            while let statement = try statements.next() {
                if statement.isReadonly {
                    counts += try Int.fetchAll(statement)
                } else {
                    try statement.execute()
                }
            }
            return counts
        }
        #expect(counts == [2])
    }

    @Test func extraOrMissingArgumentsAreErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            let extra = try db.allStatements(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2, 3])
            #expect(try extra.next() != nil)
            // The last statement takes what is left: three values for one
            // parameter fail before it runs.
            #expect(throws: DatabaseError.self) { try extra.next() }
            let missing = try db.allStatements(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1])
            _ = try missing.next()
            #expect(throws: DatabaseError.self) { try missing.next() }
            // Without arguments, statements come unbound, for their caller to bind.
            let unbound = try db.allStatements(sql: "INSERT INTO t VALUES (?)")
            let statement = try #require(try unbound.next())
            try statement.execute(arguments: [42])
            #expect(try unbound.next() == nil)
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [42])
        }
    }
}
