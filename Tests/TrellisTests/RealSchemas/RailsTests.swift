import Foundation
import Testing
import Trellis

/// A database of a Ruby on Rails application, as ActiveRecord's SQLite
/// adapter writes it: `schema_migrations` and `ar_internal_metadata`,
/// plural table names, `datetime(6)` columns of text with microseconds,
/// `varchar` and `decimal(10,2)` columns, booleans as 0 and 1 (or `'t'`
/// and `'f'` in files from before Rails 6), named foreign key
/// constraints, partial unique indexes for soft-deleted rows, and a
/// foreign key that `t.references foreign_key: true` and `add_foreign_key`
/// both declared.
@Suite struct RailsTests {
    static let script = #"""
        CREATE TABLE IF NOT EXISTS "schema_migrations" ("version" varchar NOT NULL PRIMARY KEY);
        CREATE TABLE IF NOT EXISTS "ar_internal_metadata" ("key" varchar NOT NULL PRIMARY KEY, "value" varchar, "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL);
        CREATE TABLE IF NOT EXISTS "users" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "email" varchar DEFAULT '' NOT NULL, "name" varchar(100), "admin" boolean DEFAULT 0 NOT NULL, "legacy_flag" boolean, "deleted_at" datetime(6), "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL);
        CREATE UNIQUE INDEX "index_users_on_email" ON "users" ("email") WHERE deleted_at IS NULL;
        CREATE TABLE IF NOT EXISTS "posts" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "editor_id" integer, "title" varchar NOT NULL, "price" decimal(10,2), "published" boolean DEFAULT 0, "published_at" datetime(6), "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL, CONSTRAINT "fk_rails_5b5ddfd518" FOREIGN KEY ("user_id") REFERENCES "users" ("id"), CONSTRAINT "fk_rails_0f1b0b5b55" FOREIGN KEY ("editor_id") REFERENCES "users" ("id") ON DELETE SET NULL);
        CREATE INDEX "index_posts_on_user_id" ON "posts" ("user_id");
        CREATE TABLE IF NOT EXISTS "comments" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "post_id" integer NOT NULL, "body" text, "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL, CONSTRAINT "fk_rails_2fd19c0db7" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE, CONSTRAINT "fk_rails_2fd19c0db8" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE);
        CREATE INDEX "index_comments_on_post_id" ON "comments" ("post_id");
        INSERT INTO "schema_migrations" ("version") VALUES ('20240101120000'), ('20240215093000');
        INSERT INTO "ar_internal_metadata" VALUES ('environment', 'development', '2024-01-01 12:00:00.123456', '2024-01-01 12:00:00.123456');
        INSERT INTO "users" VALUES (1, 'ann@example.com', 'Ann', 1, 't', NULL, '2024-01-02 10:00:00.000001', '2024-01-02 10:00:00.000001');
        INSERT INTO "users" VALUES (2, 'bob@example.com', 'Bob', 0, 'f', '2024-02-01 08:00:00', '2024-01-03 10:00:00', '2024-02-01 08:00:00');
        INSERT INTO "users" VALUES (3, 'bob@example.com', 'Bob again', 0, NULL, NULL, '2024-02-02 10:00:00', '2024-02-02 10:00:00');
        INSERT INTO "posts" VALUES (1, 1, 3, 'Hello Rails', '19.99', 1, '2024-01-05 09:30:00.5', '2024-01-05 09:00:00', '2024-01-05 09:30:00.5');
        INSERT INTO "posts" VALUES (2, 3, NULL, 'Draft', NULL, 0, NULL, '2024-02-03 10:00:00', '2024-02-03 10:00:00');
        INSERT INTO "comments" VALUES (1, 1, 'Nice', '2024-01-06 10:00:00', '2024-01-06 10:00:00'), (2, 1, 'Thanks', '2024-01-06 11:00:00', '2024-01-06 11:00:00');
        """#

    struct User: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "users"
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        static let posts = hasMany(Post.self, using: ForeignKey(["user_id"]))
        var id: Int64?
        var email: String
        var name: String?
        var admin: Bool
        var deletedAt: Date?
        var createdAt: Date
        var updatedAt: Date
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Post: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "posts"
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        static let author = belongsTo(User.self, key: "author", using: ForeignKey(["user_id"]))
        static let editor = belongsTo(User.self, key: "editor", using: ForeignKey(["editor_id"]))
        static let comments = hasMany(Comment.self)
        var id: Int64?
        var userId: Int64
        var editorId: Int64?
        var title: String
        var price: Decimal?
        var published: Bool?
        var publishedAt: Date?
        var createdAt: Date
        var updatedAt: Date
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Comment: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "comments"
        static let post = belongsTo(Post.self)
        var id: Int64
        var post_id: Int64
        var body: String?
    }

    @Test func theSchemaIsIntrospectedAsRailsWritesIt() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.primaryKey("schema_migrations").columns == ["version"])
            #expect(try db.primaryKey("schema_migrations").isRowID == false)
            #expect(try db.primaryKey("users").rowIDColumn == "id")
            let types = try db.columns(in: "users").map(\.type)
            // SQLite spells the type of an INTEGER PRIMARY KEY itself.
            #expect(types == ["INTEGER", "varchar", "varchar(100)", "boolean", "boolean", "datetime(6)", "datetime(6)", "datetime(6)"])
            #expect(try db.columns(in: "users").first { $0.name == "email" }?.defaultValueSQL == "''")
            let postKeys = try db.foreignKeys(on: "posts")
            #expect(postKeys.map(\.originColumns) == [["editor_id"], ["user_id"]])
            #expect(postKeys.map(\.onDelete) == [.setNull, nil])
            #expect(try db.indexes(on: "users").map(\.isPartial) == [true])
            let versions = try String.fetchAll(db, sql: "SELECT version FROM schema_migrations ORDER BY version")
            #expect(versions == ["20240101120000", "20240215093000"])
            // A varchar key keeps its digits as text; an integer finds it.
            #expect(try Table("schema_migrations").fetchOne(db, key: 20240101120000)?["version"] == "20240101120000")
        }
    }

    @Test func datetimesWithMicrosecondsAndBooleansDecode() throws {
        struct Metadata: Codable, FetchableRecord, TableRecord {
            static let databaseTableName = "ar_internal_metadata"
            var key: String
            var value: String?
            var created_at: Date
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let metadata = try #require(try Metadata.fetchOne(db, key: "environment"))
            #expect(metadata.value == "development")
            // As in GRDB and SQLite's date functions, to the millisecond.
            #expect(abs(metadata.created_at.timeIntervalSince1970 - 1_704_110_400.123456) < 0.001)
            let users = try User.order(Column("id")).fetchAll(db)
            #expect(users.map(\.admin) == [true, false, false])
            #expect(users.map { $0.deletedAt != nil } == [false, true, false])
            let post = try #require(try Post.fetchOne(db, key: 1))
            #expect(post.price == Decimal(string: "19.99"))
            #expect(post.published == true)
            #expect(post.publishedAt == Date(timeIntervalSince1970: 1_704_447_000.5))
        }
    }

    @Test func textBooleansOfOldRailsVersionsAreNotFalse() throws {
        struct Legacy: Decodable, FetchableRecord {
            var legacy_flag: Bool?
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            // `'t'` and `'f'` spell no number: an error, not false.
            let error = #expect(throws: RowDecodingError.self) {
                try Legacy.fetchAll(db, sql: "SELECT legacy_flag FROM users ORDER BY id")
            }
            #expect(error?.message.contains(#"could not decode Bool from database value "t""#) == true)
            #expect(try Bool?.fetchOne(db, sql: "SELECT legacy_flag FROM users WHERE id = 3") == .some(nil))
            // The SQL that converts them.
            let flags = try Bool?.fetchAll(db, sql: "SELECT legacy_flag = 't' FROM users WHERE legacy_flag IS NOT NULL ORDER BY id")
            #expect(flags == [true, false])
        }
    }

    @Test func aPartialUniqueIndexIsNoKey() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            // `WHERE deleted_at IS NULL`: two users share an email, one of
            // them deleted. The email identifies no row.
            #expect(try db.table("users", hasUniqueKey: ["email"]) == false)
            #expect(try db.table("users", hasUniqueKey: ["email", "id"]))
            let fetch = #expect(throws: DatabaseError.self) { try User.fetchOne(db, key: ["email": "bob@example.com"]) }
            #expect(fetch?.message == "table users has no unique key on column(s) email")
            let delete = #expect(throws: DatabaseError.self) { try User.deleteOne(db, key: ["email": "bob@example.com"]) }
            #expect(delete?.message == "table users has no unique key on column(s) email")
            #expect(try User.filter(Column("email") == "bob@example.com").fetchCount(db) == 2)
            #expect(try User.exists(db, key: 2))
        }
    }

    @Test func twoForeignKeysToUsersAreAmbiguousAndExplicitOnesWork() throws {
        struct PostInfo: Decodable, FetchableRecord {
            var post: Post
            var author: User
            var editor: User?
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            let error = #expect(throws: DatabaseError.self) {
                try Post.including(required: Post.belongsTo(User.self)).fetchAll(db)
            }
            #expect(error?.message == "Ambiguous foreign key from posts to users: several foreign keys ([editor_id], [user_id]) link them; define the association with ForeignKey")
            let reverse = #expect(throws: DatabaseError.self) {
                try User.including(all: User.hasMany(Post.self)).fetchAll(db)
            }
            #expect(reverse?.message?.hasPrefix("Ambiguous foreign key from posts to users") == true)

            let infos = try Post.including(required: Post.author).including(optional: Post.editor)
                .order(Column("id")).asRequest(of: PostInfo.self).fetchAll(db)
            #expect(infos.map(\.author.name) == ["Ann", "Bob again"])
            #expect(infos.map { $0.editor?.name } == ["Bob again", nil])

            // ON DELETE SET NULL, once the author's posts are gone.
            #expect(try Post.filter(Column("user_id") == 3).deleteAll(db) == 1)
            #expect(try User.deleteOne(db, key: 3))
            #expect(try Post.fetchOne(db, key: 1)?.editorId == nil)
        }
    }

    @Test func aForeignKeyDeclaredTwiceIsOneKey() throws {
        struct PostWithComments: Decodable, FetchableRecord {
            var post: Post
            var comments: [Comment]
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            #expect(try db.foreignKeys(on: "comments").count == 2)
            let comments = try Comment.including(required: Comment.post).order(Column("id")).fetchAll(db)
            #expect(comments.map(\.body) == ["Nice", "Thanks"])
            let posts = try Post.including(all: Post.comments).order(Column("id")).asRequest(of: PostWithComments.self).fetchAll(db)
            #expect(posts.map { $0.comments.count } == [2, 0])
            // The cascade of the key.
            #expect(try Post.deleteOne(db, key: 1))
            #expect(try Comment.fetchCount(db) == 0)
        }
    }

    @Test func recordsAreWrittenAsRailsReadsThem() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            let now = Date(timeIntervalSince1970: 1_717_243_200.25)
            var user = User(id: nil, email: "cid@example.com", name: nil, admin: true, deletedAt: nil, createdAt: now, updatedAt: now)
            try user.insert(db)
            #expect(user.id == 4)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT admin, typeof(admin) AS t, created_at FROM users WHERE id = 4"))
            #expect(row["admin"] == 1)
            #expect(row["t"] == "integer")
            #expect(row["created_at"] == "2024-06-01 12:00:00.250")
            var post = Post(id: nil, userId: 4, editorId: nil, title: "New", price: Decimal(string: "5.10"), published: false,
                            publishedAt: nil, createdAt: now, updatedAt: now)
            try post.insert(db)
            #expect(try Decimal.fetchOne(db, sql: "SELECT price FROM posts WHERE id = ?", arguments: [post.id]) == Decimal(string: "5.1"))
            // A post of a user who does not exist violates the key.
            var orphan = post
            orphan.id = nil
            orphan.userId = 99
            let error = #expect(throws: DatabaseError.self) { try orphan.insert(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        }
    }
}
