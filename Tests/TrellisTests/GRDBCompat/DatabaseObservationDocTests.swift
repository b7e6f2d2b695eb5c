import Foundation
import Testing
import Trellis

// GRDB's DatabaseObservation.md lists the ways to observe the database
// (it has no code sample of its own): those its topics name and the
// pages of ValueObservation, DatabaseRegionObservation and
// TransactionObserver do not cover.

@Suite struct DatabaseObservationDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY)")
        }
        return dbQueue
    }

    @Test func afterNextTransactionHandlesOneTransaction() throws {
        final class Log: @unchecked Sendable { var events: [String] = [] }
        let log = Log()
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            db.afterNextTransaction { _ in log.events.append("commit 1") } onRollback: { _ in log.events.append("rollback 1") }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        try dbQueue.inTransaction { db in
            db.afterNextTransaction { _ in log.events.append("commit 2") } onRollback: { _ in log.events.append("rollback 2") }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            return .rollback
        }
        // Only the next transaction.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        #expect(log.events == ["commit 1", "rollback 2"])
    }

    @Test func regionsOfRequestsAndTables() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Table("player").all().databaseRegion(db) == Table("player").select(AllColumns()).databaseRegion(db))
            #expect(try Table("player").databaseRegion(db).description == "player(*)")
            #expect(try SQLRequest<Row>(sql: "SELECT COUNT(*) FROM player JOIN team").databaseRegion(db).description == "player(*),team(*)")
            #expect(DatabaseRegion.fullDatabase.description == "full database")
            #expect(DatabaseRegion().description == "empty")
            #expect(DatabaseRegion(tables: ["player"]).union(.fullDatabase).isFullDatabase)
            #expect(DatabaseRegion.fullDatabase.contains(table: "anything"))
        }
    }

    @Test func observersOnConnectionsAndWriters() throws {
        final class Counter: TransactionObserver, @unchecked Sendable {
            var commits = 0
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) {}
            func databaseDidCommit(_ db: Database) { commits += 1 }
            func databaseDidRollback(_ db: Database) {}
        }
        let dbQueue = try makeDatabase()
        let writerObserver = Counter()
        let connectionObserver = Counter()
        dbQueue.add(transactionObserver: writerObserver)
        try dbQueue.writeWithoutTransaction { db in
            db.add(transactionObserver: connectionObserver, extent: .databaseLifetime)
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        #expect(writerObserver.commits == 1)
        #expect(connectionObserver.commits == 1)
        dbQueue.remove(transactionObserver: writerObserver)
        try dbQueue.writeWithoutTransaction { db in db.remove(transactionObserver: connectionObserver) }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        #expect(writerObserver.commits == 1)
        #expect(connectionObserver.commits == 1)
    }
}
