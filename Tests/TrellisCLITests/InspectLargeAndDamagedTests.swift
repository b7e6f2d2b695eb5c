import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on the databases of the seventh real-database hunt:
/// schemas of thousands of tables, files an interrupted transaction left
/// behind, damaged schemas, and schemas SQLite accepts but can not use.
@Suite struct InspectLargeAndDamagedTests {
    /// A folder of its own for each test: some tests leave journals beside
    /// their database.
    private func makeFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-hunt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private func makeDatabase(_ sql: String, in folder: String, fileName: String = "db.sqlite") throws -> String {
        let path = folder + "/" + fileName
        try InspectedDatabase.write(sql, at: path)
        return path
    }

    @Test func eachTableOfALargeSchemaGetsItsOwnKeysIndexesAndTriggers() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each table refers to the next one, which is read after it, by
        // its primary key without naming its columns; triggers name their
        // table in another case.
        let count = 300
        var sql = ""
        for number in 0..<count {
            let next = (number + 1) % count
            sql += """
                CREATE TABLE t\(number) (code TEXT, part INT, nextCode TEXT, nextPart INT, note TEXT,
                  PRIMARY KEY (code, part), FOREIGN KEY (nextCode, nextPart) REFERENCES T\(next));
                CREATE INDEX t\(number)_note ON t\(number)(lower(note));
                CREATE TRIGGER t\(number)_insert AFTER INSERT ON T\(number) BEGIN SELECT \(number); END;

                """
        }
        let report = try SchemaInspector.inspect(path: try makeDatabase(sql, in: folder))
        #expect(report.tables.count == count)
        for table in report.tables {
            let number = Int(table.name.dropFirst()) ?? -1
            #expect(table.primaryKey == ["code", "part"])
            #expect(table.foreignKeys.map(\.destinationTable) == ["T\((number + 1) % count)"])
            #expect(table.foreignKeys.map(\.destinationColumns) == [["code", "part"]])
            #expect(table.indexes.compactMap(\.definition) == ["CREATE INDEX \(table.name)_note ON \(table.name)(lower(note))"])
            #expect(table.triggers.map(\.name) == ["\(table.name)_insert"])
        }
        #expect(report.associations.filter { $0.kind == "belongsTo" }.count == count)
        #expect(report.warnings.isEmpty)
    }

    /// A copy of a database and its journal taken in the middle of a
    /// transaction: the state an application that crashed then leaves.
    private func makeDatabaseWithHotJournal(in folder: String, fileName: String) throws -> String {
        let original = try makeDatabase("CREATE TABLE t(x); INSERT INTO t VALUES (1)", in: folder, fileName: "original-" + fileName)
        let copy = folder + "/" + fileName
        let dbQueue = try DatabaseQueue(path: original)
        try dbQueue.inDatabase { db in
            // A cache of one page spills the changes to the file, after
            // the journal has saved the original pages.
            try db.execute(sql: """
                PRAGMA cache_size = 1;
                BEGIN;
                CREATE TABLE junk(x);
                UPDATE t SET x = 2;
                INSERT INTO t SELECT randomblob(5000) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) SELECT i FROM n);
                """)
            try FileManager.default.copyItem(atPath: original, toPath: copy)
            try FileManager.default.copyItem(atPath: original + "-journal", toPath: copy + "-journal")
            try db.execute(sql: "ROLLBACK")
        }
        try dbQueue.close()
        return copy
    }

    @Test func aHotJournalIsReportedWithTheWayToRecoverIt() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for fileName in ["app.sqlite", "my app.sqlite"] {
            let path = try makeDatabaseWithHotJournal(in: folder, fileName: fileName)
            let error = #expect(throws: CommandError.self) { try SchemaInspector.inspect(path: path) }
            let command = fileName.contains(" ") ? "sqlite3 '\(path)' 'PRAGMA schema_version'" : "sqlite3 \(path) 'PRAGMA schema_version'"
            #expect(error?.description == "\(path) has an interrupted transaction (hot journal \(path)-journal): "
                + "open it read-write once to recover it (for example: \(command))")
            // The inspector never writes: the journal is still there.
            #expect(FileManager.default.fileExists(atPath: path + "-journal"))

            // Once recovered, the file is read, without the table of the
            // interrupted transaction.
            try DatabaseQueue(path: path).read { db in _ = try db.schemaVersion() }
            #expect(try SchemaInspector.inspect(path: path).tables.map(\.name) == ["t"])
        }
    }

    @Test func aDamagedSchemaIsReportedWithSQLiteMessage() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try makeDatabase("""
            CREATE TABLE t(x);
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_master VALUES('view', 'broken', 'broken', 0, 'CREATE VIEW broken AS SELECT FROM WHERE');
            PRAGMA writable_schema = OFF;
            """, in: folder)
        let error = #expect(throws: CommandError.self) { try SchemaInspector.inspect(path: path) }
        #expect(error?.description == "\(path) is corrupt: malformed database schema (broken) - near \"FROM\": syntax error")
    }

    @Test func generatedColumnsAreMarkedVirtualOrStored() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try SchemaInspector.inspect(path: try makeDatabase("""
            CREATE TABLE measure (
              id INTEGER PRIMARY KEY, value REAL NOT NULL,
              double REAL GENERATED ALWAYS AS (value * 2) VIRTUAL,
              half REAL AS (value / 2) STORED,
              note TEXT DEFAULT 'none');
            CREATE TABLE plain (id INTEGER PRIMARY KEY, name TEXT);
            """, in: folder))
        let measure = try #require(report.tables.first { $0.name == "measure" })
        #expect(measure.columns.map(\.name) == ["id", "value", "double", "half", "note"])
        #expect(measure.columns.map(\.generated) == [nil, nil, "virtual", "stored", nil])
        let lines = ReportRenderer.text(report).split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("column") && $0.hasSuffix("generated") })
        #expect(header.split(separator: " ", omittingEmptySubsequences: true)
            == ["column", "type", "not", "null", "default", "primary", "key", "generated"])
        #expect(lines.contains { $0.hasPrefix("double ") && $0.hasSuffix("  virtual") })
        #expect(lines.contains { $0.hasPrefix("half ") && $0.hasSuffix("  stored") })
        // A table without generated columns has no such column.
        #expect(lines.filter { $0.hasPrefix("column") }.count == 2)
        #expect(lines.filter { $0.hasPrefix("column") && $0.hasSuffix("generated") }.count == 1)
        let json = try ReportRenderer.json(report)
        #expect(json.contains("\"generated\" : \"virtual\""))
        #expect(json.contains("\"generated\" : \"stored\""))
    }

    @Test func foreignKeyMismatchesAreWarningsWithoutAssociations() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each foreign key of `mismatch` makes SQLite fail with "foreign
        // key mismatch" as soon as foreign keys are enforced.
        let report = try SchemaInspector.inspect(path: try makeDatabase("""
            CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT, email TEXT, deleted INT);
            CREATE UNIQUE INDEX user_name ON user(name);
            CREATE UNIQUE INDEX user_email ON user(email) WHERE deleted = 0;
            CREATE TABLE log(message TEXT);
            CREATE VIEW activeUser AS SELECT * FROM user WHERE deleted = 0;
            CREATE TABLE mismatch(
              id INTEGER PRIMARY KEY, a INT, b INT, email TEXT, logId INT, userRowID INT, activeId INT,
              FOREIGN KEY(a, b) REFERENCES user,
              FOREIGN KEY(email) REFERENCES user(email),
              FOREIGN KEY(logId) REFERENCES log,
              FOREIGN KEY(userRowID) REFERENCES user(rowid),
              FOREIGN KEY(activeId) REFERENCES activeUser);
            CREATE TABLE post(id INTEGER PRIMARY KEY, authorName TEXT REFERENCES user(name));
            """, in: folder))
        let mismatch = try #require(report.tables.first { $0.name == "mismatch" })
        #expect(mismatch.foreignKeys.map(\.destinationColumns) == [[], ["email"], [], ["rowid"], []])
        #expect(mismatch.foreignKeys.map(\.mismatch) == [
            "the primary key of user has 1 column",
            "(email) is neither the primary key of user nor unique",
            "log has no primary key",
            "(rowid) is neither the primary key of user nor unique",
            nil,
        ])
        #expect(report.warnings == [
            "Foreign key mismatch: (a, b) of mismatch references user, but the primary key of user has 1 column: no association",
            "Foreign key mismatch: (email) of mismatch references user(email), "
                + "but (email) is neither the primary key of user nor unique: no association",
            "Foreign key mismatch: (logId) of mismatch references log, but log has no primary key: no association",
            "Foreign key mismatch: (userRowID) of mismatch references user(rowid), "
                + "but (rowid) is neither the primary key of user nor unique: no association",
            "Foreign key (activeId) of mismatch references activeUser, which is a view, not a table: no association",
        ])
        #expect(!report.associations.contains { $0.table == "mismatch" || $0.destination == "mismatch" })
        // A unique index on all rows is a key.
        let post = try #require(report.tables.first { $0.name == "post" })
        #expect(post.foreignKeys.map(\.mismatch) == [nil])
        #expect(report.associations.contains { $0.table == "post" && $0.kind == "belongsTo" && $0.destination == "user" })
        let text = ReportRenderer.text(report)
        #expect(text.contains("Foreign key: (a, b) -> user (mismatch: the primary key of user has 1 column)\n"))
        #expect(text.contains("Foreign key: (activeId) -> activeUser\n"))
        #expect(!text.contains("(id, )"))
    }

    @Test func anUnusableForeignKeyIsNotCalledMissing() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try SchemaInspector.inspect(path: try makeDatabase("""
            CREATE TABLE user(id INTEGER PRIMARY KEY);
            CREATE TABLE mismatch(id INTEGER PRIMARY KEY, a INT, b INT, FOREIGN KEY(a, b) REFERENCES user);
            """, in: folder))
        #expect(report.associations.isEmpty)
        #expect(ReportRenderer.text(report).contains("Associations\nNone: no foreign key links two tables (see the warnings).\n"))
    }

    @Test func aPartialUniqueIndexDoesNotMakeAForeignKeyOneToOne() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try SchemaInspector.inspect(path: try makeDatabase("""
            CREATE TABLE account(id INTEGER PRIMARY KEY);
            CREATE TABLE profile(id INTEGER PRIMARY KEY, accountId INT REFERENCES account(id), deleted INT NOT NULL DEFAULT 0);
            CREATE UNIQUE INDEX profile_account ON profile(accountId) WHERE deleted = 0;
            CREATE TABLE avatar(id INTEGER PRIMARY KEY, accountId INT REFERENCES account(id));
            CREATE UNIQUE INDEX avatar_account ON avatar(accountId);
            """, in: folder))
        let kinds = report.associations.filter { $0.table == "account" }.map { "\($0.kind) \($0.destination)" }
        // Deleted profiles may share an account: one account has many.
        #expect(kinds.contains("hasMany profile"))
        #expect(!kinds.contains("hasOne profile"))
        #expect(kinds.contains("hasOne avatar"))
    }

    @Test func controlCharactersInNamesDoNotBreakTheLayout() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try SchemaInspector.inspect(path: try makeDatabase("""
            CREATE TABLE "line
            break" ("first
            name" TEXT, id INTEGER PRIMARY KEY);
            CREATE TABLE "tab	bed" (id INTEGER PRIMARY KEY, "ref
            id" INT REFERENCES "line
            break"(id), otherId INT REFERENCES "line
            break"(id));
            CREATE INDEX "by
            ref" ON "tab	bed"("ref
            id");
            CREATE INDEX by_lower ON "tab	bed"(
              lower("ref
            id"));
            """, in: folder))
        // The report keeps the exact names.
        #expect(report.tables.map(\.name) == ["line\nbreak", "tab\tbed"])
        #expect(report.tables[0].columns.map(\.name) == ["first\nname", "id"])
        let text = ReportRenderer.text(report)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("Table line\\nbreak"))
        #expect(lines.contains("Table tab\\tbed"))
        #expect(lines.contains { $0.hasPrefix("first\\nname  TEXT") })
        #expect(lines.contains("Foreign key: (ref\\nid) -> line\\nbreak(id)"))
        #expect(lines.contains("Index by\\nref: (ref\\nid)"))
        // A statement is shown on one line, as the header of a trigger.
        #expect(lines.contains("Index by_lower: on expressions: CREATE INDEX by_lower ON \"tab bed\"( lower(\"ref id\"))"))
        // No line starts with the end of a name.
        #expect(!lines.contains { $0.hasPrefix("break") || $0.hasPrefix("name") || $0.hasPrefix("id\"") })
        #expect(!text.contains("\t"))
        // The suggested declarations are Swift string literals.
        let declarations = report.associations.map(\.declaration)
        #expect(declarations.contains { $0.contains("using: ForeignKey([\"ref\\nid\"])") })
        #expect(!declarations.contains { $0.contains("\n") })
    }

    @Test(.enabled(if: TrellisExecutable.url != nil)) func aPathThatStartsWithADashIsInspected() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try makeDatabase("CREATE TABLE album(id INTEGER PRIMARY KEY)", in: folder, fileName: "-dash.sqlite")
        for arguments in [
            ["inspect", "-dash.sqlite"],
            ["inspect", "--", "-dash.sqlite"],
            ["inspect", "--format", "text", "-dash.sqlite"],
        ] {
            let result = try TrellisExecutable.run(arguments, in: folder)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.output.hasPrefix("Database: -dash.sqlite\n\nTable album\n"), "\(arguments)")
        }
        let json = try TrellisExecutable.run(["inspect", "-dash.sqlite", "--format", "json"], in: folder)
        #expect(json.status == 0)
        #expect(json.output.contains("\"name\" : \"album\""))
        // A missing file is missing, not a request for help (`-h`).
        let missing = try TrellisExecutable.run(["inspect", "-nothing-here.sqlite"], in: folder)
        #expect(missing.status != 0)
        #expect(missing.output.isEmpty)
        #expect(missing.errors == "trellis: no such file: -nothing-here.sqlite\n")
        // Unknown options are still ArgumentParser's errors.
        let unknown = try TrellisExecutable.run(["inspect", "--verbose", "-dash.sqlite"], in: folder)
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("--verbose"))
        // The help says how to give such a path.
        let help = try TrellisExecutable.run(["inspect", "--help"], in: folder)
        #expect(help.status == 0)
        #expect(help.output.contains("trellis inspect -- -name.sqlite"))
    }
}
