import Foundation
import Testing
import Trellis
import TrellisMacros
import TrellisPostgres

// Associations, row adapters and the columns of statements that have not
// run yet, on SQLite and on PostgreSQL.

private struct Author: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Sendable {
    var id: Int64?
    var name: String
    static let books = hasMany(Book.self)

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct Book: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Sendable {
    var id: Int64?
    var authorId: Int64
    var title: String
    static let author = belongsTo(Author.self)

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
}

private struct AuthorInfo: Decodable, FetchableRecord, Equatable {
    var author: Author
    var books: [Book]
}

/// A macro record: the prefetch decodes its books as their rows come.
@DatabaseRecord
private struct MacroBook: FetchableRecord, Equatable {
    var id: Int64
    var authorId: Int64
    var title: String
}

@DatabaseRecord
private struct MacroAuthorInfo: FetchableRecord, Equatable {
    var author: Author
    var books: [MacroBook]
}

@Suite struct SharedAssociationTests {
    private func createLibrary(_ db: Database, _ engine: Engine) throws -> (Author, Author) {
        try db.execute(sql: "CREATE TABLE author (id \(engine.generatedKey), name TEXT NOT NULL)")
        try db.execute(sql: """
            CREATE TABLE book (id \(engine.generatedKey), "authorId" BIGINT NOT NULL REFERENCES author(id), title TEXT NOT NULL)
            """)
        var austen = Author(id: nil, name: "Austen")
        try austen.insert(db)
        var melville = Author(id: nil, name: "Melville")
        try melville.insert(db)
        for (author, title) in [(austen, "Emma"), (austen, "Persuasion"), (melville, "Moby-Dick")] {
            var book = Book(id: nil, authorId: author.id ?? 0, title: title)
            try book.insert(db)
        }
        return (austen, melville)
    }

    @Test(arguments: Engine.available)
    func statementsTellTheirColumnsBeforeTheyRun(_ engine: Engine) async throws {
        try await engine.write { db in
            _ = try createLibrary(db, engine)
            let statement = try db.makeStatement(sql: "SELECT title, id FROM book WHERE id > ?")
            try statement.setArguments([100])
            #expect(statement.columnNames == ["title", "id"])
            #expect(try Row.fetchAll(statement).isEmpty)
            let rows = try Row.fetchAll(
                db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: SuffixRowAdapter(fromIndex: 1))
            #expect(rows == [["b": 2, "c": 3]])
        }
    }

    @Test(arguments: Engine.available)
    func joinedAndPrefetchedAssociations(_ engine: Engine) async throws {
        try await engine.write { db in
            let (austen, melville) = try createLibrary(db, engine)
            let infos = try Book.including(required: Book.author).order(Column("title")).asRequest(of: BookInfo.self).fetchAll(db)
            #expect(infos.map(\.book.title) == ["Emma", "Moby-Dick", "Persuasion"])
            #expect(infos.map(\.author) == [austen, melville, austen])
            let authors = try Author.including(all: Author.books.order(Column("title")))
                .order(Column("name")).asRequest(of: AuthorInfo.self).fetchAll(db)
            #expect(authors.map(\.author) == [austen, melville])
            #expect(authors.map { $0.books.map(\.title) } == [["Emma", "Persuasion"], ["Moby-Dick"]])
            #expect(try austen.request(for: Author.books).fetchCount(db) == 2)
        }
    }

    @Test(arguments: Engine.available)
    func macroRecordsGetTheirPrefetchedRecords(_ engine: Engine) async throws {
        try await engine.write { db in
            let (austen, melville) = try createLibrary(db, engine)
            let authors = try Author.including(all: Author.books.order(Column("title")))
                .order(Column("name")).asRequest(of: MacroAuthorInfo.self).fetchAll(db)
            #expect(authors.map(\.author) == [austen, melville])
            #expect(authors.map { $0.books.map(\.title) } == [["Emma", "Persuasion"], ["Moby-Dick"]])
            #expect(authors.map { $0.books.map(\.authorId) } == [[austen.id, austen.id], [melville.id]])
            let limited = try Author.including(all: Author.books.order(Column("title").desc).limit(1))
                .order(Column("name")).asRequest(of: MacroAuthorInfo.self).fetchAll(db)
            #expect(limited.map { $0.books.map(\.title) } == [["Persuasion"], ["Moby-Dick"]])
        }
    }

    /// A limited to-many prefetch ranks the associated records in a
    /// subquery, which PostgreSQL 15 requires to be named.
    @Test(arguments: Engine.available)
    func aLimitedPrefetchKeepsTheFirstRecordsOfEachParent(_ engine: Engine) async throws {
        try await engine.write { db in
            let (austen, melville) = try createLibrary(db, engine)
            let authors = try Author.including(all: Author.books.order(Column("title").desc).limit(1))
                .order(Column("name")).asRequest(of: AuthorInfo.self).fetchAll(db)
            #expect(authors.map(\.author) == [austen, melville])
            #expect(authors.map { $0.books.map(\.title) } == [["Persuasion"], ["Moby-Dick"]])
        }
    }

    @Test(arguments: Engine.available)
    func featuresOfSQLiteThatCanNotThrowMakeTheNextStatementThrow(_ engine: Engine) async throws {
        try await engine.write { db in
            db.add(function: DatabaseFunction("twice", argumentCount: 1, pure: true) { values in
                (Int.fromDatabaseValue(values[0]) ?? 0) * 2
            })
            switch engine {
            case .sqlite:
                #expect(try Int.fetchOne(db, sql: "SELECT twice(21)") == 42)
            case .postgreSQL:
                let error = try #require(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT 1") }
                #expect(error.message == "add(function:) is not supported by PostgreSQL")
                // Reported once.
                #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
            }
        }
    }
}
