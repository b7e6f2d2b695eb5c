import Foundation
import Testing
import Trellis
import TrellisPostgres

// Association aggregates beside joins, on SQLite and on PostgreSQL: one row
// per parent record on both, with the same values in the same order. The
// rows leave the database access before they are checked, so that a
// failure is reported by its test.

private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
}

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
    var countryId: Int64?
    static let country = belongsTo(Country.self)
    static let books = hasMany(Book.self)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var authorId: Int64
    var title: String
    var year: Int
    static let author = belongsTo(Author.self)
}

private struct AuthorCount: Decodable, FetchableRecord, Equatable, Sendable {
    var author: Author
    var country: Country?
    var bookCount: Int
}

private struct AuthorCountryName: Decodable, FetchableRecord, Equatable, Sendable {
    var name: String
    var countryName: String
    var bookCount: Int
}

private let france = Country(id: 1, name: "France")
private let england = Country(id: 2, name: "England")
private let austen = Author(id: 1, name: "Austen", countryId: 2)
private let verne = Author(id: 2, name: "Verne", countryId: 1)
private let dickens = Author(id: 3, name: "Dickens", countryId: 2)
private let anonymous = Author(id: 4, name: "Anonymous", countryId: nil)

@Suite struct SharedAggregateTests {
    /// Authors of several books, so that a join of their books gives
    /// several rows for each of them.
    private static func createLibrary(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE country (id BIGINT PRIMARY KEY, name TEXT NOT NULL)")
        try db.execute(sql: """
            CREATE TABLE author (id BIGINT PRIMARY KEY, name TEXT NOT NULL, "countryId" BIGINT REFERENCES country(id))
            """)
        try db.execute(sql: """
            CREATE TABLE book (
                id BIGINT PRIMARY KEY, "authorId" BIGINT NOT NULL REFERENCES author(id),
                title TEXT NOT NULL, year INTEGER NOT NULL)
            """)
        for country in [france, england] { try country.insert(db) }
        for author in [austen, verne, dickens, anonymous] { try author.insert(db) }
        let books = [
            Book(id: 1, authorId: 1, title: "Emma", year: 1815),
            Book(id: 2, authorId: 1, title: "Persuasion", year: 1817),
            Book(id: 3, authorId: 2, title: "Twenty Thousand Leagues", year: 1870),
            Book(id: 4, authorId: 2, title: "Around the World", year: 1872),
            Book(id: 5, authorId: 2, title: "Michel Strogoff", year: 1876),
            Book(id: 6, authorId: 3, title: "Bleak House", year: 1853),
            Book(id: 7, authorId: 4, title: "Beowulf", year: 1000),
            Book(id: 8, authorId: 4, title: "Gawain", year: 1400),
        ]
        for book in books { try book.insert(db) }
    }

