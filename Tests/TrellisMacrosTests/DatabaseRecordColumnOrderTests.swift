import Foundation
import Testing
import TrellisMacros

// A macro record reads by position when the row starts with the columns of
// its properties, in order, and by name otherwise. Both ways must give the
// same values and the same errors, whatever the order of the columns.

@DatabaseRecord
struct OrderedScore: FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "score"
    var id: Int64
    var player: String
    var points: Int
    var bonus: Double?
}

@DatabaseRecord
struct ScoreWithRenamedColumn: FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "score"
    var id: Int64
    @Column("player") var name: String
}

@DatabaseRecord
struct OrderedTeam: FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "team"
    var id: Int64
    var name: String
}

@DatabaseRecord
struct ScoreWithTeam: FetchableRecord, Equatable {
    var score: OrderedScore
    var team: OrderedTeam
}

/// A hand-written record that gives fewer columns than it reads.
struct PartlyListedScore: FetchableRecord, Equatable {
    var id: Int64
    var player: String
    var points: Int

    init(row: Row) throws {
        var reader = RecordRowReader<Self>(row: row, columns: ["id"])
        id = try reader.decode(forKey: "id")
        player = try reader.decode(forKey: "player")
        points = try reader.decode(forKey: "points")
    }
}

@Suite("Macro records read by position or by name")
struct DatabaseRecordColumnOrderTests {
    let expected = [
        OrderedScore(id: 1, player: "Arthur", points: 100, bonus: nil),
        OrderedScore(id: 2, player: "Barbara", points: 250, bonus: 1.5),
    ]

    func makeDatabase(columns: String) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE score (\(columns))")
            try db.execute(sql: """
                INSERT INTO score (id, player, points, bonus) VALUES (1, 'Arthur', 100, NULL), (2, 'Barbara', 250, 1.5)
                """)
        }
        return dbQueue
    }

    @Test("the columns of the table in the order of the properties")
    func sameOrder() throws {
        let dbQueue = try makeDatabase(columns: "id INTEGER PRIMARY KEY, player TEXT, points INTEGER, bonus REAL")
        let scores = try dbQueue.read { db in try OrderedScore.order(Column("id")).fetchAll(db) }
        #expect(scores == expected)
    }

    @Test("the columns of the table in another order")
    func otherOrder() throws {
        let dbQueue = try makeDatabase(columns: "bonus REAL, points INTEGER, player TEXT, id INTEGER PRIMARY KEY")
        let scores = try dbQueue.read { db in try OrderedScore.order(Column("id")).fetchAll(db) }
        #expect(scores == expected)
    }

    @Test("more columns after those of the properties")
    func extraColumns() throws {
        let dbQueue = try makeDatabase(columns: "id INTEGER PRIMARY KEY, player TEXT, points INTEGER, bonus REAL, note TEXT")
        let scores = try dbQueue.read { db in try OrderedScore.order(Column("id")).fetchAll(db) }
        #expect(scores == expected)
    }

    @Test("one statement read by two record types")
    func twoRecordTypesOnOneStatement() throws {
        let dbQueue = try makeDatabase(columns: "id INTEGER PRIMARY KEY, player TEXT, points INTEGER, bonus REAL")
        try dbQueue.read { db in
            let sql = "SELECT * FROM score ORDER BY id"
            let statement = try db.cachedStatement(sql: sql)
            let scores = try OrderedScore.fetchAll(statement)
            let renamed = try ScoreWithRenamedColumn.fetchAll(statement)
            let scoresAgain = try OrderedScore.fetchAll(statement)
            #expect(scores == expected)
            #expect(scoresAgain == expected)
            #expect(renamed == [ScoreWithRenamedColumn(id: 1, name: "Arthur"), ScoreWithRenamedColumn(id: 2, name: "Barbara")])
        }
    }

    @Test("the columns moved by a schema change between two fetches of a cached statement")
    func columnsMovedBetweenFetches() throws {
        let dbQueue = try makeDatabase(columns: "id INTEGER PRIMARY KEY, player TEXT, points INTEGER, bonus REAL")
        try dbQueue.write { db in
            let sql = "SELECT * FROM score ORDER BY id"
            #expect(try OrderedScore.fetchAll(db.cachedStatement(sql: sql)) == expected)
            try db.execute(sql: """
                CREATE TABLE moved (points INTEGER, id INTEGER PRIMARY KEY, bonus REAL, player TEXT);
                INSERT INTO moved SELECT points, id, bonus, player FROM score;
                DROP TABLE score;
                ALTER TABLE moved RENAME TO score;
                """)
            #expect(try OrderedScore.fetchAll(db.cachedStatement(sql: sql)) == expected)
        }
    }

    @Test("a record joined to another reads its own columns")
    func joinedScopes() throws {
        let dbQueue = try makeDatabase(columns: "id INTEGER PRIMARY KEY, player TEXT, points INTEGER, bonus REAL")
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO team VALUES (1, 'Blue'), (2, 'Red')")
        }
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT score.*, team.* FROM score JOIN team ON team.id = score.id ORDER BY score.id",
                             adapter: ScopeAdapter(["score": RangeRowAdapter(0..<4), "team": SuffixRowAdapter(fromIndex: 4)]))
                .map { try ScoreWithTeam(row: $0) }
        }
        #expect(rows == [
            ScoreWithTeam(score: expected[0], team: OrderedTeam(id: 1, name: "Blue")),
            ScoreWithTeam(score: expected[1], team: OrderedTeam(id: 2, name: "Red")),
        ])
    }

    @Test("a reader given fewer columns than it reads finds the others by name")
    func partlyListedColumns() throws {
        let dbQueue = try makeDatabase(columns: "id INTEGER PRIMARY KEY, points INTEGER, player TEXT, bonus REAL")
        let scores = try dbQueue.read { db in
            try PartlyListedScore.fetchAll(db, sql: "SELECT * FROM score ORDER BY id")
        }
        #expect(scores.map(\.points) == [100, 250])
        #expect(scores.map(\.player) == ["Arthur", "Barbara"])
    }

    @Test("a value that does not convert throws the same error by position and by name")
    func sameErrorBothWays() throws {
        func error(columns: String) throws -> String {
            let dbQueue = try makeDatabase(columns: columns)
            try dbQueue.write { db in try db.execute(sql: "UPDATE score SET points = 'many' WHERE id = 2") }
            do {
                _ = try dbQueue.read { db in try OrderedScore.order(Column("id")).fetchAll(db) }
                return "no error"
            } catch {
                return String(describing: error)
            }
        }
        let byPosition = try error(columns: "id INTEGER PRIMARY KEY, player TEXT, points INTEGER, bonus REAL")
        let byName = try error(columns: "player TEXT, id INTEGER PRIMARY KEY, points INTEGER, bonus REAL")
        #expect(byPosition.contains("points"))
        #expect(byPosition.contains("many"))
        #expect(byName.contains("points"))
        #expect(byName.contains("many"))
        // The rows differ in the order of their columns only.
        func withoutRow(_ message: String) -> String {
            message.replacingOccurrences(of: #"row: \[[^\]]*\]"#, with: "row", options: .regularExpression)
        }
        #expect(withoutRow(byPosition) == withoutRow(byName))
        #expect(withoutRow(byPosition).contains(#"column: "points", column index: 2, row, sql"#))
    }
}
