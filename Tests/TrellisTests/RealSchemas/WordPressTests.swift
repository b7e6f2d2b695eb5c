import Foundation
import Testing
import Trellis

/// WordPress on SQLite, as the SQLite Database Integration plugin
/// translates MySQL's tables: an uppercase `ID` key, `COLLATE NOCASE`
/// text, defaults such as `'0'` for integers, MySQL's zero date
/// `0000-00-00 00:00:00` for drafts, PHP-serialized options, a composite
/// key on the term relationships, and no declared foreign key.
@Suite struct WordPressTests {
    static let script = """
        CREATE TABLE wp_users (ID integer NOT NULL PRIMARY KEY AUTOINCREMENT, user_login text NOT NULL DEFAULT '' COLLATE NOCASE, user_email text NOT NULL DEFAULT '' COLLATE NOCASE, user_registered text NOT NULL DEFAULT '0000-00-00 00:00:00' COLLATE NOCASE, display_name text NOT NULL DEFAULT '' COLLATE NOCASE);
        CREATE TABLE wp_posts (ID integer NOT NULL PRIMARY KEY AUTOINCREMENT, post_author integer NOT NULL DEFAULT '0', post_date text NOT NULL DEFAULT '0000-00-00 00:00:00' COLLATE NOCASE, post_date_gmt text NOT NULL DEFAULT '0000-00-00 00:00:00' COLLATE NOCASE, post_content text NOT NULL COLLATE NOCASE, post_title text NOT NULL COLLATE NOCASE, post_status text NOT NULL DEFAULT 'publish' COLLATE NOCASE, post_name text NOT NULL DEFAULT '' COLLATE NOCASE, post_parent integer NOT NULL DEFAULT '0', menu_order integer NOT NULL DEFAULT '0', post_type text NOT NULL DEFAULT 'post' COLLATE NOCASE, comment_count integer NOT NULL DEFAULT '0');
        CREATE INDEX wp_posts__type_status_date ON wp_posts (post_type, post_status, post_date, ID);
        CREATE INDEX wp_posts__post_parent ON wp_posts (post_parent);
        CREATE TABLE wp_options (option_id integer NOT NULL PRIMARY KEY AUTOINCREMENT, option_name text NOT NULL DEFAULT '' COLLATE NOCASE, option_value text NOT NULL COLLATE NOCASE, autoload text NOT NULL DEFAULT 'yes' COLLATE NOCASE);
        CREATE UNIQUE INDEX wp_options__option_name ON wp_options (option_name);
        CREATE TABLE wp_postmeta (meta_id integer NOT NULL PRIMARY KEY AUTOINCREMENT, post_id integer NOT NULL DEFAULT '0', meta_key text DEFAULT NULL COLLATE NOCASE, meta_value text COLLATE NOCASE);
        CREATE TABLE wp_term_relationships (object_id integer NOT NULL DEFAULT 0, term_taxonomy_id integer NOT NULL DEFAULT 0, term_order integer NOT NULL DEFAULT 0, PRIMARY KEY (object_id, term_taxonomy_id));
        INSERT INTO wp_users VALUES (1, 'admin', 'admin@example.com', '2024-04-01 10:00:00', 'Admin');
        INSERT INTO wp_posts VALUES (1, 1, '2024-04-01 10:05:00', '2024-04-01 08:05:00', 'Welcome to WordPress.', 'Hello world!', 'publish', 'hello-world', 0, 0, 'post', 1);
        INSERT INTO wp_posts VALUES (2, 1, '2024-04-02 09:00:00', '0000-00-00 00:00:00', '', 'Draft', 'draft', '', 0, 0, 'post', 0);
        INSERT INTO wp_posts VALUES (3, 1, '2024-04-03 12:00:00', '2024-04-03 10:00:00', '', 'photo', 'inherit', 'photo', 1, 0, 'attachment', 0);
        INSERT INTO wp_options VALUES (1, 'siteurl', 'http://localhost:8080', 'yes'), (2, 'active_plugins', 'a:1:{i:0;s:41:"sqlite-database-integration/load.php";}', 'yes'), (3, 'db_version', '57155', 'yes');
        INSERT INTO wp_postmeta VALUES (1, 3, '_wp_attached_file', '2024/04/photo.jpg'), (2, 1, '_edit_lock', '1711965900:1');
        INSERT INTO wp_term_relationships VALUES (1, 1, 0), (2, 1, 0);
        """

