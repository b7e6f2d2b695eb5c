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

    @Test func eachPrefetchedRecordDecodesItsOwnJoinedRecord() throws {
        // The prefetched rows share one decoder: each book still reads its
        // own translator scope, not the first book's.
        struct BookWithTranslator: Decodable, FetchableRecord {
            var book: Book
            var translator: Person?
        }
        struct Info: Decodable, FetchableRecord {
            var person: Person
            var writtenBooks: [BookWithTranslator]
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Person
                .including(all: Person.writtenBooks.including(optional: Book.translator).order(Column("id")))
                .order(Column("id"))
                .asRequest(of: Info.self)
                .fetchAll(db)
        }
        #expect(infos.map { $0.writtenBooks.map(\.book.title) } ==
            [["Les Misérables", "Notre-Dame de Paris"], [], ["War and Peace", "Anna Karenina"], ["Beowulf"]])
        #expect(infos.map { $0.writtenBooks.map { $0.translator?.name } } ==
            [["Isabel Hapgood", nil], [], [nil, "Isabel Hapgood"], [nil]])
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

    @Test func aCompositeForeignKeyGroupsRowsByAllItsColumns() throws {
        struct Sale: Codable, FetchableRecord, TableRecord {
            var id: Int64
            var isbn: String
            var printing: Int
        }
        struct Edition: Codable, FetchableRecord, TableRecord {
            static let sales = hasMany(Sale.self)
            var isbn: String
            var printing: Int
        }
        struct EditionInfo: Decodable, FetchableRecord {
            var edition: Edition
            var sales: [Sale]
        }
        let dbQueue = try DatabaseQueue()
        let infos = try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE edition (isbn TEXT NOT NULL, printing INTEGER NOT NULL, PRIMARY KEY (isbn, printing));
                CREATE TABLE sale (id INTEGER PRIMARY KEY, isbn TEXT NOT NULL, printing INTEGER NOT NULL,
                                   FOREIGN KEY (isbn, printing) REFERENCES edition (isbn, printing));
                INSERT INTO edition VALUES ('a', 1), ('a', 2), ('b', 1), ('b', 2);
                INSERT INTO sale VALUES (1, 'a', 1), (2, 'a', 2), (3, 'a', 1), (4, 'b', 1);
                """)
            return try Edition
                .including(all: Edition.sales.order(Column("id").desc))
                .order(Column("isbn"), Column("printing"))
                .asRequest(of: EditionInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map { "\($0.edition.isbn)\($0.edition.printing)" } == ["a1", "a2", "b1", "b2"])
        #expect(infos.map { $0.sales.map(\.id) } == [[3, 1], [2], [4], []])
    }

    @Test func parentsThatShareALinkShareItsRowsAndANullLinkHasNone() throws {
        struct Venue: Codable, FetchableRecord, TableRecord {
            var id: Int64
            var city: String
        }
        struct Team: Codable, FetchableRecord, TableRecord {
            static let venues = hasMany(Venue.self, using: ForeignKey(["city"], to: ["city"]))
            var id: Int64
            var city: String?
        }
        let dbQueue = try DatabaseQueue()
        let rows = try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, city TEXT);
                CREATE TABLE venue (id INTEGER PRIMARY KEY, city TEXT NOT NULL);
                INSERT INTO team VALUES (1, 'Paris'), (2, 'Paris'), (3, NULL), (4, 'Rome'), (5, 'Oslo');
                INSERT INTO venue VALUES (1, 'Paris'), (2, 'Rome'), (3, 'Paris');
                """)
            return try Row.fetchAll(db, Team.including(all: Team.venues.order(Column("id"))).order(Column("id")))
        }
        let venues = rows.map { $0.prefetchedRows["venues"]?.map { $0["id"] as Int64 } }
        #expect(venues == [[1, 3], [1, 3], [], [2], []])
    }
}
