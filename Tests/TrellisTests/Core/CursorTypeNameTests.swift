import Testing
import Trellis

/// The fetch methods return the cursor types that GRDB names: `RowCursor`,
/// `RecordCursor`, `DatabaseValueCursor` and `FastDatabaseValueCursor`,
/// whether they fetch SQL, a statement or a request.
@Suite struct CursorTypeNameTests {
    struct Player: FetchableRecord, TableRecord {
        static let databaseTableName = "player"
        static let team = belongsTo(Team.self)
        var name: String
        init(row: Row) throws { name = try row.decode(String.self, forColumn: "name") }
    }

    struct Team: FetchableRecord, TableRecord {
        static let databaseTableName = "team"
        static let players = hasMany(Player.self)
        var name: String
        init(row: Row) throws { name = try row.decode(String.self, forColumn: "name") }
    }

    /// A wrapper that is only DatabaseValueConvertible: its values go
    /// through `DatabaseValueCursor`.
    struct Score: DatabaseValueConvertible, Equatable {
        var value: Int
        var databaseValue: DatabaseValue { value.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Score? { Int.fromDatabaseValue(dbValue).map(Score.init) }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score INTEGER, teamId INTEGER REFERENCES team(id));
                INSERT INTO team VALUES (1, 'Red'), (2, 'Blue');
                INSERT INTO player VALUES (1, 'Arthur', 100, 1), (2, 'Barbara', 200, 1), (3, 'Craig', 300, 2);
                """)
        }
        return dbQueue
    }

    @Test func rowCursors() throws {
        try makeDatabase().read { db in
            let sqlRows: RowCursor = try Row.fetchCursor(db, sql: "SELECT name FROM player WHERE id > ? ORDER BY id", arguments: [1])
            #expect(sqlRows.sql == "SELECT name FROM player WHERE id > ? ORDER BY id")
            #expect(sqlRows.arguments == [1])
            #expect(sqlRows.columnNames == ["name"])
            #expect(sqlRows.columnCount == 1)
            #expect(try Array(sqlRows.map { $0["name"] as String }) == ["Barbara", "Craig"])

            let requestRows: RowCursor = try Row.fetchCursor(db, Player.all().order(Column("id")))
            #expect(requestRows.statement.sql.contains("player"))
            #expect(try Array(requestRows.map { $0["name"] as String }) == ["Arthur", "Barbara", "Craig"])

            let tableRows: RowCursor = try Table("player").fetchCursor(db)
            #expect(try tableRows.reduce(0) { count, _ in count + 1 } == 3)

            let adaptedRows: RowCursor = try Row.fetchCursor(
                db, sql: "SELECT id, name FROM player ORDER BY id", adapter: SuffixRowAdapter(fromIndex: 1))
            #expect(try Array(adaptedRows.map { $0.columnNames }) == [["name"], ["name"], ["name"]])
        }
    }

    @Test func recordCursors() throws {
        try makeDatabase().read { db in
            let all: RecordCursor<Player> = try Player.fetchCursor(db)
            #expect(try Set(all.map(\.name)) == ["Arthur", "Barbara", "Craig"])

            let sql: RecordCursor<Player> = try Player.fetchCursor(db, sql: "SELECT * FROM player WHERE score >= ?", arguments: [200])
            #expect(sql.arguments == [200])
            #expect(try Set(sql.map(\.name)) == ["Barbara", "Craig"])

            let request: RecordCursor<Player> = try Player.filter(Column("score") > 150).order(Column("id")).fetchCursor(db)
            #expect(try Array(request.map(\.name)) == ["Barbara", "Craig"])

            let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE id = ?")
            let fromStatement: RecordCursor<Player> = try Player.fetchCursor(statement, arguments: [3])
            #expect(try fromStatement.next()?.name == "Craig")
            #expect(try fromStatement.next() == nil)
        }
    }

    @Test func recordCursorsOfRequestsThatPrefetchAssociatedRecords() throws {
        try makeDatabase().read { db in
            let teams: RecordCursor<Team> = try Team.including(all: Team.players).order(Column("id")).fetchCursor(db)
            #expect(try Array(teams.map(\.name)) == ["Red", "Blue"])
            // The cursor is done, and stays done.
            #expect(try teams.next() == nil)

            let rows: RowCursor = try Row.fetchCursor(db, Team.including(all: Team.players).order(Column("id")))
            let playerCounts = try Array(rows.map { $0.prefetchedRows["players"]?.count })
            #expect(playerCounts == [2, 1])
        }
    }

    @Test func valueCursors() throws {
        try makeDatabase().read { db in
            let fast: FastDatabaseValueCursor<Int> = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(try Array(fast) == [100, 200, 300])

            let fastRequest: FastDatabaseValueCursor<String> = try String.fetchCursor(db, Player.select(Column("name")).order(Column("id")))
            #expect(try Array(fastRequest) == ["Arthur", "Barbara", "Craig"])

            let scores: DatabaseValueCursor<Score> = try Score.fetchCursor(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(try Array(scores) == [Score(value: 100), Score(value: 200), Score(value: 300)])

            let request = SQLRequest<Score>(sql: "SELECT score FROM player WHERE id = ?", arguments: [2])
            let requestScores: DatabaseValueCursor<Score> = try request.fetchCursor(db)
            #expect(try Array(requestScores) == [Score(value: 200)])

            let adapted: DatabaseValueCursor<Score> = try Score.fetchCursor(
                db, sql: "SELECT id, score FROM player ORDER BY id", adapter: SuffixRowAdapter(fromIndex: 1))
            #expect(try Array(adapted) == [Score(value: 100), Score(value: 200), Score(value: 300)])
        }
    }
}
