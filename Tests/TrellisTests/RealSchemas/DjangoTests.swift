import Foundation
import Testing
import Trellis

/// A database made by Django's SQLite backend: `app_model` tables,
/// `"id" integer NOT NULL PRIMARY KEY AUTOINCREMENT`, deferred foreign keys,
/// booleans as 0 and 1, datetimes as text with microseconds.
@Suite struct DjangoTests {
    static let script = """
        CREATE TABLE "django_migrations" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, "name" varchar(255) NOT NULL, "applied" datetime NOT NULL);
        CREATE TABLE "auth_user" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "password" varchar(128) NOT NULL, "last_login" datetime NULL, "is_superuser" bool NOT NULL, "username" varchar(150) NOT NULL UNIQUE, "last_name" varchar(150) NOT NULL, "email" varchar(254) NOT NULL, "is_staff" bool NOT NULL, "is_active" bool NOT NULL, "date_joined" datetime NOT NULL, "first_name" varchar(150) NOT NULL);
        CREATE TABLE "auth_group" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(150) NOT NULL UNIQUE);
        CREATE TABLE "auth_user_groups" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "user_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, "group_id" integer NOT NULL REFERENCES "auth_group" ("id") DEFERRABLE INITIALLY DEFERRED);
        CREATE UNIQUE INDEX "auth_user_groups_user_id_group_id_94350c0c_uniq" ON "auth_user_groups" ("user_id", "group_id");
        CREATE INDEX "auth_user_groups_user_id_6a12ed8b" ON "auth_user_groups" ("user_id");
        CREATE INDEX "auth_user_groups_group_id_97559544" ON "auth_user_groups" ("group_id");
        CREATE TABLE "blog_post" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "title" varchar(200) NOT NULL, "body" text NOT NULL, "published_at" datetime NULL, "rating" decimal NOT NULL, "author_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, "reviewer_id" integer NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED);
        CREATE INDEX "blog_post_author_id_dd7a8485" ON "blog_post" ("author_id");
        INSERT INTO "django_migrations" ("app", "name", "applied") VALUES ('auth', '0001_initial', '2024-03-05 14:30:00.123456'), ('blog', '0001_initial', '2024-03-05 14:30:01.5');
        INSERT INTO "auth_user" VALUES (1, 'pbkdf2_sha256$x', NULL, 1, 'admin', 'Doe', 'admin@example.com', 1, 1, '2024-03-05 14:30:00.123456', 'Jane');
        INSERT INTO "auth_user" VALUES (2, 'pbkdf2_sha256$y', '2024-03-06T09:15:00', 0, 'writer', 'Roe', 'writer@example.com', 0, 1, '2024-03-06 09:00:00', 'Rick');
        INSERT INTO "auth_group" VALUES (1, 'editors'), (2, 'readers');
        INSERT INTO "auth_user_groups" ("user_id", "group_id") VALUES (1, 1), (2, 1), (2, 2);
        INSERT INTO "blog_post" VALUES (1, 'Hello', 'First post', '2024-03-07 08:00:00', '4.5', 2, 1), (2, 'Draft', 'Later', NULL, 3, 2, NULL);
        """

