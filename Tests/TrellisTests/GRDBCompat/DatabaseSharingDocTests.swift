import Foundation
import Testing
import Trellis
import TrellisSQLite

// GRDB's DatabaseSharing.md ("Sharing a Database", formerly
// SharingADatabase.md), the parts that apply on Linux: several connections
// to one file stand for several processes. NSFileCoordinator, app groups,
// SQLCipher and the suspension notifications of iOS are left out.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var name: String
}

private struct Team: Codable, FetchableRecord, PersistableRecord {
    var name: String
}

private struct TooRecentError: Error {}

@Suite struct DatabaseSharingDocTests {
    private var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in t.column("name", .text).notNull() }
            try db.create(table: "team") { t in t.column("name", .text).notNull() }
        }
        return migrator
    }

    // MARK: Use the WAL mode

    /// The article's `openDatabase(at:)`, without the file coordinator.
    private func openDatabase(at databaseURL: URL) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Activate the persistent WAL mode so that
            // read-only processes can access the database.
            if db.configuration.readonly == false {
                var flag: CInt = 1
                let code = withUnsafeMutablePointer(to: &flag) { flagP in
                    sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, flagP)
                }
                guard code == SQLITE_OK else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code))
                }
            }
        }
        let dbPool = try DatabasePool(path: databaseURL.path, configuration: configuration)

        // Perform here other database setups, such as defining
        // the database schema with a DatabaseMigrator, and
        // checking if the application can open the file:
        try migrator.migrate(dbPool)
        if try dbPool.read(migrator.hasBeenSuperseded) {
            // Database is too recent
            throw TooRecentError()
        }

        return dbPool
    }

    /// The article's `openReadOnlyDatabase(at:)`.
    private func openReadOnlyDatabase(at databaseURL: URL, migrator: DatabaseMigrator) throws -> DatabasePool? {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let dbPool = try DatabasePool(path: databaseURL.path, configuration: configuration)

            // Check here if the database schema is the expected one,
            // for example with a DatabaseMigrator:
            return try dbPool.read { db in
                if try migrator.hasBeenSuperseded(db) {
                    // Database is too recent
                    return nil
                } else if try migrator.hasCompletedMigrations(db) == false {
                    // Database is too old
                    return nil
                }
                return dbPool
            }
        } catch {
            if FileManager.default.fileExists(atPath: databaseURL.path) {
                throw error
            } else {
                return nil
            }
        }
    }

    @Test func persistentWALServesReadOnlyConnections() throws {
        let path = StatementTrace.temporaryPath("shared")
        defer { StatementTrace.removeDatabase(at: path) }
        let url = URL(fileURLWithPath: path)

        // Not created yet: no read-only pool.
        #expect(try openReadOnlyDatabase(at: url, migrator: migrator) == nil)

        do {
            let dbPool = try openDatabase(at: url)
            try dbPool.write { db in try Player(name: "Arthur").insert(db) }
            try dbPool.close()
        }
        // The persistent WAL mode keeps the -wal and -shm files.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))

        let readOnlyPool = try #require(try openReadOnlyDatabase(at: url, migrator: migrator))
        #expect(try readOnlyPool.read { db in try Player.fetchCount(db) } == 1)
        #expect(throws: DatabaseError.self) {
            try readOnlyPool.write { db in try Player(name: "Barbara").insert(db) }
        }

        // A newer schema: too recent for this version of the application.
        var newerMigrator = migrator
        newerMigrator.registerMigration("v2") { db in
            try db.alter(table: "player") { t in t.add(column: "score", .integer) }
        }
        do {
            let dbPool = try DatabasePool(path: path)
            try newerMigrator.migrate(dbPool)
            try dbPool.close()
        }
        #expect(try openReadOnlyDatabase(at: url, migrator: migrator) == nil)
        #expect(throws: TooRecentError.self) { try openDatabase(at: url) }
        // An older application version: the database is too old for it.
        var newestMigrator = newerMigrator
        newestMigrator.registerMigration("v3") { db in
            try db.alter(table: "team") { t in t.add(column: "color", .text) }
        }
        #expect(try openReadOnlyDatabase(at: url, migrator: newestMigrator) == nil)
        #expect(try openReadOnlyDatabase(at: url, migrator: newerMigrator) != nil)
    }

    @Test func walQueuesShareAFile() throws {
        let path = StatementTrace.temporaryPath("shared-queue")
        defer { StatementTrace.removeDatabase(at: path) }
        // It is also possible to use a DatabaseQueue, with the .wal journalMode.
        var configuration = Configuration()
        configuration.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    // MARK: How to limit the SQLITE_BUSY error

    @Test func busyErrorsAndTimeouts() throws {
        let path = StatementTrace.temporaryPath("busy")
        defer { StatementTrace.removeDatabase(at: path) }
        var walConfiguration = Configuration()
        walConfiguration.journalMode = .wal
        // Two connections to one file stand for two processes.
        let process1 = try DatabaseQueue(path: path, configuration: walConfiguration)
        try migrator.migrate(process1)
        let process2 = try DatabaseQueue(path: path, configuration: walConfiguration)

        // process1 holds the write lock until it is told to commit.
        let lockTaken = DispatchSemaphore(value: 0)
        let commit = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? process1.write { db in
                try Player(name: "Arthur").insert(db)
                lockTaken.signal()
                commit.wait()
            }
            writeDone.signal()
        }
        lockTaken.wait()

        var caughtBusy = false
        do {
            try process2.write { db in try Player(name: "Barbara").insert(db) }
        } catch DatabaseError.SQLITE_BUSY {
            // Another process won't let you write. Deal with it.
            caughtBusy = true
        }
        #expect(caughtBusy)

        // With a busy timeout, the write waits for the other process.
        var configuration = walConfiguration
        configuration.busyMode = .timeout(10)
        let patientProcess = try DatabaseQueue(path: path, configuration: configuration)
        commit.signal()
        try patientProcess.write { db in try Player(name: "Craig").insert(db) }
        writeDone.wait()
        #expect(try patientProcess.read { db in try Player.fetchCount(db) } == 2)
    }

    // MARK: How to perform cross-process database observation

    @Test func regionObservationNotifiesOtherProcesses() throws {
        let path = StatementTrace.temporaryPath("notify")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try migrator.migrate(dbPool)
        let allChanges = NotificationLog()
        let tableChanges = NotificationLog()

        // Notify all changes made to the database
        // (the article leaves out onError, which GRDB requires too, and
        // writes `try`, which start no longer needs)
        let observation = DatabaseRegionObservation(tracking: .fullDatabase)
        let observer = observation.start(in: dbPool, onError: { _ in }, onChange: { db in
            // Notify other processes
            allChanges.record()
        })

        // Notify changes made to the "player" and "team" tables only
        let tableObservation = DatabaseRegionObservation(tracking: Player.all(), Team.all())
        let tableObserver = tableObservation.start(in: dbPool, onError: { _ in }, onChange: { db in
            // Notify other processes
            tableChanges.record()
        })

        try dbPool.write { db in try Player(name: "Arthur").insert(db) }
        try dbPool.write { db in try Team(name: "Reds").insert(db) }
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE other (a)") }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        #expect(allChanges.count == 3) // as in GRDB: CREATE TABLE changes no row
        #expect(tableChanges.count == 2)
        observer.cancel()
        tableObserver.cancel()
    }
}

private final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _count = 0
    func record() { lock.lock(); _count += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return _count }
}
