import Foundation
import Testing
import Trellis

// Symbols that GRDB's "Database Observation" page lists in its topics:
// the fields of `DatabaseEvent`, and `AnyDatabaseRegionConvertible`.

@Suite struct DatabaseObservationTopicsDocTests {
    private final class EventLog: TransactionObserver, @unchecked Sendable {
        var events: [DatabaseEvent] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { events.append(event.copy()) }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    @Test func databaseEventFields() throws {
        let dbQueue = try DatabaseQueue()
        let log = EventLog()
        dbQueue.add(transactionObserver: log)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE TEMP TABLE scratch(value)")
            try db.execute(sql: "ATTACH DATABASE ':memory:' AS archive")
            try db.execute(sql: "CREATE TABLE archive.player(id INTEGER PRIMARY KEY, name TEXT)")
        }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET name = 'Barbara' WHERE id = 1")
            try db.execute(sql: "INSERT INTO scratch (rowid, value) VALUES (7, 1)")
            try db.execute(sql: "INSERT INTO archive.player (id, name) VALUES (3, 'Craig')")
            try db.execute(sql: "DELETE FROM player WHERE id = 1")
        }
        let summary = log.events.map { "\($0.kind) \($0.databaseName).\($0.tableName)[\($0.rowID)]" }
        #expect(summary == [
            "insert main.player[1]",
            "update main.player[1]",
            "insert temp.scratch[7]",
            "insert archive.player[3]",
            "delete main.player[1]",
        ])
    }

    @Test func anyDatabaseRegionConvertible() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "award") { t in t.autoIncrementedPrimaryKey("id") }
        }
        let players = AnyDatabaseRegionConvertible(Table("player"))
        let teams = AnyDatabaseRegionConvertible { db in
            try Table("team").all().databaseRegion(db)
        }
        let description = try dbQueue.read { db in
            try players.databaseRegion(db).union(teams.databaseRegion(db)).description
        }
        #expect(description == "player(*),team(*)")

        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var value = 0
        }
        let count = Count()
        let cancellable = DatabaseRegionObservation(tracking: players, teams).start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { _ in
            count.lock.withLock { count.value += 1 }
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO award DEFAULT VALUES") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        #expect(count.lock.withLock { count.value } == 2)
        cancellable.cancel()
    }
}