    @Test(arguments: Engine.available)
    func anIncludedToOneAssociationBesideAToManyJoinGivesOneRowPerRecord(_ engine: Engine) async throws {
        let (rows, count, all) = try await engine.write { db in
            try Self.createLibrary(db)
            let request = Author
                .joining(required: Author.books.filter(Column("year") > 1810))
                .including(optional: Author.country.order(Column("name")))
                .annotated(with: Author.books.count)
                .orderByPrimaryKey()
                .asRequest(of: AuthorCount.self)
            // Without the filter, the author of no country too.
            let all = try Author
                .joining(required: Author.books)
                .including(optional: Author.country)
                .annotated(with: Author.books.count)
                .order(Column("name"))
                .asRequest(of: AuthorCount.self)
                .fetchAll(db)
            return (try request.fetchAll(db), try request.fetchCount(db), all)
        }
        #expect(rows == [
            AuthorCount(author: austen, country: england, bookCount: 2),
            AuthorCount(author: verne, country: france, bookCount: 3),
            AuthorCount(author: dickens, country: england, bookCount: 1),
        ])
        #expect(count == 3)
        #expect(all == [
            AuthorCount(author: anonymous, country: nil, bookCount: 2),
            AuthorCount(author: austen, country: england, bookCount: 2),
            AuthorCount(author: dickens, country: england, bookCount: 1),
            AuthorCount(author: verne, country: france, bookCount: 3),
        ])
    }

    /// The ordering of a joined to-one association orders the grouped
    /// rows.
    @Test(arguments: Engine.available)
    func theOrderingOfAnIncludedToOneAssociationOrdersTheGroupedRows(_ engine: Engine) async throws {
        let rows = try await engine.write { db in
            try Self.createLibrary(db)
            return try Author
                .joining(required: Author.books.filter(Column("year") > 1850))
                .including(required: Author.country.order(Column("name")))
                .annotated(with: Author.books.count)
                .asRequest(of: AuthorCount.self)
                .fetchAll(db)
        }
        #expect(rows == [
            AuthorCount(author: dickens, country: england, bookCount: 1),
            AuthorCount(author: verne, country: france, bookCount: 3),
        ])
    }

    @Test(arguments: Engine.available)
    func aRequiredToOneAssociationBesideAHavingClauseGivesOneRowPerRecord(_ engine: Engine) async throws {
        let rows = try await engine.write { db in
            try Self.createLibrary(db)
            return try Author
                .joining(required: Author.books.filter(Column("year") > 1810))
                .including(required: Author.country)
                .annotated(with: Author.books.count)
                .having(Author.books.isEmpty == false)
                .order(Column("name").desc)
                .asRequest(of: AuthorCount.self)
                .fetchAll(db)
        }
        #expect(rows == [
            AuthorCount(author: verne, country: france, bookCount: 3),
            AuthorCount(author: dickens, country: england, bookCount: 1),
            AuthorCount(author: austen, country: england, bookCount: 2),
        ])
    }

    @Test(arguments: Engine.available)
    func theColumnsOfAnAnnotationBesideAToManyJoinGiveOneRowPerRecord(_ engine: Engine) async throws {
        let (rows, count) = try await engine.write { db in
            try Self.createLibrary(db)
            let request = Author
                .select(Column("name"))
                .joining(required: Author.books)
                .annotated(withRequired: Author.country.select(Column("name").forKey("countryName")))
                .annotated(with: Author.books.count)
                .order(Column("name"))
                .asRequest(of: AuthorCountryName.self)
            return (try request.fetchAll(db), try request.fetchCount(db))
        }
        #expect(rows == [
            AuthorCountryName(name: "Austen", countryName: "England", bookCount: 2),
            AuthorCountryName(name: "Dickens", countryName: "England", bookCount: 1),
            AuthorCountryName(name: "Verne", countryName: "France", bookCount: 3),
        ])
        #expect(count == 3)
    }

    @Test(arguments: Engine.available)
    func aNestedToOneAssociationBesideAToManyJoinGivesOneRowPerRecord(_ engine: Engine) async throws {
        struct BookInfo: Decodable, FetchableRecord, Equatable, Sendable {
            struct AuthorInfo: Decodable, Equatable, Sendable {
                var name: String
                var country: Country
            }
            var title: String
            var author: AuthorInfo
            var otherBookCount: Int
        }
        let rows = try await engine.write { db in
            try Self.createLibrary(db)
            // Each book joins the books of its author: the aggregate of a
            // book is beside a join that multiplies its rows.
            let otherBooks = Book.hasMany(Book.self, using: ForeignKey(["authorId"], to: ["authorId"])).forKey("otherBooks")
            return try Book
                .select(Column("title"))
                .joining(required: otherBooks)
                .including(required: Book.author.select(Column("name")).including(required: Author.country))
                .annotated(with: otherBooks.count)
                .filter(Column("year") > 1860)
                .orderByPrimaryKey()
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
        }
        let verne = BookInfo.AuthorInfo(name: "Verne", country: france)
        #expect(rows == [
            BookInfo(title: "Twenty Thousand Leagues", author: verne, otherBookCount: 3),
            BookInfo(title: "Around the World", author: verne, otherBookCount: 3),
            BookInfo(title: "Michel Strogoff", author: verne, otherBookCount: 3),
        ])
    }

    @Test(arguments: Engine.available)
    func anIncludedToOneAssociationWithoutAToManyJoinGivesOneRowPerRecord(_ engine: Engine) async throws {
        let rows = try await engine.write { db in
            try Self.createLibrary(db)
            return try Author
                .including(optional: Author.country)
                .annotated(with: Author.books.filter(Column("year") > 1850).count)
                .orderByPrimaryKey()
                .asRequest(of: AuthorCount.self)
                .fetchAll(db)
        }
        #expect(rows == [
            AuthorCount(author: austen, country: england, bookCount: 0),
            AuthorCount(author: verne, country: france, bookCount: 3),
            AuthorCount(author: dickens, country: england, bookCount: 1),
            AuthorCount(author: anonymous, country: nil, bookCount: 0),
        ])
    }

    /// SQLite takes the columns of a to-many association from any of its
    /// records; PostgreSQL has no row to take them from, and says so.
    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
    func theColumnsOfAToManyAssociationBesideAnAggregateThrowOnPostgreSQL() async throws {
        let message = try await Engine.postgreSQL.write { db in
            try Self.createLibrary(db)
            let request = Author.including(required: Author.books).annotated(with: Author.books.count)
            let error = try #require(throws: DatabaseError.self) { try Row.fetchAll(db, request) }
            return error.message ?? ""
        }
        #expect(message.hasPrefix("PostgreSQL can not select the columns of the to-many association book "))
    }

    /// A table without a primary key has no key to group its records by
    /// on PostgreSQL.
    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
    func aTableWithoutPrimaryKeyBesideAToManyJoinThrowsOnPostgreSQL() async throws {
        let message = try await Engine.postgreSQL.write { db in
            try db.execute(sql: "CREATE TABLE shelf (name TEXT NOT NULL UNIQUE)")
            try db.execute(sql: "CREATE TABLE item (id BIGINT PRIMARY KEY, \"shelfName\" TEXT NOT NULL REFERENCES shelf(name))")
            let items = Table("shelf").hasMany(Table("item"))
            let request = Table("shelf").joining(required: items).annotated(with: items.count)
            let error = try #require(throws: DatabaseError.self) { try Row.fetchAll(db, request) }
            return error.message ?? ""
        }
        #expect(message.hasPrefix("table shelf has no primary key: PostgreSQL can not give one row per record"))
    }
}
