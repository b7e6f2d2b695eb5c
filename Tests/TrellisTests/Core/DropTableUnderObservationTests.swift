import Foundation
import Testing
import Trellis

/// With transaction observers, `DELETE FROM t` reports each deleted row,
/// and `DROP TABLE` still drops (SQLite's truncate optimization is turned
/// off for the first, and must not cancel the second).
@Suite struct DropTableUnderObservationTests {
    private final class Observer: TransactionObserver, @unchecked Sendable {
        var deletedRowIDs: [Int64] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {
            if event.kind == .delete { deletedRowIDs.append(event.rowID) }
        }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    private func makeSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE t(id INTEGER PRIMARY KEY, a);
            INSERT INTO t(a) VALUES (1), (2), (3);
            CREATE VIEW v AS SELECT * FROM t;
            CREATE VIRTUAL TABLE document USING fts5(content);
            INSERT INTO document(content) VALUES ('hello world');
            CREATE TEMPORARY TABLE scratch(a);
            CREATE TEMPORARY VIEW scratchView AS SELECT * FROM scratch;
            """)
    }

    private func expectEverythingDropped(_ db: Database) throws {
        #expect(try !db.tableExists("t"))
        #expect(try !db.viewExists("v"))
        #expect(try !db.tableExists("document"))
        #expect(try !db.tableExists("document_data"))
        #expect(try !db.tableExists("scratch"))
        #expect(try !db.viewExists("scratchView"))
    }

    private let dropEverything = """
        DROP VIEW v; DROP TABLE t; DROP TABLE document; DROP VIEW scratchView; DROP TABLE scratch
        """

    @Test func dropTableDropsWithATransactionObserver() throws {
        let dbQueue = try DatabaseQueue()
        let observer = Observer()
        try dbQueue.write { (db: Database) throws in
            db.add(transactionObserver: observer)
            try makeSchema(db)
        }
        try dbQueue.write { (db: Database) throws in try db.execute(sql: dropEverything) }
        try dbQueue.read { (db: Database) throws in try expectEverythingDropped(db) }
        _ = observer
    }

    @Test func dropTableDropsWithADatabaseRegionObservation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in try makeSchema(db) }
        let observation = DatabaseRegionObservation(tracking: .fullDatabase)
        let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { _ in })
        try dbQueue.write { (db: Database) throws in try db.execute(sql: dropEverything) }
        try dbQueue.read { (db: Database) throws in try expectEverythingDropped(db) }
        cancellable.cancel()
    }

    @Test func dropTableDropsWithAValueObservationInAPool() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("drop-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t(a) VALUES (1)")
        }
        let observation = ValueObservation.tracking { (db: Database) throws in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "drop")), onError: { _ in }, onChange: { _ in })
        try dbPool.write { (db: Database) throws in try db.execute(sql: "DROP TABLE t") }
        #expect(try dbPool.read { (db: Database) throws in try db.tableExists("t") } == false)
        cancellable.cancel()
    }

    @Test func deleteWithoutWhereStillReportsEachRow() throws {
        let dbQueue = try DatabaseQueue()
        let observer = Observer()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, a); INSERT INTO t(a) VALUES (1), (2), (3)")
            db.add(transactionObserver: observer)
        }
        try dbQueue.write { (db: Database) throws in try db.execute(sql: "DELETE FROM t") }
        #expect(observer.deletedRowIDs.sorted() == [1, 2, 3])
        // The table stays, empty, and a later drop drops it.
        try dbQueue.write { (db: Database) throws in
            #expect(try db.tableExists("t"))
            try db.execute(sql: "DROP TABLE t")
            #expect(try !db.tableExists("t"))
        }
    }
}
