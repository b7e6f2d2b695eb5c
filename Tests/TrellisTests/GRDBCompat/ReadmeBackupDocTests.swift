import Foundation
import Testing
import Trellis

// GRDB's README, "Backup" and "Interrupt a Database": each sample run as
// written, with the results the README describes.

@Suite struct ReadmeBackupDocTests {
    private func makeSource() throws -> DatabaseQueue {
        let source = try DatabaseQueue()
        try source.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT)")
            for id in 1...300 {
                try db.execute(sql: "INSERT INTO item (label) VALUES (?)", arguments: [String(repeating: "x", count: 100) + "\(id)"])
            }
        }
        return source
    }

    private func itemCount(_ reader: some DatabaseReader) throws -> Int? {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") }
    }

    @Test func backupOfAQueue() throws {
        let source = try makeSource()
        let destination = try DatabaseQueue()
        try source.backup(to: destination)
        #expect(try itemCount(destination) == 300)
    }

    @Test func backupOfAPool() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try DatabasePool(path: directory.appendingPathComponent("source.sqlite").path)
        try makeSource().backup(to: source)
        let destination = try DatabasePool(path: directory.appendingPathComponent("destination.sqlite").path)
        try source.backup(to: destination)
        #expect(try itemCount(destination) == 300)
    }

    @Test func databaseBackupFromAReadOrAWriteWithoutTransaction() throws {
        let source = try makeSource()
        let destination = try DatabaseQueue()
        try source.read { sourceDb in
            try destination.barrierWriteWithoutTransaction { destDb in
                try sourceDb.backup(to: destDb)
            }
        }
        #expect(try itemCount(destination) == 300)

        let destination2 = try DatabaseQueue()
        try source.writeWithoutTransaction { sourceDb in
            try destination2.barrierWriteWithoutTransaction { destDb in
                try sourceDb.backup(to: destDb)
            }
        }
        #expect(try itemCount(destination2) == 300)
    }

    /// The README backs up from `write`, whose IMMEDIATE transaction makes
    /// SQLite refuse the copy with SQLITE_BUSY: the error says why.
    @Test func databaseBackupFromAWriteIsABusyError() throws {
        let source = try makeSource()
        let destination = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try source.write { sourceDb in
                try destination.barrierWriteWithoutTransaction { destDb in
                    try sourceDb.backup(to: destDb)
                }
            }
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(error?.message?.contains("write transaction") == true)
        #expect(try destination.read { db in try db.tableExists("item") } == false)
    }

    @Test func backupProgressReporting() throws {
        let source = try makeSource()
        let destination = try DatabaseQueue()
        var reports: [DatabaseBackupProgress] = []
        try source.backup(
            to: destination,
            pagesPerStep: 1)
            { backupProgress in
                reports.append(backupProgress)
            }
        #expect(reports.count > 1)
        #expect(reports.last?.isCompleted == true)
        #expect(reports.dropLast().allSatisfy { !$0.isCompleted })
        #expect(reports.last?.remainingPageCount == 0)
        #expect(reports.last?.completedPageCount == reports.last?.totalPageCount)
        #expect(try itemCount(destination) == 300)

        // Even a backup completed in a single step reports its progress.
        var singleStepReports = 0
        try source.backup(to: DatabaseQueue()) { _ in singleStepReports += 1 }
        #expect(singleStepReports == 1)
    }

    @Test func abortingAnIncompleteBackup() throws {
        struct Abort: Error {}
        let source = try makeSource()
        let destination = try DatabaseQueue()
        #expect(throws: Abort.self) {
            try source.backup(to: destination, pagesPerStep: 1) { backupProgress in
                if !backupProgress.isCompleted { throw Abort() }
            }
        }
        #expect(try destination.read { db in try db.tableExists("item") } == false)

        // An error thrown at the last step is ignored.
        try source.backup(to: destination, pagesPerStep: 1) { backupProgress in
            if backupProgress.isCompleted { throw Abort() }
        }
        #expect(try itemCount(destination) == 300)
    }

    @Test func interruptWithoutRunningStatementsIsANoOp() throws {
        let dbQueue = try makeSource()
        dbQueue.interrupt()
        #expect(try itemCount(dbQueue) == 300)
    }

    @Test func interruptedWritesThrowInterruptThenAbort() throws {
        let dbQueue = try makeSource()
        let interruptNow = DatabaseFunction("interruptNow", argumentCount: 0, pure: false) { [weak dbQueue] _ in
            dbQueue?.interrupt()
            return 1
        }
        try dbQueue.writeWithoutTransaction { db in db.add(function: interruptNow) }
        let insert = "INSERT INTO item (label) SELECT 'x' WHERE interruptNow()"

        // throws SQLITE_INTERRUPT
        let interrupted = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: insert)            // throws SQLITE_INTERRUPT
                try db.execute(sql: "INSERT INTO item (label) VALUES ('not executed')")
            }
        }
        #expect(interrupted?.resultCode == .SQLITE_INTERRUPT)

        // throws SQLITE_ABORT
        let aborted = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                do {
                    try db.execute(sql: insert)        // throws SQLITE_INTERRUPT
                } catch { }
            }
        }
        #expect(aborted?.resultCode == .SQLITE_ABORT)

        var caught = false
        do {
            try dbQueue.write { db in
                do {
                    try db.execute(sql: insert)        // throws SQLITE_INTERRUPT
                } catch { }
                try db.execute(sql: "INSERT INTO item (label) VALUES ('aborted')") // throws SQLITE_ABORT
            }
        } catch DatabaseError.SQLITE_INTERRUPT, DatabaseError.SQLITE_ABORT {
            // Oops, the database was interrupted.
            caught = true
        }
        #expect(caught)
        #expect(try itemCount(dbQueue) == 300)
    }
}
