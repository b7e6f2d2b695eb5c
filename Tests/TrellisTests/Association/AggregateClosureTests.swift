import Foundation
import Testing
import Trellis

// Association aggregates built from the associated record's `Columns`
// (closures and key paths) and from expressions.

private struct Author: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    static let books = hasMany(Book.self)
}

private struct Book: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var authorId: Int64
    var year: Int
    var price: Double
    var awards: Int
    enum Columns {
        static let year = Column(CodingKeys.year)
        static let price = Column(CodingKeys.price)
        static let awards = Column(CodingKeys.awards)
    }
}

@Suite struct AggregateClosureTests {
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
                t.column("year", .integer).notNull()
                t.column("price", .double).notNull()
                t.column("awards", .integer).notNull()
            }
            try Author(id: 1, name: "Hugo").insert(db)
            try Author(id: 2, name: "Zola").insert(db)
            try Book(id: 1, authorId: 1, year: 1831, price: 10, awards: 1).insert(db)
            try Book(id: 2, authorId: 1, year: 1862, price: 20, awards: 3).insert(db)
            try Book(id: 3, authorId: 2, year: 1885, price: 30, awards: 0).insert(db)
        }
        return dbQueue
    }

    private func hugo(_ db: Database, _ request: QueryInterfaceRequest<Author>) throws -> Row? {
        try request.filter(key: 1).asRequest(of: Row.self).fetchOne(db)
    }

    @Test func closureAggregatesHaveDefaultNames() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let row = try hugo(db, Author.annotated(with:
                Author.books.min { $0.year },
                Author.books.max { $0.year },
                Author.books.average { $0.price },
                Author.books.sum { $0.awards },
                Author.books.total { $0.awards },
                Author.books.count))
            #expect(row?["minBookYear"] == 1831)
            #expect(row?["maxBookYear"] == 1862)
            #expect(row?["averageBookPrice"] == 15.0)
            #expect(row?["bookAwardsSum"] == 4)
            #expect(row?["bookCount"] == 2)
        }
    }

    @Test func keyPathAggregates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let row = try hugo(db, Author.annotated(with: Author.books.max(\.year), Author.books.average(\.price)))
            #expect(row?["maxBookYear"] == 1862)
            #expect(row?["averageBookPrice"] == 15.0)
        }
    }

    @Test func expressionAggregatesAreNamedWithForKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let revenue = Author.books.sum { $0.price * $0.awards }.forKey("revenue")
            let row = try hugo(db, Author.annotated(with: revenue, Author.books.max(Column("year") + 1).forKey("next")))
            #expect(row?["revenue"] == 70.0)
            #expect(row?["next"] == 1863)
        }
    }

    @Test func aggregatesInHavingAndFilter() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Author.having(Author.books.max { $0.year } > 1870).fetchAll(db).map(\.name) == ["Zola"])
            #expect(try Author.having(Author.books.count >= 2).fetchAll(db).map(\.name) == ["Hugo"])
            #expect(try Author.filter(Author.books.sum { $0.awards } > 0).fetchAll(db).map(\.name) == ["Hugo"])
            let annotated = try Author.annotated(with: [Author.books.average { $0.price }])
                .order(Column("id")).asRequest(of: Row.self).fetchAll(db)
            #expect(annotated.map { $0["averageBookPrice"] as Double } == [15, 30])
        }
    }
}
