import Foundation
import Testing
import Trellis
import TrellisPostgres

// Requests of the query interface that give the same rows on SQLite and on
// PostgreSQL: associations, aggregates, grouping, counts, orderings. Each
// request runs on both engines, and the rows of PostgreSQL, with their
// values' storage, scopes and prefetched rows, must be those of SQLite.

private struct Country: TableRecord {
    static let authors = hasMany(Author.self)
    static let books = hasMany(Book.self, through: authors, using: Author.books)
}

private struct Author: TableRecord {
    static let country = belongsTo(Country.self)
    static let books = hasMany(Book.self)
}

private struct Book: TableRecord {
    static let author = belongsTo(Author.self)
}

/// The rows as text: their columns, then their scopes and prefetched rows.
private func describe(_ rows: [Row]) -> [String] {
    rows.map { row in
        var parts = row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }
        for key in row.scopes.names.sorted() {
            parts.append("\(key):{\(describe(row.scopes[key].map { [$0] } ?? []).joined())}")
        }
        for key in row.prefetchedRows.keys.sorted() {
            parts.append("\(key):[\(describe(row.prefetchedRows[key] ?? []).joined(separator: "; "))]")
        }
        return parts.joined(separator: ", ")
    }
}

private func count(_ fetch: @escaping @Sendable (Database) throws -> Int) -> @Sendable (Database) throws -> [Row] {
    { db in [Row(["count": try fetch(db)])] }
}

