import Foundation
import Testing
import Trellis

/// The region of a request by primary key of a rowid table knows its rows,
/// as in GRDB (`player(...)[1]`): the changes of other rows do not impact
/// it.
@Suite struct DatabaseRegionRowIDsTests {
    private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
        var id: Int64
        var name: String
        var score: Int
    }

    private struct Tag: Codable, FetchableRecord, PersistableRecord, Identifiable {
        var id: String
        var label: String
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("score", .integer)
            }
            try db.create(table: "tag") { t in
                t.primaryKey("id", .text)
                t.column("label", .text)
            }
            try Player(id: 1, name: "Arthur", score: 10).insert(db)
            try Player(id: 2, name: "Barbara", score: 20).insert(db)
            try Player(id: 3, name: "Craig", score: 30).insert(db)
        }
        return dbQueue
    }

    @Test func requestsByPrimaryKeyKnowTheirRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.filter(id: 1).databaseRegion(db).description == "player(id,name,score)[1]")
            #expect(try Player.filter(key: 1).databaseRegion(db).description == "player(id,name,score)[1]")
            #expect(try Player.filter(ids: [3, 1]).databaseRegion(db).description == "player(id,name,score)[1,3]")
            #expect(try Player.filter(keys: [2]).databaseRegion(db).description == "player(id,name,score)[2]")
            #expect(try Player.filter(key: ["id": 2]).databaseRegion(db).description == "player(id,name,score)[2]")
            #expect(try Player.filter(Column("id") == 2).databaseRegion(db).description == "player(id,name,score)[2]")
            #expect(try Player.filter(Column.rowID == 2).databaseRegion(db).description == "player(id,name,score)[2]")
            #expect(try Player.filter(id: 1).select(Column("name")).databaseRegion(db).description == "player(id,name)[1]")
            // Rows of a filter that keeps other rows too are not known.
            #expect(try Player.filter(Column("id") == 1 || Column("score") > 0).databaseRegion(db).description == "player(id,name,score)")
            #expect(try Player.all().databaseRegion(db).description == "player(id,name,score)")
            // Not a rowid: no rows.
            #expect(try Tag.filter(id: "a").databaseRegion(db).description == "tag(id,label)")
            // Unions keep rows only where both sides know them.
            let union = try Player.filter(id: 1).databaseRegion(db).union(Player.filter(id: 2).databaseRegion(db))
            #expect(union.description == "player(id,name,score)[1,2]")
            let all = try Player.filter(id: 1).databaseRegion(db).union(Player.all().databaseRegion(db))
            #expect(all.description == "player(id,name,score)")
        }
    }

    @Test func aRegionWithRowsIsModifiedByTheEventsOfItsRowsOnly() throws {
        final class Observer: TransactionObserver, @unchecked Sendable {
            let region: DatabaseRegion
            var changes: [Int64] = []
            init(region: DatabaseRegion) { self.region = region }
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { region.isModified(byEventsOfKind: eventKind) }
            func databaseDidChange(with event: DatabaseEvent) {
                if region.isModified(by: event) { changes.append(event.rowID) }
            }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let dbQueue = try makeDatabase()
        let region = try dbQueue.read { (db: Database) throws in try Player.filter(id: 2).databaseRegion(db) }
        let observer = Observer(region: region)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in db.add(transactionObserver: observer) }
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "UPDATE player SET score = score + 1")
            try db.execute(sql: "DELETE FROM player WHERE id = 3")
        }
        #expect(observer.changes == [2])
    }

    @Test func aDatabaseRegionObservationOfARowIgnoresOtherRows() throws {
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            func increment() { lock.withLock { count += 1 } }
            var value: Int { lock.withLock { count } }
        }
        let dbQueue = try makeDatabase()
        let counter = Counter()
        let observation = DatabaseRegionObservation(tracking: Player.filter(id: 1))
        let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { _ in counter.increment() })
        // Other rows: not notified.
        try dbQueue.write { (db: Database) throws in try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 2") }
        try dbQueue.write { (db: Database) throws in try db.execute(sql: "DELETE FROM player WHERE id = 3") }
        try dbQueue.write { (db: Database) throws in try Player(id: 4, name: "Dan", score: 0).insert(db) }
        #expect(counter.value == 0)
        // The row: notified, on commit.
        try dbQueue.write { (db: Database) throws in try db.execute(sql: "UPDATE player SET score = 0 WHERE id = 1") }
        #expect(counter.value == 1)
        try dbQueue.write { (db: Database) throws in try db.execute(sql: "DELETE FROM player") }
        #expect(counter.value == 2)
        cancellable.cancel()
    }
}
