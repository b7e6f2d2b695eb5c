import Synchronization
import Testing
import Trellis

private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book

// A fetch of records whose `init(row:)` read an array of records from
// prefetched rows teaches the next fetches of the type to decode those
// records as the prefetch reads them. These tests fetch each type several
// times, so that the later fetches run with what the first one learned,
// and check that every fetch gives what a fetch of copied rows gives.

/// A Decodable record: its synthesized `init(from:)` reads `[Book]`.
private struct CodableAuthor: Decodable, FetchableRecord, Equatable {
    var person: Person
    var writtenBooks: [Book]
}

/// A hand-written record that reads `[Book]`.
private struct HandWrittenAuthor: FetchableRecord, Equatable {
    var name: String
    var titles: [String]

    init(row: Row) throws {
        name = row["name"]
        titles = try row.decode([Book].self, forKey: "writtenBooks").map(\.title)
    }
}

/// A hand-written record that reads `[Book]`, or the rows themselves for
/// the authors born after 1850: the first kind of author teaches the fetch
/// to decode books, which the second kind does not read.
private struct MoodyAuthor: FetchableRecord, Equatable {
    var name: String
    var titles: [String]

    init(row: Row) throws {
        name = row["name"]
        if row["birthYear"] as Int > 1850 {
            titles = (row.prefetchedRows["writtenBooks"] ?? []).map { $0["title"] }
        } else {
            titles = try row.decode([Book].self, forKey: "writtenBooks").map(\.title)
        }
    }
}

/// A hand-written record whose books fail to decode for one author: the
/// fetch throws the error that a fetch of copied rows throws.
private struct FailingAuthor: FetchableRecord {
    var books: [PickyBook]

    init(row: Row) throws {
        books = try row.decode(forKey: "writtenBooks")
    }
}

private struct PickyBook: FetchableRecord {
    var title: String

    init(row: Row) throws {
        title = row["title"]
        if title == "Beowulf" {
            throw RowDecodingError(reason: .valueMismatch, message: "no epic poems")
        }
    }
}

/// A book as an object: each parent decodes objects of its own.
private final class BookObject: FetchableRecord {
    let title: String

    init(row: Row) throws {
        title = row["title"]
    }
}

private struct AuthorWithBookObjects: FetchableRecord {
    var books: [BookObject]

    init(row: Row) throws {
        books = try row.decode(forKey: "writtenBooks")
    }
}

/// A record whose books are filtered by a function that counts its calls.
private struct CountedAuthor: FetchableRecord {
    var titles: [String]

    init(row: Row) throws {
        titles = try row.decode([Book].self, forKey: "writtenBooks").map(\.title)
    }
}

@Suite struct PrefetchedRecordsTests {
    private let expectedTitles = [
        ["Les Misérables", "Notre-Dame de Paris"], [], ["War and Peace", "Anna Karenina"], ["Beowulf"],
    ]

    private func fetchRepeatedly<T: Equatable>(_ fetch: (Database) throws -> T) throws -> [T] {
        let dbQueue = try LibraryFixture.makeDatabase()
        return try dbQueue.read { db in try (0..<3).map { _ in try fetch(db) } }
    }

    @Test func decodableRecordsGetTheSameBooksAtEachFetch() throws {
        let fetches = try fetchRepeatedly { db in
            try Person.including(all: Person.writtenBooks.order(Column("id"))).order(Column("id"))
                .asRequest(of: CodableAuthor.self).fetchAll(db)
        }
        for authors in fetches {
            #expect(authors.map(\.person.name) == ["Victor Hugo", "Isabel Hapgood", "Leo Tolstoy", "Anonymous"])
            #expect(authors.map { $0.writtenBooks.map(\.title) } == expectedTitles)
        }
    }

    @Test func handWrittenRecordsGetTheSameBooksAtEachFetch() throws {
        let fetches = try fetchRepeatedly { db in
            try Person.including(all: Person.writtenBooks.order(Column("id"))).order(Column("id"))
                .asRequest(of: HandWrittenAuthor.self).fetchAll(db)
        }
        for authors in fetches {
            #expect(authors.map(\.titles) == expectedTitles)
        }
        let one = try fetchRepeatedly { db in
            try Person.including(all: Person.writtenBooks.order(Column("id"))).filter(key: 3)
                .asRequest(of: HandWrittenAuthor.self).fetchOne(db)
        }
        #expect(one.map { $0?.titles } == Array(repeating: ["War and Peace", "Anna Karenina"], count: 3))
    }

