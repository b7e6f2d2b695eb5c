import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on the databases of applications: Messages' join
/// tables, a Rails schema with two keys to one table and a partial unique
/// index, Anki's tables of a collation the inspector does not know, and
/// spatial indexes with their shadow tables.
@Suite struct InspectAppDatabasesTests {
    private func inspect(_ sql: String, collations: [DatabaseCollation] = []) throws -> DatabaseReport {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-app-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            for collation in collations { db.add(collation: collation) }
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try dbQueue.close()
        return try SchemaInspector.inspect(path: path)
    }

    @Test func messagesJoinTablesGiveThroughAssociations() throws {
        let report = try inspect("""
            CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, id TEXT NOT NULL, service TEXT NOT NULL, UNIQUE (id, service));
            CREATE TABLE chat (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL);
            CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, handle_id INTEGER DEFAULT 0);
            CREATE TABLE chat_handle_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, handle_id INTEGER REFERENCES handle (ROWID) ON DELETE CASCADE, UNIQUE(chat_id, handle_id));
            CREATE TABLE chat_message_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, message_id INTEGER REFERENCES message (ROWID) ON DELETE CASCADE, message_date INTEGER DEFAULT 0, PRIMARY KEY (chat_id, message_id));
            CREATE TABLE _SqliteDatabaseProperties (key TEXT, value TEXT, UNIQUE(key));
            CREATE TRIGGER after_delete_on_chat AFTER DELETE ON chat BEGIN SELECT delete_chat_background(OLD.guid); END;
            """)
        #expect(report.tables.map(\.name) == ["_SqliteDatabaseProperties", "chat", "chat_handle_join", "chat_message_join", "handle", "message"])
        #expect(report.tables.allSatisfy { $0.error == nil })
        #expect(report.ambiguities.isEmpty)
        #expect(report.warnings.isEmpty)
        let chat = report.associations.filter { $0.table == "chat" }.map(\.declaration)
        #expect(chat.contains("static let chatMessageJoins = hasMany(ChatMessageJoin.self, key: \"chatMessageJoins\")"))
        #expect(chat.contains("static let messages = hasMany(Message.self, through: chatMessageJoins, using: ChatMessageJoin.message)"))
        #expect(chat.contains("static let handles = hasMany(Handle.self, through: chatHandleJoins, using: ChatHandleJoin.handle)"))
        let join = report.associations.filter { $0.table == "chat_message_join" }.map(\.declaration)
        #expect(join == ["static let chat = belongsTo(Chat.self)", "static let message = belongsTo(Message.self)"])
        let text = ReportRenderer.text(report)
        #expect(text.contains("Foreign key: (chat_id) -> chat(ROWID) ON DELETE CASCADE"))
        #expect(text.contains("Trigger after_delete_on_chat: CREATE TRIGGER after_delete_on_chat AFTER DELETE ON chat"))
    }

