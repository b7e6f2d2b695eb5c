import Foundation
import Testing
import Trellis

@Suite struct BackupAndInterruptTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite").path
    }

    /// An in-memory source with 500 rows of 100 bytes: several pages.
    private func makeSource() throws -> DatabaseQueue {
        let source = try DatabaseQueue()
        try source.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
            for id in 1...500 {
                try db.execute(sql: "INSERT INTO item VALUES (?, ?)", arguments: [id, String(repeating: "x", count: 100)])
            }
        }
        return source
    }

    @Test func backupReplacesTheContentOfTheDestination() throws {
        let source = try makeSource()
        let path = temporaryPath("backup")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let destination = try DatabaseQueue(path: path)
        try destination.write { db in try db.execute(sql: "CREATE TABLE old (id INTEGER)") }
        // The destination has looked its schema up before the backup.
        #expect(try destination.read { try $0.tableExists("old") })

        try source.backup(to: destination)

        let (count, hasItem, hasOld) = try destination.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM item"), try db.tableExists("item"), try db.tableExists("old"))
        }
        #expect(count == 500)
        #expect(hasItem)
        #expect(!hasOld)
        // Another connection sees the copy on disk.
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT sum(id) FROM item") } == 500 * 501 / 2)
    }

    @Test func backupInStepsReportsItsProgress() throws {
        let source = try makeSource()
        let destination = try DatabaseQueue()
        var reports: [DatabaseBackupProgress] = []
        // Outside of a write transaction: SQLite does not back up from a
        // connection that holds the write lock (writes are IMMEDIATE).
        try source.writeWithoutTransaction { sourceDb in
            try destination.barrierWriteWithoutTransaction { destinationDb in
                try sourceDb.backup(to: destinationDb, pagesPerStep: 2) { reports.append($0) }
            }
        }
        #expect(reports.count > 2)
        #expect(reports.last?.isCompleted == true)
        #expect(reports.dropLast().allSatisfy { !$0.isCompleted })
        #expect(reports.map(\.completedPageCount) == reports.map(\.completedPageCount).sorted())
        #expect(reports.last.map { $0.completedPageCount == $0.totalPageCount } == true)
        #expect(try destination.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 500)
    }

    @Test func aThrowingProgressAbortsTheBackup() throws {
        struct Stop: Error {}
        let source = try makeSource()
        let destination = try DatabaseQueue()
        try destination.write { db in try db.execute(sql: "CREATE TABLE old (id INTEGER)") }
        #expect(throws: Stop.self) {
            try source.backup(to: destination, pagesPerStep: 1) { progress in
                if !progress.isCompleted { throw Stop() }
            }
        }
        let (hasOld, hasItem) = try destination.read { db in (try db.tableExists("old"), try db.tableExists("item")) }
        #expect(hasOld)
        #expect(!hasItem)
        // An error thrown by the last report is ignored: the backup is done.
        try source.backup(to: destination) { _ in throw Stop() }
        #expect(try destination.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 500)
    }

    @Test func aBackupIntoItselfIsAnError() throws {
        let source = try makeSource()
        #expect(throws: DatabaseError.self) { try source.backup(to: source) }
        #expect(try source.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 500)
    }

    /// Runs a long query (seconds), interrupts it from another task until
    /// it stops, and expects `SQLITE_INTERRUPT`. The query is read with the
    /// asynchronous `read`, which does not hold a thread of the cooperative
    /// pool that the interrupting task needs.
    private func expectInterruptStopsALongQuery(_ reader: some DatabaseReader) async {
        let reading = Task {
            try await reader.read { db in
                try Int.fetchOne(db, sql: """
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50000000)
                    SELECT count(*) FROM c
                    """)
            }
        }
        // Interrupted until the query stops: a call that comes before the
        // statement starts has no effect.
        let interrupting = Task.detached {
            while !Task.isCancelled {
                reader.interrupt()
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
        }
        let result = await reading.result
        interrupting.cancel()
        #expect {
            _ = try result.get()
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT
        }
    }

    @Test func interruptStopsTheRunningStatement() async throws {
        let dbQueue = try DatabaseQueue()
        await expectInterruptStopsALongQuery(dbQueue)
        // The connection is usable afterwards.
        let answer = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 42") }
        #expect(answer == 42)
    }

    @Test func interruptReachesTheConnectionsOfAPool() async throws {
        let path = temporaryPath("interrupt-pool")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        await expectInterruptStopsALongQuery(try DatabasePool(path: path))
    }
}
