import Foundation
import Testing
import Trellis

// GRDB's Configuration page (Extension/Configuration.md): its samples,
// with the output GRDB 7 gives.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
}

@Suite struct ConfigurationDocTests {
    @Test func configurationBeforeOpening() throws {
        let path = StatementTrace.temporaryPath("configuration")
        defer { StatementTrace.removeDatabase(at: path) }
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        }
        var config = Configuration()
        config.readonly = true
        config.maximumReaderCount = 2  // (DatabasePool only) The default is 5

        let dbQueue = try DatabaseQueue( // or DatabasePool
            path: path,
            configuration: config)
        let dbPool = try DatabasePool(path: path, configuration: config)
        #expect(Configuration().maximumReaderCount == 5)
        #expect(dbPool.configuration.maximumReaderCount == 2)
        for reader in [dbQueue, dbPool] as [any DatabaseWriter] {
            #expect(throws: DatabaseError.self) {
                try reader.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            }
        }
    }

    @Test func tracingSQLStatements() throws {
        final class Output: @unchecked Sendable {
            private let lock = NSLock()
            private var _lines: [String] = []
            var lines: [String] { lock.withLock { _lines } }
            func print(_ line: String) { lock.withLock { _lines.append(line) } }
        }
        let output = Output()
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { output.print("SQL> \($0)") }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
        }

        // Prints "SQL> SELECT COUNT(*) FROM player"
        // (the article omits the `try` of `dbQueue.read`)
        let playerCount = try dbQueue.read { db in
            try Player.fetchCount(db)
        }
        #expect(playerCount == 0)
        #expect(output.lines.suffix(3) == [
            "SQL> BEGIN DEFERRED TRANSACTION",
            #"SQL> SELECT COUNT(*) FROM "player""#,
            "SQL> COMMIT TRANSACTION",
        ])
    }

    @Test func publicStatementArguments() throws {
        for isPublic in [false, true] {
            var config = Configuration()
            config.publicStatementArguments = isPublic
            let log = StatementTrace()
            let dbQueue = try DatabaseQueue(configuration: log.configuration(config))
            try dbQueue.write { db in
                try db.create(table: "player") { t in
                    t.primaryKey("id", .integer)
                    t.column("name", .text).notNull().unique()
                }
            }
            _ = log.take()
            do {
                try dbQueue.write { db in
                    try Player(id: 1, name: "Arthur").insert(db)
                    try Player(id: 2, name: "Arthur").insert(db)
                }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                // Prints sensitive information in debug builds only. (GRDB
                // writes `VALUES (?,?)`.)
                let statement = #"SQLite error 19: UNIQUE constraint failed: player.name - while executing `INSERT INTO "player" ("id", "name") VALUES (?, ?)`"#
                #expect(error.description == statement + (isPublic ? #" with arguments [2, "Arthur"]"# : ""))
            }
            let inserts = log.take().filter { $0.hasPrefix("INSERT") }
            #expect(inserts == (isPublic
                ? [#"INSERT INTO "player" ("id", "name") VALUES (1, 'Arthur')"#, #"INSERT INTO "player" ("id", "name") VALUES (2, 'Arthur')"#]
                : [#"INSERT INTO "player" ("id", "name") VALUES (?, ?)"#, #"INSERT INTO "player" ("id", "name") VALUES (?, ?)"#]))
        }
    }

    // The `label` property: "You can query this label at runtime", and
    // "the configuration label is also used to name Database connections
    // (the Database.description property)": `MyDatabase` for a queue,
    // `MyDatabase.writer`, `MyDatabase.reader.N` and
    // `MyDatabase.snapshot.N` for a pool.
    @Test func labelNamesTheConnections() throws {
        let path = StatementTrace.temporaryPath("label")
        defer { StatementTrace.removeDatabase(at: path) }
        var configuration = Configuration()
        configuration.label = "MyDatabase"

        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.read { db in
            #expect(db.configuration.label == "MyDatabase")
            #expect(db.description == "MyDatabase")
        }

        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in #expect(db.description == "MyDatabase.writer") }
        try dbPool.read { db in #expect(db.description == "MyDatabase.reader.1") }
        let snapshot1 = try dbPool.makeSnapshot()
        let snapshot2 = try dbPool.makeSnapshot()
        try snapshot1.read { db in #expect(db.description == "MyDatabase.snapshot.1") }
        try snapshot2.read { db in #expect(db.description == "MyDatabase.snapshot.2") }
        try dbPool.close()
    }
}
