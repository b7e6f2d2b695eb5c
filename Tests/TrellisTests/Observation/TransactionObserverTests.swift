import Foundation
import Testing
import Trellis

/// Records what it is told, for the tables (and updated columns) it wants.
private final class Recorder: TransactionObserver, @unchecked Sendable {
    var tables: Set<String>
    var updatedColumn: String?
    var events: [String] = []
    var transactions: [String] = []
    var refusal: (any Error)?

    init(tables: Set<String>, updatedColumn: String? = nil) {
        self.tables = tables
        self.updatedColumn = updatedColumn
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard tables.contains(eventKind.tableName) else { return false }
        if case .update(_, let columns) = eventKind, let updatedColumn {
            return columns.contains(updatedColumn)
        }
        return true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        events.append("\(event.kind) \(event.tableName) \(event.rowID)")
    }

    func databaseWillCommit() throws {
        if let refusal { throw refusal }
    }

    func databaseDidCommit(_ db: Database) {
        transactions.append("commit")
    }

    func databaseDidRollback(_ db: Database) {
        transactions.append("rollback")
    }
}

private struct Refusal: Error, Equatable {}

@Suite struct TransactionObserverTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                """)
        }
        return dbQueue
    }

    @Test func observersReceiveTheEventsTheyWantThenTheCommit() throws {
        let dbQueue = try makeDatabase()
        let recorder = Recorder(tables: ["player"])
        dbQueue.add(transactionObserver: recorder)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 10), (2, 'Barbara', 20)")
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Reds')")
            try db.execute(sql: "UPDATE player SET score = 30 WHERE id = 2")
            try db.execute(sql: "DELETE FROM player WHERE id = 1")
        }
        #expect(recorder.events == ["insert player 1", "insert player 2", "update player 2", "delete player 1"])
        #expect(recorder.transactions == ["commit"])
    }

    @Test func aRollbackIsReported() throws {
        let dbQueue = try makeDatabase()
        let recorder = Recorder(tables: ["player"])
        dbQueue.add(transactionObserver: recorder)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            return .rollback
        }
        #expect(recorder.events == ["insert player 1"])
        #expect(recorder.transactions == ["rollback"])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func updateEventsNameTheUpdatedColumns() throws {
        let dbQueue = try makeDatabase()
        let recorder = Recorder(tables: ["player"], updatedColumn: "score")
        dbQueue.add(transactionObserver: recorder)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 10)")
            try db.execute(sql: "UPDATE player SET name = 'Art' WHERE id = 1")
            try db.execute(sql: "UPDATE player SET score = 11 WHERE id = 1")
        }
        #expect(recorder.events == ["insert player 1", "update player 1"])
    }

    @Test func deletingEveryRowReportsEachRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
        }
        let recorder = Recorder(tables: ["player"])
        dbQueue.add(transactionObserver: recorder)
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(recorder.events.sorted() == ["delete player 1", "delete player 2"])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func anObserverCanRefuseACommit() throws {
        let dbQueue = try makeDatabase()
        let recorder = Recorder(tables: ["player"])
        recorder.refusal = Refusal()
        dbQueue.add(transactionObserver: recorder)
        #expect(throws: Refusal()) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
        }
        #expect(recorder.transactions == ["rollback"])
        recorder.refusal = nil
        // The connection is still usable, and nothing was stored.
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
        #expect(recorder.transactions == ["rollback", "commit"])
    }

    @Test func statementsOutsideTransactionsCommitOneByOne() throws {
        let dbQueue = try makeDatabase()
        let recorder = Recorder(tables: ["player"])
        dbQueue.add(transactionObserver: recorder)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
        }
        #expect(recorder.events == ["insert player 1", "insert player 2"])
        #expect(recorder.transactions == ["commit", "commit"])
    }

    @Test func extentsAndRemovalEndTheObservation() throws {
        let dbQueue = try makeDatabase()
        let once = Recorder(tables: ["player"])
        let removed = Recorder(tables: ["player"])
        dbQueue.add(transactionObserver: once, extent: .nextTransaction)
        dbQueue.add(transactionObserver: removed)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        dbQueue.remove(transactionObserver: removed)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        #expect(once.events == ["insert player 1"])
        #expect(once.transactions == ["commit"])
        #expect(removed.events == ["insert player 1"])

        // A deallocated observer is forgotten.
        var released: Recorder? = Recorder(tables: ["player"])
        weak let weakReleased = released
        dbQueue.add(transactionObserver: released!)
        released = nil
        #expect(weakReleased == nil)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (3)") }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 3)
    }

    @Test func databaseLifetimeObserversAreKeptByTheDatabase() throws {
        let dbQueue = try makeDatabase()
        weak var weakRecorder: Recorder?
        do {
            let recorder = Recorder(tables: ["team"])
            weakRecorder = recorder
            dbQueue.add(transactionObserver: recorder, extent: .databaseLifetime)
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id) VALUES (7)") }
        #expect(weakRecorder?.events == ["insert team 7"])
    }

    @Test func poolsObserveTheirWriter() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("observer-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let recorder = Recorder(tables: ["t"])
        dbPool.add(transactionObserver: recorder)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (5)") }
        #expect(recorder.events == ["insert t 5"])
        #expect(recorder.transactions == ["commit"])
    }

    @Test func afterNextTransactionRunsOnceItEnds() throws {
        final class Log: @unchecked Sendable { var lines: [String] = [] }
        struct PictureFile: PersistableRecord {
            var path: String
            let log: Log
            func encode(to container: inout PersistenceContainer) { container["path"] = path }
            func willDelete(_ db: Database) {
                db.afterNextTransaction { _ in log.lines.append("deleted \(path)") } onRollback: { _ in
                    log.lines.append("kept \(path)")
                }
            }
        }
        let log = Log()
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE pictureFile (path TEXT PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO pictureFile VALUES ('a.png'), ('b.png')")
        }
        try dbQueue.write { db in
            try PictureFile(path: "a.png", log: log).delete(db)
            #expect(log.lines.isEmpty)  // not yet committed
        }
        #expect(log.lines == ["deleted a.png"])
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try dbQueue.write { db in
                try PictureFile(path: "b.png", log: log).delete(db)
                throw Failure()
            }
        }
        #expect(log.lines == ["deleted a.png", "kept b.png"])
        // Each closure runs once: later transactions do not call it again.
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM pictureFile") }
        #expect(log.lines == ["deleted a.png", "kept b.png"])
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT path FROM pictureFile") } == [])
    }
}
