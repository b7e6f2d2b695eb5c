import Testing
import Trellis

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

@Suite struct UpdateAndFetchColumnsTests {
    private func makeDatabase(_ trace: StatementTrace) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL,
                  bonus INTEGER GENERATED ALWAYS AS (score * 2));
                INSERT INTO player(id, name, score) VALUES (1, 'Arthur', 100);
                """)
        }
        _ = trace.take()
        return dbQueue
    }

    @Test func updatesOnlyTheGivenColumnsAndFetchesTheSelection() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.write { db in
            let player = Player(id: 1, name: "Barbara", score: 1000)
            let bonus = try player.updateAndFetch(db, columns: ["score"], selection: [Column("bonus")]) {
                try Int.fetchOne($0)
            }
            #expect(bonus == 2000)
            #expect(trace.take().filter { $0.hasPrefix("UPDATE") }
                == [#"UPDATE "player" SET "score" = ? WHERE "id" = ? RETURNING "bonus""#])
            // The name was not written.
            #expect(try Row.fetchOne(db, sql: "SELECT name, score FROM player") == ["name": "Arthur", "score": 1000])
        }
    }

    @Test func takesColumnExpressions() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.write { db in
            let player = Player(id: 1, name: "Barbara", score: 7)
            let row = try player.updateAndFetch(
                db, columns: [Player.Columns.name], selection: [Player.Columns.name, Player.Columns.score])
            {
                try Row.fetchOne($0)
            }
            #expect(row == ["name": "Barbara", "score": 100])
        }
    }

    @Test func aMissingRowThrowsRecordNotFound() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.write { db in
            let player = Player(id: 2, name: "Craig", score: 0)
            #expect(throws: RecordError.self) {
                try player.updateAndFetch(db, columns: ["score"], selection: [Column("score")]) { try Int.fetchOne($0) }
            }
        }
    }
}
