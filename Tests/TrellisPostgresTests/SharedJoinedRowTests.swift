import Foundation
import Testing
import Trellis
import TrellisPostgres

// The rows of a joined request, decoded one after the other: a fetch
// reuses its row, its scope rows and its decoders from one row to the
// next, on SQLite and on PostgreSQL, and what a caller keeps must still
// read its own row.

private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
}

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var countryId: Int64
    var name: String
    static let country = belongsTo(Country.self)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var authorId: Int64
    var title: String
    static let author = belongsTo(Author.self)
}

/// A book with its author, and the author's country, from a nested scope.
private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
    var country: Country
}

/// A record that keeps a copy of the row that it was decoded from.
private struct KeptRow: FetchableRecord {
    var row: Row
    var title: String

    init(row: Row) throws {
        self.row = row.copy()
        title = try row.decode(String.self, forColumn: "title")
    }
}

/// The text of a column of a row, or "-" when the row or the column is
/// missing.
private func text(_ row: Row?, _ column: String) -> String {
    guard let row, let value = try? row.decode(String.self, forColumn: column) else { return "-" }
    return value
}

@Suite struct SharedJoinedRowTests {
    private static let books = [
        Book(id: 1, authorId: 1, title: "Emma"),
        Book(id: 2, authorId: 2, title: "Moby-Dick"),
        Book(id: 3, authorId: 1, title: "Persuasion"),
        Book(id: 4, authorId: 3, title: "Germinal"),
    ]
    private static let authors = [
        Author(id: 1, countryId: 1, name: "Austen"),
        Author(id: 2, countryId: 2, name: "Melville"),
        Author(id: 3, countryId: 3, name: "Zola"),
    ]
    private static let countries = [
        Country(id: 1, name: "England"), Country(id: 2, name: "United States"), Country(id: 3, name: "France"),
    ]

    private static func createLibrary(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE country (id BIGINT PRIMARY KEY, name TEXT NOT NULL)")
        try db.execute(sql: """
            CREATE TABLE author (id BIGINT PRIMARY KEY, "countryId" BIGINT NOT NULL REFERENCES country(id), name TEXT NOT NULL)
            """)
        try db.execute(sql: """
            CREATE TABLE book (id BIGINT PRIMARY KEY, "authorId" BIGINT NOT NULL REFERENCES author(id), title TEXT NOT NULL)
            """)
        for country in countries { try country.insert(db) }
        for author in authors { try author.insert(db) }
        for book in books { try book.insert(db) }
    }

    private static var request: QueryInterfaceRequest<Book> {
        Book.including(required: Book.author.including(required: Author.country)).order(Column("id"))
    }

    @Test(arguments: Engine.available)
    func codableRecordsReadEachRowAndItsNestedScopes(_ engine: Engine) async throws {
        let infos = try await engine.write { db in
            try Self.createLibrary(db)
            return try Self.request.asRequest(of: BookInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.book) == Self.books)
        #expect(infos.map(\.author.name) == ["Austen", "Melville", "Austen", "Zola"])
        #expect(infos.map(\.country.name) == ["England", "United States", "England", "France"])
    }

    @Test(arguments: Engine.available)
    func fetchedRowsKeepTheirValuesAndScopes(_ engine: Engine) async throws {
        let summaries = try await engine.write { db in
            try Self.createLibrary(db)
            return try Row.fetchAll(db, Self.request).map { row -> [String] in
                let author = row.scopes["author"]
                return [text(row, "title"), text(author, "name"), text(author?.scopes["country"], "name")]
            }
        }
        #expect(summaries == [
            ["Emma", "Austen", "England"],
            ["Moby-Dick", "Melville", "United States"],
            ["Persuasion", "Austen", "England"],
            ["Germinal", "Zola", "France"],
        ])
    }

    @Test(arguments: Engine.available)
    func aRecordThatCopiesItsRowKeepsItsOwnValues(_ engine: Engine) async throws {
        let kept = try await engine.write { db in
            try Self.createLibrary(db)
            return try KeptRow.fetchAll(db, Self.request.asRequest(of: KeptRow.self)).map { kept -> [String] in
                [kept.title, text(kept.row, "title"), text(kept.row.scopes["author"], "name")]
            }
        }
        #expect(kept == [
            ["Emma", "Emma", "Austen"],
            ["Moby-Dick", "Moby-Dick", "Melville"],
            ["Persuasion", "Persuasion", "Austen"],
            ["Germinal", "Germinal", "Zola"],
        ])
    }

    @Test(arguments: Engine.available)
    func adaptedRowsKeepTheRowTheyWereMadeFrom(_ engine: Engine) async throws {
        let pairs = try await engine.write { db in
            try Self.createLibrary(db)
            let adapter = ScopeAdapter(["author": SuffixRowAdapter(fromIndex: 2)])
            let rows = try Row.fetchAll(
                db, sql: "SELECT book.title, book.id, author.name, author.id FROM book JOIN author ON author.id = book.\"authorId\" ORDER BY book.id",
                adapter: adapter)
            return rows.map { row -> [String] in
                [text(row, "title"), text(row.scopes["author"], "name"), text(row.unadapted, "name")]
            }
        }
        #expect(pairs == [
            ["Emma", "Austen", "Austen"],
            ["Moby-Dick", "Melville", "Melville"],
            ["Persuasion", "Austen", "Austen"],
            ["Germinal", "Zola", "Zola"],
        ])
    }
}
