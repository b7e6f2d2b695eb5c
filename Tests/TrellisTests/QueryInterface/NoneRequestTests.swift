import Foundation
import Testing
import Trellis

// `none()`: requests and associations that fetch nothing.

private struct Author: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String
    static let books = hasMany(Book.self)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var authorId: Int64
    var title: String
    static let author = belongsTo(Author.self)
}

@Suite struct NoneRequestTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
            }
            try Author(id: 1, name: "Victor Hugo").insert(db)
            try Book(id: 1, authorId: 1, title: "Les Misérables").insert(db)
        }
        return dbQueue
    }

    @Test func requestsOfNoRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Author.none().fetchAll(db).isEmpty)
            #expect(try Author.all().none().fetchCount(db) == 0)
            #expect(try Table("author").none().fetchAll(db).isEmpty)
            #expect(try Author.filter(Column("name") != nil).none().fetchOne(db) == nil)
            #expect(try Author.all().fetchCount(db) == 1)
        }
    }

    @Test func associationsOfNoRecord() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let withNoBooks = try Author.including(all: Author.books.none()).asRequest(of: Row.self).fetchAll(db)
            #expect(withNoBooks.count == 1)
            #expect(withNoBooks.first?.prefetchedRows["books"]?.isEmpty == true)
            #expect(try Book.joining(required: Book.author.none()).fetchCount(db) == 0)
            #expect(try Book.joining(optional: Book.author.none()).fetchCount(db) == 1)
            #expect(try Author.annotated(with: Author.books.none().count).asRequest(of: Row.self).fetchOne(db)?["bookCount"] == 0)
        }
    }

    /// A generic refinement of requests and associations.
    private func nothing<R: DerivableRequest>(_ request: R) -> R { request.none() }

    @Test func derivableRequestsOfNoRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try nothing(Author.all()).fetchAll(db).isEmpty)
            #expect(try Book.joining(required: nothing(Book.author)).fetchCount(db) == 0)
        }
    }
}
