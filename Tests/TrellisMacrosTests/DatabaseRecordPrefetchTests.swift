import Foundation
import Testing
import TrellisMacros

// The records of a macro record's array properties are decoded by the
// prefetch of `including(all:)`, as its rows come: these tests check that
// they are the records a decoding of copied rows gives, in every shape of
// request, and that the readers of other shapes still get rows.

@DatabaseRecord
struct PrefetchPublisher: FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String
}

@DatabaseRecord
struct PrefetchAuthor: FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String

    static let books = hasMany(PrefetchBook.self, using: ForeignKey(["authorId"])).forKey("books")
    static let reviews = hasMany(PrefetchReview.self, through: books, using: PrefetchBook.reviews).forKey("reviews")
}

@DatabaseRecord
struct PrefetchBook: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var authorId: Int64
    var publisherId: Int64?
    var title: String
    var year: Int

    static let publisher = belongsTo(PrefetchPublisher.self, using: ForeignKey(["publisherId"])).forKey("publisher")
    static let reviews = hasMany(PrefetchReview.self, using: ForeignKey(["bookId"])).forKey("reviews")
    static let siblings = hasMany(PrefetchBook.self, using: ForeignKey(["authorId"], to: ["authorId"])).forKey("siblings")
}

@DatabaseRecord
struct PrefetchBookSiblings: FetchableRecord, Equatable {
    var book: PrefetchBook
    var siblings: [PrefetchBook]
}

@DatabaseRecord
struct PrefetchReview: FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var bookId: Int64
    var stars: Int
}

@DatabaseRecord
struct PrefetchAuthorInfo: FetchableRecord, Equatable {
    var author: PrefetchAuthor
    var books: [PrefetchBook]
}

/// Books with their publisher: the rows of the prefetch have a scope.
@DatabaseRecord
struct PrefetchPublishedBook: FetchableRecord, Equatable {
    var book: PrefetchBook
    var publisher: PrefetchPublisher?
}

@DatabaseRecord
struct PrefetchAuthorWithPublishedBooks: FetchableRecord, Equatable {
    var author: PrefetchAuthor
    var books: [PrefetchPublishedBook]
}

/// Books with their reviews: the rows of the prefetch have prefetched rows
/// in turn.
@DatabaseRecord
struct PrefetchReviewedBook: FetchableRecord, Equatable {
    var book: PrefetchBook
    var reviews: [PrefetchReview]
}

@DatabaseRecord
struct PrefetchAuthorWithReviewedBooks: FetchableRecord, Equatable {
    var author: PrefetchAuthor
    var books: [PrefetchReviewedBook]
}

@DatabaseRecord
struct PrefetchAuthorReviews: FetchableRecord, Equatable {
    var author: PrefetchAuthor
    var reviews: [PrefetchReview]
}

/// A book whose title reads as an integer: its decoding fails.
@DatabaseRecord
struct PrefetchBadBook: FetchableRecord, Equatable {
    var id: Int64
    var title: Int
}

@DatabaseRecord
struct PrefetchAuthorWithBadBooks: FetchableRecord, Equatable {
    var author: PrefetchAuthor
    var books: [PrefetchBadBook]
}

/// A Decodable record read from the row of its parent, which reads the
/// books as its own array.
struct PrefetchCodableShelf: Decodable, FetchableRecord, Equatable {
    var name: String
    var books: [PrefetchBook]
}

@DatabaseRecord
struct PrefetchAuthorWithShelf: FetchableRecord, Equatable {
    var shelf: PrefetchCodableShelf
    var books: [PrefetchBook]
}

/// A Decodable record read from the row of its parent, which reads the
/// books as another type than its parent does.
struct PrefetchBookTitle: Decodable, FetchableRecord, Equatable {
    var title: String
}

struct PrefetchCodableTitles: Decodable, FetchableRecord, Equatable {
    var name: String
    var books: [PrefetchBookTitle]
}

@DatabaseRecord
struct PrefetchAuthorWithTitles: FetchableRecord, Equatable {
    var titles: PrefetchCodableTitles
    var books: [PrefetchBook]
}

