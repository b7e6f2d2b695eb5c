import Foundation
import Testing
import Trellis

/// How many times the application's function ran.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}

/// A file whose schema makes each read or write call a function of the
/// application (`trap`), as an attacker writes one: `Configuration.defensive`
/// must refuse to run it.
@Suite struct DefensiveConfigurationTests {
    private let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("defensive-\(UUID().uuidString).sqlite").path

    private func configuration(defensive: Bool, counter: CallCounter) -> Configuration {
        var config = Configuration()
        config.defensive = defensive
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("trap", argumentCount: 0, pure: false) { _ in
                counter.increment()
                return 1
            })
            // Generated columns only call functions that SQLite may cache.
            db.add(function: DatabaseFunction("pureTrap", argumentCount: 1, pure: true) { values in
                counter.increment()
                return values[0]
            })
        }
        return config
    }

    /// A file whose view and trigger call `trap()` and, with
    /// `generatedColumn`, whose table `g` computes a column with `pureTrap(_:)`.
    private func writeCraftedFile(generatedColumn: Bool = false) throws {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(defensive: false, counter: CallCounter()))
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE t(x);
                CREATE TABLE log(x);
                CREATE VIEW v AS SELECT trap() AS y;
                CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (trap()); END;
                """)
            if generatedColumn {
                try db.execute(sql: "CREATE TABLE g(a, b AS (pureTrap(a) + 1)); INSERT INTO g(a) VALUES (1)")
            }
        }
        try dbQueue.close()
    }

    private func removeFiles() {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func aTrustingConnectionRunsTheFunctionsOfTheSchema() throws {
        try writeCraftedFile(generatedColumn: true)
        defer { removeFiles() }
        let counter = CallCounter()
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(defensive: false, counter: counter))
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT y FROM v") } == 1)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT b FROM g") } == 2)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(counter.value == 3)
    }

    @Test func aDefensiveConnectionRefusesTheFunctionsOfViewsAndTriggers() throws {
        try writeCraftedFile()
        defer { removeFiles() }
        let counter = CallCounter()
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(defensive: true, counter: counter))
        let viewError = try #require(throws: DatabaseError.self) {
            try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT y FROM v") }
        }
        #expect(viewError.message?.contains("unsafe use of trap()") == true, "\(viewError)")
        let triggerError = try #require(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(triggerError.message?.contains("unsafe use of trap()") == true, "\(triggerError)")
        #expect(counter.value == 0)
        // The function itself stays callable from the application's SQL.
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT trap()") } == 1)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
    }

    /// SQLite checks generated columns when it reads the schema: the whole
    /// file is refused, before any statement runs.
    @Test func aDefensiveConnectionRefusesAFileWhoseGeneratedColumnsCallFunctions() throws {
        try writeCraftedFile(generatedColumn: true)
        defer { removeFiles() }
        let counter = CallCounter()
        let error = try #require(throws: DatabaseError.self) {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration(defensive: true, counter: counter))
            _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT a FROM g") }
        }
        #expect(error.message?.contains("unsafe use of pureTrap()") == true, "\(error)")
        #expect(counter.value == 0)
    }

    /// Trellis's own functions are innocuous: a schema may use them.
    @Test func aDefensiveConnectionReadsAGeneratedColumnOfTrellisFunctions() throws {
        let dbQueue = try DatabaseQueue(path: path)
        defer { removeFiles() }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(x, y AS (swiftUppercaseString(x))); INSERT INTO t(x) VALUES ('é')")
        }
        try dbQueue.close()
        var config = Configuration()
        config.defensive = true
        let defensive = try DatabaseQueue(path: path, configuration: config)
        #expect(try defensive.read { db in try String.fetchOne(db, sql: "SELECT y FROM t") } == "É")
    }

    @Test func aDefensiveConnectionCanNotWriteTheSchemaDirectly() throws {
        try writeCraftedFile()
        defer { removeFiles() }
        let rewrite = "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = sql WHERE name = 't'"
        let trusting = try DatabaseQueue(path: path)
        try trusting.writeWithoutTransaction { db in try db.execute(sql: rewrite) }
        try trusting.close()

        var config = Configuration()
        config.defensive = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in try db.execute(sql: rewrite) }
        }
        #expect(error.message?.contains("may not be modified") == true, "\(error)")
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func aDefensiveConnectionChecksCellSizesAndMapsNoMemory() throws {
        var config = Configuration()
        config.defensive = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        defer { removeFiles() }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA trusted_schema") } == 0)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA cell_size_check") } == 1)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == 0)
    }
}
