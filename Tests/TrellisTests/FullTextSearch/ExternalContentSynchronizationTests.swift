import Testing
import Trellis

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var author: String
    var title: String
    var content: String
}

// The triggers are those GRDB 7.10 creates for the same definition, as
// recorded from a program built against GRDB.
@Suite struct ExternalContentSynchronizationTests {
    private func createBookTable(_ db: Database) throws {
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("author", .text)
            t.column("title", .text)
            t.column("content", .text)
        }
    }

    private func titles(_ db: Database, matching text: String, in table: String = "book_ft") throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT book.title FROM book JOIN \(table) ON \(table).rowid = book.rowid AND \(table) MATCH ?
            ORDER BY book.id
            """, arguments: [FTS5Pattern(matchingAllTokensIn: text)])
    }

    @Test func fts5TablesFollowTheirContentTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            try Book(id: 1, author: "Herman Melville", title: "Moby-Dick", content: "Call me Ishmael.").insert(db)
            let statements = try recordedStatements(db) { () throws in
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("author")
                    t.column("title")
                    t.column("content")
                }
            }
            #expect(statements == [
                #"CREATE VIRTUAL TABLE "book_ft" USING fts5(author, title, content, content='book', content_rowid='id')"#,
                """
                CREATE TRIGGER "__book_ft_ai" AFTER INSERT ON "book" BEGIN
                    INSERT INTO "book_ft"("rowid", "author", "title", "content") VALUES (new."id", new."author", new."title", new."content");
                END
                """,
                """
                CREATE TRIGGER "__book_ft_ad" AFTER DELETE ON "book" BEGIN
                    INSERT INTO "book_ft"("book_ft", "rowid", "author", "title", "content") VALUES('delete', old."id", old."author", old."title", old."content");
                END
                """,
                """
                CREATE TRIGGER "__book_ft_au" AFTER UPDATE ON "book" BEGIN
                    INSERT INTO "book_ft"("book_ft", "rowid", "author", "title", "content") VALUES('delete', old."id", old."author", old."title", old."content");
                    INSERT INTO "book_ft"("rowid", "author", "title", "content") VALUES (new."id", new."author", new."title", new."content");
                END
                """,
                #"INSERT INTO "book_ft"("book_ft") VALUES('rebuild')"#,
            ])
            // The rows already there are indexed.
            #expect(try titles(db, matching: "ishmael") == ["Moby-Dick"])

            try Book(id: 2, author: "Jules Verne", title: "Twenty Thousand Leagues", content: "Mobilis in mobili").insert(db)
            #expect(try titles(db, matching: "verne") == ["Twenty Thousand Leagues"])
            try Book(id: 2, author: "Jules Verne", title: "Around the World", content: "Phileas Fogg").update(db)
            #expect(try titles(db, matching: "leagues").isEmpty)
            #expect(try titles(db, matching: "fogg") == ["Around the World"])
            // An upsert updates the index too.
            try Book(id: 2, author: "Jules Verne", title: "The Mysterious Island", content: "Nemo").upsert(db)
            #expect(try titles(db, matching: "fogg").isEmpty)
            #expect(try titles(db, matching: "nemo") == ["The Mysterious Island"])
            _ = try Book.deleteOne(db, key: 1)
            #expect(try titles(db, matching: "ishmael").isEmpty)
            #expect(try Row.fetchAll(db, Table("book_ft").select(Column.rowID, Column("title")).matching(FTS5Pattern(matchingAnyTokenIn: "jules")))
                == [["rowid": 2, "title": "The Mysterious Island"]])
        }
    }

    @Test func fullTextSearchOnTheContentTableIsAnSQLiteError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            // As GRDB's guide says: query the full-text table, or join it.
            // (SQLite 3.40 and GRDB, with the same SQL, give this message.)
            let error = #expect(throws: DatabaseError.self) {
                try Book.matching(FTS5Pattern(matchingAnyTokenIn: "moby")).fetchAll(db)
            }
            #expect(error?.message == "no such column: book")
        }
    }

    @Test func contentTablesWithoutIntegerPrimaryKeyUseTheRowid() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "book") { t in
                t.primaryKey("uuid", .text)
                t.column("title", .text)
            }
            try db.execute(sql: "INSERT INTO book VALUES ('a', 'Moby-Dick')")
            let statements = try recordedStatements(db) { () throws in
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            #expect(statements.first == #"CREATE VIRTUAL TABLE "book_ft" USING fts5(title, content='book')"#)
            #expect(statements[1] == """
                CREATE TRIGGER "__book_ft_ai" AFTER INSERT ON "book" BEGIN
                    INSERT INTO "book_ft"("rowid", "title") VALUES (new."rowid", new."title");
                END
                """)
            try db.execute(sql: "INSERT INTO book VALUES ('b', 'Typee')")
            #expect(try String.fetchAll(db, sql: "SELECT title FROM book_ft WHERE book_ft MATCH 'moby OR typee' ORDER BY rowid")
                == ["Moby-Dick", "Typee"])
        }
    }

    @Test func ifNotExistsAppliesToTheTriggers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            let statements = try recordedStatements(db) { () throws in
                for _ in 0..<2 {
                    try db.create(virtualTable: "book_ft", options: .ifNotExists, using: FTS5()) { t in
                        t.synchronize(withTable: "book")
                        t.column("title")
                    }
                }
            }
            #expect(statements.filter { $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS") }.count == 6)
            try Book(id: 1, author: "Herman Melville", title: "Moby-Dick", content: "").insert(db)
            #expect(try titles(db, matching: "moby") == ["Moby-Dick"])
        }
    }

    @Test func mistakesAreErrorsAndCreateNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            let missing = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "missing")
                    t.column("title")
                }
            }
            #expect(missing?.message == "no such table: missing")
            // GRDB stops the process with this message.
            let temporary = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", options: .temporary, using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            #expect(temporary?.message == "Temporary external content FTS5 tables are not supported.")
            // GRDB creates the table, fails to index the content table
            // ("SQL logic error") and leaves a transaction that SQLite can
            // not commit.
            let column = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("summary")
                }
            }
            #expect(column?.message == "table book has no column named summary")
            #expect(try !db.tableExists("book_ft"))
            #expect(try !db.triggerExists("__book_ft_ai"))
            try Book(id: 1, author: "Herman Melville", title: "Moby-Dick", content: "").insert(db)
        }
    }

    @Test func explicitContentOptionsStopTheSynchronization() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            let statements = try recordedStatements(db) { () throws in
                try db.create(virtualTable: "other_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    #expect(t.content == "book")
                    #expect(t.contentRowID == nil)
                    t.content = "book"
                    t.column("title")
                }
                try db.create(virtualTable: "rowid_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.contentRowID = "id"
                    t.column("title")
                }
            }
            #expect(statements == [
                #"CREATE VIRTUAL TABLE "other_ft" USING fts5(title, content='book')"#,
                #"CREATE VIRTUAL TABLE "rowid_ft" USING fts5(title, content_rowid='id')"#,
            ])
        }
    }

    @Test func droppingTheTriggersOfADroppedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            try db.drop(table: "book_ft")
            // The triggers remain, and break the content table and the
            // creation of a new full-text table.
            #expect(throws: DatabaseError.self) {
                try Book(id: 1, author: "Herman Melville", title: "Moby-Dick", content: "").insert(db)
            }
            do {
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == #"trigger "__book_ft_ai" already exists"#)
            }
            #expect(try !db.tableExists("book_ft"))
            let statements = try recordedStatements(db) { () throws in
                try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
            }
            #expect(statements == [
                #"DROP TRIGGER IF EXISTS "__book_ft_ai""#,
                #"DROP TRIGGER IF EXISTS "__book_ft_ad""#,
                #"DROP TRIGGER IF EXISTS "__book_ft_au""#,
            ])
            try Book(id: 1, author: "Herman Melville", title: "Moby-Dick", content: "").insert(db)
            // Dropping triggers that do not exist is not an error.
            try db.dropFTS5SynchronizationTriggers(forTable: "book")
        }
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
        }
        let titles = try dbQueue.read { (db: Database) throws in
            try String.fetchAll(db, sql: "SELECT title FROM book_ft WHERE book_ft MATCH 'moby'")
        }
        #expect(titles == ["Moby-Dick"])
    }

    @Test func fts4TablesFollowTheirContentTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            try Book(id: 1, author: "Herman Melville", title: "Moby-Dick", content: "Call me Ishmael.").insert(db)
            let statements = try recordedStatements(db) { () throws in
                try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.tokenizer = .porter
                    t.column("author")
                    t.column("title")
                }
            }
            #expect(statements == [
                #"CREATE VIRTUAL TABLE "book_ft" USING fts4(author, title, tokenize=porter, content="book")"#,
                """
                CREATE TRIGGER "__book_ft_bu" BEFORE UPDATE ON "book" BEGIN
                    DELETE FROM "book_ft" WHERE docid=old."id";
                END
                """,
                """
                CREATE TRIGGER "__book_ft_bd" BEFORE DELETE ON "book" BEGIN
                    DELETE FROM "book_ft" WHERE docid=old."id";
                END
                """,
                """
                CREATE TRIGGER "__book_ft_au" AFTER UPDATE ON "book" BEGIN
                    INSERT INTO "book_ft"("docid", "author", "title") VALUES(new."id", new."author", new."title");
                END
                """,
                """
                CREATE TRIGGER "__book_ft_ai" AFTER INSERT ON "book" BEGIN
                    INSERT INTO "book_ft"("docid", "author", "title") VALUES(new."id", new."author", new."title");
                END
                """,
                #"INSERT INTO "book_ft"("book_ft") VALUES('rebuild')"#,
            ])
            func titles(_ text: String) throws -> [String] {
                try String.fetchAll(db, sql: """
                    SELECT book.title FROM book JOIN book_ft ON book_ft.docid = book.id AND book_ft MATCH ? ORDER BY book.id
                    """, arguments: [FTS3Pattern(matchingAllTokensIn: text)])
            }
            #expect(try titles("melville") == ["Moby-Dick"])
            try Book(id: 2, author: "Jules Verne", title: "Twenty Thousand Leagues", content: "").insert(db)
            #expect(try titles("league") == ["Twenty Thousand Leagues"])  // porter
            try Book(id: 2, author: "Jules Verne", title: "Around the World", content: "").update(db)
            #expect(try titles("league").isEmpty)
            #expect(try titles("world") == ["Around the World"])
            _ = try Book.deleteOne(db, key: 2)
            #expect(try titles("verne").isEmpty)

            try db.drop(table: "book_ft")
            let drops = try recordedStatements(db) { () throws in
                try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
            }
            #expect(drops == ["bu", "bd", "au", "ai"].map { #"DROP TRIGGER IF EXISTS "__book_ft_"# + $0 + #"""# })
            try Book(id: 3, author: "Jules Verne", title: "The Mysterious Island", content: "").insert(db)
        }
    }

    @Test func fts4MistakesAreErrorsAndCreateNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try createBookTable(db)
            let missing = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "missing")
                    t.column("title")
                }
            }
            #expect(missing?.message == "no such table: missing")
            // GRDB stops the process with this message.
            let temporary = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", options: .temporary, using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            #expect(temporary?.message == "Temporary external content FTS4 tables are not supported.")
            let column = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                    t.column("lid").asLanguageId()
                }
            }
            #expect(column?.message == "table book has no column named lid")
            #expect(try !db.tableExists("book_ft"))
        }
    }
}
