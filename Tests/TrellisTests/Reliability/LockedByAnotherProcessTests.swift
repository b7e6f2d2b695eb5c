import Foundation
import Testing
import Trellis

// Another process (the sqlite3 shell) holds the write lock: writes fail with
// SQLITE_BUSY once the busy timeout has passed, the readers of a pool go on,
// and the writes succeed once the lock is released.

private let sqliteShell = "/usr/bin/sqlite3"

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: sqliteShell), "needs the sqlite3 shell"))
struct LockedByAnotherProcessTests {

    /// A sqlite3 shell that has begun an immediate transaction on `path`.
    private final class LockingShell {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(path: String) throws {
            process.executableURL = URL(fileURLWithPath: sqliteShell)
            process.arguments = [path]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            try send("BEGIN IMMEDIATE; INSERT INTO item (name) VALUES ('shell'); SELECT 'locked';")
            try waitForLine("locked")
        }

        func send(_ commands: String) throws {
            try input.fileHandleForWriting.write(contentsOf: Data((commands + "\n").utf8))
        }

        /// Reads the shell's output until `expected` is printed.
        private func waitForLine(_ expected: String) throws {
            var received = ""
            while !received.contains(expected) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
                received += String(decoding: chunk, as: UTF8.self)
            }
        }

        /// Rolls the shell's transaction back and ends it.
        func release() throws {
            try send("ROLLBACK;")
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    private func makeDatabase(wal: Bool) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("locked-\(UUID().uuidString).sqlite").path
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.writeWithoutTransaction { db in
            if wal { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO item (name) VALUES ('committed')")
        }
        try dbQueue.close()
        return path
    }

    private func remove(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func aQueueWriteThrowsBusyAfterItsTimeoutThenSucceedsOnceTheLockIsReleased() throws {
        let path = try makeDatabase(wal: false)
        defer { remove(path) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(0.05)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)

        let shell = try LockingShell(path: path)
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('queue')") }
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        // A reader of a rollback-journal database may read while another process holds RESERVED.
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["committed"])
        try shell.release()

        try dbQueue.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('queue')") }
        let names = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id") }
        #expect(names == ["committed", "queue"])
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func poolReadersGoOnWhileAnotherProcessHoldsTheWriteLock() throws {
        let path = try makeDatabase(wal: true)
        defer { remove(path) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(0.05)
        let dbPool = try DatabasePool(path: path, configuration: configuration)

        let shell = try LockingShell(path: path)
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('pool')") }
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(try dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["committed"])
        try shell.release()

        try dbPool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('pool')") }
        #expect(try dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id") } == ["committed", "pool"])
    }
}
