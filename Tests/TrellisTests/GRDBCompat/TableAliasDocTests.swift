import Foundation
import Testing
import Trellis

// GRDB's reference of `TableAlias`: its samples (books published after their
// author died, a named alias, `exists`), and its subscripts that qualify a
// column, an expression, a selection and an ordering with the aliased table.

private struct Author: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var deathDate: Date?
    static let books = hasMany(Book.self)
}

private struct Book: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var authorId: Int64?
    var title: String
    var publishDate: Date
    var price: Double
    var discount: Double
    static let author = belongsTo(Author.self)
}

@Suite struct TableAliasDocTests {
    private func makeDatabase(_ trace: StatementTrace) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try dbQueue.write { db in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("deathDate", .datetime)
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("author")
                t.column("title", .text).notNull()
                t.column("publishDate", .datetime).notNull()
                t.column("price", .double).notNull()
                t.column("discount", .double).notNull()
            }
            let day: TimeInterval = 86_400
            try Author(id: 1, name: "Kafka", deathDate: Date(timeIntervalSince1970: 10 * day)).insert(db)
            try Author(id: 2, name: "Austen", deathDate: nil).insert(db)
            try Book(id: 1, authorId: 1, title: "The Castle", publishDate: Date(timeIntervalSince1970: 20 * day), price: 10, discount: 8).insert(db)
            try Book(id: 2, authorId: 1, title: "Contemplation", publishDate: Date(timeIntervalSince1970: 5 * day), price: 12, discount: 1).insert(db)
            try Book(id: 3, authorId: 2, title: "Emma", publishDate: Date(timeIntervalSince1970: 1 * day), price: 9, discount: 0).insert(db)
            try Book(id: 4, authorId: nil, title: "Beowulf", publishDate: Date(timeIntervalSince1970: 1 * day), price: 5, discount: 0).insert(db)
        }
        _ = trace.take()
        return dbQueue
    }

    @Test func booksPublishedAfterTheirAuthorDied() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.read { (db: Database) throws in
            let authorAlias = TableAlias()
            let request = Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter(Column("publishDate") >= authorAlias[Column("deathDate")])
            #expect(try request.fetchAll(db).map(\.title) == ["The Castle"])

            let namedAlias = TableAlias(name: "a")
            let namedRequest = Book
                .joining(required: Book.author.aliased(namedAlias))
                .filter(Column("publishDate") >= namedAlias[Column("deathDate")])
            _ = trace.take()
            #expect(try namedRequest.fetchAll(db).map(\.title) == ["The Castle"])
            #expect(trace.take() == [
                #"SELECT "book".* FROM "book" JOIN "author" "a" ON "a"."id" = "book"."authorId" WHERE "book"."publishDate" >= "a"."deathDate""#,
            ])
        }
    }

    @Test func existsTellsTheBooksWithoutAuthor() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.read { (db: Database) throws in
            let authorAlias = TableAlias()
            let request = Book
                .joining(optional: Book.author.aliased(authorAlias))
                .filter(!authorAlias.exists)
            #expect(try request.fetchAll(db).map(\.title) == ["Beowulf"])
        }
    }

    @Test func anExpressionIsQualifiedWithTheAliasedTable() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.read { (db: Database) throws in
            // Both tables have an `id`: the expression reads the books'.
            let bookAlias = TableAlias(name: "b")
            let request = Author
                .joining(required: Author.books.aliased(bookAlias))
                .filter(bookAlias[Column("price") - Column("discount")] > 8)
                .select(Column("name"), as: String.self)
                .distinct()
            _ = trace.take()
            #expect(try request.fetchAll(db).sorted() == ["Austen", "Kafka"])
            #expect(trace.take() == [
                #"SELECT DISTINCT "author"."name" FROM "author" JOIN "book" "b" ON "b"."authorId" = "author"."id" WHERE ("b"."price" - "b"."discount") > ?"#,
            ])

            // An alias expression is an expression: it can be selected,
            // compared, and ordered.
            let netPrice = bookAlias[Column("price") - Column("discount")]
            let rows = try Author
                .joining(required: Author.books.aliased(bookAlias))
                .select(Column("name"), netPrice.forKey("netPrice"))
                .order(netPrice.desc)
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows == [
                ["name": "Kafka", "netPrice": 11.0],
                ["name": "Austen", "netPrice": 9.0],
                ["name": "Kafka", "netPrice": 2.0],
            ])
        }
    }

    @Test func anOrderingIsQualifiedWithTheAliasedTable() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.read { (db: Database) throws in
            let authorAlias = TableAlias(name: "a")
            let request = Book
                .joining(required: Book.author.aliased(authorAlias))
                .order(authorAlias[Column("name").desc], Column("title"))
            _ = trace.take()
            #expect(try request.fetchAll(db).map(\.title) == ["Contemplation", "The Castle", "Emma"])
            #expect(trace.take() == [
                #"SELECT "book".* FROM "book" JOIN "author" "a" ON "a"."id" = "book"."authorId" ORDER BY "a"."name" DESC, "book"."title""#,
            ])

            // Without the alias, `Column("name").desc` would order by a
            // column of the book table, which has none: the query fails.
            let unqualified = Book
                .joining(required: Book.author)
                .order(Column("name").desc)
            #expect(throws: DatabaseError.self) { try unqualified.fetchAll(db) }
        }
    }
}
