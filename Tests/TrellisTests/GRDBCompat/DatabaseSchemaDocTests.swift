import Testing
import Trellis

// GRDB's DatabaseSchema.md ("The Database Schema"): its one sample.

@Suite struct DatabaseSchemaDocTests {
    @Test func createPlayerTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("name", .text).notNull()
                    t.column("score", .integer).notNull()
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "score" INTEGER NOT NULL)"#,
            ])
            let columns = try db.columns(in: "player")
            #expect(columns.map(\.name) == ["id", "name", "score"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "INTEGER"])
            #expect(columns.map(\.isNotNull) == [false, true, true])
            #expect(try db.primaryKey("player").rowIDColumn == "id")
        }
    }
}
