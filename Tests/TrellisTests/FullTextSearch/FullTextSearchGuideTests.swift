import Testing
import Trellis

// The samples and the tables of matches of GRDB's "Full-Text Search"
// guide, written as the guide writes them.
@Suite struct FullTextSearchGuideTests {
    private struct Book: Codable, FetchableRecord, PersistableRecord {
        var author: String
        var title: String
        var body: String
    }

    @Test func theIntroductionOfTheGuide() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            // Create full-text tables
            try db.create(virtualTable: "book", using: FTS4()) { t in // or FTS3(), or FTS5()
                t.column("author")
                t.column("title")
                t.column("body")
            }

            // Populate full-text table with records or SQL
            try Book(author: "Herman Melville", title: "Moby-Dick", body: "Call me Ishmael.").insert(db)
            try db.execute(
                sql: "INSERT INTO book (author, title, body) VALUES (?, ?, ?)",
                arguments: ["Jules Verne", "Twenty Thousand Leagues Under the Seas", "The year 1866 was signalised..."])

            // Build search patterns
            let pattern = FTS3Pattern(matchingPhrase: "Moby-Dick")

            // Search with the query interface or SQL
            let books = try Book.matching(pattern).fetchAll(db)
            let booksFromSQL = try Book.fetchAll(db,
                sql: "SELECT * FROM book WHERE book MATCH ?",
                arguments: [pattern])
            #expect(books.map(\.author) == ["Herman Melville"])
            #expect(booksFromSQL.map(\.author) == ["Herman Melville"])
        }
    }

    private struct Match: Sendable, CustomTestStringConvertible {
        var content: String
        var query: String
        var matches: [Bool]
        var testDescription: String { "\(content) / \(query)" }
    }

    /// Whether a table with `tokenizer` finds `content` with `query`.
    private func fts5Matches(_ tokenizer: FTS5TokenizerDescriptor, _ match: Match) throws -> Bool {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = tokenizer
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document VALUES (?)", arguments: [match.content])
            return try Table("document").matching(FTS5Pattern(matchingPhrase: match.query)).fetchCount(db) == 1
        }
    }

    private func fts4Matches(_ tokenizer: FTS3TokenizerDescriptor, _ match: Match) throws -> Bool {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.tokenizer = tokenizer
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document VALUES (?)", arguments: [match.content])
            return try Table("document").matching(FTS3Pattern(matchingPhrase: match.query)).fetchCount(db) == 1
        }
    }

    // | content | query | ascii | unicode61 | porter on ascii | porter on unicode61 |
    @Test(arguments: [
        Match(content: "Foo", query: "Foo", matches: [true, true, true, true]),
        Match(content: "Foo", query: "FOO", matches: [true, true, true, true]),
        Match(content: "Jérôme", query: "Jérôme", matches: [true, true, true, true]),
        Match(content: "Jérôme", query: "JÉRÔME", matches: [false, true, false, true]),
        Match(content: "Jérôme", query: "Jerome", matches: [false, true, false, true]),
        Match(content: "Database", query: "Databases", matches: [false, false, true, true]),
        Match(content: "Frustration", query: "Frustrated", matches: [false, false, true, true]),
    ])
    private func fts5Tokenizers(_ match: Match) throws {
        let tokenizers: [FTS5TokenizerDescriptor] = [.ascii(), .unicode61(), .porter(wrapping: .ascii()), .porter()]
        #expect(try tokenizers.map { try fts5Matches($0, match) } == match.matches)
    }

    // | content | query | simple | porter | unicode61 |
    @Test(arguments: [
        Match(content: "Foo", query: "Foo", matches: [true, true, true]),
        Match(content: "Foo", query: "FOO", matches: [true, true, true]),
        Match(content: "Jérôme", query: "Jérôme", matches: [true, true, true]),
        Match(content: "Jérôme", query: "JÉRÔME", matches: [false, false, true]),
        Match(content: "Jérôme", query: "Jerome", matches: [false, false, true]),
        Match(content: "Database", query: "Databases", matches: [false, true, false]),
        Match(content: "Frustration", query: "Frustrated", matches: [false, true, false]),
    ])
    private func fts4Tokenizers(_ match: Match) throws {
        let tokenizers: [FTS3TokenizerDescriptor] = [.simple, .porter, .unicode61()]
        #expect(try tokenizers.map { try fts4Matches($0, match) } == match.matches)
    }

    @Test func diacriticsCanBeKept() throws {
        let match = Match(content: "Jérôme", query: "Jerome", matches: [])
        #expect(try !fts5Matches(.unicode61(diacritics: .keep), match))
        #expect(try !fts5Matches(.porter(.unicode61(diacritics: .keep)), match))
        #expect(try fts5Matches(.unicode61(diacritics: .remove), match))
        #expect(try !fts4Matches(.unicode61(diacritics: .keep), match))
    }

    @Test func searchPatternsOfTheGuide() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
            for content in ["SQLite database", "SQLite", "database", "SQLite is a database", "datatype"] {
                try db.execute(sql: "INSERT INTO document VALUES (?)", arguments: [content])
            }
            func contents(_ pattern: FTS5Pattern?) throws -> [String] {
                try String.fetchAll(db, Table("document").select(Column("content")).matching(pattern).order(Column.rowID))
            }
            let query = "SQLite database"
            #expect(try contents(FTS5Pattern(matchingAnyTokenIn: query))
                == ["SQLite database", "SQLite", "database", "SQLite is a database"])
            #expect(try contents(FTS5Pattern(matchingAllTokensIn: query)) == ["SQLite database", "SQLite is a database"])
            #expect(try contents(FTS5Pattern(matchingAllPrefixesIn: "sql dat"))
                == ["SQLite database", "SQLite is a database"])
            #expect(try contents(FTS5Pattern(matchingPhrase: query)) == ["SQLite database"])
            #expect(try contents(FTS5Pattern(matchingPrefixPhrase: "database")) == ["database"])
            #expect(try contents(db.makeFTS5Pattern(rawPattern: "data*", forTable: "document"))
                == ["SQLite database", "database", "SQLite is a database", "datatype"])
            #expect(try contents(db.makeFTS5Pattern(rawPattern: "SQLite OR database", forTable: "document"))
                == ["SQLite database", "SQLite", "database", "SQLite is a database"])
            #expect(try contents(FTS5Pattern(matchingAnyTokenIn: "")).isEmpty)
        }
    }
}
