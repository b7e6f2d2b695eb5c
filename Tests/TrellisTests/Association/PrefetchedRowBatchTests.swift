import Testing
import Trellis

private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book

/// The rows of a to-many prefetch are stored together, and hand-written
/// records read them through one row that moves from row to row: what a
/// record keeps must not move with it.
@Suite struct PrefetchedRowBatchTests {
    /// A record that keeps the row it was decoded from.
    private struct RowKeepingBook: FetchableRecord {
        var row: Row
        init(row: Row) { self.row = row }
    }

    @Test func aRecordThatKeepsItsRowKeepsItsOwnValues() throws {
        struct Info: FetchableRecord {
            var books: [RowKeepingBook]
            init(row: Row) throws { books = try row.decode(forKey: "writtenBooks") }
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Info.fetchAll(db, Person.including(all: Person.writtenBooks.order(Column("id"))).order(Column("id")))
        }
        #expect(infos.map { $0.books.map { $0.row["title"] as String } } ==
            [["Les Misérables", "Notre-Dame de Paris"], [], ["War and Peace", "Anna Karenina"], ["Beowulf"]])
        // Copies are rows of their own, equal to the row they copy.
        let kept = try #require(infos.first?.books.last?.row)
        #expect(kept.copy() == kept)
        #expect(kept["id"] as Int64 == 4)
    }

    @Test func aRecordThatKeepsACopyOrAScopeKeepsItsOwnValues() throws {
        struct BookCopy: FetchableRecord {
            var copy: Row
            var translator: Row?
            init(row: Row) {
                copy = row.copy()
                translator = row.scopes["translator"]
            }
        }
        struct Info: FetchableRecord {
            var books: [BookCopy]
            init(row: Row) throws { books = try row.decode(forKey: "writtenBooks") }
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Info.fetchAll(db, Person
                .including(all: Person.writtenBooks.including(optional: Book.translator).order(Column("id")))
                .order(Column("id")))
        }
        #expect(infos.map { $0.books.map { $0.copy["title"] as String } } ==
            [["Les Misérables", "Notre-Dame de Paris"], [], ["War and Peace", "Anna Karenina"], ["Beowulf"]])
        #expect(infos.map { $0.books.map { $0.translator?["name"] as String? } } ==
            [["Isabel Hapgood", nil], [], [nil, "Isabel Hapgood"], [nil]])
        // A joined row counts its own columns only, its copy too: the
        // book's, and the link column of the prefetch, named as in GRDB.
        #expect(infos[0].books[0].copy.columnNames ==
            ["id", "title", "authorId", "translatorId", "libraryId", "year", "pages", "grdb_authorId"])
    }

    @Test func rowsOfInterleavedGroupsGoToTheirParents() throws {
        // Ordered by year, the books of different authors alternate.
        struct Info: FetchableRecord {
            var name: String
            var years: [Int]
            init(row: Row) throws {
                name = row["name"]
                years = try row.decode([Book].self, forKey: "writtenBooks").map(\.year)
            }
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Info.fetchAll(db, Person.including(all: Person.writtenBooks.order(Column("year").desc)).order(Column("id")))
        }
        #expect(infos.map(\.years) == [[1862, 1831], [], [1878, 1869], [1000]])
    }

    @Test func prefetchedRowsReadTheirValuesAndScopes() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, Person
                .including(all: Person.writtenBooks.including(optional: Book.translator).order(Column("id")))
                .filter(Column("id") == 3))
        }
        let books = try #require(rows.first?.prefetchedRows["writtenBooks"])
        #expect(books.map { $0["title"] as String } == ["War and Peace", "Anna Karenina"])
        #expect(books.map { $0.scopes["translator"]?["name"] as String? } == [nil, "Isabel Hapgood"])
        #expect(books[1].unadapted.count > books[1].count)
    }

    @Test func theFailureOfANonThrowingAccessorOfAPrefetchedRecordIsThrown() throws {
        // `title` is not an integer: the subscript records the failure,
        // and the fetch throws it rather than dropping it.
        struct BadBook: FetchableRecord {
            var title: Int
            init(row: Row) { title = row["title"] }
        }
        struct Info: FetchableRecord {
            var books: [BadBook]
            init(row: Row) throws { books = try row.decode(forKey: "writtenBooks") }
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db in
                try Info.fetchAll(db, Person.including(all: Person.writtenBooks))
            }
        }
        // The connection is still usable.
        #expect(try dbQueue.read { db in try Book.fetchCount(db) } == 5)
    }

    @Test func theFailureOfANonThrowingAccessorOfACodableNestedPrefetchedRecordIsThrown() throws {
        struct BadBook: FetchableRecord, Decodable {
            var title: Int
            init(from decoder: any Decoder) throws { title = 0 }
            init(row: Row) { title = row["title"] }
        }
        struct Info: FetchableRecord, Decodable {
            var person: Person
            var writtenBooks: [BadBook]
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db in
                try Person.including(all: Person.writtenBooks).asRequest(of: Info.self).fetchAll(db)
            }
        }
    }
}
