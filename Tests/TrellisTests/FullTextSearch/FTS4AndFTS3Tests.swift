import Testing
import Trellis

private struct Document: Codable, FetchableRecord, PersistableRecord {
    var content: String
    enum Columns {
        static let content = Column(CodingKeys.content)
    }
}

// The SQL, tokens, patterns and errors are those of GRDB 7.10 for the same
// code, as recorded from a program built against GRDB.
@Suite struct FTS4AndFTS3Tests {
    private func createSQL(_ body: (Database) throws -> Void) throws -> [String] {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { (db: Database) throws in try recordedStatements(db) { () throws in try body(db) } }
    }

    @Test func fts4TablesOfTheGuide() throws {
        #expect(try createSQL { db in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.column("content")
            }
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.tokenizer = .porter
                t.column("author")
                t.column("title")
                t.column("body")
            }
            try db.create(virtualTable: "options", using: FTS4()) { t in
                t.content = ""
                t.compress = "zip"
                t.uncompress = "unzip"
                t.prefixes = [2, 4]
                t.column("content")
                t.column("uuid").notIndexed()
                t.column("lid").asLanguageId()
            }
        } == [
            #"CREATE VIRTUAL TABLE "document" USING fts4(content)"#,
            #"CREATE VIRTUAL TABLE "book" USING fts4(author, title, body, tokenize=porter)"#,
            #"CREATE VIRTUAL TABLE "options" USING fts4(content, uuid, notindexed=uuid, languageid="lid", content="", compress="zip", uncompress="unzip", prefix="2,4")"#,
        ])
    }

    @Test func fts4OptionsComeInGRDBOrder() throws {
        #expect(try createSQL { db in
            try db.create(table: "src") { t in
                t.column("a", .text)
                t.column("b", .text)
            }
            try db.create(virtualTable: "d4", using: FTS4()) { t in
                t.matchinfo = "fts3"
                t.prefixes = [1]
                t.uncompress = "u"
                t.compress = "c"
                t.content = "src"
                t.tokenizer = .porter
                t.column("lid").asLanguageId()
                t.column("a").notIndexed()
                t.column("b").notIndexed()
            }
            try db.create(virtualTable: "e4", using: FTS4()) { t in
                t.column("content").notIndexed()
                t.column("lid").asLanguageId()
                t.tokenizer = .unicode61(diacritics: .keep, separators: ["x"], tokenCharacters: ["-"])
                t.matchinfo = "fts3"
                t.prefixes = [4, 2, 3]
            }
            try db.create(virtualTable: "n4", using: FTS4())
        }.dropFirst() == [
            #"CREATE VIRTUAL TABLE "d4" USING fts4(languageid="lid", a, notindexed=a, b, notindexed=b, tokenize=porter, content="src", compress="c", uncompress="u", matchinfo="fts3", prefix="1")"#,
            #"CREATE VIRTUAL TABLE "e4" USING fts4(content, notindexed=content, languageid="lid", tokenize=unicode61 "remove_diacritics=0" "separators=x" "tokenchars=-", matchinfo="fts3", prefix="2,3,4")"#,
            #"CREATE VIRTUAL TABLE "n4" USING fts4"#,
        ])
    }

    @Test func fts3Tables() throws {
        #expect(try createSQL { db in
            try db.create(virtualTable: "d3", using: FTS3()) { t in
                t.column("content")
                t.tokenizer = .simple
            }
            try db.create(virtualTable: "d3b", using: FTS3()) { t in
                t.tokenizer = .porter
                t.column("a")
                t.column("b")
            }
            try db.create(virtualTable: "d3c", using: FTS3()) { t in
                t.tokenizer = .unicode61()
                t.column("a")
            }
            try db.create(virtualTable: "d3d", using: FTS3()) { t in
                t.tokenizer = .unicode61(diacritics: .remove)
                t.column("a")
            }
            try db.create(virtualTable: "n3", using: FTS3())
        } == [
            #"CREATE VIRTUAL TABLE "d3" USING fts3(content, tokenize=simple)"#,
            #"CREATE VIRTUAL TABLE "d3b" USING fts3(a, b, tokenize=porter)"#,
            #"CREATE VIRTUAL TABLE "d3c" USING fts3(a, tokenize=unicode61)"#,
            #"CREATE VIRTUAL TABLE "d3d" USING fts3(a, tokenize=unicode61 "remove_diacritics=2")"#,
            #"CREATE VIRTUAL TABLE "n3" USING fts3"#,
        ])
    }

    @Test func tablesWithoutColumnsHaveTheContentColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "n4", using: FTS4())
            try db.create(virtualTable: "n3", using: FTS3())
            // Hidden columns (`n4`, `docid`, `__langid`) are not listed.
            #expect(try db.columns(in: "n4").map(\.name) == ["content"])
            #expect(try db.columns(in: "n3").map(\.name) == ["content"])
            try db.drop(table: "n4")
            #expect(try !db.tableExists("n4"))
            #expect(try !db.tableExists("n4_content"))
        }
    }

    @Test func tokenizationOfTheGuide() throws {
        #expect(try FTS3.tokenize("SQLite database") == ["sqlite", "database"])
        #expect(try FTS3.tokenize("Gustave Doré") == ["gustave", "doré"])
        #expect(try FTS3.tokenize("SQLite database", withTokenizer: .porter) == ["sqlite", "databas"])
        #expect(try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61()) == ["gustave", "dore"])
        #expect(try FTS3.tokenize("foo_bar l'avion 12.5 ÉLÉGANCE") == ["foo", "bar", "l", "avion", "12", "5", "ÉlÉgance"])
        #expect(try FTS3.tokenize("foo_bar l'avion ÉLÉGANCE", withTokenizer: .unicode61(diacritics: .keep))
            == ["foo", "bar", "l", "avion", "élégance"])
        #expect(try FTS3.tokenize("axb", withTokenizer: .unicode61(separators: ["x"])) == ["a", "b"])
    }

    @Test func patternsBuiltFromAnyString() {
        let query = "SQLite database"
        #expect(FTS3Pattern(matchingAnyTokenIn: query)?.rawPattern == "sqlite OR database")
        #expect(FTS3Pattern(matchingAllTokensIn: query)?.rawPattern == "sqlite database")
        #expect(FTS3Pattern(matchingAllPrefixesIn: query)?.rawPattern == "sqlite* database*")
        #expect(FTS3Pattern(matchingPhrase: query)?.rawPattern == #""sqlite database""#)
        #expect(FTS3Pattern(matchingAnyTokenIn: "") == nil)
        #expect(FTS3Pattern(matchingAnyTokenIn: "*") == nil)
        #expect(FTS3Pattern(matchingAllTokensIn: "Jérôme DORÉ")?.rawPattern == "jérôme dorÉ")
        #expect(FTS3Pattern(matchingAnyTokenIn: "NEAR(x y)")?.rawPattern == "near OR x OR y")
        #expect(FTS3Pattern(matchingPhrase: "a+b")?.rawPattern == #""a b""#)
    }

    @Test func rawPatternsAreChecked() throws {
        #expect(try FTS3Pattern(rawPattern: "sqlite AND database").rawPattern == "sqlite AND database")
        #expect(try FTS3Pattern(rawPattern: "").rawPattern == "")
        // FTS3 does not check column filters.
        #expect(try FTS3Pattern(rawPattern: "missing: sqlite").rawPattern == "missing: sqlite")
        for rawPattern in ["AND", "a OR", "(a", #""unterminated"#, "NEAR(a b, 2)"] {
            let error = #expect(throws: DatabaseError.self, "\(rawPattern)") {
                try FTS3Pattern(rawPattern: rawPattern)
            }
            #expect(error?.message == "malformed MATCH expression: [\(rawPattern)]")
            #expect(error?.description == "SQLite error 1: malformed MATCH expression: [\(rawPattern)]")
        }
        #expect(FTS3Pattern.fromDatabaseValue("AND".databaseValue) == nil)
        #expect(FTS3Pattern.fromDatabaseValue("a OR b".databaseValue)?.rawPattern == "a OR b")
    }

    // A column filter followed by no word is nothing, and leaves the
    // operator before it without an operand, on a table with that column
    // only: the fuzzer found the first pattern below, which a table
    // without a `title` column accepts.
    @Test func rawPatternsAreValidWhateverTheColumnsOfTheTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE book USING fts4(title, body);
                CREATE VIRTUAL TABLE titled USING fts4(title);
                INSERT INTO book VALUES ('Moby Dick', 'Call me Ishmael');
                INSERT INTO titled VALUES ('Moby Dick');
                """)
            func matches(_ table: String, _ rawPattern: String) throws -> [Int64] {
                try Int64.fetchAll(db, sql: "SELECT rowid FROM \(table) WHERE \(table) MATCH ?", arguments: [rawPattern])
            }
            let refused: [(rawPattern: String, refusingTable: String)] = [
                ("\"moby dick\" OR title:\u{1D}\0\0\0\0\0\0\0", "book"),
                ("a OR title:", "book"),
                ("x AND Title: ", "book"),
                ("x NEAR (title:)", "book"),
                ("(body:) OR title:", "titled"),
            ]
            for (rawPattern, refusingTable) in refused {
                #expect(throws: DatabaseError.self, "\(rawPattern)") { try matches(refusingTable, rawPattern) }
                let error = #expect(throws: DatabaseError.self, "\(rawPattern)") { try FTS3Pattern(rawPattern: rawPattern) }
                #expect(error?.message?.hasPrefix("malformed MATCH expression: [") == true)
            }
            let accepted: [(rawPattern: String, bookMatches: [Int64])] = [
                ("title: moby OR body:ishmael", [1]),
                ("Title:dick", [1]),
                ("moby AND body:dick", []),
                ("missing: sqlite", []),
                ("12:30", []),
            ]
            for (rawPattern, bookMatches) in accepted {
                let pattern = try FTS3Pattern(rawPattern: rawPattern)
                #expect(try matches("book", pattern.rawPattern) == bookMatches, "\(rawPattern)")
                _ = try matches("titled", pattern.rawPattern)
            }
        }
    }

    // Each name before a colon doubles the tables the check takes.
    @Test func rawPatternsWithTooManyPossibleColumnFiltersAreRefused() throws {
        #expect(try FTS3Pattern(rawPattern: "a:x b:x c:x d:x e:x f:x A:x").rawPattern == "a:x b:x c:x d:x e:x f:x A:x")
        let error = #expect(throws: DatabaseError.self) {
            try FTS3Pattern(rawPattern: "a:x b:x c:x d:x e:x f:x g:x")
        }
        #expect(error?.message
            == "FTS3 pattern with 7 column names before a colon, more than the 6 that can be checked: a:x b:x c:x d:x e:x f:x g:x")
    }

    @Test func searchesWithTheQueryInterface() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in t.column("content") }
            try Document(content: "SQLite database").insert(db)
            try Document(content: "Moby Dick").insert(db)
            try db.execute(sql: "INSERT INTO document (content) VALUES (?)", arguments: ["A database of whales"])

            let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
            let request = Document.matching(pattern)
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == #"SELECT * FROM "document" WHERE "document" MATCH ?"#)
            #expect(statement.arguments == ["sqlite database"])
            #expect(try request.fetchAll(db).map(\.content) == ["SQLite database"])
            #expect(try Document.fetchAll(db, sql: "SELECT * FROM document WHERE content MATCH ?", arguments: [pattern])
                .map(\.content) == ["SQLite database"])

            let database = FTS3Pattern(matchingAnyTokenIn: "database")
            let columnRequest = Document.filter { $0.content.match(database) }
            #expect(try columnRequest.makePreparedRequest(db, forSingleResult: false).statement.sql
                == #"SELECT * FROM "document" WHERE "content" MATCH ?"#)
            #expect(try columnRequest.fetchCount(db) == 2)
            #expect(try Table("document").matching(database).fetchCount(db) == 2)
            #expect(try Table("document").all().matching(FTS3Pattern(matchingPhrase: "moby dick")).fetchCount(db) == 1)

            // A nil pattern matches nothing.
            #expect(try Document.matching(FTS3Pattern(matchingAnyTokenIn: "")).fetchCount(db) == 0)
            let nilColumn = Document.filter(Column("content").match(nil as FTS3Pattern?))
            #expect(try nilColumn.makePreparedRequest(db, forSingleResult: false).statement.sql
                == #"SELECT * FROM "document" WHERE "content" MATCH ?"#)
            #expect(try nilColumn.fetchCount(db) == 0)
        }
    }

    @Test func fts3TablesAreSearchedLikeFTS4Tables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS3()) { t in
                t.tokenizer = .porter
                t.column("content")
            }
            try Document(content: "Frustrated databases").insert(db)
            #expect(try Document.matching(FTS3Pattern(matchingAllTokensIn: "frustration database")).fetchCount(db) == 1)
            #expect(try Document.matching(FTS3Pattern(matchingAllPrefixesIn: "frus data")).fetchCount(db) == 1)
        }
    }
}