    struct User: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "auth_user"
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        static let userGroups = hasMany(UserGroup.self)
        static let groups = hasMany(Group.self, through: userGroups, using: UserGroup.group)
        static let posts = hasMany(Post.self, using: ForeignKey(["author_id"]))
        var id: Int64?
        var password: String
        var lastLogin: Date?
        var isSuperuser: Bool
        var username: String
        var lastName: String
        var email: String
        var isStaff: Bool
        var isActive: Bool
        var dateJoined: Date
        var firstName: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Group: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "auth_group"
        var id: Int64
        var name: String
    }

    struct UserGroup: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "auth_user_groups"
        static let group = belongsTo(Group.self)
        var id: Int64
        var user_id: Int64
        var group_id: Int64
    }

    struct Post: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "blog_post"
        static let author = belongsTo(User.self, key: "author", using: ForeignKey(["author_id"]))
        static let reviewer = belongsTo(User.self, key: "reviewer", using: ForeignKey(["reviewer_id"]))
        var id: Int64?
        var title: String
        var body: String
        var published_at: Date?
        var rating: Double
        var author_id: Int64
        var reviewer_id: Int64?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func theSchemaAndItsAutoincrementedKeys() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { db in
            let key = try db.primaryKey("auth_user")
            #expect(key.columns == ["id"])
            #expect(key.rowIDColumn == "id")
            #expect(try db.columns(in: "auth_user").first { $0.name == "is_superuser" }?.type == "bool")
            #expect(try db.foreignKeys(on: "blog_post").map(\.originColumns).sorted { $0[0] < $1[0] } == [["author_id"], ["reviewer_id"]])
            #expect(try db.table("auth_user_groups", hasUniqueKey: ["group_id", "user_id"]))
            #expect(try db.table("auth_user", hasUniqueKey: ["username"]))
            #expect(try db.tableExists("sqlite_sequence"))
            #expect(try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'auth_user'") == 2)
            for (_, name) in try file.schemaObjects(db) {
                #expect(try Table(name).fetchAll(db).count == (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name.quotedDatabaseIdentifier)")))
            }

            var user = User(
                id: nil, password: "x", lastLogin: nil, isSuperuser: false, username: "reader", lastName: "Poe",
                email: "reader@example.com", isStaff: false, isActive: true,
                dateJoined: Date(timeIntervalSince1970: 1_710_000_000), firstName: "Edgar")
            try user.insert(db)
            #expect(user.id == 3)
            #expect(try Row.fetchOne(db, sql: "SELECT is_superuser, date_joined FROM auth_user WHERE id = 3")
                == ["is_superuser": 0, "date_joined": "2024-03-09 16:00:00.000"])
            let duplicate = #expect(throws: DatabaseError.self) {
                var copy = user
                copy.id = nil
                try copy.insert(db)
            }
            #expect(duplicate?.message == "UNIQUE constraint failed: auth_user.username")
        }
    }

    @Test func djangoDatesAndBooleansDecode() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let users = try User.order(Column("id")).fetchAll(db)
            #expect(users.map(\.isSuperuser) == [true, false])
            #expect(users.map(\.firstName) == ["Jane", "Rick"])
            // Microseconds, and the ISO 8601 "T".
            let joined = users[0].dateJoined.timeIntervalSince1970
            #expect(abs(joined - 1_709_649_000.123456) < 0.001)
            #expect(users[1].lastLogin == Date(timeIntervalSince1970: 1_709_716_500))
            #expect(users[0].lastLogin == nil)
            // A decimal column of Django holds text or numbers.
            let posts = try Post.order(Column("id")).fetchAll(db)
            #expect(posts.map(\.rating) == [4.5, 3])
            #expect(posts.map(\.published_at) == [Date(timeIntervalSince1970: 1_709_798_400), nil])
        }
    }

    @Test func textDatesOfEveryFormatRealToolsWrite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let expected = Date(timeIntervalSince1970: 1_230_768_000)  // 2009-01-01 00:00:00 UTC
            for text in ["2009-01-01 00:00:00", "2009-01-01T00:00:00", "2009-01-01 00:00", "2009-01-01T00:00",
                         "2009-01-01", "2009-01-01 00:00:00.000", "2009-01-01T00:00:00Z", "2009-01-01T02:00:00+02:00"] {
                #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) == expected, "\(text)")
            }
            #expect(try Date.fetchOne(db, sql: "SELECT '2009-01-01T00:00:00.250'") == expected.addingTimeInterval(0.25))
            // Text that is no date fails with a decoding error, and so
            // does a month 13.
            for text in ["yesterday", "2009-13-01 00:00:00", ""] {
                #expect(throws: RowDecodingError.self, "\(text)") { try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) }
            }
        }
    }

    @Test func ambiguousForeignKeysNeedAnExplicitOne() throws {
        struct PostInfo: Decodable, FetchableRecord {
            var post: Post
            var author: User
            var reviewer: User?
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let error = #expect(throws: DatabaseError.self) {
                try Post.including(required: Post.belongsTo(User.self)).fetchAll(db)
            }
            #expect(error?.message?.hasPrefix("Ambiguous foreign key from blog_post to auth_user") == true)
            let infos = try Post
                .including(required: Post.author)
                .including(optional: Post.reviewer)
                .order(Column("id"))
                .asRequest(of: PostInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.author.username) == ["writer", "writer"])
            #expect(infos.map { $0.reviewer?.username } == ["admin", nil])

            let writer = try #require(try User.fetchOne(db, key: 2))
            #expect(try writer.request(for: User.groups).order(Column("name")).fetchAll(db).map(\.name) == ["editors", "readers"])
            #expect(try writer.request(for: User.posts).fetchCount(db) == 2)
            let memberCounts = try Row.fetchAll(db, User.annotated(with: User.groups.count.forKey("groupCount")).order(Column("id")))
            #expect(memberCounts.map { $0["groupCount"] as Int } == [1, 2])
        }
    }

    @Test func deferredForeignKeysAreCheckedAtCommit() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                var post = Post(id: nil, title: "Orphan", body: "", published_at: nil, rating: 0, author_id: 99, reviewer_id: nil)
                try post.insert(db)  // accepted until the commit
                #expect(post.id == 3)
            }
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        #expect(try dbQueue.read { db in try Post.fetchCount(db) } == 2)
    }

    @Test func aMigratorRunsBesideDjangoMigrations() throws {
        let file = try RealDatabaseFile(Self.script)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.alter(table: "blog_post") { t in t.add(column: "slug", .text) }
            try db.execute(sql: "UPDATE blog_post SET slug = lower(title)")
        }
        let dbQueue = try file.open()
        try migrator.migrate(dbQueue)
        let migrated = migrator
        try dbQueue.read { (db: Database) throws in
            #expect(try String.fetchAll(db, sql: "SELECT slug FROM blog_post ORDER BY id") == ["hello", "draft"])
            #expect(try migrated.appliedIdentifiers(db) == ["v1"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM django_migrations") == 2)
        }
    }
}
