import Foundation
import Testing
import Trellis

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
}

@Suite struct DatabaseRegionObservationTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func append(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
        var values: [String] { lock.lock(); defer { lock.unlock() }; return entries }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE VIEW playerName AS SELECT name FROM player;
                """)
        }
        return dbQueue
    }

    /// Logs the number of players after each change of the players.
    private func observePlayerCount(in dbQueue: DatabaseQueue, log: Log) -> AnyDatabaseCancellable {
        DatabaseRegionObservation(tracking: Player.all()).start(in: dbQueue) { error in
            Issue.record("unexpected error \(error)")
        } onChange: { db in
            log.append("players: \((try? Player.fetchCount(db)) ?? -1)")
        }
    }

    @Test func onChangeRunsAfterEachCommitThatChangedTheRegion() throws {
        let dbQueue = try makeDatabase()
        let log = Log()
        let cancellable = observePlayerCount(in: dbQueue, log: log)
        try dbQueue.write { db in
            try Player(id: 1, name: "Arthur").insert(db)
            try Player(id: 2, name: "Barbara").insert(db)
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id) VALUES (1)") }
        try dbQueue.inTransaction { db in
            try Player(id: 3, name: "Craig").insert(db)
            return .rollback
        }
        try dbQueue.write { db in _ = try Player.deleteOne(db, key: 1) }
        cancellable.cancel()
        try dbQueue.write { db in try Player(id: 4, name: "David").insert(db) }
        #expect(log.values == ["players: 2", "players: 1"])
    }

    @Test func eachAutocommitStatementIsATransactionOfItsOwn() throws {
        let dbQueue = try makeDatabase()
        let log = Log()
        let cancellable = observePlayerCount(in: dbQueue, log: log)
        try dbQueue.writeWithoutTransaction { db in
            try Player(id: 1, name: "Arthur").insert(db)
            try Player(id: 2, name: "Barbara").insert(db)
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
            try db.execute(sql: "DELETE FROM player WHERE id = 1")
        }
        cancellable.cancel()
        #expect(log.values == ["players: 1", "players: 2", "players: 1"])
    }

    @Test func regionsComeFromRequestsViewsAndTableNames() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let region = try Player.filter(Column("name") == "Arthur").databaseRegion(db)
            #expect(try region == Player.all().databaseRegion(db))
            #expect(region != DatabaseRegion(tables: ["player"]))
            #expect(region.union(DatabaseRegion(tables: ["player"])) == DatabaseRegion(tables: ["player"]))
            // A view reads its tables.
            #expect(try SQLRequest<Row>(sql: "SELECT * FROM playerName").databaseRegion(db).contains(table: "player"))
            #expect(try !SQLRequest<Row>(sql: "SELECT * FROM playerName").databaseRegion(db).contains(table: "team"))
        }
        try dbQueue.write { (db: Database) throws in
            struct Team: TableRecord {
                static let players = hasMany(TeamPlayer.self)
            }
            struct TeamPlayer: TableRecord {
                static let databaseTableName = "teamPlayer"
            }
            try db.execute(sql: "CREATE TABLE teamPlayer (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id))")
            // Prefetched associations are read by later statements: they are part of the region.
            #expect(try Team.including(all: Team.players).databaseRegion(db) == DatabaseRegion(tables: ["team", "teamPlayer"]))
        }
        let region = DatabaseRegion(tables: ["Player"]).union(DatabaseRegion(tables: ["team"]))
        #expect(region.contains(table: "PLAYER") && region.contains(table: "team") && !region.contains(table: "other"))
        #expect(DatabaseRegion().isEmpty)
        #expect(DatabaseRegion.fullDatabase.union(region).isFullDatabase)

        let log = Log()
        let cancellable = DatabaseRegionObservation(tracking: DatabaseRegion.fullDatabase).start(in: dbQueue) { error in
            Issue.record("unexpected error \(error)")
        } onChange: { _ in
            log.append("change")
        }
        defer { cancellable.cancel() }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id) VALUES (1)") }
        #expect(log.values == ["change"])
    }

    @Test func aRegionThatCanNotBeReadIsAnError() throws {
        let dbQueue = try makeDatabase()
        let log = Log()
        let cancellable = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT * FROM missing")).start(in: dbQueue) { error in
            log.append("error: \((error as? DatabaseError)?.message ?? "\(error)")")
        } onChange: { _ in
            log.append("change")
        }
        defer { cancellable.cancel() }
        #expect(log.values == ["error: no such table: missing"])
    }
}
