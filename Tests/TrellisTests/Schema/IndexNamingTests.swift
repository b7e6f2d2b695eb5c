import Testing
import Trellis

/// The indexes that the schema DSL creates have GRDB's names, so that a
/// migration written for GRDB creates the same indexes, and an index of
/// `create(indexOn:)` does not collide with them.
@Suite struct IndexNamingTests {
    @Test func indexesOfTheSchemaDSLHaveGRDBNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
            }
            try db.create(table: "country") { t in
                t.primaryKey {
                    t.column("a")
                    t.column("b")
                }
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).indexed()
                t.belongsTo("team")
                t.belongsTo("country")
                t.belongsTo("captain", inTable: "team", indexed: false)
            }
            try db.alter(table: "player") { t in
                t.add(column: "nick").indexed()
            }
            // The index of the article "View Records", next to the one of
            // `belongsTo("team")`.
            try db.create(indexOn: "player", columns: ["teamId"], options: .unique, condition: Column("email") != nil)
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name
                """)
            #expect(names == [
                "index_player_on_countryA_countryB",
                "index_player_on_teamId",
                "player_on_email",
                "player_on_nick",
                "player_on_teamId",
            ])
        }
    }
}
