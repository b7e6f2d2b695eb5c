import Foundation
import Testing
import Trellis

/// A Laravel application on SQLite, as its schema builder writes it:
/// `CREATE TABLE IF NOT EXISTS` with lower-case types, `varchar` keys
/// that are not the rowid (`sessions`, `cache`, `password_reset_tokens`),
/// enum columns as `varchar check ("status" in (...))`, a `numeric`
/// column with the text default `'0'`, timestamps as `datetime` text
/// (`2024-05-01 12:00:00`), JSON in `text`, a pivot table keyed by its
/// two foreign keys, and polymorphic relations (`tokenable_type`,
/// `tokenable_id`) that no foreign key declares.
@Suite struct LaravelTests {
    static let script = """
        CREATE TABLE IF NOT EXISTS "migrations" ("id" integer primary key autoincrement not null, "migration" varchar not null, "batch" integer not null);
        CREATE TABLE IF NOT EXISTS "users" ("id" integer primary key autoincrement not null, "name" varchar not null, "email" varchar not null, "email_verified_at" datetime, "password" varchar not null, "remember_token" varchar, "created_at" datetime, "updated_at" datetime);
        CREATE UNIQUE INDEX "users_email_unique" on "users" ("email");
        CREATE TABLE IF NOT EXISTS "password_reset_tokens" ("email" varchar not null, "token" varchar not null, "created_at" datetime, primary key ("email"));
        CREATE TABLE IF NOT EXISTS "sessions" ("id" varchar not null, "user_id" integer, "ip_address" varchar, "user_agent" text, "payload" text not null, "last_activity" integer not null, primary key ("id"));
        CREATE INDEX "sessions_user_id_index" on "sessions" ("user_id");
        CREATE INDEX "sessions_last_activity_index" on "sessions" ("last_activity");
        CREATE TABLE IF NOT EXISTS "cache" ("key" varchar not null, "value" text not null, "expiration" integer not null, primary key ("key"));
        CREATE TABLE IF NOT EXISTS "posts" ("id" integer primary key autoincrement not null, "user_id" integer not null, "title" varchar not null, "status" varchar check ("status" in ('draft', 'published', 'archived')) not null default 'draft', "meta" text, "price" numeric not null default '0', "published_at" datetime, "created_at" datetime, "updated_at" datetime, foreign key("user_id") references "users"("id") on delete cascade);
        CREATE TABLE IF NOT EXISTS "roles" ("id" integer primary key autoincrement not null, "name" varchar not null);
        CREATE TABLE IF NOT EXISTS "role_user" ("role_id" integer not null, "user_id" integer not null, foreign key("role_id") references "roles"("id") on delete cascade, foreign key("user_id") references "users"("id") on delete cascade, primary key ("role_id", "user_id"));
        CREATE TABLE IF NOT EXISTS "personal_access_tokens" ("id" integer primary key autoincrement not null, "tokenable_type" varchar not null, "tokenable_id" integer not null, "name" varchar not null, "token" varchar not null, "abilities" text, "last_used_at" datetime, "expires_at" datetime, "created_at" datetime, "updated_at" datetime);
        CREATE INDEX "personal_access_tokens_tokenable_type_tokenable_id_index" on "personal_access_tokens" ("tokenable_type", "tokenable_id");
        CREATE UNIQUE INDEX "personal_access_tokens_token_unique" on "personal_access_tokens" ("token");
        INSERT INTO "migrations" ("migration", "batch") VALUES ('0001_01_01_000000_create_users_table', 1), ('0001_01_01_000001_create_cache_table', 1), ('2024_05_01_100000_create_posts_table', 2);
        INSERT INTO "users" VALUES (1, 'Taylor', 'taylor@laravel.com', '2024-05-01 12:00:00', '$2y$12$abc', NULL, '2024-05-01 11:59:58', '2024-05-01 12:00:00'),
            (2, 'Abigail', 'abigail@laravel.com', NULL, '$2y$12$def', 'tok', '2024-05-02 08:30:00', '2024-05-02 08:30:00');
        INSERT INTO "sessions" VALUES ('Xk3v9Qm2Lq', 1, '127.0.0.1', 'Mozilla/5.0', 'YTozOntzOjY6Il90b2tlbiI7fQ==', 1714564800), ('Pz8w7Rn1Ks', NULL, '10.0.0.2', 'curl/8.4', 'YToxOnt9', 1714568400);
        INSERT INTO "cache" VALUES ('laravel_cache:settings', 'a:1:{s:5:"theme";s:4:"dark";}', 1714651200);
        INSERT INTO "posts" ("user_id", "title", "status", "meta", "price", "published_at", "created_at", "updated_at") VALUES
            (1, 'Laravel 11', 'published', '{"tags":["release","php"],"views":1200}', 0, '2024-05-01 12:30:00', '2024-05-01 12:10:00', '2024-05-01 12:30:00'),
            (1, 'Draft post', 'draft', NULL, 19.5, NULL, '2024-05-03 09:00:00', '2024-05-03 09:00:00'),
            (2, 'Hello', 'published', '{"tags":[],"views":3}', '4.25', '2024-05-04 10:00:00', '2024-05-04 10:00:00', '2024-05-04 10:00:00');
        INSERT INTO "posts" ("user_id", "title") VALUES (2, 'Defaults');
        INSERT INTO "roles" ("name") VALUES ('admin'), ('editor');
        INSERT INTO "role_user" VALUES (1, 1), (2, 1), (2, 2);
        INSERT INTO "personal_access_tokens" ("tokenable_type", "tokenable_id", "name", "token", "abilities", "last_used_at", "created_at", "updated_at") VALUES
            ('App\\Models\\User', 1, 'cli', 'e3b0c442', '["*"]', '2024-05-05 10:00:00', '2024-05-01 12:00:00', '2024-05-05 10:00:00'),
            ('App\\Models\\Team', 1, 'ci', '98fc1c14', '["deploy"]', NULL, '2024-05-01 12:00:00', '2024-05-01 12:00:00');
        """

