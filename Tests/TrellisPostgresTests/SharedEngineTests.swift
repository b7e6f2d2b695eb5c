import Foundation
import Testing
import Trellis
import TrellisPostgres

/// The engines that a shared test body runs on: PostgreSQL only when a
/// server is reachable (see `PostgresTestServer`).
enum Engine: String, CustomStringConvertible, Sendable {
    case sqlite
    case postgreSQL

    var description: String { rawValue }

    static var available: [Engine] {
        PostgresTestServer.isAvailable ? [.sqlite, .postgreSQL] : [.sqlite]
    }
}

private struct Player: Codable, FetchableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
    var score: Int
    var isActive: Bool
    var joined: Date
}

@Suite struct SharedEngineTests {
    /// Runs the same statements on an engine, and fetches players.
    private func players(
        on engine: Engine,
        setUp statements: [(String, StatementArguments)],
        fetch sql: String, arguments: StatementArguments) async throws -> [Player]
    {
        switch engine {
        case .sqlite:
            let dbQueue = try DatabaseQueue()
            return try await dbQueue.write { db in
                for (sql, arguments) in statements { try db.execute(sql: sql, arguments: arguments) }
                return try Player.fetchAll(db, sql: sql, arguments: arguments)
            }
        case .postgreSQL:
            return try await PostgresTestServer.withDatabase { database in
                try await database.write { db in
                    for (sql, arguments) in statements { try db.execute(sql: sql, arguments: arguments) }
                    return try Player.fetchAll(db, sql: sql, arguments: arguments)
                }
            }
        }
    }

    @Test(arguments: Engine.available)
    func aRecordReadsTheSameOnBothEngines(_ engine: Engine) async throws {
        let joined = Date(timeIntervalSince1970: 1_700_000_000.5)
        let insert = "INSERT INTO player (id, name, score, isActive, joined) VALUES (?, ?, ?, ?, ?)"
        let players = try await players(
            on: engine,
            setUp: [
                ("""
                 CREATE TABLE player (
                     id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL,
                     isActive BOOLEAN NOT NULL, joined TIMESTAMP NOT NULL)
                 """, []),
                (insert, [1, "Arthur", 100, true, joined]),
                (insert, [2, "Barbara", 50, false, joined]),
                (insert, [3, "Craig", 80, true, joined]),
            ],
            fetch: "SELECT * FROM player WHERE isActive = :active ORDER BY score DESC",
            arguments: ["active": true])
        #expect(players == [
            Player(id: 1, name: "Arthur", score: 100, isActive: true, joined: joined),
            Player(id: 3, name: "Craig", score: 80, isActive: true, joined: joined),
        ])
    }
}