    @Test func aRecordThatReadsTheRowsAfterAllGetsTheRows() throws {
        // Victor Hugo (born 1802) teaches the first fetch that the books
        // are read as records; Isabel Hapgood and the others born after
        // 1850 read the rows, in that fetch and in the next ones.
        let fetches = try fetchRepeatedly { db in
            try Person.including(all: Person.writtenBooks.order(Column("id"))).order(Column("id"))
                .asRequest(of: MoodyAuthor.self).fetchAll(db)
        }
        for authors in fetches {
            #expect(authors.map(\.titles) == expectedTitles)
        }
    }

    @Test func aBookThatFailsToDecodeFailsEachFetchWithItsError() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let withoutPoems = Person.including(all: Person.writtenBooks.filter(Column("title") != "Beowulf"))
            .asRequest(of: FailingAuthor.self)
        // The first fetch learns that the books are read as records.
        let authors = try dbQueue.read { db in try withoutPoems.fetchAll(db) }
        #expect(authors.map(\.books.count).sorted() == [0, 0, 2, 2])
        for _ in 0..<3 {
            let error = #expect(throws: RowDecodingError.self) {
                try dbQueue.read { db in
                    try Person.including(all: Person.writtenBooks).asRequest(of: FailingAuthor.self).fetchAll(db)
                }
            }
            #expect(error?.description.contains("no epic poems") == true)
        }
        let again = try dbQueue.read { db in try withoutPoems.fetchAll(db) }
        #expect(again.map(\.books.count).sorted() == [0, 0, 2, 2])
    }

    @Test func parentsThatShareTheirBooksGetObjectsOfTheirOwn() throws {
        // Victor Hugo comes once per book of his: his rows share their
        // link, and so their prefetched rows, but not the objects.
        let dbQueue = try LibraryFixture.makeDatabase()
        let request = Person.joining(required: Person.writtenBooks.filter(Column("authorId") == 1))
            .including(all: Person.writtenBooks)
            .asRequest(of: AuthorWithBookObjects.self)
        for _ in 0..<3 {
            let authors = try dbQueue.read { db in try request.fetchAll(db) }
            #expect(authors.count == 2)
            #expect(authors.map { $0.books.map(\.title).sorted() } == [
                ["Les Misérables", "Notre-Dame de Paris"], ["Les Misérables", "Notre-Dame de Paris"],
            ])
            #expect(authors[0].books[0] !== authors[1].books[0])
        }
    }

    @Test func aDatabaseErrorOfThePrefetchIsNotRetried() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let calls = Mutex(0)
        try dbQueue.write { db in
            db.add(function: DatabaseFunction("checkedYear", argumentCount: 1) { values in
                let count = calls.withLock { count in
                    count += 1
                    return count
                }
                // The prefetch of the third fetch fails.
                if count > 10 { throw DatabaseError(message: "no more years") }
                return values[0]
            })
        }
        let request = Person.including(all: Person.writtenBooks.filter(sql: "checkedYear(year) > 0"))
            .asRequest(of: CountedAuthor.self)
        // The first fetch learns that the books are read as records; the
        // second decodes them as the prefetch reads them.
        for _ in 0..<2 {
            let authors = try dbQueue.read { db in try request.fetchAll(db) }
            #expect(authors.map(\.titles.count).sorted() == [0, 1, 2, 2])
        }
        #expect(calls.withLock { $0 } == 10)
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try request.fetchAll(db) }
        }
        // The failed prefetch ran once: its query stopped at the failing
        // call, and was not run again.
        #expect(calls.withLock { $0 } == 11)
    }

    @Test func rowsOfARequestThatRecordsLearnedKeepTheirPrefetchedRows() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let request = Person.including(all: Person.writtenBooks.order(Column("id"))).order(Column("id"))
        let (authors, rows) = try dbQueue.read { db in
            _ = try request.asRequest(of: HandWrittenAuthor.self).fetchAll(db)
            return (try request.asRequest(of: HandWrittenAuthor.self).fetchAll(db), try Row.fetchAll(db, request))
        }
        #expect(authors.map(\.titles) == expectedTitles)
        #expect(rows.map { ($0.prefetchedRows["writtenBooks"] ?? []).map { $0["title"] as String } } == expectedTitles)
    }
}