    /// A record that names the `ID` column `id`, as Swift code does.
    struct Post: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "wp_posts"
        static let parent = belongsTo(Post.self, key: "parent", using: ForeignKey(["post_parent"]))
        static let meta = hasMany(PostMeta.self, using: ForeignKey(["post_id"]))
        var id: Int64?
        var post_author: Int64
        var post_date: Date
        var post_content: String
        var post_title: String
        var post_status: String
        var post_name: String
        var post_parent: Int64
        var post_type: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct PostMeta: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "wp_postmeta"
        var meta_id: Int64
        var post_id: Int64
        var meta_key: String?
        var meta_value: String?
    }

    struct Option: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "wp_options"
        var option_name: String
        var option_value: String
        var autoload: String
    }

    @Test func zeroDatesAreNoDates() throws {
        struct GMTDate: Decodable, FetchableRecord {
            var post_date_gmt: Date?
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try Date.fetchOne(db, sql: "SELECT post_date_gmt FROM wp_posts WHERE ID = 1") == Date(timeIntervalSince1970: 1_711_958_700))
            // MySQL's zero date is no date: an error, not a date of year 0.
            let error = #expect(throws: RowDecodingError.self) { try GMTDate.fetchAll(db, sql: "SELECT post_date_gmt FROM wp_posts ORDER BY ID") }
            #expect(error?.message.contains(#"could not decode Date from database value "0000-00-00 00:00:00""#) == true)
            #expect(throws: (any Error).self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT post_date_gmt FROM wp_posts WHERE ID = 2") }
            // NULLIF makes it nil.
            let dates = try GMTDate.fetchAll(db, sql: "SELECT NULLIF(post_date_gmt, '0000-00-00 00:00:00') AS post_date_gmt FROM wp_posts ORDER BY ID")
            #expect(dates.map { $0.post_date_gmt == nil } == [false, true, false])
        }
    }

    @Test func anUppercaseIDKeyIsTheIdOfTheRecord() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            #expect(try db.primaryKey("wp_posts").rowIDColumn == "ID")
            var post = try #require(try Post.fetchOne(db, key: 2))
            #expect(post.post_title == "Draft")
            post.post_status = "publish"
            try post.update(db)
            #expect(try String.fetchOne(db, sql: "SELECT post_status FROM wp_posts WHERE ID = 2") == "publish")
            #expect(try post.exists(db))
            try post.updateChanges(db) { $0.post_name = "draft-2" }
            #expect(try String.fetchOne(db, sql: "SELECT post_name FROM wp_posts WHERE ID = 2") == "draft-2")

            var new = Post(id: nil, post_author: 1, post_date: Date(timeIntervalSince1970: 1_712_000_000), post_content: "",
                           post_title: "New", post_status: "draft", post_name: "", post_parent: 0, post_type: "page")
            try new.insert(db)
            #expect(new.id == 4)
            new.post_title = "Newer"
            try new.save(db)
            #expect(try Post.fetchCount(db) == 4)
            #expect(try Post.fetchOne(db, key: ["id": 4])?.post_title == "Newer")
            try new.upsert(db)
            #expect(try new.delete(db))
            #expect(try Post.deleteOne(db, key: 3))
            #expect(try Post.fetchAll(db).map(\.id) == [1, 2])
        }
    }

    @Test func attachmentsJoinTheirParentPostAndMeta() throws {
        struct AttachmentInfo: Decodable, FetchableRecord {
            var post: Post
            var parent: Post
            var meta: [PostMeta]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let infos = try Post.filter(Column("post_type") == "attachment")
                .including(required: Post.parent)
                .including(all: Post.meta.forKey("meta"))
                .asRequest(of: AttachmentInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.parent.post_title) == ["Hello world!"])
            #expect(infos.map { $0.meta.map(\.meta_value) } == [["2024/04/photo.jpg"]])
            // post_parent 0 is no post: no parent.
            #expect(try Post.joining(required: Post.parent).fetchCount(db) == 1)
        }
    }

    @Test func optionsAreFoundByTheirNameWithoutCase() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            #expect(try Option.fetchOne(db, key: ["option_name": "SiteURL"])?.option_value == "http://localhost:8080")
            #expect(try Int.fetchOne(db, sql: "SELECT option_value FROM wp_options WHERE option_name = 'db_version'") == 57155)
            try Option(option_name: "blogname", option_value: "My Blog", autoload: "yes").insert(db)
            let duplicate = #expect(throws: DatabaseError.self) {
                try Option(option_name: "BLOGNAME", option_value: "Again", autoload: "yes").insert(db)
            }
            #expect(duplicate?.resultCode == .SQLITE_CONSTRAINT)
            #expect(try db.columns(in: "wp_posts").first { $0.name == "post_author" }?.defaultValueSQL == "'0'")
            #expect(try db.table("wp_term_relationships", hasUniqueKey: ["object_id", "term_taxonomy_id"]))
            #expect(try Table("wp_term_relationships").deleteOne(db, key: ["object_id": 2, "term_taxonomy_id": 1]))
        }
    }
}

/// Terms of WordPress's SQLite schema with a key added by a plugin: the
/// slug of a term, text compared without case, referenced from a table
/// that wrote it in another case.
@Suite struct WordPressTermSlugTests {
    static let script = """
        CREATE TABLE wp_terms (term_id integer NOT NULL PRIMARY KEY AUTOINCREMENT, name text NOT NULL DEFAULT '' COLLATE NOCASE, slug text NOT NULL DEFAULT '' COLLATE NOCASE UNIQUE);
        CREATE TABLE wp_term_notes (note_id integer NOT NULL PRIMARY KEY AUTOINCREMENT, term_slug text NOT NULL COLLATE NOCASE REFERENCES wp_terms (slug), note text NOT NULL);
        INSERT INTO wp_terms (name, slug) VALUES ('Uncategorized', 'uncategorized'), ('News', 'news');
        INSERT INTO wp_term_notes (term_slug, note) VALUES ('News', 'Front page'), ('news', 'Weekly'), ('UNCATEGORIZED', 'Default');
        """

    struct Term: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "wp_terms"
        static let notes = hasMany(TermNote.self).forKey("notes")
        var term_id: Int64
        var slug: String
    }

    struct TermNote: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "wp_term_notes"
        var term_slug: String
        var note: String
    }

    @Test func prefetchedNotesMatchTheSlugWithoutCase() throws {
        struct TermInfo: Decodable, FetchableRecord {
            var term: Term
            var notes: [TermNote]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let counts = try Row.fetchAll(db, Term.annotated(with: Term.notes.count.forKey("count")).order(Column("term_id")))
            #expect(counts.map { $0["count"] as Int } == [1, 2])
            let infos = try Term.including(all: Term.notes.order(Column("note_id"))).order(Column("term_id"))
                .asRequest(of: TermInfo.self).fetchAll(db)
            #expect(infos.map { $0.notes.map(\.note) } == [["Default"], ["Front page", "Weekly"]])
        }
    }
}
