import Foundation
import Testing
import Trellis

// How application database managers open their databases: a configuration
// built in a static function, pragmas run in `prepareDatabase` (on every
// connection of a pool, readers included), SQL functions registered there, a
// writer stored as `any DatabaseWriter` with a reader derived from it, schema
// versions kept in `user_version` by hand, and an `erase()` for tests.

private final class TestDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("appusage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A store in the shape of an application's database manager.
private final class NoteStore: Sendable {
    let writer: any DatabaseWriter
    var reader: any DatabaseReader { writer }

    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    static func onDisk(_ path: String) throws -> NoteStore {
        try NoteStore(DatabasePool(path: path, configuration: makeConfiguration()))
    }

    static func inMemory() throws -> NoteStore {
        try NoteStore(DatabaseQueue(configuration: makeConfiguration()))
    }

    static func makeConfiguration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.defaultTransactionKind = .immediate
        config.maximumReaderCount = min(ProcessInfo.processInfo.activeProcessorCount * 2, 16)
        config.qos = .userInitiated
        config.publicStatementArguments = true
        config.label = "NoteStore"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA journal_size_limit = 4194304")
            db.add(function: DatabaseFunction("fold_case", argumentCount: 1, pure: true) { values in
                guard let text = String.fromDatabaseValue(values[0]) else { return nil }
                return text.lowercased()
            })
        }
        return config
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "note") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("text", .text).notNull()
            }
        }
        return migrator
    }
}

@Suite("App usage: database setup")
struct AppUsageDatabaseSetupTests {
    @Test("A pool whose prepareDatabase sets WAL and pragmas opens, writes, and reads on reader connections")
    func poolWithPragmasInPrepareDatabase() async throws {
        let directory = try TestDirectory()
        let store = try NoteStore.onDisk(directory.path("notes.sqlite"))
        try await store.writer.write { db in
            try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: ["Hello WORLD"])
        }
        let folded = try await store.reader.read { db in
            try String.fetchOne(db, sql: "SELECT fold_case(text) FROM note")
        }
        #expect(folded == "hello world")
        let journalMode = try await store.reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journalMode == "wal")
        let synchronous = try await store.reader.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(synchronous == 1)
        let foreignKeys = try await store.writer.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
        #expect(foreignKeys == true)
    }

    @Test("A queue with the same configuration runs in memory, where the WAL pragma keeps the memory journal")
    func inMemoryQueue() throws {
        let store = try NoteStore.inMemory()
        try store.writer.write { db in
            try db.execute(sql: "INSERT INTO note (text) VALUES ('A')")
        }
        #expect(try store.reader.read { db in try String.fetchOne(db, sql: "SELECT fold_case(text) FROM note") } == "a")
        #expect(try store.reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "memory")
    }

    @Test("erase() empties the database, and migrating again recreates the schema")
    func eraseThenMigrate() throws {
        let store = try NoteStore.inMemory()
        try store.writer.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('A')") }
        try store.writer.erase()
        #expect(try store.reader.read { db in try db.tableExists("note") } == false)
        try NoteStore.migrator.migrate(store.writer)
        #expect(try store.reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") } == 0)
    }

    @Test("A schema versioned by hand in user_version, with statements run in a write")
    func userVersionByHand() throws {
        let migrations = [
            "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
            "ALTER TABLE item ADD COLUMN note TEXT",
        ]
        func userVersion(_ db: Database) throws -> Int {
            try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        }
        func migrate(_ writer: any DatabaseWriter) throws {
            try writer.write { db in
                var version = try userVersion(db)
                while version < migrations.count {
                    try db.execute(sql: migrations[version])
                    version += 1
                    try db.execute(sql: "PRAGMA user_version = \(version)")
                }
            }
        }
        let dbQueue = try DatabaseQueue()
        try migrate(dbQueue)
        try migrate(dbQueue)
        let version = try dbQueue.read { db in try userVersion(db) }
        let columns = try dbQueue.read { db in try db.columns(in: "item").map(\.name) }
        #expect(version == 2)
        #expect(columns == ["id", "name", "note"])
    }

    @Test("A column added only when missing, checked through db.columns(in:)")
    func conditionalAlter() throws {
        let dbQueue = try DatabaseQueue()
        func upgrade(_ db: Database) throws {
            guard try db.tableExists("segment") else { return }
            let columns = try db.columns(in: "segment")
            if !columns.contains(where: { $0.name == "source" }) {
                try db.alter(table: "segment") { t in
                    t.add(column: "source", .text)
                }
                try db.execute(sql: "UPDATE segment SET source = label, label = NULL")
            }
        }
        try dbQueue.write { db in
            try upgrade(db)
            try db.execute(sql: "CREATE TABLE segment (id INTEGER PRIMARY KEY, label TEXT)")
            try db.execute(sql: "INSERT INTO segment (label) VALUES ('mic')")
            try upgrade(db)
            try upgrade(db)
        }
        let row = try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT label, source FROM segment") }
        #expect(row == ["label": nil, "source": "mic"])
    }

    @Test("barrierWriteWithoutTransaction runs pragmas that a transaction forbids")
    func barrierWrite() throws {
        let directory = try TestDirectory()
        let dbPool = try DatabasePool(path: directory.path("barrier.sqlite"))
        try dbPool.barrierWriteWithoutTransaction { db in
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
        }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 2)
    }

    @Test("A trace installed in prepareDatabase sees the statements of every connection")
    func traceInPrepareDatabase() throws {
        let directory = try TestDirectory()
        let log = TraceLog()
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { log.append($0.expandedDescription) }
        }
        let dbPool = try DatabasePool(path: directory.path("trace.sqlite"), configuration: config)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [42])
        }
        _ = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t WHERE a = ?", arguments: [42]) }
        #expect(log.lines.contains("INSERT INTO t VALUES (42)"))
        #expect(log.lines.contains("SELECT a FROM t WHERE a = 42"))
    }
}

private final class TraceLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
