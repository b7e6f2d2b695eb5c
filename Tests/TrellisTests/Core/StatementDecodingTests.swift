import Testing
import Trellis

@Suite struct StatementDecodingTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
                INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', NULL), (3, 'Craig', 300);
                """)
        }
        return dbQueue
    }

    @Test func decodeAllDecodesEveryRowWithTheGivenArguments() throws {
        let names = try makeDatabase().read { db in
            let statement = try db.cachedStatement(sql: "SELECT name FROM player WHERE id >= ? ORDER BY id")
            let all = try statement.decodeAll(arguments: [1]) { try $0.decode(String.self, atIndex: 0) }
            let some = try statement.decodeAll(arguments: [2]) { try $0.decode(String.self, atIndex: 0) }
            return (all, some)
        }
        #expect(names.0 == ["Arthur", "Barbara", "Craig"])
        #expect(names.1 == ["Barbara", "Craig"])
    }

    @Test func decodeOneReadsTheFirstRowOrNil() throws {
        let (first, none) = try makeDatabase().read { db in
            let statement = try db.cachedStatement(sql: "SELECT name FROM player WHERE score > ? ORDER BY id")
            return (try statement.decodeOne(arguments: [50]) { try $0.decode(String.self, atIndex: 0) },
                    try statement.decodeOne(arguments: [1000]) { try $0.decode(String.self, atIndex: 0) })
        }
        #expect(first == "Arthur")
        #expect(none == nil)
    }

    @Test func decodeOneWithOneArgumentLooksUpAKey() throws {
        let names = try makeDatabase().read { db in
            let statement = try db.cachedStatement(sql: "SELECT name FROM player WHERE id = ?")
            return try [3, 1, 9].map { id in
                try statement.decodeOne(argument: id.databaseValue) { try $0.decode(String.self, atIndex: 0) }
            }
        }
        #expect(names == ["Craig", "Arthur", nil])
    }

    @Test func decodeOneWithOneArgumentThrowsForAnotherNumberOfParameters() throws {
        try makeDatabase().read { db in
            let statement = try db.cachedStatement(sql: "SELECT name FROM player WHERE id = ? AND score = ?")
            let error = #expect(throws: DatabaseError.self) {
                _ = try statement.decodeOne(argument: 1.databaseValue) { try $0.decode(String.self, atIndex: 0) }
            }
            #expect(error?.message == "wrong number of statement arguments: expected 2, got 1")
        }
    }

    @Test func executeWithValuesBindsThemInOrder() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            try insert.execute(values: ["Dora".databaseValue, 400.databaseValue])
            try insert.execute(values: ["Emil".databaseValue, .null])
        }
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, score FROM player WHERE id > 3 ORDER BY id")
        }
        #expect(rows == [["name": "Dora", "score": 400], ["name": "Emil", "score": nil]])
    }

    @Test func executeWithValuesThrowsForAnotherNumberOfParameters() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            // Too few values would leave the last parameter with the value
            // of a previous run.
            let error = #expect(throws: DatabaseError.self) {
                try insert.execute(values: ["Dora".databaseValue])
            }
            #expect(error?.message == "wrong number of statement arguments: expected 2, got 1")
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 3)
    }

    @Test func decodeIfPresentAtIndexReadsNilForNullAndMissingColumns() throws {
        let values = try makeDatabase().read { db in
            try db.cachedStatement(sql: "SELECT score, name FROM player ORDER BY id").decodeAll { row in
                [try row.decodeIfPresent(Int.self, atIndex: 0), try row.decodeIfPresent(Int.self, atIndex: 5)]
            }
        }
        #expect(values == [[100, nil], [nil, nil], [300, nil]])
    }

    @Test func decodeIfPresentAtIndexThrowsWhenTheValueDoesNotConvert() throws {
        try makeDatabase().read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT name FROM player WHERE id = 1"))
            #expect(throws: RowDecodingError.self) { _ = try row.decodeIfPresent(Int.self, atIndex: 0) }
            #expect(try row.decodeIfPresent(String.self, atIndex: 0) == "Arthur")
            // A copied row, read without a statement.
            let copy = row.copy()
            #expect(try copy.decodeIfPresent(String.self, atIndex: 0) == "Arthur")
            #expect(throws: RowDecodingError.self) { _ = try copy.decodeIfPresent(Int.self, atIndex: 0) }
        }
    }
}
