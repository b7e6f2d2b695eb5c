import Testing
import Trellis

/// Associations that define their own common table expressions
/// (`Author.books.with(cte)`), joined, prefetched, or refined through
/// `DerivableRequest`.
@Suite("Associations with common table expressions")
struct AssociationCommonTableExpressionTests {
    private struct Author: TableRecord, FetchableRecord, Decodable {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    private struct Book: TableRecord, FetchableRecord, Decodable {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
    }

    private struct AuthorInfo: FetchableRecord, Decodable {
        var author: Author
        var specialBooks: [Book]
    }

    /// The books whose title starts with "S".
    private static let special = CommonTableExpression(named: "special", sql: "SELECT id FROM book WHERE title LIKE 'S%'")

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
                INSERT INTO author VALUES (1, 'Hugo'), (2, 'Verne'), (3, 'Zola');
                INSERT INTO book VALUES (1, 1, 'Sea Workers'), (2, 1, 'Les Misérables'), (3, 2, 'Sphinx of the Ice'),
                    (4, 2, 'Around the World'), (5, 3, 'Germinal');
                """)
        }
        return dbQueue
    }

    @Test("a prefetched association defines its CTE in the query of its records")
    func prefetched() throws {
        let dbQueue = try makeDatabase()
        let specialBooks = Author.books.with(Self.special).filter(sql: "id IN special").forKey("specialBooks")
        let infos = try dbQueue.read { db in
            try Author.including(all: specialBooks).order(Column("id")).asRequest(of: AuthorInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.author.name) == ["Hugo", "Verne", "Zola"])
        #expect(infos.map { $0.specialBooks.map(\.title) } == [["Sea Workers"], ["Sphinx of the Ice"], []])
    }

    @Test("a joined association defines its CTE in the request's WITH clause")
    func joined() throws {
        let dbQueue = try makeDatabase()
        let names = try dbQueue.read { db in
            try Author
                .joining(required: Author.books.with(Self.special).filter(sql: "book.id IN special"))
                .select(Column("name"))
                .distinct()
                .order(Column("name"))
                .asRequest(of: String.self)
                .fetchAll(db)
        }
        #expect(names == ["Hugo", "Verne"])
    }

    @Test("a to-one association with a CTE, joined by a request that has its own")
    func toOneWithRequestCTE() throws {
        let dbQueue = try makeDatabase()
        let hugo = CommonTableExpression(named: "hugo", sql: "SELECT id FROM author WHERE name = 'Hugo'")
        let titles = try dbQueue.read { db in
            try Book
                .with(Self.special)
                .filter(sql: "book.id IN special")
                .joining(required: Book.author.with(hugo).filter(sql: "author.id IN hugo"))
                .select(Column("title"))
                .asRequest(of: String.self)
                .fetchAll(db)
        }
        #expect(titles == ["Sea Workers"])
    }

    @Test("a CTE of the same name in the request and in a joined association is defined once")
    func sameName() throws {
        let dbQueue = try makeDatabase()
        let count = try dbQueue.read { db in
            try Author
                .with(Self.special)
                .joining(required: Author.books.with(Self.special).filter(sql: "book.id IN special"))
                .fetchCount(db)
        }
        #expect(count == 2)
    }

    @Test("DerivableRequest's with(_:) refines requests and associations alike")
    func derivableRequest() throws {
        let dbQueue = try makeDatabase()
        let (titles, infos) = try dbQueue.read { db in
            let titles = try Book.all().specialOnly().order(Column("id")).fetchAll(db).map(\.title)
            let infos = try Author
                .including(all: Author.books.specialOnly().forKey("specialBooks"))
                .filter(Column("id") == 2)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            return (titles, infos)
        }
        #expect(titles == ["Sea Workers", "Sphinx of the Ice"])
        #expect(infos.map { $0.specialBooks.map(\.title) } == [["Sphinx of the Ice"]])
    }
}

extension DerivableRequest {
    /// The special books, through a CTE of the request itself.
    fileprivate func specialOnly() -> Self {
        with(CommonTableExpression(named: "special", sql: "SELECT id FROM book WHERE title LIKE 'S%'"))
            .filter(sql: "id IN special")
    }
}
