import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on a Prisma database: PascalCase tables, whose
/// default association keys are their names (`User`), a one-to-one
/// relation by a unique index, and the implicit many-to-many table
/// `_CategoryToPost` with columns `A` and `B` and no primary key.
@Suite struct InspectPrismaTests {
    static let sql = """
        CREATE TABLE "User" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "email" TEXT NOT NULL, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP);
        CREATE TABLE "Post" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "published" BOOLEAN NOT NULL DEFAULT false, "authorId" INTEGER NOT NULL, CONSTRAINT "Post_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE);
        CREATE TABLE "Profile" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "bio" TEXT NOT NULL, "userId" INTEGER NOT NULL, CONSTRAINT "Profile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE);
        CREATE TABLE "Category" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL);
        CREATE TABLE "_CategoryToPost" ("A" INTEGER NOT NULL, "B" INTEGER NOT NULL, CONSTRAINT "_CategoryToPost_A_fkey" FOREIGN KEY ("A") REFERENCES "Category" ("id") ON DELETE CASCADE ON UPDATE CASCADE, CONSTRAINT "_CategoryToPost_B_fkey" FOREIGN KEY ("B") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE);
        CREATE UNIQUE INDEX "Profile_userId_key" ON "Profile"("userId");
        CREATE UNIQUE INDEX "_CategoryToPost_AB_unique" ON "_CategoryToPost"("A", "B");
        CREATE INDEX "_CategoryToPost_B_index" ON "_CategoryToPost"("B");
        """

    @Test func associationKeysMatchTheMemberNames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-prisma-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try InspectedDatabase.write(Self.sql, at: path)
        let report = try SchemaInspector.inspect(path: path)
        func declarations(_ table: String) -> [String] {
            report.associations.filter { $0.table == table }.map(\.declaration)
        }
        #expect(declarations("User") == [
            #"static let posts = hasMany(Post.self, key: "posts")"#,
            #"static let profile = hasOne(Profile.self, key: "profile")"#,
        ])
        #expect(declarations("Post") == [
            #"static let user = belongsTo(User.self, key: "user")"#,
            #"static let categoryToPosts = hasMany(CategoryToPost.self, key: "categoryToPosts")"#,
            #"static let categories = hasMany(Category.self, through: categoryToPosts, using: CategoryToPost.category, key: "categories")"#,
        ])
        #expect(report.associations.first { $0.table == "User" && $0.destination == "Profile" }?.kind == "hasOne")
        let link = try #require(report.tables.first { $0.name == "_CategoryToPost" })
        #expect(link.hasExplicitPrimaryKey == false)
        #expect(link.indexes.map(\.name) == ["_CategoryToPost_B_index", "_CategoryToPost_AB_unique"])
        let text = ReportRenderer.text(report)
        #expect(text.contains("Foreign key: (authorId) -> User(id) ON DELETE RESTRICT ON UPDATE CASCADE\n"))
        #expect(text.contains("Table _CategoryToPost\n"))
        #expect(report.ambiguities.isEmpty && report.warnings.isEmpty)
    }
}
