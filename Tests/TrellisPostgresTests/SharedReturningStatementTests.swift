import Foundation
import Testing
import Trellis
import TrellisPostgres

// Raw SQL statements that write and return rows (`RETURNING`), alone or
// in a `WITH` clause: one test body, run on SQLite and on PostgreSQL (see
// `Engine`).

private struct Player: Codable, FetchableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
    var score: Int
}

@Suite struct SharedReturningStatementTests {
    @Test(arguments: Engine.available)
    func anInsertReturningGivesItsRows(_ engine: Engine) async throws {
        let (ids, names) = try await engine.write { db in
            try engine.createPlayers(db)
            let ids = try Int64.fetchAll(
                db, sql: "INSERT INTO player (name, score) VALUES (?, ?), (?, ?) RETURNING id",
                arguments: ["Arthur", 100, "Barbara", 50])
            let rows = try Row.fetchAll(
                db, sql: "UPDATE player SET score = score + 1 WHERE score > ? RETURNING name, score", arguments: [60])
            return (ids, rows.map { [$0["name"] as String?, ($0["score"] as Int?).map(String.init)] })
        }
        #expect(ids == [1, 2])
        #expect(names == [["Arthur", "101"]])
    }

    @Test(arguments: Engine.available)
    func aWriteInAWithClauseGivesItsRows(_ engine: Engine) async throws {
        let (inserted, updated, deleted, remaining) = try await engine.write { db in
            try engine.createPlayers(db)
            let inserted = try Row.fetchAll(db, sql: """
                WITH newcomer(name, score) AS (VALUES ('Arthur', 100), ('Barbara', 50))
                INSERT INTO player (name, score) SELECT name, score FROM newcomer RETURNING id, name
                """)
            let updated = try Row.fetchOne(db, sql: """
                WITH best AS (SELECT MAX(score) AS score FROM player)
                UPDATE player SET score = score * 2 WHERE score = (SELECT score FROM best) RETURNING name, score
                """)
            let deleted = try String.fetchAll(db, sql: """
                WITH worst AS (SELECT MIN(score) AS score FROM player)
                DELETE FROM player WHERE score = (SELECT score FROM worst) RETURNING name
                """)
            let statement = try db.makeStatement(sql: """
                WITH newcomer(name) AS (VALUES ('Craig'))
                INSERT INTO player (name, score) SELECT name, 10 FROM newcomer RETURNING score, name
                """)
            #expect(statement.isReadonly == false)
            switch engine {
            case .sqlite:
                #expect(statement.columnNames == ["score", "name"])
            case .postgreSQL:
                // The server describes a query by reading it in a
                // subquery, which would run the writes of a WITH: the
                // columns of a write are known once it ran.
                #expect(statement.columnNames == [])
                let error = try #require(throws: DatabaseError.self) { try Row.fetchOne(statement) }
                #expect(error.message == "Reading the columns of a statement that is not a query "
                    + "(RETURNING, SHOW, EXPLAIN) before it runs is not supported by PostgreSQL: "
                    + "the server tells them with the rows")
            }
            let craig = try Row.fetchOne(statement)
            #expect(craig?["name"] as String? == "Craig")
            #expect(statement.columnNames == ["score", "name"])
            return (
                inserted.map { "\($0["id"] as Int64? ?? 0):\($0["name"] as String? ?? "")" },
                updated.map { "\($0["name"] as String? ?? ""):\($0["score"] as Int? ?? 0)" },
                deleted,
                try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name"))
        }
        #expect(inserted == ["1:Arthur", "2:Barbara"])
        #expect(updated == "Arthur:200")
        #expect(deleted == ["Barbara"])
        #expect(remaining == ["Arthur", "Craig"])
    }

    @Test(arguments: Engine.available)
    func recordsAndCursorsReadTheRowsOfAWrite(_ engine: Engine) async throws {
        let (players, names, quoted) = try await engine.write { db in
            try engine.createPlayers(db)
            let players = try Player.fetchAll(db, sql: """
                WITH newcomer(name, score) AS (VALUES ('Arthur', 100), ('Barbara', 50))
                INSERT INTO player (name, score) SELECT name, score FROM newcomer RETURNING *
                """)
            var names: [String] = []
            let cursor = try String.fetchCursor(db, sql: "DELETE FROM player WHERE score < ? RETURNING name", arguments: [60])
            while let name = try cursor.next() { names.append(name) }
            // Words in strings and comments do not make a query a write.
            let query = "WITH t(word) AS (SELECT 'delete') /* update */ SELECT word FROM t"
            #expect(try db.makeStatement(sql: query).columnNames == ["word"])
            let quoted = try db.readOnly { try String.fetchAll(db, sql: query) }
            return (players, names, quoted)
        }
        #expect(players == [Player(id: 1, name: "Arthur", score: 100), Player(id: 2, name: "Barbara", score: 50)])
        #expect(names == ["Barbara"])
        #expect(quoted == ["delete"])
    }

    @Test(arguments: Engine.available)
    func aWriteInAWithClauseIsRefusedByAReadOnlyAccess(_ engine: Engine) async throws {
        let error = try await engine.write { db in
            try engine.createPlayers(db)
            return try #require(throws: DatabaseError.self) {
                try db.readOnly {
                    try Row.fetchAll(db, sql: """
                        WITH newcomer(name) AS (VALUES ('Arthur'))
                        INSERT INTO player (name, score) SELECT name, 1 FROM newcomer RETURNING id
                        """)
                }
            }
        }
        #expect(error.resultCode == .SQLITE_READONLY)
    }
}