    struct User: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "users"
        static let posts = hasMany(Post.self)
        static let roleUsers = hasMany(RoleUser.self)
        static let roles = hasMany(Role.self, through: roleUsers, using: RoleUser.role)
        static let sessions = hasMany(Session.self, using: ForeignKey(["user_id"]))
        // morphMany: the type column tells which table the id is of.
        static let tokens = hasMany(PersonalAccessToken.self, using: ForeignKey(["tokenable_id"]))
            .filter(Column("tokenable_type") == #"App\Models\User"#)
        var id: Int64?
        var name: String
        var email: String
        var email_verified_at: Date?
        var password: String
        var created_at: Date?
        var updated_at: Date?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Post: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "posts"
        static let user = belongsTo(User.self)
        struct Meta: Codable, Equatable { var tags: [String]; var views: Int }
        enum Status: String, Codable { case draft, published, archived }
        var id: Int64?
        var user_id: Int64
        var title: String
        var status: Status
        var meta: Meta?
        var price: Double
        var published_at: Date?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Role: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "roles"
        var id: Int64
        var name: String
    }

    struct RoleUser: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "role_user"
        static let role = belongsTo(Role.self)
        static let user = belongsTo(User.self)
        var role_id: Int64
        var user_id: Int64
    }

    struct Session: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "sessions"
        var id: String
        var user_id: Int64?
        var ip_address: String
        var payload: String
        var last_activity: Int64
    }

    struct PersonalAccessToken: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "personal_access_tokens"
        var id: Int64
        var tokenable_type: String
        var tokenable_id: Int64
        var name: String
        var abilities: [String]
        var last_used_at: Date?
    }

    @Test func enumChecksAndNumericDefaults() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let posts = try Post.order(Column("id")).fetchAll(db)
            #expect(posts.map(\.status) == [.published, .draft, .published, .draft])
            // `numeric` turns '4.25' and the default '0' into numbers.
            #expect(posts.map(\.price) == [0, 19.5, 4.25, 0])
            #expect(try String.fetchAll(db, sql: "SELECT typeof(price) FROM posts ORDER BY id") == ["integer", "real", "real", "integer"])
            #expect(posts.map(\.meta) == [Post.Meta(tags: ["release", "php"], views: 1200), nil, Post.Meta(tags: [], views: 3), nil])
            var post = posts[1]
            post.status = .archived
            try post.update(db)
            #expect(try String.fetchOne(db, sql: "SELECT status FROM posts WHERE id = 2") == "archived")
            // A status outside the enum is refused by the CHECK, and an
            // unknown stored status is a decoding error.
            let check = #expect(throws: DatabaseError.self) {
                try Post.filter(key: 2).updateAll(db, Column("status").set(to: "deleted"))
            }
            #expect(check?.resultCode == .SQLITE_CONSTRAINT)
            #expect(check?.message?.hasPrefix("CHECK constraint failed: ") == true)
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON; UPDATE posts SET status = 'deleted' WHERE id = 2; PRAGMA ignore_check_constraints = OFF")
            let error = #expect(throws: RowDecodingError.self) { try Post.fetchOne(db, key: 2) }
            #expect(error?.message.contains("deleted") == true)
            let views = try Int.fetchOne(db, Post.select(sum(JSONColumn("meta")["views"])))
            #expect(views == 1203)
        }
    }

    @Test func varcharKeysAreNotTheRowid() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            #expect(try db.primaryKey("sessions").columns == ["id"])
            #expect(try db.primaryKey("sessions").rowIDColumn == nil)
            #expect(try db.primaryKey("cache").columns == ["key"])
            var session = try #require(try Session.fetchOne(db, key: "Xk3v9Qm2Lq"))
            session.last_activity = 1714570000
            try session.save(db)
            try Session(id: "Nn4m5Bv6Cx", user_id: 2, ip_address: "::1", payload: "", last_activity: 1714571000).save(db)
            #expect(try Session.fetchCount(db) == 3)
            #expect(try Session.filter(Column("user_id") == nil).fetchCount(db) == 1)
            // Garbage collection of old sessions.
            #expect(try Session.filter(Column("last_activity") < 1714570000).deleteAll(db) == 1)
            // The cache stores serialized PHP in a table keyed by `key`.
            try db.execute(sql: #"INSERT INTO "cache" VALUES (?, ?, ?) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value""#,
                           arguments: ["laravel_cache:settings", "a:0:{}", 1714651200])
            #expect(try String.fetchOne(db, Table("cache").select(Column("value")).filter(key: ["key": "laravel_cache:settings"])) == "a:0:{}")
            #expect(try Table("cache").filter(key: "laravel_cache:settings").deleteAll(db) == 1)
        }
    }

    @Test func pivotAndPolymorphicRelations() throws {
        struct UserInfo: Decodable, FetchableRecord {
            var user: User
            var roles: [Role]
            var tokens: [PersonalAccessToken]
            var postCount: Int
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let users = try User
                .including(all: User.roles.order(Column("name")))
                .including(all: User.tokens.forKey("tokens"))
                .annotated(with: User.posts.filter(Column("status") == "published").count)
                .order(Column("id")).asRequest(of: UserInfo.self).fetchAll(db)
            #expect(users.map { $0.roles.map(\.name) } == [["admin", "editor"], ["editor"]])
            // The team token of id 1 is not the user's.
            #expect(users.map { $0.tokens.map(\.name) } == [["cli"], []])
            #expect(users[0].tokens.first?.abilities == ["*"])
            #expect(users.map(\.postCount) == [1, 1])
            #expect(users[0].user.email_verified_at == Date(timeIntervalSince1970: 1_714_564_800))
            #expect(users[1].user.email_verified_at == nil)
            let editors = try User.joining(required: User.roles.filter(Column("name") == "editor")).order(Column("name")).fetchAll(db)
            #expect(editors.map(\.name) == ["Abigail", "Taylor"])
        }
    }

    @Test func deletingAUserCascadesToPostsAndPivot() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            var user = User(id: nil, name: "Nuno", email: "nuno@laravel.com", email_verified_at: nil, password: "x",
                            created_at: Date(timeIntervalSince1970: 1_714_900_000), updated_at: nil)
            try user.insert(db)
            #expect(user.id == 3)
            #expect(try String.fetchOne(db, sql: "SELECT created_at FROM users WHERE id = 3") == "2024-05-05 09:06:40.000")
            var post = Post(id: nil, user_id: 3, title: "Pest", status: .draft, meta: Post.Meta(tags: ["testing"], views: 0),
                            price: 0, published_at: nil)
            try post.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT meta FROM posts WHERE id = ?", arguments: [post.id]) == #"{"tags":["testing"],"views":0}"#)
            try RoleUser(role_id: 2, user_id: 3).insert(db)
            let duplicate = #expect(throws: DatabaseError.self) { try RoleUser(role_id: 2, user_id: 3).insert(db) }
            #expect(duplicate?.message == "UNIQUE constraint failed: role_user.role_id, role_user.user_id")
            let taken = #expect(throws: DatabaseError.self) {
                var twin = user
                twin.id = nil
                try twin.insert(db)
            }
            #expect(taken?.message == "UNIQUE constraint failed: users.email")
            #expect(try user.delete(db))
            #expect(try Post.filter(Column("user_id") == 3).fetchCount(db) == 0)
            #expect(try RoleUser.filter(Column("user_id") == 3).fetchCount(db) == 0)
            #expect(try RoleUser.fetchCount(db) == 3)
        }
    }
}