@Suite struct SharedRequestParityTests {
    private static func createLibrary(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE country (id BIGINT PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE author (id BIGINT PRIMARY KEY, name TEXT NOT NULL, "countryId" BIGINT REFERENCES country(id));
            CREATE TABLE book (
                id BIGINT PRIMARY KEY, "authorId" BIGINT NOT NULL REFERENCES author(id), title TEXT NOT NULL,
                year INTEGER NOT NULL, price NUMERIC(10, 2));
            INSERT INTO country VALUES (1, 'France'), (2, 'England'), (3, 'Nowhere');
            INSERT INTO author VALUES (1, 'Austen', 2), (2, 'Verne', 1), (3, 'Dickens', 2), (4, 'Anonymous', NULL),
                (5, 'Idle', 1);
            INSERT INTO book VALUES (8, 4, 'Gawain', 1400, 1.5), (1, 1, 'Emma', 1815, 10), (2, 1, 'Persuasion', 1817, NULL),
                (3, 2, 'Twenty', 1870, 7.25), (4, 2, 'Around', 1872, 3), (5, 2, 'Michel', 1876, 2.5),
                (6, 3, 'Bleak', 1853, 9.99), (7, 4, 'Beowulf', 1000, 0.5)
            """)
    }

    private static let requests: [String: @Sendable (Database) throws -> [Row]] = [
        "a prefetch without ordering": { db in
            try Row.fetchAll(db, Author.including(all: Author.books).orderByPrimaryKey())
        },
        "an ordering by the name of an aggregate": { db in
            try Row.fetchAll(db, Author.annotated(with: Author.books.count).order(Column("bookCount").desc, Column("name")))
        },
        "aggregates of integers and text": { db in
            try Row.fetchAll(db, Author.annotated(
                with: Author.books.min(Column("year")), Author.books.max(Column("title")), Author.books.sum(Column("year")),
                Author.books.total(Column("year")), Author.books.average(Column("year"))
            ).orderByPrimaryKey())
        },
        "a having clause of an aggregate": { db in
            try Row.fetchAll(db, Author.having(Author.books.count >= 2).order(Column("name")))
        },
        "a filter of isEmpty": { db in
            try Row.fetchAll(db, Author.filter(Author.books.isEmpty).order(Column("name")))
        },
        "a selected isEmpty": { db in
            try Row.fetchAll(db, Author.annotated(with: Author.books.isEmpty).order(Column("name")))
        },
        "the count of a grouped request": count { db in
            try Author.joining(optional: Author.books).annotated(with: Author.books.count).fetchCount(db)
        },
        "the count of a to-many join": count { db in
            try Author.joining(optional: Author.books).fetchCount(db)
        },
        "the count of distinct values": count { db in
            try Author.select(Column("countryId")).distinct().fetchCount(db)
        },
        "the count of an explicit grouping": count { db in
            try Book.select(Column("authorId")).group(Column("authorId")).fetchCount(db)
        },
        "an explicit grouping and having": { db in
            try Row.fetchAll(db, Book.select(count(Column("id")).forKey("n"), Column("authorId"))
                .group(Column("authorId")).having(count(Column("id")) > 1).order(Column("authorId")))
        },
        "aggregates that share a key": { db in
            try Row.fetchAll(db, Author.annotated(
                with: Author.books.filter(Column("year") > 1850).count.forKey("recent"), Author.books.count
            ).orderByPrimaryKey())
        },
        "an aggregate of a through association": { db in
            try Row.fetchAll(db, Country.annotated(with: Country.books.count).orderByPrimaryKey())
        },
        "a join of a through association and its aggregate": { db in
            try Row.fetchAll(db, Country.joining(required: Country.books).annotated(with: Country.books.count).orderByPrimaryKey())
        },
        "an aggregate in an included association": { db in
            try Row.fetchAll(db, Author.joining(required: Author.books)
                .including(optional: Author.country.annotated(with: Country.books.count))
                .annotated(with: Author.books.count).orderByPrimaryKey())
        },
        "aggregates in a prefetch": { db in
            try Row.fetchAll(db, Country.including(all: Country.authors.annotated(with: Author.books.count).orderByPrimaryKey())
                .orderByPrimaryKey())
        },
        "a limited grouped request": { db in
            try Row.fetchAll(db, Author.including(optional: Author.country).joining(required: Author.books)
                .annotated(with: Author.books.count).orderByPrimaryKey().limit(2, offset: 1))
        },
        "one row of a grouped request": { db in
            try Row.fetchOne(db, Author.including(optional: Author.country).joining(required: Author.books)
                .annotated(with: Author.books.count).orderByPrimaryKey()).map { [$0] } ?? []
        },
        "an ordering by an aggregate": { db in
            try Row.fetchAll(db, Author.joining(required: Author.books).order(Author.books.count.desc, Column("id")))
        },
        "a reversed request without ordering": { db in
            try Row.fetchAll(db, Author.all().reversed())
        },
        "a reversed grouped request": { db in
            try Row.fetchAll(db, Author.joining(required: Author.books).annotated(with: Author.books.count)
                .order(Column("name")).reversed())
        },
        "an optional annotation beside a to-many join": { db in
            try Row.fetchAll(db, Author.annotated(withOptional: Author.country.select(Column("name").forKey("countryName")))
                .joining(optional: Author.books).annotated(with: Author.books.count).orderByPrimaryKey())
        },
        "isEmpty in a having clause beside a to-many join": { db in
            try Row.fetchAll(db, Country.joining(optional: Country.authors).having(Country.authors.isEmpty).orderByPrimaryKey())
        },
        "distinct rows of a to-many join": { db in
            try Row.fetchAll(db, Author.select(Column("name")).joining(required: Author.books).distinct().order(Column("name")))
        },
        "aggregate functions": { db in
            try Row.fetchAll(db, Book.select(
                sum(Column("year")).forKey("sum"), total(Column("year")).forKey("total"),
                average(Column("year")).forKey("average"), min(Column("price")).forKey("minPrice"),
                max(Column("year")).forKey("maxYear"), count(Column("price")).forKey("prices")))
        },
        "isEmpty of a request": { db in
            [Row(["isEmpty": try Author.filter(Column("name") == "Verne").isEmpty(db)])]
        },
        "a prefetch of a through association": { db in
            try Row.fetchAll(db, Country.including(all: Country.books.order(Column("title"))).orderByPrimaryKey())
        },
        "an optional to-many association joined as to-one": { db in
            try Row.fetchAll(db, Country.including(optional: Country.authors.order(Column("name"))).orderByPrimaryKey())
        },
    ]

    /// The rows of a request on an engine, or the message of its error.
    private static func rows(of name: String, on engine: Engine) async throws -> [String] {
        let request = try #require(requests[name])
        return try await engine.write { db in
            try createLibrary(db)
            do {
                return describe(try request(db))
            } catch {
                return ["error: \(error)"]
            }
        }
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage), arguments: requests.keys.sorted())
    func aRequestGivesTheSameRowsOnBothEngines(_ name: String) async throws {
        let sqlite = try await Self.rows(of: name, on: .sqlite)
        let postgreSQL = try await Self.rows(of: name, on: .postgreSQL)
        #expect(!sqlite.isEmpty)
        #expect(!sqlite.contains { $0.hasPrefix("error: ") })
        #expect(postgreSQL == sqlite)
    }
}
