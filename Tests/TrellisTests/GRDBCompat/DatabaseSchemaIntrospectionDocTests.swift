import Testing
import Trellis

// GRDB's DatabaseSchemaIntrospection.md lists the introspection methods
// (it has no code sample): each one is checked here against what GRDB 7
// returns for the same schema.

@Suite struct DatabaseSchemaIntrospectionDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.primaryKey("id", .text) }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().defaults(to: "Anonymous")
                t.belongsTo("team")
                t.column("email").unique()
            }
            try db.create(table: "draft", options: .temporary) { t in t.column("text") }
            try db.execute(sql: "CREATE TRIGGER player_insert AFTER INSERT ON player BEGIN SELECT 1; END")
            try db.create(view: "playerName", asLiteral: "SELECT name FROM player")
        }
        return dbQueue
    }

    @Test func schemaVersionGrowsWithSchemaChanges() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let version: Int32 = try db.schemaVersion()
            #expect(version == 0)
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
            #expect(try db.schemaVersion() == 1)
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            #expect(try db.schemaVersion() == 1)
        }
    }

    @Test func existenceChecks() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try db.tableExists("player"))
            #expect(try db.tableExists("PLAYER"))
            #expect(try db.tableExists("player", in: "main"))
            #expect(try db.tableExists("draft"))
            #expect(try !db.tableExists("draft", in: "main"))
            #expect(try db.tableExists("draft", in: "temp"))
            #expect(try !db.tableExists("playerName"))
            #expect(try db.triggerExists("player_insert"))
            #expect(try !db.triggerExists("player_insert", in: "temp"))
            #expect(try db.viewExists("playerName"))
            #expect(try db.viewExists("PLAYERNAME", in: "main"))
            do {
                _ = try db.tableExists("player", in: "nope")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "no such schema: nope")
            }
        }
    }

    @Test func attachedDatabases() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ':memory:' AS other")
            try db.execute(sql: "CREATE TABLE other.item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            #expect(try db.tableExists("item"))
            #expect(try db.tableExists("item", in: "other"))
            #expect(try !db.tableExists("item", in: "main"))
            #expect(try db.columns(in: "item", in: "other").map(\.name) == ["id", "name"])
            #expect(try db.primaryKey("item", in: "other").columns == ["id"])
            do {
                _ = try db.columns(in: "item", in: "main")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "no such table: item")
            }
        }
    }

    @Test func tableStructure() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let columns = try db.columns(in: "player")
            #expect(columns.map(\.name) == ["id", "name", "teamId", "email"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "TEXT", ""])
            #expect(columns.map(\.isNotNull) == [false, true, false, false])
            #expect(columns.map(\.defaultValueSQL) == [nil, "'Anonymous'", nil, nil])
            #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0, 0])
            // A view has columns, but no primary key.
            #expect(try db.columns(in: "playerName").map(\.name) == ["name"])

            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(foreignKeys.count == 1)
            #expect(foreignKeys.first?.id == 0)
            #expect(foreignKeys.first?.destinationTable == "team")
            #expect(foreignKeys.first?.originColumns == ["teamId"])
            #expect(foreignKeys.first?.destinationColumns == ["id"])

            let indexes = try db.indexes(on: "player").sorted { $0.name < $1.name }
            #expect(indexes.map(\.name) == ["player_on_teamId", "sqlite_autoindex_player_1"])
            #expect(indexes.map(\.columns) == [["teamId"], ["email"]])
            #expect(indexes.map(\.isUnique) == [false, true])
            #expect(indexes.map(\.origin) == [.createIndex, .uniqueConstraint])

            #expect(try db.primaryKey("player").columns == ["id"])
            #expect(try db.primaryKey("player").rowIDColumn == "id")
            #expect(try db.primaryKey("team").columns == ["id"])
            #expect(try db.primaryKey("team").rowIDColumn == nil)
            #expect(try db.primaryKey("team").isRowID == false)
            #expect(try db.primaryKey("draft").columns == ["rowid"])
            #expect(try db.primaryKey("draft").isRowID)

            #expect(try db.table("player", hasUniqueKey: ["email"]))
            #expect(try db.table("player", hasUniqueKey: ["id", "name"]))
            #expect(try db.table("player", hasUniqueKey: ["rowid"]))
            #expect(try !db.table("player", hasUniqueKey: ["name"]))
        }
    }

    @Test func missingTablesAndViewsWithoutPrimaryKeyAreErrors() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let attempts: [(Database) throws -> Void] = [
                { _ = try $0.columns(in: "missing") },
                { _ = try $0.primaryKey("missing") },
                { _ = try $0.foreignKeys(on: "missing") },
                { _ = try $0.indexes(on: "missing") },
                { _ = try $0.table("missing", hasUniqueKey: ["id"]) },
            ]
            for attempt in attempts {
                do {
                    try attempt(db)
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.message == "no such table: missing")
                }
            }
            do {
                _ = try db.primaryKey("playerName")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "database view playerName has no primary key")
            }
        }
    }

    @Test func reservedTables() {
        #expect(Database.isGRDBInternalTable("grdb_migrations"))
        #expect(!Database.isGRDBInternalTable("player"))
        #expect(Database.isSQLiteInternalTable("sqlite_sequence"))
        #expect(!Database.isSQLiteInternalTable("player"))
    }
}
