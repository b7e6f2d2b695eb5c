import Foundation
import Testing
import Trellis

/// A database migrated by Prisma: PascalCase table names in double
/// quotes, named foreign key constraints (`Post_authorId_fkey`) with
/// `ON DELETE RESTRICT ON UPDATE CASCADE`, a one-to-one relation made by
/// a unique index (`Profile_userId_key`), an implicit many-to-many table
/// `_CategoryToPost` whose columns are `A` and `B` with a unique index
/// and no primary key, `DateTime` values that Prisma writes as INTEGER
/// milliseconds while the `CURRENT_TIMESTAMP` default writes text,
/// `BIGINT` and `DECIMAL` columns, and Prisma's `_prisma_migrations`.
@Suite struct PrismaTests {
    static let script = """
        CREATE TABLE "_prisma_migrations" ("id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME, "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME, "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0);
        CREATE TABLE "User" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "email" TEXT NOT NULL, "name" TEXT, "role" TEXT NOT NULL DEFAULT 'USER', "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "views" BIGINT NOT NULL DEFAULT 0);
        CREATE TABLE "Post" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "content" TEXT, "published" BOOLEAN NOT NULL DEFAULT false, "price" DECIMAL, "authorId" INTEGER NOT NULL, "updatedAt" DATETIME NOT NULL, CONSTRAINT "Post_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE);
        CREATE TABLE "Profile" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "bio" TEXT NOT NULL, "userId" INTEGER NOT NULL, CONSTRAINT "Profile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE);
        CREATE TABLE "Category" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL);
        CREATE TABLE "_CategoryToPost" ("A" INTEGER NOT NULL, "B" INTEGER NOT NULL, CONSTRAINT "_CategoryToPost_A_fkey" FOREIGN KEY ("A") REFERENCES "Category" ("id") ON DELETE CASCADE ON UPDATE CASCADE, CONSTRAINT "_CategoryToPost_B_fkey" FOREIGN KEY ("B") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE);
        CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
        CREATE UNIQUE INDEX "Profile_userId_key" ON "Profile"("userId");
        CREATE UNIQUE INDEX "_CategoryToPost_AB_unique" ON "_CategoryToPost"("A", "B");
        CREATE INDEX "_CategoryToPost_B_index" ON "_CategoryToPost"("B");
        INSERT INTO "_prisma_migrations" VALUES ('0f6f3c1e-8a4e-4a52-9d0c-2f1b5e1c9a11', 'e3b0c44298fc1c149afbf4c8996fb924', 1700000000512, '20231114221320_init', NULL, NULL, 1700000000100, 1);
        INSERT INTO "User" VALUES (1, 'alice@prisma.io', 'Alice', 'ADMIN', 1700000000000, 9007199254740993), (2, 'bob@prisma.io', NULL, 'USER', 1700000360000, 0);
        INSERT INTO "User" ("id", "email", "name") VALUES (3, 'carol@prisma.io', 'Carol');
        INSERT INTO "Post" VALUES (1, 'Hello World', 'First', true, '19.99', 1, 1700000400000), (2, 'Drafts', NULL, false, NULL, 1, 1700000500000), (3, 'Bob writes', 'Hi', true, 5, 2, 1700000600000);
        INSERT INTO "Profile" VALUES (1, 'I like turtles', 1);
        INSERT INTO "Category" VALUES (1, 'news'), (2, 'tech'), (3, 'empty');
        INSERT INTO "_CategoryToPost" VALUES (1, 1), (2, 1), (2, 3);
        """

