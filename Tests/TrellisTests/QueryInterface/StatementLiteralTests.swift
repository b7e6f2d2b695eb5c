import Testing
import Trellis

/// Statements from SQL literals, and questions on the schema.
@Suite struct StatementLiteralTests {
    @Test func statementsFromLiteralsAndSchemaQuestions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team(id TEXT PRIMARY KEY);
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, teamId TEXT);
                INSERT INTO player VALUES (1, 'Arthur', 'red'), (2, 'Barbara', 'blue');
                """)
        }
        try dbQueue.write { (db: Database) throws in
            let name = "Arthur"
            let statement = try db.makeStatement(literal: "SELECT id FROM player WHERE name = \(name)")
            #expect(try Int.fetchOne(statement) == 1)
            let cached = try db.cachedStatement(literal: "SELECT id FROM player WHERE teamId = \("blue")")
            #expect(try Int.fetchOne(cached) == 2)
            try db.execute(sql: "CREATE TRIGGER keep AFTER INSERT ON team BEGIN SELECT 1; END")
            #expect(try db.triggerExists("KEEP"))
            #expect(try !db.triggerExists("team"))
            #expect(Database.isSQLiteInternalTable("sqlite_sequence"))
            #expect(!Database.isSQLiteInternalTable("player"))
            #expect(Database.isGRDBInternalTable("grdb_migrations"))
        }
    }
}
