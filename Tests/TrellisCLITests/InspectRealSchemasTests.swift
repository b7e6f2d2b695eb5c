import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on databases that other tools wrote: every table is
/// reported, with its keys, and the associations use the tables' names.
@Suite struct InspectRealSchemasTests {
    private func makeFile(_ sql: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-real-\(UUID().uuidString).sqlite").path
        try InspectedDatabase.write(sql, at: path)
        return path
    }

    private static let specialsSQL = #"""
        CREATE TABLE sqlitebrowser_rename_column_new_table (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE sqlitestudio_temp_table (a);
        CREATE TABLE Parent (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES PARENT(id));
        CREATE TABLE orphan (id INTEGER PRIMARY KEY, ghostId INTEGER REFERENCES ghost);
        CREATE TABLE ranked (id INTEGER PRIMARY KEY DESC, name TEXT);
        CREATE TABLE setting (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        CREATE TABLE measure (id INTEGER PRIMARY KEY, value REAL NOT NULL, double REAL GENERATED ALWAYS AS (value * 2) VIRTUAL) STRICT;
        CREATE TABLE log (message TEXT);
        CREATE TRIGGER log_insert AFTER INSERT ON log BEGIN SELECT 1; END;
        CREATE VIRTUAL TABLE note USING fts5(title, body);
        CREATE TABLE doomed (id INTEGER PRIMARY KEY);
        CREATE VIEW brokenView AS SELECT id FROM doomed;
        DROP TABLE doomed;
        INSERT INTO log VALUES ('x');
        ANALYZE;
        """#

    @Test func tablesThatLookLikeSQLiteInternalsAreReported() throws {
        let path = try makeFile(Self.specialsSQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try SchemaInspector.inspect(path: path)
        // sqlite_stat1 and the shadow tables of `note` are left out; a
        // table whose name only starts like SQLite's is kept.
        #expect(report.tables.map(\.name) == [
            "Parent", "child", "log", "measure", "note", "orphan", "ranked", "setting",
            "sqlitebrowser_rename_column_new_table", "sqlitestudio_temp_table"])
        #expect(report.tables.allSatisfy { $0.error == nil })
        #expect(report.views.map(\.name) == ["brokenView"])
        #expect(report.views[0].error == "no such table: main.doomed")
    }

    @Test func keysAreReportedAsSQLiteUnderstandsThem() throws {
        let path = try makeFile(Self.specialsSQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try SchemaInspector.inspect(path: path)
        func table(_ name: String) throws -> DatabaseReport.Table { try #require(report.tables.first { $0.name == name }) }
        #expect(try table("ranked").primaryKey == ["id"])
        #expect(try table("ranked").hasExplicitPrimaryKey)
        #expect(try table("setting").primaryKey == ["key"])
        #expect(try table("log").hasExplicitPrimaryKey == false)
        #expect(try table("note").virtualTableModule == "fts5")
        #expect(try table("measure").columns.map(\.name) == ["id", "value", "double"])
        let orphan = try table("orphan")
        #expect(orphan.foreignKeys.map(\.columns) == [["ghostId"]])
        #expect(orphan.foreignKeys.map(\.destinationTable) == ["ghost"])
        #expect(orphan.foreignKeys.map(\.destinationColumns) == [[]])
        let text = ReportRenderer.text(report)
        #expect(text.contains("Foreign key: (ghostId) -> ghost\n"))
        #expect(text.contains("Foreign key: (parentId) -> PARENT(id)"))
    }

    @Test func associationsUseTheNameOfTheTableNotOfTheReference() throws {
        let path = try makeFile(Self.specialsSQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try SchemaInspector.inspect(path: path)
        let declarations = report.associations.map { "\($0.table) \($0.kind) \($0.destination): \($0.declaration)" }
        #expect(declarations == [
            "child belongsTo Parent: static let parent = belongsTo(Parent.self, key: \"parent\")",
            "Parent hasMany child: static let children = hasMany(Child.self)",
        ])
        #expect(report.warnings == ["Foreign key (ghostId) of orphan references ghost, which is not a table of this database: no association"])
    }

    @Test func realToolSchemasAreReportedCompletely() throws {
        let schemas: [(sql: String, tables: [String], associations: Int)] = [
            // Chinook
            ("""
             CREATE TABLE [Artist] ([ArtistId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));
             CREATE TABLE [Album] ([AlbumId] INTEGER NOT NULL, [Title] NVARCHAR(160) NOT NULL, [ArtistId] INTEGER NOT NULL,
               CONSTRAINT [PK_Album] PRIMARY KEY ([AlbumId]), FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
             CREATE TABLE [Employee] ([EmployeeId] INTEGER NOT NULL, [ReportsTo] INTEGER, [HireDate] DATETIME,
               CONSTRAINT [PK_Employee] PRIMARY KEY ([EmployeeId]), FOREIGN KEY ([ReportsTo]) REFERENCES [Employee] ([EmployeeId]));
             CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);
             """, ["Album", "Artist", "Employee"], 4),
            // Django
            ("""
             CREATE TABLE "auth_user" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "username" varchar(150) NOT NULL UNIQUE);
             CREATE TABLE "blog_post" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "author_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED);
             INSERT INTO auth_user (username) VALUES ('admin');
             """, ["auth_user", "blog_post"], 2),
            // Core Data
            ("""
             CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR INTEGER, ZPUBLISHED TIMESTAMP, ZTITLE VARCHAR );
             CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
             CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
             CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
             """, ["ZBOOK", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"], 0),
            // Android Room
            ("""
             CREATE TABLE android_metadata (locale TEXT);
             CREATE TABLE IF NOT EXISTS `User` (`uid` INTEGER NOT NULL, `first_name` TEXT, PRIMARY KEY(`uid`));
             CREATE TABLE IF NOT EXISTS `Playlist` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `owner_uid` INTEGER NOT NULL, FOREIGN KEY(`owner_uid`) REFERENCES `User`(`uid`) ON UPDATE NO ACTION ON DELETE CASCADE );
             CREATE TABLE room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT);
             """, ["Playlist", "User", "android_metadata", "room_master_table"], 2),
            // Firefox
            ("""
             CREATE TABLE moz_origins ( id INTEGER PRIMARY KEY, prefix TEXT NOT NULL, host TEXT NOT NULL, UNIQUE (prefix, host) );
             CREATE TABLE moz_places ( id INTEGER PRIMARY KEY, url LONGVARCHAR, guid TEXT, last_visit_date INTEGER, origin_id INTEGER REFERENCES moz_origins(id));
             CREATE TABLE moz_meta (key TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID ;
             """, ["moz_meta", "moz_origins", "moz_places"], 2),
        ]
        var options: [String: [String]] = [:]
        var deleteActions: [String: [String?]] = [:]
        for schema in schemas {
            let path = try makeFile(schema.sql)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let report = try SchemaInspector.inspect(path: path)
            #expect(report.tables.map(\.name) == schema.tables)
            #expect(report.tables.allSatisfy { $0.error == nil && !$0.columns.isEmpty && !$0.primaryKey.isEmpty })
            #expect(report.associations.count == schema.associations, "\(schema.tables)")
            let text = ReportRenderer.text(report)
            for table in schema.tables {
                // A table's line ends with its name, or with its options.
                #expect(text.contains("Table \(table)\n") || text.contains("Table \(table) ("))
            }
            _ = try JSONSerialization.jsonObject(with: Data(try ReportRenderer.json(report).utf8))
            for table in report.tables {
                options[table.name] = table.options
                deleteActions[table.name] = table.foreignKeys.map(\.onDelete)
            }
        }
        #expect(options["auth_user"] == ["AUTOINCREMENT"])
        #expect(options["Playlist"] == ["AUTOINCREMENT"])
        #expect(options["moz_meta"] == ["WITHOUT ROWID"])
        #expect(options["Album"] == [])
        // `NO ACTION` is no action.
        #expect(deleteActions["Album"] == [nil])
        #expect(deleteActions["Playlist"] == ["CASCADE"])
    }

    @Test(.enabled(if: TrellisExecutable.url != nil)) func theCommandExitsWithSuccess() throws {
        let path = try makeFile(Self.specialsSQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for format in ["text", "json"] {
            let result = try TrellisExecutable.run(["inspect", path, "--format", format])
            #expect(result.status == 0)
            #expect(result.output.contains("sqlitebrowser_rename_column_new_table"))
        }
    }
}

/// What the inspector gets right on the schemas of the real-database hunt:
/// statements with comments and quoted names, duplicated declarations,
/// blog-like schemas whose suggestions must compile.
@Suite struct InspectTrickySchemasTests {
    private func inspect(_ sql: String, fileName: String = "tricky-\(UUID().uuidString).sqlite") throws -> DatabaseReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tricky-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + fileName
        try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
        return try SchemaInspector.inspect(path: path)
    }

    @Test func optionsAndModulesIgnoreCommentsStringsAndNames() throws {
        let report = try inspect("""
            CREATE TABLE wr(id INTEGER PRIMARY KEY, v) WITHOUT ROWID /* legacy (v1) */;
            CREATE TABLE notauto(a TEXT DEFAULT 'AUTOINCREMENT');
            CREATE TABLE "AUTOINCREMENT"(a);
            CREATE TABLE auto(id INTEGER PRIMARY KEY AUTOINCREMENT);
            CREATE VIRTUAL TABLE "my USING tbl" USING fts5(a);
            CREATE VIRTUAL TABLE tabsep USING\tfts4(b);
            """)
        let options = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.name, $0.options) })
        #expect(options["wr"] == ["WITHOUT ROWID"])
        #expect(options["notauto"] == [])
        #expect(options["AUTOINCREMENT"] == [])
        #expect(options["auto"] == ["AUTOINCREMENT"])
        let modules = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.name, $0.virtualTableModule) })
        #expect(modules["my USING tbl"] == "fts5")
        #expect(modules["tabsep"] == "fts4")
    }

    @Test func suggestionsOfABlogSchemaHaveDistinctNames() throws {
        let report = try inspect("""
            CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE post(id INTEGER PRIMARY KEY, userId INT REFERENCES user(id), title TEXT);
            CREATE TABLE "like"(userId INT REFERENCES user(id), postId INT REFERENCES post(id), PRIMARY KEY(userId, postId));
            CREATE TABLE dup(id INTEGER PRIMARY KEY, aid INT REFERENCES user(id), FOREIGN KEY(aid) REFERENCES user(id));
            """)
        let userMembers = report.associations.filter { $0.table == "user" }.map(\.declaration)
        #expect(userMembers.contains("static let posts = hasMany(Post.self)"))
        #expect(userMembers.contains(
            "static let postsThroughLikes = hasMany(Post.self, through: likes, using: Like.post, key: \"postsThroughLikes\")"))
        let names = userMembers.map { $0.split(separator: " ")[2] }
        #expect(Set(names).count == names.count)
        // One key declared twice: one association, and no ambiguity.
        #expect(report.associations.filter { $0.table == "dup" }.count == 1)
        #expect(report.ambiguities.isEmpty)
    }

    @Test func aFileNamedLikeAURIIsTheFileThatIsRead() throws {
        let report = try inspect("CREATE TABLE mine(id INTEGER PRIMARY KEY)", fileName: "file:data.sqlite")
        #expect(report.tables.map(\.name) == ["mine"])
    }
}
