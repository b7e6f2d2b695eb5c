import Testing
import Trellis

private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book

/// A record that wraps a person: its key `person` names a scope of that
/// name when the row has one, or else the row itself.
private struct PersonWrapper: Decodable, FetchableRecord, Equatable {
    var person: Person
}

private struct AuthorAndTranslator: Decodable, FetchableRecord, Equatable {
    var author: PersonWrapper
    var translator: PersonWrapper
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Person
}

@Suite struct NestedRecordKeysResolutionTests {
    @Test func eachRowOfAFetchResolvesItsNestedRecordsTheSameWay() throws {
        // The first row resolves `book` to the row itself and `author` to
        // its scope; the next rows reuse that resolution.
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Book.including(required: Book.author).order(Column("id")).asRequest(of: BookInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.book.id) == [1, 2, 3, 4, 5])
        #expect(infos.map(\.author.name) == ["Victor Hugo", "Leo Tolstoy", "Leo Tolstoy", "Victor Hugo", "Anonymous"])
    }

    @Test func aKeyResolvesInEachScopeOfItsOwn() throws {
        // In the author's scope, `person` is the scope of the author's
        // mentor; in the translator's scope, which has none, it is the
        // translator's row itself.
        let dbQueue = try LibraryFixture.makeDatabase()
        let pairs = try dbQueue.read { db in
            try Book
                .including(required: Book.author.including(required: Person.mentor.forKey("person")))
                .including(required: Book.translator)
                .order(Column("id"))
                .asRequest(of: AuthorAndTranslator.self)
                .fetchAll(db)
        }
        #expect(pairs.map(\.author.person.name) == ["Victor Hugo"])
        #expect(pairs.map(\.translator.person.name) == ["Isabel Hapgood"])
    }
}
