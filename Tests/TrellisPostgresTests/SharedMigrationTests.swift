import Foundation
import Testing
import Trellis
import TrellisPostgres

@Suite struct SharedMigrationTests {
    private struct Broken: Error {}

    private struct State: Sendable, Equatable {
        var applied: [String]
        var columns: [String]
        var playerCount: Int
        var hasBrokenTable: Bool
    }

    @Test(arguments: Engine.available)
    func migrationsRunOnceEachAndAFailedOneLeavesNoTrace(_ engine: Engine) async throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            try db.alter(table: "player") { t in t.add(column: "score", .integer).notNull().defaults(to: 0) }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        var broken = migrator
        broken.registerMigration("v3") { db in
            try db.create(table: "broken") { t in t.column("a", .integer) }
            throw Broken()
        }
        let state: @Sendable (Database) throws -> State = { [migrator] db in
            State(
                applied: try migrator.appliedMigrations(db),
                columns: try db.columns(in: "player").map(\.name),
                playerCount: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1,
                hasBrokenTable: try db.tableExists("broken"))
        }
        let states: [State]
        switch engine {
        case .sqlite:
            let dbQueue = try DatabaseQueue()
            try migrator.migrate(dbQueue, upTo: "v1")
            let first = try await dbQueue.read(state)
            try await migrator.migrate(dbQueue)
            try await migrator.migrate(dbQueue)
            await #expect(throws: Broken.self) { try await broken.migrate(dbQueue) }
            states = [first, try await dbQueue.read(state)]
        case .postgreSQL:
            states = try await PostgresTestServer.withDatabase { database in
                try await migrator.migrate(database, upTo: "v1")
                let first = try await database.read(state)
                try await migrator.migrate(database)
                try await migrator.migrate(database)
                await #expect(throws: Broken.self) { try await broken.migrate(database) }
                return [first, try await database.read(state)]
            }
        }
        #expect(states == [
            State(applied: ["v1"], columns: ["id", "name"], playerCount: 0, hasBrokenTable: false),
            State(applied: ["v1", "v2"], columns: ["id", "name", "score"], playerCount: 1, hasBrokenTable: false),
        ])
    }
}
