import Testing
import Trellis

// The SQL of each creation is the one GRDB 7.10 runs for the same code,
// as recorded from a program built against GRDB.
@Suite struct FTS5TableDefinitionTests {
    private func createSQL(_ body: (Database) throws -> Void) throws -> [String] {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db in try recordedStatements(db) { try body(db) } }
    }

    @Test func columnsAndTokenizerOfTheGuide() throws {
        #expect(try createSQL { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.column("content")
            }
        } == [#"CREATE VIRTUAL TABLE "document" USING fts5(content)"#])

        #expect(try createSQL { db in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.tokenizer = .porter()
                t.column("author")
                t.column("title")
                t.column("body")
            }
        } == [#"CREATE VIRTUAL TABLE "book" USING fts5(author, title, body, tokenize='''porter''')"#])

        #expect(try createSQL { db in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("author").notIndexed()
                t.tokenizer = .porter(wrapping: .unicode61())
            }
        } == [#"CREATE VIRTUAL TABLE "book" USING fts5(title, author UNINDEXED, tokenize='''porter'' ''unicode61''')"#])
    }

    @Test func optionsOfTheGuide() throws {
        #expect(try createSQL { db in
            try db.create(table: "table") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("content", .text)
                t.column("uuid", .text)
            }
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.column("content")
                t.column("uuid").notIndexed()
                t.content = "table"
                t.contentRowID = "id"
                t.prefixes = [2, 4]
                t.columnSize = 0
                t.detail = "column"
            }
        }.last == #"CREATE VIRTUAL TABLE "document" USING fts5(content, uuid UNINDEXED, content='table', content_rowid='id', prefix='2 4', columnSize=0, detail=column)"#)
    }

    @Test func optionsComeInGRDBOrderWhateverTheOrderOfTheBody() throws {
        #expect(try createSQL { db in
            try db.create(virtualTable: "d5", using: FTS5()) { t in
                t.detail = "full"
                t.columnSize = 1
                t.prefixes = [4, 2, 3]
                t.contentRowID = "id"
                t.content = "src"
                t.tokenizer = .ascii()
                t.column("a")
                t.column("b").notIndexed()
            }
        } == [#"CREATE VIRTUAL TABLE "d5" USING fts5(a, b UNINDEXED, tokenize='''ascii''', content='src', content_rowid='id', prefix='2 3 4', columnSize=1, detail=full)"#])
    }

    @Test func tokenizersAreWrittenAsGRDBWritesThem() throws {
        let expectations: [(FTS5TokenizerDescriptor, String)] = [
            (.unicode61(), #"'''unicode61'''"#),
            (.unicode61(diacritics: .keep), #"'''unicode61'' ''remove_diacritics'' ''0'''"#),
            (.unicode61(diacritics: .remove), #"'''unicode61'' ''remove_diacritics'' ''2'''"#),
            (.unicode61(separators: ["X", "'"], tokenCharacters: ["-"]),
             #"'''unicode61'' ''separators'' ''''''X'' ''tokenchars'' ''-'''"#),
            (.unicode61(categories: "L* N* Co"), #"'''unicode61'' ''categories'' ''L* N* Co'''"#),
            (.ascii(), #"'''ascii'''"#),
            (.ascii(separators: ["X"], tokenCharacters: [".", "-"]), #"'''ascii'' ''separators'' ''X'' ''tokenchars'' ''-.'''"#),
            (.porter(wrapping: .ascii()), #"'''porter'' ''ascii'''"#),
            (.porter(.unicode61(diacritics: .keep)), #"'''porter'' ''unicode61'' ''remove_diacritics'' ''0'''"#),
            (FTS5TokenizerDescriptor(components: ["trigram", "case_sensitive", "1"]), #"'''trigram'' ''case_sensitive'' ''1'''"#),
        ]
        for (tokenizer, argument) in expectations {
            #expect(try createSQL { db in
                try db.create(virtualTable: "d", using: FTS5()) { t in
                    t.tokenizer = tokenizer
                    t.column("c")
                }
            } == [#"CREATE VIRTUAL TABLE "d" USING fts5(c, tokenize="# + argument + ")"])
        }
    }

    @Test func tokenizerComponentsFollowGRDB() {
        #expect(FTS5TokenizerDescriptor.porter().components == ["porter"])
        #expect(FTS5TokenizerDescriptor.porter(wrapping: .ascii()).components == ["porter", "ascii"])
        #expect(FTS5TokenizerDescriptor.unicode61(diacritics: .removeLegacy).components == ["unicode61"])
        let unicode61 = FTS5TokenizerDescriptor.unicode61(
            diacritics: .keep, categories: "L*", separators: ["z", "a", "m", "é"], tokenCharacters: ["9", "1", "-"])
        #expect(unicode61.components == [
            "unicode61", "remove_diacritics", "0", "categories", "L*", "separators", "amzé", "tokenchars", "-19",
        ])
    }

    @Test func ifNotExistsAndTemporaryOptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let statements = try recordedStatements(db) { () throws in
                try db.create(virtualTable: "d", using: FTS5()) { t in t.column("c") }
                try db.create(virtualTable: "d", ifNotExists: true, using: FTS5()) { t in t.column("c") }
                try db.create(virtualTable: "e", options: [.ifNotExists], using: FTS5()) { t in t.column("c") }
                try db.create(virtualTable: "t", options: [.temporary, .ifNotExists], using: FTS5()) { t in t.column("c") }
            }
            #expect(statements == [
                #"CREATE VIRTUAL TABLE "d" USING fts5(c)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "d" USING fts5(c)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "e" USING fts5(c)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS temp."t" USING fts5(c)"#,
            ])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_temp_master WHERE name = 't'") == ["t"])
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "d", using: FTS5()) { t in t.column("c") }
            }
            #expect(error?.message == #"table "d" already exists"#)
        }
    }

    @Test func aTableWithoutColumnsIsAnErrorNotACrash() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            // GRDB stops the process with this message.
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "document", using: FTS5()) { _ in }
            }
            #expect(error?.message == "FTS5 virtual table requires at least one column.")
            #expect(try !db.tableExists("document"))
        }
    }

    @Test func namesThatAreNotPlainIdentifiersAreQuoted() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            // GRDB writes `fts5(select, first name UNINDEXED)`, which SQLite
            // rejects, and a bare `detail=no such detail`.
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "my book", using: FTS5()) { t in
                    t.column("select")
                    t.column("first name").notIndexed()
                    t.detail = "no such detail"
                }
            }
            #expect(error?.message == "malformed detail=... directive")
            #expect(error?.sql == #"CREATE VIRTUAL TABLE "my book" USING fts5(select, "first name" UNINDEXED, detail='no such detail')"#)

            try db.create(virtualTable: "my book", using: FTS5()) { t in
                t.column("select")
                t.column("first name").notIndexed()
            }
            #expect(try db.columns(in: "my book").map(\.name) == ["select", "first name"])
            try db.execute(sql: #"INSERT INTO "my book" VALUES ('moby dick', 'herman')"#)
            let pattern = FTS5Pattern(matchingAnyTokenIn: "Moby")
            #expect(try Row.fetchAll(db, Table("my book").matching(pattern)) == [["select": "moby dick", "first name": "herman"]])
        }
    }

    @Test func aFailedCreationLeavesNoTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book", using: FTS5()) { t in t.column("rank") }
            }
            #expect(error?.message == "reserved fts5 column name: rank")
            #expect(try !db.tableExists("book"))
        }
    }

    @Test func schemaIntrospectionSeesTheColumnsOfFullTextTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("authorId").notIndexed()
            }
            #expect(try db.tableExists("book"))
            // The hidden columns (`book`, `rank`) are not listed, as in GRDB.
            #expect(try db.columns(in: "book").map(\.name) == ["title", "authorId"])
            #expect(try db.primaryKey("book").columns == ["rowid"])
            #expect(try db.foreignKeys(on: "book").isEmpty)
            // FTS5 stores its index in shadow tables.
            #expect(try db.tableExists("book_data"))
            #expect(try db.columns(in: "book_content").map(\.name) == ["id", "c0", "c1"])

            try db.drop(table: "book")
            #expect(try !db.tableExists("book"))
            #expect(try !db.tableExists("book_data"))
            #expect(throws: DatabaseError.self) { try db.columns(in: "book") }
        }
    }

    @Test func aModuleWrittenInSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in t.column("content") }
            let statements = try recordedStatements(db) { () throws in
                try db.create(virtualTable: "vocabulary", using: "fts4aux(document)")
                try db.create(virtualTable: "vocabulary", options: .ifNotExists, using: "fts4aux(document)")
                try db.create(virtualTable: "vocabulary2", ifNotExists: true, using: "fts4aux(document)")
            }
            #expect(statements == [
                #"CREATE VIRTUAL TABLE "vocabulary" USING fts4aux(document)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "vocabulary" USING fts4aux(document)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "vocabulary2" USING fts4aux(document)"#,
            ])
            try db.execute(sql: "INSERT INTO document VALUES ('sqlite database sqlite')")
        }
        // FTS4 indexes the text of a transaction when it commits.
        try dbQueue.read { (db: Database) throws in
            #expect(try Row.fetchAll(db, sql: "SELECT term, occurrences FROM vocabulary WHERE col = '*' ORDER BY term")
                == [["term": "database", "occurrences": 1], ["term": "sqlite", "occurrences": 2]])
        }
    }

    @Test func aCustomModule() throws {
        final class VocabularyDefinition { var source = "" }
        struct Vocabulary: VirtualTableModule {
            let moduleName = "fts4aux"
            func makeTableDefinition(configuration: VirtualTableConfiguration) -> VocabularyDefinition {
                VocabularyDefinition()
            }
            func moduleArguments(for definition: VocabularyDefinition, in db: Database) throws -> [String] {
                [definition.source]
            }
            func database(_ db: Database, didCreate tableName: String, using definition: VocabularyDefinition) throws {
                if definition.source == "document" { throw DatabaseError(message: "refused") }
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS4()) { t in t.column("content") }
            try db.create(virtualTable: "other", using: FTS4()) { t in t.column("content") }
            let statements = try recordedStatements(db) { () throws in
                try db.create(virtualTable: "vocabulary", options: .temporary, using: Vocabulary()) { t in t.source = "other" }
            }
            #expect(statements == [#"CREATE VIRTUAL TABLE temp."vocabulary" USING fts4aux(other)"#])
            // An error thrown after the creation undoes it.
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "refused", using: Vocabulary()) { t in t.source = "document" }
            }
            #expect(try !db.tableExists("refused"))
        }
    }
}
