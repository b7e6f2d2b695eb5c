import Foundation
import Testing
import Trellis

// GRDB's DatabaseConnections.md: opening, read-only connections, a
// database in a dedicated directory, closing.

@Suite struct DatabaseConnectionsDocTests {
    @Test func queuesAndPoolsOpenTheSameFile() throws {
        let path = StatementTrace.temporaryPath("connections")
        defer { StatementTrace.removeDatabase(at: path) }
        // Pick one:
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        try dbQueue.close()
        let dbPool = try DatabasePool(path: path)
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "SELECT name FROM player") } == "Arthur")
        // DatabasePool opens the database in the WAL mode.
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func readOnlyConnectionToAnExistingDatabase() throws {
        let dbPath = StatementTrace.temporaryPath("resource")
        defer { StatementTrace.removeDatabase(at: dbPath) }
        try DatabaseQueue(path: dbPath).write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
        }

        // If the resource exists, open a read-only connection.
        // Writes are disallowed because resources can not be modified.
        var config = Configuration()
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: dbPath, configuration: config)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_READONLY)
            #expect(error.message == "attempt to write a readonly database")
        }

        // A read-only connection does not create a missing file.
        do {
            _ = try DatabaseQueue(path: dbPath + "-missing", configuration: config)
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CANTOPEN)
        }
    }

    @Test func databaseInADedicatedDirectory() throws {
        // The article uses the Application Support directory: a temporary
        // directory stands for it.
        let fileManager = FileManager.default
        let appSupportURL = fileManager.temporaryDirectory.appendingPathComponent(UUID().uuidString, isDirectory: true)
        defer { try? fileManager.removeItem(at: appSupportURL) }
        let directoryURL = appSupportURL.appendingPathComponent("MyDatabase", isDirectory: true)
        try fileManager.createDirectory(at: directoryURL, withIntermediateDirectories: true)

        // Open or create the database
        let databaseURL = directoryURL.appendingPathComponent("db.sqlite")
        let dbQueue = try DatabaseQueue(path: databaseURL.path)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        #expect(fileManager.fileExists(atPath: databaseURL.path))

        // On subsequent runs, the database file already exists.
        try dbQueue.close()
        let reopened = try DatabaseQueue(path: databaseURL.path)
        #expect(try reopened.read { db in try db.tableExists("player") })
    }

    @Test func closedConnectionsThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
    }
}
