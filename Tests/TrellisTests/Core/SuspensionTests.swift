import Foundation
import Testing
import Trellis

/// `Configuration.observesSuspensionNotifications`, as GRDB's guide on
/// database sharing describes it. The notifications reach every database
/// of the process: the tests run one at a time.
@Suite(.serialized) struct SuspensionTests {
    private struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }

    private func makeQueue(observing: Bool = true) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = observing
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        return dbQueue
    }

    private func suspend() { NotificationCenter.default.post(name: Database.suspendNotification, object: nil) }
    private func resume() { NotificationCenter.default.post(name: Database.resumeNotification, object: nil) }

    @Test func aSuspendedDatabaseRefusesAccessesUntilResumed() throws {
        let dbQueue = try makeQueue()
        suspend()
        defer { resume() }
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.write { db in try Player(id: 1, name: "Arthur").insert(db) }
        }
        #expect(error.resultCode == .SQLITE_INTERRUPT)
        #expect(error.message == "Database is suspended")
        #expect(throws: DatabaseError.self) { try dbQueue.read { db in try Player.fetchCount(db) } }
        resume()
        try dbQueue.write { db in try Player(id: 1, name: "Arthur").insert(db) }
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 1)
    }

    @Test func aTransactionInterruptedBySuspensionRollsBack() throws {
        let dbQueue = try makeQueue()
        defer { resume() }
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try Player(id: 1, name: "Arthur").insert(db)
                suspend()
                try Player(id: 2, name: "Barbara").insert(db)
            }
        }
        resume()
        // The transaction rolled back, and the connection holds no lock.
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 0)
        #expect(try dbQueue.writeWithoutTransaction { db in db.isInsideTransaction } == false)
    }

    @Test func aRunningStatementIsInterrupted() throws {
        let dbQueue = try makeQueue()
        defer { resume() }
        let suspendNow = DatabaseFunction("suspendNow", argumentCount: 0) { _ in
            NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
            return 1
        }
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.write { db in
                db.add(function: suspendNow)
                // The function suspends the database in the middle of the
                // statement, which then stops.
                _ = try Int.fetchAll(db, sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
                    SELECT suspendNow() FROM n
                    """)
            }
        }
        #expect(error.resultCode == .SQLITE_INTERRUPT)
    }

    @Test func databasesThatDoNotObserveIgnoreTheNotifications() throws {
        let dbQueue = try makeQueue(observing: false)
        suspend()
        defer { resume() }
        try dbQueue.write { db in try Player(id: 1, name: "Arthur").insert(db) }
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 1)
    }

    @Test func poolsAreSuspendedToo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("suspension-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = true
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        suspend()
        defer { resume() }
        #expect(throws: DatabaseError.self) { try dbPool.read { db in try Player.fetchCount(db) } }
        #expect(throws: DatabaseError.self) { try dbPool.write { db in try Player(id: 1, name: "Arthur").insert(db) } }
        resume()
        try dbPool.write { db in try Player(id: 1, name: "Arthur").insert(db) }
        #expect(try dbPool.read { db in try Player.fetchCount(db) } == 1)
    }
}
