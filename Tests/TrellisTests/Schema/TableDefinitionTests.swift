import Testing
import Trellis

@Suite struct TableDefinitionTests {
    @Test func columnConstraintsAreEnforced() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique(onConflict: .ignore).collate(.nocase)
                t.column("score", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
                t.column("code", .text).defaults(sql: "'none'")
                t.column("double", .integer).generatedAs(Column("score") * 2)
                t.column("email", .text).indexed()
            }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('ARTHUR')") // ignored: unique, nocase
            #expect(try Row.fetchAll(db, sql: "SELECT name, score, code, double FROM player")
                == [["name": "Arthur", "score": 0, "code": "none", "double": 0]])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name, score) VALUES ('B', -1)") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (score) VALUES (1)") }
            #expect(try db.indexes(on: "player").contains { $0.columns == ["email"] && !$0.isUnique })
        }
    }

    @Test func textPrimaryKeysAreNotNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "item") { t in t.primaryKey("uuid", .text) }
            #expect(try db.columns(in: "item").first?.isNotNull == true)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO item VALUES (NULL)") }
        }
    }

    @Test func primaryKeyBodyAndOptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "pair", options: [.withoutRowID, .strict, .ifNotExists]) { t in
                t.primaryKey {
                    t.column("a", .integer)
                    t.column("b", .text)
                }
            }
            try db.create(table: "pair", options: .ifNotExists) { t in t.column("ignored") }
            #expect(try db.primaryKey("pair").columns == ["a", "b"])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO pair VALUES ('x', 'y')") } // STRICT
        }
    }

    @Test func belongsToAddsColumnForeignKeyAndIndex() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("country", onDelete: .setNull)
                t.belongsTo("mentor", inTable: "person")
            }
            let columns = try db.columns(in: "person").map(\.name)
            #expect(columns == ["id", "countryCode", "mentorId"])
            let foreignKeys = try db.foreignKeys(on: "person")
            #expect(Set(foreignKeys.map(\.destinationTable)) == ["country", "person"])
            #expect(try db.indexes(on: "person").count == 2)
        }
    }

    @Test func alterationsChangeTheTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("obsolete", .integer)
            }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.alter(table: "player") { t in
                t.add(column: "score", .integer).notNull().defaults(to: 10)
                t.rename(column: "name", to: "fullName")
                t.drop(column: "obsolete")
            }
            #expect(try db.columns(in: "player").map(\.name) == ["fullName", "score"])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM player") == ["fullName": "Arthur", "score": 10])
            try db.rename(table: "player", to: "gamer")
            #expect(try db.tableExists("gamer"))
            try db.create(indexOn: "gamer", columns: ["score"])
            #expect(try db.indexes(on: "gamer").map(\.name) == ["index_gamer_on_score"])
            try db.drop(index: "index_gamer_on_score")
            try db.create(index: "gamer_name", on: "gamer", columns: ["fullName"], options: [.unique, .ifNotExists], condition: Column("score") > 0)
            // A partial index makes no key.
            #expect(try db.indexes(on: "gamer").map(\.isPartial) == [true])
            #expect(try db.table("gamer", hasUniqueKey: ["fullName"]) == false)
            try db.create(view: "bestGamers", asLiteral: "SELECT * FROM gamer WHERE score > \(5)")
            #expect(try db.viewExists("bestGamers"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bestGamers") == 1)
            try db.drop(view: "bestGamers")
            try db.drop(table: "gamer")
            #expect(try !db.tableExists("gamer"))
        }
    }

    @Test func introspectingAMissingTableNamesIt() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try db.columns(in: "ghost") }
            #expect(error?.message == "no such table: ghost")
            #expect(throws: DatabaseError.self) { try db.primaryKey("ghost") }
        }
        try dbQueue.write { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try db.alter(table: "ghost") { t in t.add(column: "x") } }
            #expect(error?.message == "no such table: ghost")
            // An empty alteration runs no statement, as in GRDB.
            try db.alter(table: "ghost") { _ in }
        }
    }
}

@Suite struct SchemaMiscellaneousTests {
    @Test func sqlColumnsConstraintsAndFlags() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "t", temporary: true, ifNotExists: true) { t in
                t.column(sql: "a INTEGER NOT NULL")
                t.column(literal: "b TEXT DEFAULT \("x")")
                t.constraint(sql: "CHECK (a > 0)")
            }
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            #expect(try String.fetchOne(db, sql: "SELECT b FROM t") == "x")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (a) VALUES (0)") }
            try db.alter(table: "t") { t in t.addColumn(sql: "c INTEGER DEFAULT 3") }
            #expect(try Int.fetchOne(db, sql: "SELECT c FROM t") == 3)
        }
    }

    @Test func indexOptionsAsFlags() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, score INTEGER)")
            try db.create(index: "i", on: "player", columns: ["score"], unique: true, ifNotExists: true, condition: Column("score") > 0)
            try db.create(index: "i", on: "player", columns: ["score"], unique: true, ifNotExists: true)
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'i'")
                == #"CREATE UNIQUE INDEX "i" ON "player"("score") WHERE "score" > 0"#)
            try db.execute(sql: "INSERT INTO player VALUES (1, 0), (2, 0)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player VALUES (3, 5), (4, 5)") }
        }
    }

    @Test func foreignKeyViolationsAreListed() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            try db.create(table: "parent") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "child") { t in t.autoIncrementedPrimaryKey("id"); t.belongsTo("parent") }
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO child (parentId) VALUES (7)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.map(\.originTable) == ["child"])
            #expect(violations.map(\.destinationTable) == ["parent"])
            #expect(violations.first?.description == "FOREIGN KEY constraint violation - from child to parent, in rowid 1")
            let cursor = try db.foreignKeyViolations(in: "child")
            while let violation = try cursor.next() {
                #expect(try violation.failureDescription(db)
                    == "FOREIGN KEY constraint violation - from child(parentId) to parent(id), in [id:1 parentId:7]")
            }
            let error = #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error?.description == "SQLite error 19: FOREIGN KEY constraint violation - from child(parentId) to parent(id), in [id:1 parentId:7]")
        }
    }
}
