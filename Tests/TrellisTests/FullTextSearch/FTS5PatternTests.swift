import Foundation
import Testing
import Trellis

// The expected patterns and errors are those of GRDB 7.10 for the same
// input, as recorded from a program built against GRDB.
@Suite struct FTS5PatternTests {
    private struct Expectation: Sendable, CustomTestStringConvertible {
        var input: String
        var anyToken: String?
        var allTokens: String?
        var allPrefixes: String?
        var phrase: String?
        var prefixPhrase: String?
        var testDescription: String { input }
    }

    private static let expectations: [Expectation] = [
        Expectation(input: "SQLite database", anyToken: "sqlite OR database", allTokens: "sqlite database",
                    allPrefixes: "sqlite* database*", phrase: #""sqlite database""#, prefixPhrase: #"^"sqlite database""#),
        Expectation(input: ""),
        Expectation(input: "*"),
        Expectation(input: "  "),
        // ASCII letters only are lowercased, as SQLite's simple tokenizer does.
        Expectation(input: "Jérôme DORÉ", anyToken: "jérôme OR dorÉ", allTokens: "jérôme dorÉ",
                    allPrefixes: "jérôme* dorÉ*", phrase: #""jérôme dorÉ""#, prefixPhrase: #"^"jérôme dorÉ""#),
        Expectation(input: "l'avion", anyToken: "l OR avion", allTokens: "l avion",
                    allPrefixes: "l* avion*", phrase: #""l avion""#, prefixPhrase: #"^"l avion""#),
        // Operators and keywords of the query syntax are plain words.
        Expectation(input: "AND", anyToken: "and", allTokens: "and", allPrefixes: "and*", phrase: #""and""#, prefixPhrase: #"^"and""#),
        Expectation(input: "or not", anyToken: "or OR not", allTokens: "or not",
                    allPrefixes: "or* not*", phrase: #""or not""#, prefixPhrase: #"^"or not""#),
        Expectation(input: #""quoted""#, anyToken: "quoted", allTokens: "quoted",
                    allPrefixes: "quoted*", phrase: #""quoted""#, prefixPhrase: #"^"quoted""#),
        Expectation(input: "data*", anyToken: "data", allTokens: "data", allPrefixes: "data*", phrase: #""data""#, prefixPhrase: #"^"data""#),
        Expectation(input: "NEAR(x y)", anyToken: "near OR x OR y", allTokens: "near x y",
                    allPrefixes: "near* x* y*", phrase: #""near x y""#, prefixPhrase: #"^"near x y""#),
        Expectation(input: "^start", anyToken: "start", allTokens: "start", allPrefixes: "start*", phrase: #""start""#, prefixPhrase: #"^"start""#),
        Expectation(input: "a:b", anyToken: "a OR b", allTokens: "a b", allPrefixes: "a* b*", phrase: #""a b""#, prefixPhrase: #"^"a b""#),
        Expectation(input: "x_y 12.5", anyToken: "x OR y OR 12 OR 5", allTokens: "x y 12 5",
                    allPrefixes: "x* y* 12* 5*", phrase: #""x y 12 5""#, prefixPhrase: #"^"x y 12 5""#),
        Expectation(input: "🙂 emoji", anyToken: "🙂 OR emoji", allTokens: "🙂 emoji",
                    allPrefixes: "🙂* emoji*", phrase: #""🙂 emoji""#, prefixPhrase: #"^"🙂 emoji""#),
        Expectation(input: "日本語", anyToken: "日本語", allTokens: "日本語", allPrefixes: "日本語*", phrase: #""日本語""#, prefixPhrase: #"^"日本語""#),
        Expectation(input: "straße", anyToken: "straße", allTokens: "straße", allPrefixes: "straße*", phrase: #""straße""#, prefixPhrase: #"^"straße""#),
    ]

    @Test(arguments: expectations)
    private func patternsBuiltFromAnyString(_ expectation: Expectation) throws {
        #expect(FTS5Pattern(matchingAnyTokenIn: expectation.input)?.rawPattern == expectation.anyToken)
        #expect(FTS5Pattern(matchingAllTokensIn: expectation.input)?.rawPattern == expectation.allTokens)
        #expect(FTS5Pattern(matchingAllPrefixesIn: expectation.input)?.rawPattern == expectation.allPrefixes)
        #expect(FTS5Pattern(matchingPhrase: expectation.input)?.rawPattern == expectation.phrase)
        #expect(FTS5Pattern(matchingPrefixPhrase: expectation.input)?.rawPattern == expectation.prefixPhrase)
        // Each pattern is valid for FTS5.
        for pattern in [expectation.anyToken, expectation.allTokens, expectation.allPrefixes, expectation.phrase, expectation.prefixPhrase] {
            if let pattern { _ = try FTS5Pattern(rawPattern: pattern) }
        }
    }

    @Test func rawPatternsAreCheckedWithoutDatabase() throws {
        #expect(try FTS5Pattern(rawPattern: "sqlite AND database").rawPattern == "sqlite AND database")
        #expect(try FTS5Pattern(rawPattern: "NEAR(a b, 2)").rawPattern == "NEAR(a b, 2)")
        #expect(try FTS5Pattern(rawPattern: "^a").rawPattern == "^a")
        #expect(try FTS5Pattern(rawPattern: "title: sqlite", allowedColumns: ["title"]).rawPattern == "title: sqlite")
        let messages: [(String, [String], String)] = [
            ("AND", [], #"fts5: syntax error near "AND""#),
            ("", [], #"fts5: syntax error near """#),
            ("a OR", [], #"fts5: syntax error near """#),
            ("(a", [], #"fts5: syntax error near """#),
            (#""unterminated"#, [], "unterminated string"),
            ("title: sqlite", [], "no such column: title"),
            ("missing: sqlite", ["title"], "no such column: missing"),
        ]
        for (rawPattern, allowedColumns, message) in messages {
            let error = #expect(throws: DatabaseError.self, "\(rawPattern)") {
                try FTS5Pattern(rawPattern: rawPattern, allowedColumns: allowedColumns)
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == message)
            #expect(error?.sql == nil)
            #expect(error?.description == "SQLite error 1: " + message)
        }
    }

    // The input of the full-text fuzzer's finding: FTS5 refuses it at
    // construction, as a table that holds documents does (the pattern that
    // a table refused was the FTS3 one, see FTS4AndFTS3Tests).
    @Test func aColumnFilterFollowedByNoWordIsRefused() throws {
        let rawPattern = "\"moby dick\" OR title:\u{1D}\0\0\0\0\0\0\0"
        let error = #expect(throws: DatabaseError.self) {
            try FTS5Pattern(rawPattern: rawPattern, allowedColumns: ["title", "body"])
        }
        #expect(error?.message?.hasPrefix("fts5: syntax error near") == true)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE book USING fts5(title, body);
                INSERT INTO book VALUES ('Moby Dick', 'Call me Ishmael');
                """)
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT rowid FROM book WHERE book MATCH ?", arguments: [rawPattern])
            }
        }
    }

    @Test func rawPatternsOfTheGuideAreCheckedAgainstTheColumnsOfATable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("author")
            }
            #expect(try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book").rawPattern == "sqlite")
            #expect(try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "book").rawPattern == "title: sqlite")
            let syntaxError = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "AND", forTable: "book")
            }
            #expect(syntaxError?.message == #"fts5: syntax error near "AND""#)
            let columnError = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book")
            }
            #expect(columnError?.message == "no such column: missing")
            let tableError = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "nosuch")
            }
            #expect(tableError?.message == "no such table: nosuch")
            // Checking a pattern leaves the schema as it is.
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_temp_master").isEmpty)
        }
    }

    @Test func patternsAreDatabaseValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
            try db.execute(sql: "INSERT INTO document VALUES ('SQLite database'), ('Moby Dick')")
            let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: "sqlite"))
            #expect(pattern.databaseValue == "sqlite".databaseValue)
            #expect(try String.fetchAll(db, sql: "SELECT content FROM document WHERE document MATCH ?", arguments: [pattern])
                == ["SQLite database"])
            #expect(try FTS5Pattern.fetchOne(db, sql: "SELECT 'a OR b'")?.rawPattern == "a OR b")
            // An invalid pattern is not a pattern.
            #expect(FTS5Pattern.fromDatabaseValue("AND".databaseValue) == nil)
            #expect(FTS5Pattern.fromDatabaseValue(Data([0xFF]).databaseValue) == nil)
            #expect(String(describing: FTS5Pattern(matchingPhrase: "hello world")!) == #"FTS5Pattern(rawPattern: "\"hello world\"")"#)
        }
    }
}
