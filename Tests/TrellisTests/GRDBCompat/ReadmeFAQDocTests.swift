import Foundation
import Testing
import Trellis

// GRDB's README, "FAQ: SQL", "FAQ: General" and "FAQ: Associations": each
// sample run as written, with the values and SQL the README shows.

private struct Author: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String

    enum Columns {
        static let name = Column(CodingKeys.name)
    }
}

private struct Book: Codable, FetchableRecord, PersistableRecord {
    static let author = belongsTo(Author.self)
    var id: Int64
    var authorId: Int64?
    var title: String
}

/// "How do I select only one column of an associated record?"
private struct BookInfo: Decodable, FetchableRecord {
    var book: Book
    var authorName: String?

    static func all() -> QueryInterfaceRequest<BookInfo> {
        Book
            .annotated(withOptional: Book.author.select {
                $0.name.forKey(CodingKeys.authorName)
            })
            .asRequest(of: BookInfo.self)
    }
}

/// "Custom Requests", with `asRequest(of:)`.
private struct BookAndAuthor: FetchableRecord, Decodable {
    var book: Book
    var author: Author
}

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var email: String?
    var color: Color

    enum Color: String, Codable, DatabaseValueConvertible {
        case red, blue
    }

    static func filter(color: Color) -> SQLRequest<Player> {
        SQLRequest<Player>(
            sql: "SELECT * FROM player WHERE color = ? ORDER BY id",
            arguments: [color])
    }

    static func interpolatedFilter(color: Color) -> SQLRequest<Player> {
        "SELECT * FROM player WHERE color = \(color) ORDER BY id"
    }

    enum Columns {
        static let email = Column(CodingKeys.email)
    }
}

@Suite struct ReadmeFAQDocTests {
    private func makeDatabase(_ configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db throws in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author")
                t.column("title", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text)
                t.column("color", .text).notNull()
            }
            try Author(id: 1, name: "Homer").insert(db)
            try Book(id: 1, authorId: 1, title: "Iliad").insert(db)
            try Book(id: 2, authorId: nil, title: "Beowulf").insert(db)
            try Book(id: 3, authorId: 1, title: "Odyssey").insert(db)
            try Player(id: 1, email: "arthur@example.com", color: .red).insert(db)
            try Player(id: 2, email: nil, color: .blue).insert(db)
            try Player(id: 3, email: "craig@example.com", color: .red).insert(db)
        }
        return dbQueue
    }

    @Test func printingARequestAsSQL() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.filter { $0.email == "arthur@example.com" }
            let statement = try request.makePreparedRequest(db).statement
            #expect("\(statement)" == #"SELECT * FROM "player" WHERE "email" = ?"#)
            #expect(statement.arguments == ["arthur@example.com"])
            #expect("\(statement.arguments)" == #"["arthur@example.com"]"#)
        }
    }

    @Test func tracingAndProfilingStatements() throws {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var events: [String] = []
            var profiled: [String] = []
            func append(_ event: String, profiled sql: String?) {
                lock.lock()
                events.append(event)
                if let sql { profiled.append(sql) }
                lock.unlock()
            }
        }
        let log = Log()
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.trace(options: .profile) { event in
                if case let .profile(statement, duration) = event, duration >= 0 {
                    log.append(event.description, profiled: statement.sql)
                } else {
                    log.append(event.description, profiled: nil)
                }
            }
        }
        let dbQueue = try makeDatabase(config)
        _ = try dbQueue.read { db throws in
            try Player.filter { $0.email == "arthur@example.com" }.fetchAll(db)
        }
        let sql = #"SELECT * FROM "player" WHERE "email" = ?"#
        #expect(log.profiled.contains(sql))
        let event = try #require(log.events.first { $0.hasSuffix(sql) })
        #expect(event.range(of: #"^[0-9]+\.[0-9]{3}s SELECT"#, options: .regularExpression) != nil)
    }

    @Test func filteringOnTheExistenceOfAnAssociatedRecord() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let books = try Book.joining(required: Book.author).order(Column("id")).fetchAll(db)
            #expect(books.map(\.title) == ["Iliad", "Odyssey"])

            let authorAlias = TableAlias<Author>()
            let anonymous = try Book
                .joining(optional: Book.author.aliased(authorAlias))
                .filter(!authorAlias.exists)
                .fetchAll(db)
            #expect(anonymous.map(\.title) == ["Beowulf"])
            let sql = try Book
                .joining(optional: Book.author.aliased(authorAlias))
                .filter(!authorAlias.exists)
                .makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "book".* FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId" WHERE "author"."id" IS NULL"#)
        }
    }

    @Test func selectingOneColumnOfAnAssociatedRecord() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let bookInfos = try BookInfo.all().order(Column("id")).fetchAll(db)
            #expect(bookInfos.map(\.book.title) == ["Iliad", "Beowulf", "Odyssey"])
            #expect(bookInfos.map(\.authorName) == ["Homer", nil, "Homer"])
            let sql = try BookInfo.all().makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "book".*, "author"."name" AS "authorName" FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId""#)
        }
    }

    @Test func customRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Player.filter(color: .red).fetchAll(db).map(\.id) == [1, 3])
            #expect(try Player.interpolatedFilter(color: .red).fetchAll(db).map(\.id) == [1, 3])
            #expect(try Player.interpolatedFilter(color: .blue).fetchCount(db) == 1)

            let request = Book
                .including(required: Book.author)
                .asRequest(of: BookAndAuthor.self)
            let infos = try request.fetchAll(db)
            #expect(infos.map(\.book.title).sorted() == ["Iliad", "Odyssey"])
            #expect(infos.map(\.author.name) == ["Homer", "Homer"])

            let request2 = Player.all()
            #expect(try request2.fetchCursor(db).map(\.id).toArray().sorted() == [1, 2, 3])
            #expect(try request2.fetchOne(db) != nil)
            #expect(try request2.fetchCount(db) == 3)
        }
    }
}