    struct User: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "User"
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
        // The default keys are the table names, `Post` and `Profile`.
        static let posts = hasMany(Post.self, key: "posts")
        static let profile = hasOne(Profile.self, key: "profile")
        var id: Int64?
        var email: String
        var name: String?
        var role: String
        var createdAt: Date
        var views: Int64
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Post: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "Post"
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
        static let author = belongsTo(User.self)
        static let categoryLinks = hasMany(CategoryToPost.self)
        static let categories = hasMany(Category.self, through: categoryLinks, using: CategoryToPost.category)
        var id: Int64?
        var title: String
        var content: String?
        var published: Bool
        var price: Decimal?
        var authorId: Int64
        var updatedAt: Date
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Profile: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "Profile"
        static let user = belongsTo(User.self)
        var id: Int64?
        var bio: String
        var userId: Int64
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Category: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "Category"
        static let postLinks = hasMany(CategoryToPost.self)
        static let posts = hasMany(Post.self, through: postLinks, using: CategoryToPost.post)
        var id: Int64?
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct CategoryToPost: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "_CategoryToPost"
        static let category = belongsTo(Category.self)
        static let post = belongsTo(Post.self)
        var A: Int64
        var B: Int64
    }

    @Test func constraintsAreIntrospectedWithTheirActions() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let postKeys = try db.foreignKeys(on: "Post")
            #expect(postKeys.map(\.destinationTable) == ["User"])
            #expect(postKeys.map(\.originColumns) == [["authorId"]])
            #expect(postKeys.map(\.destinationColumns) == [["id"]])
            let links = try db.foreignKeys(on: "_CategoryToPost")
            #expect(Set(links.map(\.destinationTable)) == ["Category", "Post"])
            #expect(try db.primaryKey("_CategoryToPost").columns == ["rowid"])
            #expect(try db.table("_CategoryToPost", hasUniqueKey: ["B", "A"]))
            #expect(try db.table("Profile", hasUniqueKey: ["userId"]))
            #expect(try db.columns(in: "_prisma_migrations").first { $0.name == "applied_steps_count" }?.type == "INTEGER UNSIGNED")
            // Table names are case-insensitive, as in SQLite.
            #expect(try db.tableExists("user"))
            #expect(try User.fetchCount(db) == 3)
        }
    }

    @Test func relationsAreInferredFromPrismaConstraints() throws {
        struct UserInfo: Decodable, FetchableRecord {
            var user: User
            var profile: Profile?
            var posts: [Post]
        }
        struct CategoryInfo: Decodable, FetchableRecord {
            var category: Category
            var postCount: Int
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let users = try User.filter([1, 2].contains(Column("id")))
                .including(optional: User.profile)
                .including(all: User.posts.order(Column("id")))
                .order(Column("id")).asRequest(of: UserInfo.self).fetchAll(db)
            #expect(users.map { $0.profile?.bio } == ["I like turtles", nil])
            #expect(users.map { $0.posts.map(\.title) } == [["Hello World", "Drafts"], ["Bob writes"]])
            let categories = try Category.annotated(with: Category.posts.count).order(Column("name"))
                .asRequest(of: CategoryInfo.self).fetchAll(db)
            #expect(categories.map(\.category.name) == ["empty", "news", "tech"])
            #expect(categories.map(\.postCount) == [0, 1, 2])
            let techByBob = try Post.joining(required: Post.categories.filter(Column("name") == "tech"))
                .joining(required: Post.author.filter(Column("email") == "bob@prisma.io")).fetchAll(db)
            #expect(techByBob.map(\.title) == ["Bob writes"])
            let post = try #require(try Post.fetchOne(db, key: 1))
            #expect(try post.request(for: Post.categories).order(Column("name")).fetchAll(db).map(\.name) == ["news", "tech"])
        }
    }

    @Test func millisecondDatesAreDecodedAndDefaultsInTextAreRejected() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let alice = try #require(try User.fetchOne(db, key: 1))
            #expect(alice.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
            // 2^53 + 1: a BIGINT that a Double would round.
            #expect(alice.views == 9_007_199_254_740_993)
            // Carol was inserted by SQL: the default wrote text, which is
            // no number of milliseconds.
            let error = #expect(throws: RowDecodingError.self) { try User.fetchOne(db, key: 3) }
            #expect(error?.message.contains("createdAt") == true)
            #expect(try String.fetchOne(db, sql: #"SELECT typeof("createdAt") FROM "User" WHERE id = 3"#) == "text")
            var dave = User(id: nil, email: "dave@prisma.io", name: "Dave", role: "USER",
                            createdAt: Date(timeIntervalSince1970: 1_700_001_000.25), views: 0)
            try dave.insert(db)
            #expect(try Int64.fetchOne(db, sql: #"SELECT "createdAt" FROM "User" WHERE id = ?"#, arguments: [dave.id]) == 1_700_001_000_250)
            // Text sorts after every number: Carol's row is kept out.
            let recent = try User.filter(Column("createdAt") > 1_700_000_100_000)
                .filter(sql: #"typeof("createdAt") = 'integer'"#).fetchAll(db)
            #expect(recent.map(\.email) == ["bob@prisma.io", "dave@prisma.io"])
        }
    }

    @Test func decimalsAndBooleansOfPrismaColumns() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let posts = try Post.order(Column("id")).fetchAll(db)
            #expect(posts.map(\.published) == [true, false, true])
            #expect(posts.map(\.price) == [Decimal(string: "19.99"), nil, Decimal(5)])
            #expect(try String.fetchOne(db, sql: #"SELECT typeof("price") FROM "Post" WHERE id = 1"#) == "real")
            var post = Post(id: nil, title: "Priced", content: nil, published: false, price: Decimal(string: "0.1"),
                            authorId: 2, updatedAt: Date(timeIntervalSince1970: 1_700_002_000))
            try post.insert(db)
            let stored = try #require(try Post.fetchOne(db, key: post.id))
            #expect(stored.price == Decimal(string: "0.1"))
            let total = try Double.fetchOne(db, Post.select(sum(Column("price"))))
            #expect(total.map { abs($0 - 25.09) < 1e-9 } == true)
            let perAuthor = try Row.fetchAll(db, User.annotated(with: User.posts.filter(Column("published") == true).count).order(Column("id")))
            #expect(perAuthor.map { $0["postCount"] as Int } == [1, 1, 0])
        }
    }

    @Test func restrictAndCascadeActionsAreEnforced() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            // RESTRICT: a user with posts cannot be deleted.
            let error = #expect(throws: DatabaseError.self) { try User.deleteOne(db, key: 2) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.message == "FOREIGN KEY constraint failed")
            // ON UPDATE CASCADE: a new id reaches the posts.
            try db.execute(sql: #"UPDATE "User" SET id = 20 WHERE id = 2"#)
            #expect(try Post.fetchOne(db, key: 3)?.authorId == 20)
            // Deleting a post removes its links to categories.
            #expect(try CategoryToPost.fetchCount(db) == 3)
            #expect(try Post.deleteOne(db, key: 1))
            #expect(try CategoryToPost.fetchAll(db).map { [$0.A, $0.B] } == [[2, 3]])
            // The link table's unique index is its key.
            try CategoryToPost(A: 1, B: 3).insert(db)
            #expect(try CategoryToPost.exists(db, key: ["A": 1, "B": 3]))
            let duplicate = #expect(throws: DatabaseError.self) { try CategoryToPost(A: 1, B: 3).insert(db) }
            #expect(duplicate?.message == "UNIQUE constraint failed: _CategoryToPost.A, _CategoryToPost.B")
            #expect(try CategoryToPost.deleteOne(db, key: ["A": 1, "B": 3]))
            // A second profile for one user breaks the one-to-one index.
            let second = #expect(throws: DatabaseError.self) {
                var profile = Profile(id: nil, bio: "Again", userId: 1)
                try profile.insert(db)
            }
            #expect(second?.message == "UNIQUE constraint failed: Profile.userId")
        }
    }
}
