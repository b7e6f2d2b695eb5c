import Foundation
import Testing
import Trellis

// GRDB's DatabaseSchemaModifications.md ("Modifying the Database Schema"):
// each sample, with the SQL that GRDB 7 runs for it (checked with GRDB
// itself), and the schema it leaves.

@Suite struct DatabaseSchemaModificationsDocTests {
    // MARK: Create Tables

    @Test func createTableWithAutoIncrementedPrimaryKeyAndDefaults() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "place") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("title", .text)
                    t.column("favorite", .boolean).notNull().defaults(to: false)
                    t.column("longitude", .double).notNull()
                    t.column("latitude", .double).notNull()
                }
            }
            #expect(statements == [
                #"CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, "favorite" BOOLEAN NOT NULL DEFAULT 0, "longitude" DOUBLE NOT NULL, "latitude" DOUBLE NOT NULL)"#,
            ])
            try db.execute(sql: "INSERT INTO place (longitude, latitude) VALUES (2.35, 48.85)")
            #expect(try Row.fetchOne(db, sql: "SELECT id, favorite FROM place") == ["id": 1, "favorite": 0])
        }
    }

    @Test func tableOptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in t.column("name", .text) }
                try db.create(table: "player", options: [.temporary, .ifNotExists]) { t in t.column("name", .text) }
                try db.create(table: "player", options: [.temporary, .ifNotExists]) { t in t.column("name", .text) }
                try db.create(table: "pair", options: [.strict, .withoutRowID]) { t in
                    t.primaryKey("id", .integer)
                    t.column("value", .any)
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("name" TEXT)"#,
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "player" ("name" TEXT)"#,
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "player" ("name" TEXT)"#,
                #"CREATE TABLE "pair" ("id" INTEGER PRIMARY KEY, "value" ANY) STRICT, WITHOUT ROWID"#,
            ])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM sqlite_temp_master WHERE type = 'table'") == "player")
            // A strict table refuses values of the wrong type.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO pair (id, value) VALUES ('one', 1)")
            }
            #expect(try db.primaryKey("pair").columns == ["id"])
            #expect(try db.primaryKey("pair").rowIDColumn == nil)
        }
    }

    @Test func regularColumnsNotNullAndDefaults() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.column("score")
                    t.column("name", .text)
                    t.column("creationDate", .datetime)
                    t.column("email", .text).notNull()
                    t.column("nickname", .text).notNull().defaults(to: "Anonymous")
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("score", "name" TEXT, "creationDate" DATETIME, "email" TEXT NOT NULL, "nickname" TEXT NOT NULL DEFAULT 'Anonymous')"#,
            ])
            try db.execute(sql: "INSERT INTO player (email) VALUES ('a@example.com')")
            #expect(try String.fetchOne(db, sql: "SELECT nickname FROM player") == "Anonymous")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
        }
    }

    @Test func primaryUniqueAndForeignKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.primaryKey("id", .text) }
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("email", .text).unique()
                    t.belongsTo("team", onDelete: .cascade)
                    t.belongsTo("country").notNull()
                }
                try db.create(table: "user") { t in
                    t.primaryKey("uuid", .text)
                }
                try db.create(table: "position") { t in
                    t.primaryKey {
                        t.column("teamName", .text)
                        t.column("position", .integer)
                    }
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "email" TEXT UNIQUE, "teamId" TEXT REFERENCES "team"("id") ON DELETE CASCADE, "countryCode" TEXT NOT NULL REFERENCES "country"("code"))"#,
                #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                #"CREATE INDEX "player_on_countryCode" ON "player"("countryCode")"#,
                #"CREATE TABLE "user" ("uuid" TEXT PRIMARY KEY NOT NULL)"#,
                #"CREATE TABLE "position" ("teamName" TEXT NOT NULL, "position" INTEGER NOT NULL, PRIMARY KEY ("teamName", "position"))"#,
            ])
            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(Set(foreignKeys.map(\.destinationTable)) == ["team", "country"])
            #expect(try db.primaryKey("position").columns == ["teamName", "position"])

            try db.execute(sql: "INSERT INTO team (id) VALUES ('red')")
            try db.execute(sql: "INSERT INTO country (code) VALUES ('FR')")
            try db.execute(sql: "INSERT INTO player (teamId, countryCode) VALUES ('red', 'FR')")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (teamId, countryCode) VALUES ('blue', 'FR')")
            }
            try db.execute(sql: "DELETE FROM team")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }

    @Test func belongsToVariants() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "team") { t in t.primaryKey("id", .text) }
            try db.create(table: "citizenship") { t in
                t.column("citizenID", .integer)
                t.column("countryCode", .text)
                t.primaryKey(["citizenID", "countryCode"])
            }
            try db.create(table: "note") { t in t.column("text") }
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "passport") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("citizenship", onDelete: .cascade, onUpdate: .setNull, deferred: true).notNull()
                }
                try db.create(table: "card") { t in
                    t.belongsTo("citizenship").unique()
                }
                try db.create(table: "book") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("player", indexed: false)
                    t.belongsTo("team").unique()
                    t.belongsTo("author", inTable: "player")
                    t.belongsTo("parent", inTable: "book")
                    t.belongsTo("note")
                }
                try db.create(table: "membership") { t in
                    t.primaryKey {
                        t.column("role", .text)
                        t.belongsTo("player")
                    }
                    t.belongsTo("team")
                }
            }
            #expect(statements == [
                #"CREATE TABLE "passport" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "citizenshipCitizenID" INTEGER NOT NULL, "citizenshipCountryCode" TEXT NOT NULL, FOREIGN KEY ("citizenshipCitizenID", "citizenshipCountryCode") REFERENCES "citizenship"("citizenID", "countryCode") ON DELETE CASCADE ON UPDATE SET NULL DEFERRABLE INITIALLY DEFERRED)"#,
                #"CREATE INDEX "index_passport_on_citizenshipCitizenID_citizenshipCountryCode" ON "passport"("citizenshipCitizenID", "citizenshipCountryCode")"#,
                #"CREATE TABLE "card" ("citizenshipCitizenID" INTEGER, "citizenshipCountryCode" TEXT, FOREIGN KEY ("citizenshipCitizenID", "citizenshipCountryCode") REFERENCES "citizenship"("citizenID", "countryCode"))"#,
                #"CREATE UNIQUE INDEX "index_card_on_citizenshipCitizenID_citizenshipCountryCode" ON "card"("citizenshipCitizenID", "citizenshipCountryCode")"#,
                #"CREATE TABLE "book" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "playerId" INTEGER REFERENCES "player"("id"), "teamId" TEXT UNIQUE REFERENCES "team"("id"), "authorId" INTEGER REFERENCES "player"("id"), "parentId" INTEGER REFERENCES "book"("id"), "noteId" INTEGER REFERENCES "note"("rowid"))"#,
                #"CREATE INDEX "book_on_authorId" ON "book"("authorId")"#,
                #"CREATE INDEX "book_on_parentId" ON "book"("parentId")"#,
                #"CREATE INDEX "book_on_noteId" ON "book"("noteId")"#,
                #"CREATE TABLE "membership" ("role" TEXT NOT NULL, "playerId" INTEGER NOT NULL REFERENCES "player"("id"), "teamId" TEXT REFERENCES "team"("id"), PRIMARY KEY ("role", "playerId"))"#,
                #"CREATE INDEX "membership_on_teamId" ON "membership"("teamId")"#,
            ])
            // A reference to a missing table is an error.
            do {
                try db.create(table: "orphan") { t in t.belongsTo("missing") }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "no such table: missing")
            }
        }
    }

    @Test func foreignKeysReferToThePrimaryKeyOfTheirTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "city") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("countryCode", .text).references("country")
                    t.column("parentId", .integer).references("city")
                    t.column("twinCode", .text)
                    t.foreignKey(["twinCode"], references: "country")
                }
                try db.alter(table: "city") { t in
                    t.add(column: "capitalOf", .text).references("country", onDelete: .setNull)
                }
            }
            #expect(statements == [
                #"CREATE TABLE "city" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "countryCode" TEXT REFERENCES "country"("code"), "parentId" INTEGER REFERENCES "city"("id"), "twinCode" TEXT, FOREIGN KEY ("twinCode") REFERENCES "country"("code"))"#,
                #"ALTER TABLE "city" ADD COLUMN "capitalOf" TEXT REFERENCES "country"("code") ON DELETE SET NULL"#,
            ])
            do {
                try db.create(table: "orphan") { t in t.column("x").references("missing") }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "no such table: missing")
            }
        }
    }

    @Test func columnsOfThePrimaryKeyBodyAreNotNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "a") { t in t.primaryKey { t.column("id", .integer) } }
                try db.create(table: "b") { t in
                    t.primaryKey {
                        t.column("id", .integer).notNull(onConflict: .ignore)
                        t.column("x")
                    }
                }
                try db.create(table: "c") { t in
                    t.column("a").unique().indexed()
                    t.column("b").indexed()
                    t.uniqueKey(["b"])
                }
            }
            #expect(statements == [
                #"CREATE TABLE "a" ("id" INTEGER NOT NULL, PRIMARY KEY ("id"))"#,
                #"CREATE TABLE "b" ("id" INTEGER NOT NULL ON CONFLICT IGNORE, "x" NOT NULL, PRIMARY KEY ("id", "x"))"#,
                // A unique column needs no other index.
                #"CREATE TABLE "c" ("a" UNIQUE, "b", UNIQUE ("b"))"#,
                #"CREATE INDEX "c_on_b" ON "c"("b")"#,
            ])
        }
    }

    @Test func indexedColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.column("score", .integer).indexed()
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("score" INTEGER)"#,
                #"CREATE INDEX "player_on_score" ON "player"("score")"#,
            ])
            #expect(try db.indexes(on: "player").map(\.columns) == [["score"]])
        }
    }

    @Test func columnChecks() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.column("name", .text).check { length($0) > 0 }
                    t.column("score", .integer).check(sql: "score > 0")
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("name" TEXT CHECK (LENGTH("name") > 0), "score" INTEGER CHECK (score > 0))"#,
            ])
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 1)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name, score) VALUES ('', 1)") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Barbara', 0)") }
        }
    }

    @Test func columnsDefinedWithSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let defaultName: String = "O'Brien"
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.column(sql: "name TEXT")
                    t.column(literal: "nickname TEXT DEFAULT \(defaultName)")
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" (name TEXT, nickname TEXT DEFAULT 'O''Brien')"#,
            ])
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            #expect(try String.fetchOne(db, sql: "SELECT nickname FROM player") == "O'Brien")
        }
    }

    @Test func tableConstraints() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "parents") { t in
                t.column("c")
                t.column("d")
                t.primaryKey(["c", "d"])
            }
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "child") { t in
                    t.column("a", .integer)
                    t.column("b", .integer)
                    t.primaryKey(["a", "b"])
                    t.uniqueKey(["a", "b"], onConflict: .replace)
                    t.foreignKey(["a", "b"], references: "parents")
                    t.check(sql: "a + b < 10")
                    t.constraint(sql: "CHECK (a + b < 10)")
                    t.constraint(literal: "CHECK (a + b < \(10))")
                }
            }
            #expect(statements == [
                #"CREATE TABLE "child" ("a" INTEGER, "b" INTEGER, PRIMARY KEY ("a", "b"), UNIQUE ("a", "b") ON CONFLICT REPLACE, FOREIGN KEY ("a", "b") REFERENCES "parents"("c", "d"), CHECK (a + b < 10), CHECK (a + b < 10), CHECK (a + b < 10))"#,
            ])
            try db.execute(sql: "INSERT INTO parents (c, d) VALUES (1, 2)")
            try db.execute(sql: "INSERT INTO child (a, b) VALUES (1, 2)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO child (a, b) VALUES (3, 4)") }

            // A check built from an expression.
            try db.create(table: "pair") { t in
                t.column("a", .integer)
                t.column("b", .integer)
                t.check(Column("a") + Column("b") < 10)
            }
            try db.execute(sql: "INSERT INTO pair (a, b) VALUES (1, 2)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO pair (a, b) VALUES (5, 5)") }
        }
    }

    @Test func generatedColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.column("score", .integer)
                    t.column("bonus", .integer)
                    t.column("totalScore", .integer).generatedAs(sql: "score + bonus")
                    t.column("otherTotalScore", .integer).generatedAs(Column("score") + Column("bonus"))
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("score" INTEGER, "bonus" INTEGER, "totalScore" INTEGER GENERATED ALWAYS AS (score + bonus) VIRTUAL, "otherTotalScore" INTEGER GENERATED ALWAYS AS ("score" + "bonus") VIRTUAL)"#,
            ])
            try db.execute(sql: "INSERT INTO player (score, bonus) VALUES (10, 5)")
            #expect(try Row.fetchOne(db, sql: "SELECT totalScore, otherTotalScore FROM player") == ["totalScore": 15, "otherTotalScore": 15])
        }
    }

    // MARK: Modify Tables

    @Test func renameAndAlterTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "referer") { t in t.column("url", .text) }
            try db.create(table: "player") { t in
                t.column("url", .text)
                t.column("score", .integer)
            }
            let statements = try SchemaStatementLog.statements(db) {
                try db.rename(table: "referer", to: "referrer")
                try db.alter(table: "player") { t in
                    t.add(column: "hasBonus", .boolean)
                    t.rename(column: "url", to: "homeURL")
                    t.drop(column: "score")
                }
            }
            #expect(statements == [
                #"ALTER TABLE "referer" RENAME TO "referrer""#,
                #"ALTER TABLE "player" ADD COLUMN "hasBonus" BOOLEAN"#,
                #"ALTER TABLE "player" RENAME COLUMN "url" TO "homeURL""#,
                #"ALTER TABLE "player" DROP COLUMN "score""#,
            ])
            #expect(try db.tableExists("referrer"))
            #expect(try !db.tableExists("referer"))
            #expect(try db.columns(in: "player").map(\.name) == ["homeURL", "hasBonus"])
        }
    }

    @Test func addIndexedColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in t.column("name", .text) }
            let statements = try SchemaStatementLog.statements(db) {
                try db.alter(table: "player") { t in
                    t.add(column: "score", .integer).indexed()
                }
            }
            #expect(statements == [
                #"ALTER TABLE "player" ADD COLUMN "score" INTEGER"#,
                #"CREATE INDEX "player_on_score" ON "player"("score")"#,
            ])
        }
    }

    @Test func dropTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "obsolete") { t in t.column("name", .text) }
            let statements = try SchemaStatementLog.statements(db) {
                try db.drop(table: "obsolete")
            }
            #expect(statements == [#"DROP TABLE "obsolete""#])
            #expect(try !db.tableExists("obsolete"))
        }
    }

    // MARK: Create Indexes

    @Test func indexesInTableDefinition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.column("email", .text).unique()
                    t.column("score", .integer).indexed()
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("email" TEXT UNIQUE, "score" INTEGER)"#,
                #"CREATE INDEX "player_on_score" ON "player"("score")"#,
            ])
            #expect(try db.table("player", hasUniqueKey: ["email"]))
            #expect(try !db.table("player", hasUniqueKey: ["score"]))
        }
    }

    @Test func indexesOnExistingTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("email", .text)
                t.column("score", .integer)
                t.column("bonus", .integer)
            }
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(indexOn: "player", columns: ["email"])
                try db.drop(index: "index_player_on_email")
                try db.create(indexOn: "player", columns: ["email"], options: .unique)
                try db.drop(index: "index_player_on_email")
                try db.create(
                    index: "index_player_on_email",
                    on: "player",
                    expressions: [Column("email").collating(.nocase)])
                try db.create(
                    index: "index_player_on_total_score",
                    on: "player",
                    expressions: [Column("score") + Column("bonus")])
            }
            #expect(statements == [
                #"CREATE INDEX "index_player_on_email" ON "player"("email")"#,
                #"DROP INDEX "index_player_on_email""#,
                #"CREATE UNIQUE INDEX "index_player_on_email" ON "player"("email")"#,
                #"DROP INDEX "index_player_on_email""#,
                #"CREATE INDEX "index_player_on_email" ON "player"("email" COLLATE NOCASE)"#,
                #"CREATE INDEX "index_player_on_total_score" ON "player"("score" + "bonus")"#,
            ])
            // The index on an expression serves the queries on it.
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM player WHERE score + bonus = 10")
            #expect(plan.contains { ($0["detail"] as String?)?.contains("index_player_on_total_score") == true })
        }
    }

    @Test func indexOptionsAndCondition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("email", .text)
                t.column("score", .integer)
            }
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(index: "player_on_high_score", on: "player", columns: ["score"],
                              options: [.ifNotExists], condition: Column("score") > 10)
                try db.create(index: "player_on_high_score", on: "player", columns: ["score"],
                              options: [.ifNotExists], condition: Column("score") > 10)
            }
            #expect(statements == [
                #"CREATE INDEX IF NOT EXISTS "player_on_high_score" ON "player"("score") WHERE "score" > 10"#,
                #"CREATE INDEX IF NOT EXISTS "player_on_high_score" ON "player"("score") WHERE "score" > 10"#,
            ])
        }
    }

    @Test func dropIndexOnColumnsDropsTheIndexOnThoseColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("email", .text)
                t.column("score", .integer)
            }
            try db.create(indexOn: "player", columns: ["email"])
            try db.create(index: "custom", on: "player", columns: ["score"])
            let statements = try SchemaStatementLog.statements(db) {
                try db.drop(indexOn: "player", columns: ["email"])
                try db.drop(indexOn: "player", columns: ["score"])
            }
            #expect(statements == [
                #"DROP INDEX "index_player_on_email""#,
                #"DROP INDEX "custom""#,
            ])
            #expect(try db.indexes(on: "player").isEmpty)

            // Several indexes on the same columns: none is dropped.
            try db.create(indexOn: "player", columns: ["email"])
            try db.create(index: "player_on_email", on: "player", columns: ["email"], options: .unique)
            try db.drop(indexOn: "player", columns: ["email"])
            #expect(try db.indexes(on: "player").count == 2)
            // No index: nothing happens.
            try db.drop(indexOn: "player", columns: ["score"])
        }
    }

    // MARK: Views

    @Test func createAndDropViews() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("email", .text)
                t.column("score", .integer)
            }
            try db.execute(sql: "INSERT INTO player VALUES ('a@example.com', 20), ('b@example.com', 1)")
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(view: "bestPlayer", as: Table("player").filter(Column("score") > 10).select(Column("email")))
                try db.create(view: "email", options: [.temporary, .ifNotExists], columns: ["e"],
                              asLiteral: "SELECT email FROM player WHERE score > \(5)")
                try db.drop(view: "bestPlayer")
            }
            #expect(statements == [
                #"CREATE VIEW "bestPlayer" AS SELECT "email" FROM "player" WHERE "score" > 10"#,
                #"CREATE TEMPORARY VIEW IF NOT EXISTS "email" ("e") AS SELECT email FROM player WHERE score > 5"#,
                #"DROP VIEW "bestPlayer""#,
            ])
            #expect(try String.fetchAll(db, sql: "SELECT e FROM email") == ["a@example.com"])
            #expect(try !db.viewExists("bestPlayer"))
        }
    }
}