    @Test func railsKeysToOneTableAreAmbiguousAndPartialIndexesMakeNoKey() throws {
        let report = try inspect("""
            CREATE TABLE "schema_migrations" ("version" varchar NOT NULL PRIMARY KEY);
            CREATE TABLE "users" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "email" varchar DEFAULT '' NOT NULL, "deleted_at" datetime(6));
            CREATE UNIQUE INDEX "index_users_on_email" ON "users" ("email") WHERE deleted_at IS NULL;
            CREATE TABLE "profiles" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "deleted_at" datetime(6), CONSTRAINT "fk_rails_e424190865" FOREIGN KEY ("user_id") REFERENCES "users" ("id"));
            CREATE UNIQUE INDEX "index_profiles_on_user_id" ON "profiles" ("user_id") WHERE deleted_at IS NULL;
            CREATE TABLE "posts" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "editor_id" integer, CONSTRAINT "fk_rails_5b5ddfd518" FOREIGN KEY ("user_id") REFERENCES "users" ("id"), CONSTRAINT "fk_rails_0f1b0b5b55" FOREIGN KEY ("editor_id") REFERENCES "users" ("id") ON DELETE SET NULL);
            """)
        #expect(report.ambiguities.map(\.advice) == [#"Ambiguous foreign key from posts to users: use ForeignKey(["user_id"]) or ForeignKey(["editor_id"])"#])
        let posts = report.associations.filter { $0.table == "posts" }.map(\.declaration)
        #expect(posts == [
            #"static let user = belongsTo(User.self, key: "user", using: ForeignKey(["user_id"]))"#,
            #"static let editor = belongsTo(User.self, key: "editor", using: ForeignKey(["editor_id"]))"#,
        ])
        let users = report.associations.filter { $0.table == "users" }
        // A profile per user only among those not deleted: many.
        #expect(users.first { $0.destination == "profiles" }?.kind == "hasMany")
        let users2 = users.map(\.declaration)
        #expect(users2.contains(#"static let userPosts = hasMany(Post.self, key: "userPosts", using: ForeignKey(["user_id"]))"#))
        #expect(users2.contains(#"static let editorPosts = hasMany(Post.self, key: "editorPosts", using: ForeignKey(["editor_id"]))"#))
        let email = try #require(report.tables.first { $0.name == "users" }?.indexes.first)
        #expect(email.partial && email.unique)
        #expect(ReportRenderer.text(report).contains("Index index_users_on_email: (email) unique partial"))
    }

    @Test func tablesOfAnUnknownCollationAreReported() throws {
        let unicase = DatabaseCollation("unicase") { $0.lowercased() == $1.lowercased() ? .orderedSame : $0.lowercased() < $1.lowercased() ? .orderedAscending : .orderedDescending }
        let report = try inspect("""
            CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, flds text not null, sfld integer not null);
            CREATE TABLE tags (tag text NOT NULL PRIMARY KEY COLLATE unicase, usn integer NOT NULL, collapsed boolean NOT NULL, config blob NULL) without rowid;
            CREATE TABLE fields (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL COLLATE unicase, config blob NOT NULL, PRIMARY KEY (ntid, ord)) without rowid;
            CREATE UNIQUE INDEX idx_fields_name_ntid ON fields (name, ntid);
            CREATE VIEW tag_names AS SELECT tag FROM tags ORDER BY tag COLLATE unicase;
            INSERT INTO tags VALUES ('kanji', 0, 0, NULL);
            """, collations: [unicase])
        #expect(report.tables.map(\.name) == ["fields", "notes", "tags"])
        #expect(report.tables.allSatisfy { $0.error == nil })
        let tags = try #require(report.tables.first { $0.name == "tags" })
        #expect(tags.options == ["WITHOUT ROWID"])
        #expect(tags.primaryKey == ["tag"])
        let fields = try #require(report.tables.first { $0.name == "fields" })
        #expect(fields.primaryKey == ["ntid", "ord"])
        #expect(fields.indexes.map(\.columns).contains(["name", "ntid"]))
        #expect(report.views.map(\.name) == ["tag_names"])
        #expect(report.views.first?.columns.map(\.name) == ["tag"])
    }

    @Test func spatialIndexesAreReportedWithoutTheirShadowTables() throws {
        let report = try inspect("""
            CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE VIRTUAL TABLE place_box USING rtree(id, minX, maxX, minY, maxY, +label TEXT);
            CREATE VIRTUAL TABLE place_search USING fts4(name, tokenize=unicode61);
            INSERT INTO place VALUES (1, 'Paris');
            INSERT INTO place_box VALUES (1, 2.2, 2.5, 48.8, 48.9, 'Paris');
            INSERT INTO place_search (docid, name) VALUES (1, 'Paris');
            """)
        #expect(report.tables.map(\.name) == ["place", "place_box", "place_search"])
        let box = try #require(report.tables.first { $0.name == "place_box" })
        #expect(box.virtualTableModule == "rtree")
        #expect(box.columns.map(\.name) == ["id", "minX", "maxX", "minY", "maxY", "label"])
        #expect(box.error == nil)
        #expect(report.tables.first { $0.name == "place_search" }?.virtualTableModule == "fts4")
    }

    @Test func signalStoreKeysAndSelfReferencesGiveDistinctMembers() throws {
        let report = try inspect("""
            CREATE TABLE messages (rowid INTEGER PRIMARY KEY ASC, id STRING UNIQUE, conversationId STRING, body TEXT);
            CREATE TABLE mentions (messageId REFERENCES messages (id) ON DELETE CASCADE, mentionAci STRING, start INTEGER, length INTEGER);
            CREATE TABLE sticker_packs (id TEXT PRIMARY KEY, title STRING);
            CREATE TABLE stickers (id INTEGER NOT NULL, packId TEXT NOT NULL, emoji STRING, PRIMARY KEY (id, packId), CONSTRAINT stickers_fk FOREIGN KEY (packId) REFERENCES sticker_packs(id) ON DELETE CASCADE);
            CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT, manager_id INTEGER REFERENCES employees(id), mentor_id INTEGER REFERENCES employees(id));
            CREATE TABLE "people"("rowid" TEXT, "name" TEXT);
            """)
        #expect(report.tables.allSatisfy { $0.error == nil })
        let messages = try #require(report.tables.first { $0.name == "messages" })
        #expect(messages.primaryKey == ["rowid"])
        #expect(messages.hasExplicitPrimaryKey)
        #expect(report.tables.first { $0.name == "people" }?.hasExplicitPrimaryKey == false)
        let declarations = report.associations.map { "\($0.table): \($0.declaration)" }
        #expect(declarations.contains("messages: static let mentions = hasMany(Mention.self)"))
        #expect(declarations.contains("mentions: static let message = belongsTo(Message.self)"))
        #expect(declarations.contains("sticker_packs: static let stickers = hasMany(Sticker.self)"))
        let employees = report.associations.filter { $0.table == "employees" }.map(\.declaration)
        let names = employees.map { $0.split(separator: " ")[2] }
        #expect(Set(names).count == names.count)
        #expect(names.count == 4)
        #expect(report.ambiguities.map(\.from) == ["employees"])
    }

    @Test func aVirtualTableOfAModuleThatIsNotLoadedIsReportedWithItsError() throws {
        // A file of embeddings made with the sqlite-vec extension: its
        // `vec0` tables need the extension, which the inspector lacks.
        let report = try inspect("""
            CREATE TABLE documents (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE documents_embeddings_info (key TEXT PRIMARY KEY, value ANY) WITHOUT ROWID;
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql)
              VALUES ('table', 'documents_embeddings', 'documents_embeddings', 0, 'CREATE VIRTUAL TABLE documents_embeddings USING vec0(embedding float[4])');
            PRAGMA writable_schema = OFF;
            """)
        #expect(report.tables.map(\.name) == ["documents", "documents_embeddings", "documents_embeddings_info"])
        let embeddings = try #require(report.tables.first { $0.name == "documents_embeddings" })
        #expect(embeddings.error == "no such module: vec0")
        #expect(embeddings.virtualTableModule == "vec0")
        #expect(report.tables.filter { $0.error == nil }.map(\.name) == ["documents", "documents_embeddings_info"])
        #expect(ReportRenderer.text(report).contains("Table documents_embeddings (virtual table, vec0)\nCould not be read: no such module: vec0"))
    }
}