@Suite struct DatabaseRecordPrefetchTests {
    private func makeLibrary() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE prefetchPublisher (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE prefetchAuthor (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE prefetchBook (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES prefetchAuthor(id),
                  publisherId INTEGER REFERENCES prefetchPublisher(id), title TEXT NOT NULL, year INTEGER NOT NULL);
                CREATE TABLE prefetchReview (id INTEGER PRIMARY KEY, bookId INTEGER NOT NULL REFERENCES prefetchBook(id),
                  stars INTEGER NOT NULL);
                """)
            try PrefetchPublisher(id: 1, name: "Hetzel").insert(db)
            try PrefetchAuthor(id: 1, name: "Verne").insert(db)
            try PrefetchAuthor(id: 2, name: "Austen").insert(db)
            try PrefetchAuthor(id: 3, name: "Nobody").insert(db)
            try PrefetchBook(id: 1, authorId: 1, publisherId: 1, title: "Nautilus", year: 1870).insert(db)
            try PrefetchBook(id: 2, authorId: 2, publisherId: nil, title: "Emma", year: 1815).insert(db)
            try PrefetchBook(id: 3, authorId: 1, publisherId: 1, title: "Around the World", year: 1872).insert(db)
            try PrefetchBook(id: 4, authorId: 2, publisherId: nil, title: "Persuasion", year: 1817).insert(db)
            try PrefetchReview(id: 1, bookId: 1, stars: 5).insert(db)
            try PrefetchReview(id: 2, bookId: 1, stars: 4).insert(db)
            try PrefetchReview(id: 3, bookId: 4, stars: 3).insert(db)
        }
        return dbQueue
    }

    private var nautilus: PrefetchBook { PrefetchBook(id: 1, authorId: 1, publisherId: 1, title: "Nautilus", year: 1870) }
    private var emma: PrefetchBook { PrefetchBook(id: 2, authorId: 2, publisherId: nil, title: "Emma", year: 1815) }
    private var aroundTheWorld: PrefetchBook {
        PrefetchBook(id: 3, authorId: 1, publisherId: 1, title: "Around the World", year: 1872)
    }
    private var persuasion: PrefetchBook { PrefetchBook(id: 4, authorId: 2, publisherId: nil, title: "Persuasion", year: 1817) }

    @Test func eachAuthorGetsItsBooksInTheOrderOfTheAssociation() throws {
        let dbQueue = try makeLibrary()
        let infos = try dbQueue.read { db in
            try PrefetchAuthor.including(all: PrefetchAuthor.books.order(Column("title")))
                .order(Column("id")).asRequest(of: PrefetchAuthorInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.author.name) == ["Verne", "Austen", "Nobody"])
        #expect(infos.map(\.books) == [[aroundTheWorld, nautilus], [emma, persuasion], []])
    }

    @Test func fetchOneCursorsAndSetsGetTheSameBooks() throws {
        let dbQueue = try makeLibrary()
        let request = PrefetchAuthor.including(all: PrefetchAuthor.books.order(Column("id"))).order(Column("id"))
            .asRequest(of: PrefetchAuthorInfo.self)
        let (one, cursored) = try dbQueue.read { db in
            (try request.fetchOne(db), try Array(request.fetchCursor(db)))
        }
        #expect(one == PrefetchAuthorInfo(author: PrefetchAuthor(id: 1, name: "Verne"), books: [nautilus, aroundTheWorld]))
        #expect(cursored.map(\.books) == [[nautilus, aroundTheWorld], [emma, persuasion], []])
    }

    @Test func aLimitPerAuthorAndAFilterApplyToTheDecodedBooks() throws {
        let dbQueue = try makeLibrary()
        let infos = try dbQueue.read { db in
            try PrefetchAuthor
                .including(all: PrefetchAuthor.books.filter(Column("year") > 1816).order(Column("year").desc).limit(1))
                .order(Column("id")).asRequest(of: PrefetchAuthorInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.books) == [[aroundTheWorld], [persuasion], []])
    }

    @Test func booksWithAJoinedPublisherDecodeFromTheirScopes() throws {
        let dbQueue = try makeLibrary()
        let infos = try dbQueue.read { db in
            try PrefetchAuthor
                .including(all: PrefetchAuthor.books.including(optional: PrefetchBook.publisher).order(Column("id")))
                .order(Column("id")).asRequest(of: PrefetchAuthorWithPublishedBooks.self).fetchAll(db)
        }
        let hetzel = PrefetchPublisher(id: 1, name: "Hetzel")
        #expect(infos.map { $0.books.map(\.book) } == [[nautilus, aroundTheWorld], [emma, persuasion], []])
        #expect(infos.map { $0.books.map(\.publisher) } == [[hetzel, hetzel], [nil, nil], []])
    }

    @Test func booksWithPrefetchedReviewsGetTheirReviews() throws {
        let dbQueue = try makeLibrary()
        let infos = try dbQueue.read { db in
            try PrefetchAuthor
                .including(all: PrefetchAuthor.books.including(all: PrefetchBook.reviews.order(Column("id"))).order(Column("id")))
                .order(Column("id")).asRequest(of: PrefetchAuthorWithReviewedBooks.self).fetchAll(db)
        }
        #expect(infos.map { $0.books.map(\.book.title) } == [["Nautilus", "Around the World"], ["Emma", "Persuasion"], []])
        #expect(infos.map { $0.books.map { $0.reviews.map(\.stars) } } == [[[5, 4], []], [[], [3]], []])
    }

    @Test func reviewsThroughBooksGoToTheAuthorOfTheirBook() throws {
        let dbQueue = try makeLibrary()
        let infos = try dbQueue.read { db in
            try PrefetchAuthor.including(all: PrefetchAuthor.reviews.order(Column("id"))).order(Column("id"))
                .asRequest(of: PrefetchAuthorReviews.self).fetchAll(db)
        }
        #expect(infos.map { $0.reviews.map(\.id) } == [[1, 2], [3], []])
        #expect(infos.map { $0.reviews.map(\.stars) } == [[5, 4], [3], []])
    }

    @Test func parentsWithTheSameLinkGetTheSameBooks() throws {
        // The books of an author are the siblings of each of them: the
        // parents of one link value share a group of records.
        let dbQueue = try makeLibrary()
        let infos = try dbQueue.read { db in
            try PrefetchBook.including(all: PrefetchBook.siblings.order(Column("id"))).order(Column("id"))
                .asRequest(of: PrefetchBookSiblings.self).fetchAll(db)
        }
        #expect(infos.map(\.book.id) == [1, 2, 3, 4])
        #expect(infos.map { $0.siblings.map(\.id) } == [[1, 3], [2, 4], [1, 3], [2, 4]])
    }

    @Test func rowsOfTheSameRequestStillHaveTheirPrefetchedRows() throws {
        let dbQueue = try makeLibrary()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, PrefetchAuthor.including(all: PrefetchAuthor.books.order(Column("id"))).order(Column("id")))
        }
        #expect(rows.map { $0.prefetchedRows["books"]?.map { $0["title"] as String } } == [
            ["Nautilus", "Around the World"], ["Emma", "Persuasion"], [],
        ])
    }

    @Test func aBookThatCanNotBeDecodedThrowsTheErrorOfItsParentsProperty() throws {
        let dbQueue = try makeLibrary()
        let error = #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db in
                try PrefetchAuthor.including(all: PrefetchAuthor.books).asRequest(of: PrefetchAuthorWithBadBooks.self).fetchAll(db)
            }
        }
        #expect(error?.description.contains("title") == true)
        #expect(error?.description.contains("PrefetchAuthorWithBadBooks") == true)
    }

    @Test func aNestedDecodableRecordReadsTheSameBooks() throws {
        let dbQueue = try makeLibrary()
        let infos = try dbQueue.read { db in
            try PrefetchAuthor.including(all: PrefetchAuthor.books.order(Column("id"))).order(Column("id"))
                .asRequest(of: PrefetchAuthorWithShelf.self).fetchAll(db)
        }
        #expect(infos.map(\.shelf.name) == ["Verne", "Austen", "Nobody"])
        #expect(infos.map(\.shelf.books) == [[nautilus, aroundTheWorld], [emma, persuasion], []])
        #expect(infos.map(\.books) == infos.map(\.shelf.books))
    }

    @Test func aNestedRecordThatReadsTheBooksAsAnotherTypeGetsTheRows() throws {
        // The nested record reads the rows that the prefetch decoded as
        // books: the fetch prefetches them again as rows, in this fetch
        // and in the next ones.
        let dbQueue = try makeLibrary()
        let fetches = try dbQueue.read { db in
            try (0..<3).map { _ in
                try PrefetchAuthor.including(all: PrefetchAuthor.books.order(Column("id"))).order(Column("id"))
                    .asRequest(of: PrefetchAuthorWithTitles.self).fetchAll(db)
            }
        }
        for infos in fetches {
            #expect(infos.map { $0.titles.books.map(\.title) } == [["Nautilus", "Around the World"], ["Emma", "Persuasion"], []])
            #expect(infos.map(\.books) == [[nautilus, aroundTheWorld], [emma, persuasion], []])
        }
    }
}
