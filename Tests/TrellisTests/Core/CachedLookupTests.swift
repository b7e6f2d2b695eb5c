import Testing
import Trellis
import TrellisSQLite

/// `Database.withCachedLookup(for:sql:_:)` lends its statement without a
/// retain: what the lookup's body does to the connection must neither
/// free the statement nor mix up the rows of nested lookups.
@Suite("Cached lookups")
struct CachedLookupTests {
    private enum NameLookup {}
    private enum ScoreLookup {}

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200), (3, 'Craig', 300);
                """)
        }
        return dbQueue
    }

    private func name(_ db: Database, id: Int64, _ then: (Database) throws -> Void = { _ in }) throws -> String? {
        try db.withCachedLookup(for: NameLookup.self, sql: { "SELECT name FROM player WHERE id = ?" }) { statement in
            try statement.decodeOne(argument: id.databaseValue) { row in
                try then(db)
                return try row.decode(String.self, atIndex: 0)
            }
        }
    }

    @Test("a lookup in a loop finds its statement again, and reads each row")
    func loop() throws {
        let dbQueue = try makeDatabase()
        let names = try dbQueue.read { db in try (1...4).map { try name(db, id: $0) } }
        #expect(names == ["Arthur", "Barbara", "Craig", nil])
    }

    @Test("owners have statements of their own")
    func owners() throws {
        let dbQueue = try makeDatabase()
        let (name, score) = try dbQueue.read { db in
            let name = try self.name(db, id: 2)
            let score = try db.withCachedLookup(for: ScoreLookup.self, sql: { "SELECT score FROM player WHERE id = ?" }) { statement in
                try statement.decodeOne(argument: 2.databaseValue) { try $0.decode(Int.self, atIndex: 0) }
            }
            return (name, score)
        }
        #expect(name == "Barbara")
        #expect(score == 200)
    }

    @Test("a lookup made while another reads its row gets a statement of its own")
    func nested() throws {
        let dbQueue = try makeDatabase()
        let (outer, inner) = try dbQueue.read { db in
            var inner: String?
            let outer = try name(db, id: 1) { db in inner = try name(db, id: 3) }
            return (outer, inner)
        }
        #expect(outer == "Arthur")
        #expect(inner == "Craig")
    }

    @Test("the statement outlives a schema change, a cleared cache or a release of memory made by the lookup")
    func forgetfulBody() throws {
        let dbQueue = try makeDatabase()
        let names = try dbQueue.write { db in
            [
                try name(db, id: 1) { db in try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)") },
                try name(db, id: 2) { db in db.clearSchemaCache() },
                try name(db, id: 3) { db in db.releaseMemory() },
                // Nested lookups that forget the statements, then the outer one again.
                try name(db, id: 1) { db in
                    _ = try name(db, id: 2) { db in try db.execute(sql: "CREATE TABLE another (id INTEGER PRIMARY KEY)") }
                },
                try name(db, id: 2),
            ]
        }
        #expect(names == ["Arthur", "Barbara", "Craig", "Arthur", "Barbara"])
    }

    @Test("a lookup sees a column added since its statement was prepared")
    func schemaChange() throws {
        let dbQueue = try makeDatabase()
        let columns = try dbQueue.write { db in
            let lookup = { (db: Database) in
                try db.withCachedLookup(for: ScoreLookup.self, sql: { "SELECT * FROM player WHERE id = ?" }) { statement in
                    try statement.decodeOne(argument: 1.databaseValue) { Array($0.columnNames) }
                }
            }
            let before = try lookup(db)
            try db.execute(sql: "ALTER TABLE player ADD COLUMN team TEXT")
            return (before, try lookup(db))
        }
        #expect(columns.0 == ["id", "name", "score"])
        #expect(columns.1 == ["id", "name", "score", "team"])
    }

    @Test("an invalid SQL throws, and the next lookup prepares again")
    func invalidSQL() throws {
        let dbQueue = try makeDatabase()
        let name = try dbQueue.read { db in
            #expect(throws: DatabaseError.self) {
                try db.withCachedLookup(for: NameLookup.self, sql: { "SELECT name FROM missing WHERE id = ?" }) { _ in }
            }
            return try self.name(db, id: 1)
        }
        #expect(name == "Arthur")
    }
}

/// Binding values resets a statement only when it ran since its last
/// reset, which SQLite requires.
@Suite("Statement resets")
struct StatementResetTests {
    @Test("arguments bound after a statement stepped by hand apply to the next run")
    func steppedByHand() throws {
        let dbQueue = try DatabaseQueue()
        let values = try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT ? + 1")
            statement.setUncheckedArguments([1])
            #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_ROW)
            // SQLite refuses to bind to a statement that ran since its last
            // reset: Trellis resets it.
            return try [Int.fetchOne(statement, arguments: [10]), Int.fetchOne(statement, arguments: [20])]
        }
        #expect(values == [11, 21])
    }

    @Test("a statement without parameters stepped by hand runs again from its first row")
    func steppedByHandWithoutParameters() throws {
        let dbQueue = try DatabaseQueue()
        let values = try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT 1 UNION ALL SELECT 2")
            #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_ROW)
            return try Int.fetchAll(statement, arguments: [])
        }
        #expect(values == [1, 2])
    }

    @Test("a lookup by key after a fetch of all rows, or after a failed fetch, reads the right row")
    func lookupsAfterOtherRuns() throws {
        let dbQueue = try DatabaseQueue()
        let names = try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara');
                """)
            let statement = try db.cachedStatement(sql: "SELECT name FROM player WHERE id = ?")
            var names = try String.fetchAll(statement, arguments: [1])
            names += try String.fetchAll(statement, arguments: [2])
            names.append(try String.fetchOne(statement, arguments: [1]) ?? "none")
            #expect(throws: DatabaseError.self) { try String.fetchOne(statement, arguments: [1, 2]) }
            names.append(try String.fetchOne(statement, arguments: [2]) ?? "none")
            return names
        }
        #expect(names == ["Arthur", "Barbara", "Arthur", "Barbara"])
    }
}
