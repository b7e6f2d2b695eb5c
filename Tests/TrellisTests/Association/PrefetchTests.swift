import Testing
import Trellis

private typealias Country = LibraryFixture.Country
private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book
private typealias Cover = LibraryFixture.Cover
private typealias Award = LibraryFixture.Award
private typealias Tag = LibraryFixture.Tag
private typealias BookTag = LibraryFixture.BookTag
private typealias Library = LibraryFixture.Library
private typealias Address = LibraryFixture.Address

@Suite struct PrefetchTests {
    fileprivate struct AuthorInfo: Decodable, FetchableRecord {
        var person: Person
        var writtenBooks: [Book]
    }

    @Test func includingAllFetchesEachRecordWithItsAssociatedRecords() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Person
                .including(all: Person.writtenBooks.order(Column("year")))
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.person.name) == ["Victor Hugo", "Isabel Hapgood", "Leo Tolstoy", "Anonymous"])
        #expect(infos.map { $0.writtenBooks.map(\.id) } == [[4, 1], [], [2, 3], [5]])
    }

    @Test func prefetchedRowsForHandWrittenRecords() throws {
        struct Info: FetchableRecord {
            var name: String
            var titles: [String]
            init(row: Row) throws {
                name = row["name"]
                titles = try row.decode([Book].self, forKey: "writtenBooks").map(\.title)
            }
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Info.fetchAll(db, Person.including(all: Person.writtenBooks.order(Column("id"))).filter(Column("id") == 3))
        }
        #expect(infos.first?.titles == ["War and Peace", "Anna Karenina"])
    }

    @Test func manyToManyThroughAJoinTable() throws {
        struct TagInfo: Decodable, FetchableRecord {
            var tag: Tag
            var books: [Book]
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Tag.including(all: Tag.books.order(Column("id"))).order(Column("id")).asRequest(of: TagInfo.self).fetchAll(db)
        }
        #expect(infos.map { $0.books.map(\.id) } == [[1, 2, 3, 4], [1, 2], [5]])
    }

    @Test func hasManyThroughHasMany() throws {
        struct Info: Decodable, FetchableRecord {
            var person: Person
            var awards: [Award]
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Person.including(all: Person.awards.order(Column("year"))).order(Column("id")).asRequest(of: Info.self).fetchAll(db)
        }
        #expect(infos.map { $0.awards.map(\.name) } == [["Classic"], [], ["Masterpiece", "Readers' choice"], []])
    }

    @Test func nestedToManyInsideToMany() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var awards: [Award]
        }
        struct Info: Decodable, FetchableRecord {
            var person: Person
            var writtenBooks: [BookInfo]
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let info = try dbQueue.read { db in
            try Person
                .including(all: Person.writtenBooks.including(all: Book.awards.order(Column("id"))).order(Column("id")))
                .filter(Column("id") == 3)
                .asRequest(of: Info.self)
                .fetchOne(db)
        }
        #expect(info?.writtenBooks.map { $0.awards.count } == [0, 2])
    }

    @Test func aLimitAppliesToEachParent() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Person
                .including(all: Person.writtenBooks.order(Column("year").desc).limit(1))
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map { $0.writtenBooks.map(\.id) } == [[1], [], [3], [5]])
    }

    @Test func prefetchedRowsKeepTheFilterOfTheAssociation() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Person
                .including(all: Person.writtenBooks.filter(Column("pages") > 1000))
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map { $0.writtenBooks.map(\.id) } == [[1], [], [2], []])
    }

    @Test func includingAllInsideToOneAssociations() throws {
        struct WriterInfo: Decodable, FetchableRecord {
            var person: Person
            var writtenBooks: [Book]
        }
        struct TranslatorInfo: Decodable, FetchableRecord {
            var person: Person
            var translatedBooks: [Book]
        }
        struct Info: Decodable, FetchableRecord {
            var book: Book
            var author: WriterInfo
            var translator: TranslatorInfo?
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Book
                .including(required: Book.author.including(all: Person.writtenBooks.order(Column("id"))))
                .including(optional: Book.translator.including(all: Person.translatedBooks.order(Column("id"))))
                .order(Column("id"))
                .asRequest(of: Info.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.book.id) == [1, 2, 3, 4, 5])
        #expect(infos.map(\.author.person.name) == ["Victor Hugo", "Leo Tolstoy", "Leo Tolstoy", "Victor Hugo", "Anonymous"])
        #expect(infos.map { $0.author.writtenBooks.map(\.id) } == [[1, 4], [2, 3], [2, 3], [1, 4], [5]])
        #expect(infos.map { $0.translator?.translatedBooks.map(\.id) } == [[1, 3], nil, [1, 3], nil, nil])
    }

    @Test func rowsKeepThePrefetchedRowsOfTheirScopes() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, Book
                .including(required: Book.author.including(optional: Person.country).including(all: Person.writtenBooks))
                .filter(Column("id") == 2))
        }
        let author = try #require(rows.first?.scopes["author"])
        #expect(author["name"] == "Leo Tolstoy")
        #expect(author.prefetchedRows["writtenBooks"]?.map { $0["id"] as Int64 }.sorted() == [2, 3])
        // A copy of the scope keeps them too.
        #expect(author.copy().prefetchedRows["writtenBooks"]?.count == 2)
        #expect(author.scopes["country"]?.prefetchedRows.isEmpty == true)
    }

    @Test func includingAllTwoToOneAssociationsDeep() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, Book
                .including(required: Book.author.including(required: Person.country.including(all: Country.people)))
                .order(Column("id")))
        }
        let countries = rows.map { $0.scopes["author"]?.scopes["country"] }
        let people = countries.map { $0?.prefetchedRows["people"]?.map { $0["id"] as Int64 }.sorted() }
        #expect(people.count == 4)
        #expect(people.allSatisfy { $0?.isEmpty == false })
        #expect(people[1]?.contains(3) == true) // War and Peace: Tolstoy, from Russia
        #expect(people[0] == people[3]) // both by Victor Hugo
    }
}
