import Foundation
import Testing
import Trellis
import TrellisCLICore

@Suite struct InspectTests {
    private func makeDatabase(_ sql: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString).sqlite").path
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: sql) }
        try dbQueue.close()
        return path
    }

    private let librarySQL = """
        CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, managerId INTEGER REFERENCES person(id));
        CREATE TABLE book (
          id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT 'untitled',
          authorId INTEGER NOT NULL REFERENCES person(id),
          translatorId INTEGER REFERENCES person(id));
        CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT);
        CREATE TABLE bookTag (bookId INTEGER NOT NULL REFERENCES book(id), tagId INTEGER NOT NULL REFERENCES tag(id), PRIMARY KEY (bookId, tagId));
        CREATE TABLE cover (bookId INTEGER NOT NULL UNIQUE REFERENCES book(id), color TEXT);
        CREATE TABLE log (message TEXT);
        CREATE INDEX book_title ON book(title);
        """

    @Test func theReportListsTablesKeysAndIndexes() throws {
        let path = try makeDatabase(librarySQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try SchemaInspector.inspect(path: path)
        #expect(report.tables.map(\.name) == ["book", "bookTag", "cover", "log", "person", "tag"])
        let book = try #require(report.tables.first { $0.name == "book" })
        #expect(book.columns.map(\.name) == ["id", "title", "authorId", "translatorId"])
        #expect(book.columns[1].defaultValue == "'untitled'")
        #expect(book.columns[1].notNull)
        #expect(book.primaryKey == ["id"])
        #expect(Set(book.foreignKeys.map(\.columns)) == [["authorId"], ["translatorId"]])
        #expect(book.indexes.map(\.name) == ["book_title"])
        let log = try #require(report.tables.first { $0.name == "log" })
        #expect(!log.hasExplicitPrimaryKey)
        #expect(log.primaryKey == ["rowid"])
    }

    @Test func theReportInfersAssociations() throws {
        let path = try makeDatabase(librarySQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try SchemaInspector.inspect(path: path)
        func has(_ kind: String, _ table: String, _ destination: String) -> Bool {
            report.associations.contains { $0.kind == kind && $0.table == table && $0.destination == destination }
        }
        #expect(has("belongsTo", "person", "person"))              // a self-reference
        #expect(has("hasMany", "person", "person"))
        #expect(has("hasOne", "book", "cover"))                    // unique foreign key
        #expect(has("hasManyThrough", "book", "tag"))              // the join table
        #expect(has("hasManyThrough", "tag", "book"))
        let bookToPerson = report.associations.filter { $0.table == "book" && $0.destination == "person" }
        #expect(!bookToPerson.isEmpty && bookToPerson.allSatisfy { $0.needsExplicitForeignKey })
        #expect(report.ambiguities.count == 1)
        #expect(report.ambiguities[0].from == "book" && report.ambiguities[0].to == "person")
        #expect(Set(report.ambiguities[0].foreignKeys) == [["authorId"], ["translatorId"]])
        #expect(report.ambiguities[0].advice.contains("ForeignKey([\"authorId\"])"))
    }

    @Test func theJSONOutputHasStableFields() throws {
        let path = try makeDatabase(librarySQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let json = try ReportRenderer.json(try SchemaInspector.inspect(path: path))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["path", "tables", "views", "associations", "ambiguities", "warnings"])
        let tables = try #require(object["tables"] as? [[String: Any]])
        let cover = try #require(tables.first { $0["name"] as? String == "cover" })
        #expect(cover["hasExplicitPrimaryKey"] as? Bool == false)
        let foreignKeys = try #require(cover["foreignKeys"] as? [[String: Any]])
        #expect(foreignKeys.first?["destinationTable"] as? String == "book")
        #expect(foreignKeys.first?["columns"] as? [String] == ["bookId"])
        #expect(foreignKeys.first?["destinationColumns"] as? [String] == ["id"])
        let associations = try #require(object["associations"] as? [[String: Any]])
        let through = try #require(associations.first { $0["kind"] as? String == "hasManyThrough" })
        #expect(through["through"] as? String == "bookTag")
        #expect(through["declaration"] as? String != nil)
        // And the text form names the same things.
        let text = ReportRenderer.text(try SchemaInspector.inspect(path: path))
        #expect(text.contains("Table book"))
        #expect(text.contains("Needs an explicit ForeignKey"))
    }

    @Test func theReportListsTableOptionsForeignKeyActionsAndTriggers() throws {
        let path = try makeDatabase("""
            CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
            CREATE TABLE setting (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID;
            CREATE TABLE entry (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              accountId INTEGER REFERENCES account(id) ON DELETE CASCADE ON UPDATE SET NULL,
              autoincrementNote TEXT);
            CREATE TABLE note (id INTEGER PRIMARY KEY, accountId INTEGER REFERENCES account(id), "text" TEXT);
            CREATE VIEW accountName AS SELECT name FROM account;
            CREATE TRIGGER account_created AFTER INSERT ON account BEGIN INSERT INTO entry (accountId) VALUES (new.id); END;
            CREATE TRIGGER accountName_insert INSTEAD OF INSERT ON accountName BEGIN INSERT INTO account (name) VALUES (new.name); END;
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try SchemaInspector.inspect(path: path)
        let options = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.name, $0.options) })
        #expect(options == ["account": ["STRICT"], "setting": ["WITHOUT ROWID"], "entry": ["AUTOINCREMENT"], "note": []])
        let entry = try #require(report.tables.first { $0.name == "entry" })
        #expect(entry.foreignKeys.map(\.onDelete) == ["CASCADE"])
        #expect(entry.foreignKeys.map(\.onUpdate) == ["SET NULL"])
        let note = try #require(report.tables.first { $0.name == "note" })
        #expect(note.foreignKeys.map(\.onDelete) == [nil])
        let account = try #require(report.tables.first { $0.name == "account" })
        #expect(account.triggers.map(\.name) == ["account_created"])
        #expect(account.triggers.first?.header == "CREATE TRIGGER account_created AFTER INSERT ON account")
        #expect(report.views.first?.triggers.map(\.name) == ["accountName_insert"])
        let text = ReportRenderer.text(report)
        #expect(text.contains("Table account (STRICT)"))
        #expect(text.contains("Table setting (WITHOUT ROWID)"))
        #expect(text.contains("Foreign key: (accountId) -> account(id) ON DELETE CASCADE ON UPDATE SET NULL"))
        #expect(text.contains("Trigger account_created: CREATE TRIGGER account_created AFTER INSERT ON account"))
        #expect(text.contains("Trigger accountName_insert: CREATE TRIGGER accountName_insert INSTEAD OF INSERT ON accountName"))
    }

    @Test func inspectingNeverChangesTheFile() throws {
        let path = try makeDatabase(librarySQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        _ = try SchemaInspector.inspect(path: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func errorsAreOneClearLine() throws {
        let missing = "/tmp/missing-\(UUID().uuidString).sqlite"
        let missingError = #expect(throws: CommandError.self) { try SchemaInspector.inspect(path: missing) }
        #expect(missingError?.description == "no such file: \(missing)")
        #expect(!FileManager.default.fileExists(atPath: missing))

        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID().uuidString).txt").path
        try Data(String(repeating: "hello, this is not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        defer { try? FileManager.default.removeItem(atPath: text) }
        let notADatabase = #expect(throws: CommandError.self) { try SchemaInspector.inspect(path: text) }
        #expect(notADatabase?.description == "\(text) is not a SQLite database")

        let folderError = #expect(throws: CommandError.self) { try SchemaInspector.inspect(path: NSTemporaryDirectory()) }
        #expect(folderError?.description.contains("folder") == true)

        // A named pipe would wait for a writer forever.
        let pipe = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(UUID().uuidString)").path
        #expect(mkfifo(pipe, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: pipe) }
        let pipeError = #expect(throws: CommandError.self) { try SchemaInspector.inspect(path: pipe) }
        #expect(pipeError?.description == "\(pipe) is not a regular file")
    }
}

@Suite struct DemoTests {
    @Test func theDemoCreatesTheFileAndPrintsEachScenario() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/trellis-demo.sqlite"
        var lines: [String] = []
        try Demo.run(path: path) { lines.append($0) }
        try Demo.run(path: path) { _ in }  // recreates the file
        let output = lines.joined(separator: "\n")
        #expect(output.contains("Iceland  -"))
        #expect(output.contains("Les Misérables  Victor Hugo  Isabel Hapgood"))
        #expect(output.contains("Ambiguous foreign key from book to person"))
        #expect(output.contains("after   flag = false"))
        #expect(output.contains("Amanda  Bob"))
        #expect(output.contains("sqlite3 "))
        let dbQueue = try DatabaseQueue(path: path)
        let counts = try dbQueue.read { db in
            try ["country", "book", "appConfiguration", "CustomerOrder"].map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? 0 }
        }
        #expect(counts == [3, 3, 1, 3])
        let report = try SchemaInspector.inspect(path: path)
        #expect(report.ambiguities.map(\.from) == ["book"])
    }

    @Test func theDemoLeavesFoldersAndOtherDatabasesAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("precious".utf8).write(to: URL(fileURLWithPath: folder + "/sub/file.txt"))

        let folderError = #expect(throws: CommandError.self) { try Demo.run(path: folder + "/sub") { _ in } }
        #expect(folderError?.description == "\(folder)/sub is a folder, not a database file")
        #expect(FileManager.default.fileExists(atPath: folder + "/sub/file.txt"))

        let appPath = folder + "/app.sqlite"
        try DatabaseQueue(path: appPath).write { db in
            try db.execute(sql: "CREATE TABLE album(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO album VALUES (1, 'Highway to Hell')")
        }
        let databaseError = #expect(throws: CommandError.self) { try Demo.run(path: appPath) { _ in } }
        #expect(databaseError?.description
            == "\(appPath) exists and is not a Trellis demo database: give another path, or remove the file first")
        #expect(try DatabaseQueue(path: appPath).read { db in try String.fetchOne(db, sql: "SELECT title FROM album") } == "Highway to Hell")

        let textPath = folder + "/notes.txt"
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: textPath))
        #expect(throws: CommandError.self) { try Demo.run(path: textPath) { _ in } }
        #expect(try String(contentsOfFile: textPath, encoding: .utf8) == "not a database")

        let memoryError = #expect(throws: CommandError.self) { try Demo.run(path: ":memory:") { _ in } }
        #expect(memoryError?.description == "give the path of a database file to create")
    }
}

@Suite struct InspectUnusualSchemasTests {
    @Test func unusualSchemasAreReportedWithoutFailing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odd-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: #"""
                CREATE TABLE "weird ""name""" ("select" TEXT, "from" INTEGER PRIMARY KEY);
                CREATE TABLE orphan (id INTEGER PRIMARY KEY, ghostId INTEGER REFERENCES ghost);
                CREATE TABLE pair (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
                CREATE VIEW v AS SELECT * FROM pair;
                """#)
        }
        try dbQueue.close()
        let report = try SchemaInspector.inspect(path: path)
        #expect(report.tables.map(\.name).sorted() == ["orphan", "pair", "weird \"name\""])
        let weird = try #require(report.tables.first { $0.name == "weird \"name\"" })
        #expect(weird.columns.map(\.name) == ["select", "from"])
        #expect(weird.primaryKey == ["from"])
        let orphan = try #require(report.tables.first { $0.name == "orphan" })
        #expect(orphan.foreignKeys.first?.destinationTable == "ghost")
        #expect(report.tables.first { $0.name == "pair" }?.primaryKey == ["a", "b"])
        #expect(ReportRenderer.text(report).contains("Table pair"))
        // A foreign key to a missing table is a warning, not an association.
        #expect(!report.associations.contains { $0.destination == "ghost" || $0.table == "ghost" })
        #expect(report.warnings == ["Foreign key (ghostId) of orphan references ghost, which is not a table of this database: no association"])
        #expect(ReportRenderer.text(report).contains("Warnings"))
    }

    @Test func suggestedDeclarationsAreSwiftWhateverTheTableNames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: #"""
                CREATE TABLE "order line" (id INTEGER PRIMARY KEY);
                CREATE TABLE "default" (id INTEGER PRIMARY KEY, lineId INTEGER REFERENCES "order line"(id));
                CREATE TABLE node (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES node(id), nextId INTEGER REFERENCES node(id));
                CREATE TABLE child (id INTEGER PRIMARY KEY, nodeId INTEGER REFERENCES node(id));
                CREATE TABLE setting (id INTEGER PRIMARY KEY, defaultId INTEGER REFERENCES "default"(id));
                """#)
        }
        try dbQueue.close()
        let report = try SchemaInspector.inspect(path: path)
        let declarations = Set(report.associations.map(\.declaration))
        // The default key is the table name, "order line": the member
        // name is given as key, for a Decodable property of that name.
        #expect(declarations.contains("static let orderLine = belongsTo(OrderLine.self, key: \"orderLine\")"))
        #expect(declarations.contains("static let `default` = belongsTo(Default.self)"))
        #expect(declarations.contains("static let defaults = hasMany(Default.self)"))
        // The keys the library infers: `child` → `children`.
        #expect(declarations.contains("static let children = hasMany(Child.self)"))
        // Several keys to one table: each association has a key of its own.
        #expect(declarations.contains("static let parent = belongsTo(Node.self, key: \"parent\", using: ForeignKey([\"parentId\"]))"))
        #expect(declarations.contains("static let nextNodes = hasMany(Node.self, key: \"nextNodes\", using: ForeignKey([\"nextId\"]))"))
    }

    @Test func shadowTablesOfVirtualTablesAreNotListed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fts-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        let hasFTS5 = try dbQueue.write { db -> Bool in
            do {
                try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts5(title, body)")
                return true
            } catch {
                return false  // SQLite built without FTS5
            }
        }
        try dbQueue.close()
        try #require(hasFTS5)
        let report = try SchemaInspector.inspect(path: path)
        #expect(report.tables.map(\.name) == ["docs"])
        #expect(report.tables[0].columns.map(\.name) == ["title", "body"])
        #expect(report.tables[0].virtualTableModule == "fts5")
        #expect(ReportRenderer.text(report).contains("Table docs (virtual table, fts5)"))
    }

    @Test func viewsAndTheIndexesOfRealSchemasAreReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("views-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: """
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE album (
              id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INT,
              artistId INTEGER REFERENCES artist(id), producerId INTEGER REFERENCES artist(id));
            CREATE UNIQUE INDEX album_title ON album(lower(title));
            CREATE INDEX album_recent ON album(year DESC) WHERE year > 2000;
            CREATE VIEW albumCredit AS SELECT album.title, artist.name FROM album JOIN artist ON artist.id = album.artistId;
            CREATE TABLE gone (id INTEGER PRIMARY KEY);
            CREATE VIEW broken AS SELECT id FROM gone;
            DROP TABLE gone;
            """) }
        try dbQueue.close()
        let report = try SchemaInspector.inspect(path: path)
        let album = try #require(report.tables.first { $0.name == "album" })
        // Foreign keys in the order of the CREATE TABLE statement.
        #expect(album.foreignKeys.map(\.columns) == [["artistId"], ["producerId"]])
        let expressionIndex = try #require(album.indexes.first { $0.name == "album_title" })
        #expect(expressionIndex.columns.isEmpty)
        #expect(expressionIndex.unique)
        #expect(expressionIndex.definition == "CREATE UNIQUE INDEX album_title ON album(lower(title))")
        let partialIndex = try #require(album.indexes.first { $0.name == "album_recent" })
        #expect(partialIndex.columns == ["year"])
        #expect(partialIndex.partial)
        #expect(report.views.map(\.name) == ["albumCredit", "broken"])
        #expect(report.views[0].columns.map(\.name) == ["title", "name"])
        #expect(report.views[1].error?.contains("gone") == true)
        let text = ReportRenderer.text(report)
        #expect(text.contains("Index album_title: on expressions: CREATE UNIQUE INDEX album_title ON album(lower(title)) unique"))
        #expect(text.contains("Index album_recent: (year) partial"))
        #expect(text.contains("View albumCredit"))
        #expect(text.contains("View broken\nCould not be read: "))
    }
}
