import Foundation
import Testing
import Trellis

// Snippets of GRDB's AssociationsBasics.md not covered elsewhere: the wrong
// request of "Table Aliases", the isolation of aggregates of one key,
// decoding with init(row:), a hierarchical record with an optional nested
// person, foreign keys to a table without primary key, and chained
// through associations.

private struct PAuthor: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
    static let databaseTableName = "author"
    static let books = hasMany(PBook.self, using: ForeignKey(["authorId"])).forKey("books")
    static let paintings = hasMany(PPainting.self, using: ForeignKey(["authorId"])).forKey("paintings")
    var id: Int64
    var name: String
    var deathYear: Int?
}

private struct PBook: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
    static let databaseTableName = "book"
    static let author = belongsTo(PAuthor.self, using: ForeignKey(["authorId"])).forKey("author")
    static let coverImage = hasOne(PCoverImage.self, using: ForeignKey(["bookId"])).forKey("coverImage")
    var id: Int64
    var authorId: Int64
    var title: String
    var kind: String
    var year: Int
}

private struct PPainting: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "painting"
    var id: Int64
    var authorId: Int64
}

private struct PCoverImage: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "coverImage"
    var id: Int64
    var bookId: Int64
    var path: String
}

@Suite struct GRDBCompatAssociationsMoreTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("deathYear", .integer)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("year", .integer).notNull()
            }
            try db.create(table: "painting") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author").notNull()
            }
            try db.create(table: "coverImage") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("book").notNull()
                t.column("path", .text).notNull()
            }
            try PAuthor(id: 1, name: "Hugo", deathYear: 1885).insert(db)
            try PAuthor(id: 2, name: "Melville", deathYear: 1891).insert(db)
            try PAuthor(id: 3, name: "Nobody", deathYear: nil).insert(db)
            try PBook(id: 1, authorId: 1, title: "Les Misérables", kind: "novel", year: 1862).insert(db)
            try PBook(id: 2, authorId: 1, title: "Toute la lyre", kind: "poems", year: 1888).insert(db)
            try PBook(id: 3, authorId: 2, title: "Moby-Dick", kind: "novel", year: 1851).insert(db)
            try PPainting(id: 1, authorId: 1).insert(db)
            try PCoverImage(id: 1, bookId: 1, path: "a.jpg").insert(db)
        }
        return dbQueue
    }

    @Test func wrongRequestWithoutAliasIsNoSuchColumn() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = PBook
                .joining(required: PBook.author)
                .filter(Column("year") >= Column("deathYear"))
            do {
                _ = try request.fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "no such column: book.deathYear")
            }
            let authorAlias = TableAlias<PAuthor>()
            let posthumous = try PBook
                .joining(required: PBook.author.aliased(authorAlias))
                .filter(Column("year") >= authorAlias[Column("deathYear")])
                .fetchAll(db)
            #expect(posthumous.map(\.id) == [2])
        }
    }

    @Test func sameKeyAggregatesShareTheirPopulation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let novelCount = PAuthor.books.filter(Column("kind") == "novel").count.forKey("novelCount")
            let poemCount = PAuthor.books.filter(Column("kind") == "poems").count.forKey("poemCount")
            let rows = try Row.fetchAll(db, PAuthor.annotated(with: novelCount, poemCount).orderByPrimaryKey())
            #expect(rows.map { $0["novelCount"] as Int } == [0, 0, 0])
            #expect(rows.map { $0["poemCount"] as Int } == [0, 0, 0])
        }
    }

    @Test func aggregatesGiveOneRowPerParentWhateverTheJoins() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // GROUP BY author.id, as GRDB's aggregates group.
            let request = PAuthor
                .joining(optional: PAuthor.books)
                .annotated(with: PAuthor.books.count)
                .orderByPrimaryKey()
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["id"] as Int64 } == [1, 2, 3])
            #expect(rows.map { $0["bookCount"] as Int } == [2, 1, 0])
            #expect(try request.fetchCount(db) == 3)

            let novelists = try PAuthor
                .joining(required: PAuthor.books.filter(Column("kind") == "novel"))
                .annotated(with: PAuthor.paintings.count)
                .orderByPrimaryKey()
                .fetchAll(db)
            #expect(novelists.map(\.id) == [1, 2])
        }
    }

    @Test func havingAndAnnotationOfOneKeyMergeTheirFilters() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // Both aggregates use the key "books": the count is the count
            // of novels.
            let novels = PAuthor.books.filter(Column("kind") == "novel")
            let rows = try Row.fetchAll(db, PAuthor
                .annotated(with: PAuthor.books.count)
                .having(novels.isEmpty == false)
                .orderByPrimaryKey())
            #expect(rows.map { $0["id"] as Int64 } == [1, 2])
            #expect(rows.map { $0["bookCount"] as Int } == [1, 1])

            // Distinct keys count distinct populations.
            let isolated = try Row.fetchAll(db, PAuthor
                .annotated(with: PAuthor.books.forKey("allBooks").count)
                .having(novels.isEmpty == false)
                .orderByPrimaryKey())
            #expect(isolated.map { $0["allBookCount"] as Int } == [2, 1])
        }
    }

    @Test func joinsAndAggregatesOfOneAssociationMerge() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // The join and the aggregate of `books` are one population:
            // the novels.
            let novelists = try Row.fetchAll(db, PAuthor
                .joining(required: PAuthor.books.filter(Column("kind") == "novel"))
                .annotated(with: PAuthor.books.count)
                .orderByPrimaryKey())
            #expect(novelists.map { $0["id"] as Int64 } == [1, 2])
            #expect(novelists.map { $0["bookCount"] as Int } == [1, 1])

            let poets = try Row.fetchAll(db, PAuthor
                .joining(required: PAuthor.books)
                .annotated(with: PAuthor.books.filter(Column("kind") == "poems").count)
                .orderByPrimaryKey())
            #expect(poets.map { $0["id"] as Int64 } == [1])
            #expect(poets.map { $0["bookCount"] as Int } == [1])

            let all = try Row.fetchAll(db, PAuthor
                .joining(optional: PAuthor.books)
                .annotated(with: PAuthor.books.filter(Column("kind") == "poems").count)
                .orderByPrimaryKey())
            #expect(all.map { $0["id"] as Int64 } == [1, 2, 3])
            #expect(all.map { $0["bookCount"] as Int } == [1, 0, 0])

            // Another key is another population.
            let counted = try Row.fetchAll(db, PAuthor
                .joining(required: PAuthor.books.filter(Column("kind") == "novel"))
                .annotated(with: PAuthor.books.forKey("allBooks").count)
                .orderByPrimaryKey())
            #expect(counted.map { $0["allBookCount"] as Int } == [2, 1])
        }
    }

    @Test func includingAllNeedsTheSelectedKeyOfTheParents() throws {
        struct AuthorTitles: Decodable, FetchableRecord {
            var name: String
            var books: [PBook]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // Without the author id, no book could be matched: an error,
            // not authors without books.
            let request = PAuthor
                .select(Column("name"))
                .including(all: PAuthor.books)
                .orderByPrimaryKey()
            do {
                _ = try AuthorTitles.fetchAll(db, request)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "including(all:) of books needs the column id of author, which the request does not select")
            }
            let selected = try AuthorTitles.fetchAll(db, PAuthor
                .select(Column("id"), Column("name"))
                .including(all: PAuthor.books.orderByPrimaryKey())
                .orderByPrimaryKey())
            #expect(selected.map { $0.books.map(\.id) } == [[1, 2], [3], []])
            // No parent, no error.
            #expect(try AuthorTitles.fetchAll(db, request.filter(Column("id") > 10)).isEmpty)
        }
    }

    @Test func fetchableRecordDecodesAssociationsByKey() throws {
        struct BookInfo: FetchableRecord {
            var book: PBook
            var author: PAuthor
            var coverImage: PCoverImage?
            init(row: Row) throws {
                book = try PBook(row: row)
                author = try row.decode(forKey: "author")
                coverImage = try row.decodeIfPresent(forKey: "coverImage")
            }
        }
        struct AuthorInfo: FetchableRecord {
            var author: PAuthor
            var books: [PBook]
            init(row: Row) throws {
                author = try PAuthor(row: row)
                books = try row.decode(forKey: "books")
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = PBook
                .including(required: PBook.author)
                .including(optional: PBook.coverImage)
                .orderByPrimaryKey()
            let infos = try BookInfo.fetchAll(db, request)
            #expect(infos.map(\.author.name) == ["Hugo", "Hugo", "Melville"])
            #expect(infos.map(\.coverImage?.path) == ["a.jpg", nil, nil])

            let authorInfos = try AuthorInfo.fetchAll(db, PAuthor.including(all: PAuthor.books.orderByPrimaryKey()).orderByPrimaryKey())
            #expect(authorInfos.map { $0.books.map(\.id) } == [[1, 2], [3], []])
        }
    }

    @Test func countsOfRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try PBook.select(Column("kind")).fetchCount(db) == 3)
            #expect(try PBook.select(Column("kind")).distinct().fetchCount(db) == 2)
            #expect(try PBook.limit(2).fetchCount(db) == 2)
            #expect(try PBook.limit(2, offset: 2).fetchCount(db) == 1)
            #expect(try PBook.select(Column("kind"), count(Column("id"))).group(Column("kind")).fetchCount(db) == 2)
            #expect(try PAuthor.including(all: PAuthor.books).fetchCount(db) == 3)
            let joinedCount = try PAuthor.joining(required: PAuthor.books).fetchAll(db).count
            #expect(try PAuthor.joining(required: PAuthor.books).fetchCount(db) == joinedCount)
            #expect(try PAuthor.annotated(with: PAuthor.books.count).fetchCount(db) == 3)
            #expect(try PAuthor.having(PAuthor.books.isEmpty).fetchCount(db) == 1)
            #expect(try PAuthor.fetchAll(db, keys: [Int64]()) == [])
            #expect(try PAuthor.fetchAll(db, ids: []) == [])
            #expect(try PAuthor.filter(ids: []).fetchCount(db) == 0)
            #expect(try PBook.filter([Int64]().contains(Column("id"))).fetchCount(db) == 0)
            #expect(try PBook.filter(![Int64]().contains(Column("id"))).fetchCount(db) == 3)
        }
    }
}

private struct HCountry: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "country"
    var code: String
    var name: String
}

private struct HPerson: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "person"
    static let country = belongsTo(HCountry.self)
    var id: Int64
    var name: String
    var countryCode: String?
}

private struct HBook: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"
    static let author = belongsTo(HPerson.self, key: "author", using: ForeignKey(["authorId"]))
    static let translator = belongsTo(HPerson.self, key: "translator", using: ForeignKey(["translatorId"]))
    var id: Int64
    var authorId: Int64
    var translatorId: Int64?
    var title: String
}

@Suite struct GRDBCompatAssociationsHierarchyTests {
    @Test func hierarchicalRecordWithAnOptionalNestedInfo() throws {
        struct BookInfo: FetchableRecord, Decodable {
            struct PersonInfo: Decodable {
                var person: HPerson
                var country: HCountry?
            }
            var book: HBook
            var authorInfo: PersonInfo
            var translatorInfo: PersonInfo?

            static func all() -> QueryInterfaceRequest<BookInfo> {
                HBook
                    .including(required: HBook.author
                        .forKey(CodingKeys.authorInfo)
                        .including(optional: HPerson.country))
                    .including(optional: HBook.translator
                        .forKey(CodingKeys.translatorInfo)
                        .including(optional: HPerson.country))
                    .order(Column("id"))
                    .asRequest(of: BookInfo.self)
            }
        }
        struct FlatInfo: FetchableRecord, Decodable {
            var book: HBook
            var author: HPerson
            var translator: HPerson?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "country") { t in
                t.primaryKey("code", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("countryCode", .text).references("country")
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer).notNull().references("person")
                t.column("translatorId", .integer).references("person")
                t.column("title", .text).notNull()
            }
            try HCountry(code: "FR", name: "France").insert(db)
            try HPerson(id: 1, name: "Hugo", countryCode: "FR").insert(db)
            try HPerson(id: 2, name: "Anonymous", countryCode: nil).insert(db)
            try HBook(id: 1, authorId: 1, translatorId: nil, title: "A").insert(db)
            try HBook(id: 2, authorId: 1, translatorId: 2, title: "B").insert(db)
            try HBook(id: 3, authorId: 2, translatorId: 1, title: "C").insert(db)
        }
        try dbQueue.read { db throws in
            let infos = try BookInfo.all().fetchAll(db)
            #expect(infos.map(\.authorInfo.person.name) == ["Hugo", "Hugo", "Anonymous"])
            #expect(infos.map(\.authorInfo.country?.name) == ["France", "France", nil])
            #expect(infos.map(\.translatorInfo?.person.name) == [nil, "Anonymous", "Hugo"])
            #expect(infos.map(\.translatorInfo?.country?.name) == [nil, nil, "France"])

            let flat = try FlatInfo.fetchAll(db, HBook
                .including(required: HBook.author)
                .including(optional: HBook.translator)
                .order(Column("id")))
            #expect(flat.map(\.translator?.id) == [nil, 2, 1])
            #expect(flat.map(\.author.id) == [1, 1, 2])
        }
    }
}

private struct NPerson: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "person"
    static let writtenBooks = hasMany(NBook.self, using: NBook.authorForeignKey)
    static let translatedBooks = hasMany(NBook.self, using: NBook.translatorForeignKey)
    enum Columns {
        static let id = Column("id")
    }
    var id: Int64
    var name: String
}

private struct NBook: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "book"
    enum Columns {
        static let authorId = Column("authorId")
        static let translatorId = Column("translatorId")
    }
    static let authorForeignKey = ForeignKey([Columns.authorId], to: [NPerson.Columns.id])
    static let translatorForeignKey = ForeignKey([Columns.translatorId], to: [NPerson.Columns.id])
    static let author = belongsTo(NPerson.self, using: authorForeignKey)
    static let translator = belongsTo(NPerson.self, using: translatorForeignKey)
    var id: Int64
    var authorId: Int64
    var translatorId: Int64?
}

@Suite struct GRDBCompatAssociationsForeignKeyTests {
    @Test func foreignKeysToATableWithoutPrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE person (id INTEGER, name TEXT);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER, translatorId INTEGER);
                INSERT INTO person VALUES (1, 'Hugo'), (2, 'Melville');
                INSERT INTO book VALUES (1, 1, 2), (2, 2, NULL), (3, 1, NULL);
                """)
        }
        try dbQueue.read { db throws in
            let hugoBooks = try NPerson.filter(Column("id") == 1).joining(required: NPerson.writtenBooks).fetchCount(db)
            #expect(hugoBooks == 2)
            let translated = try NBook.joining(required: NBook.translator).fetchAll(db).map(\.id)
            #expect(translated == [1])
            let hugo = try #require(try NPerson.filter(Column("id") == 1).fetchOne(db))
            #expect(try hugo.request(for: NPerson.writtenBooks).order(Column("id")).fetchAll(db).map(\.id) == [1, 3])
            let counts = try Row.fetchAll(db, NPerson
                .annotated(with: NPerson.writtenBooks.forKey("writtenBooks").count, NPerson.translatedBooks.forKey("translatedBooks").count)
                .order(Column("id")))
            #expect(counts.map { $0["writtenBookCount"] as Int } == [2, 1])
            #expect(counts.map { $0["translatedBookCount"] as Int } == [0, 1])
        }
    }
}

private struct TCountry: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "country"
    static let authors = hasMany(TAuthor.self)
    static let books = hasMany(TBook.self, through: authors, using: TAuthor.books)
    static let awards = hasMany(TAward.self, through: books, using: TBook.awards)
    var code: String
}

private struct TAuthor: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "author"
    static let country = belongsTo(TCountry.self)
    static let books = hasMany(TBook.self)
    static let awards = hasMany(TAward.self, through: books, using: TBook.awards)
    var id: Int64
    var countryCode: String
}

private struct TBook: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "book"
    static let author = belongsTo(TAuthor.self)
    static let awards = hasMany(TAward.self)
    static let country = hasOne(TCountry.self, through: author, using: TAuthor.country)
    static let siblings = hasMany(TBook.self, through: author, using: TAuthor.books, key: "siblings")
    var id: Int64
    var authorId: Int64
}

private struct TAward: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "award"
    static let book = belongsTo(TBook.self)
    static let author = hasOne(TAuthor.self, through: book, using: TBook.author)
    static let country = hasOne(TCountry.self, through: author, using: TAuthor.country)
    var id: Int64
    var bookId: Int64
}

@Suite struct GRDBCompatAssociationsThroughTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("country").notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author").notNull()
            }
            try db.create(table: "award") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("book").notNull()
            }
            try TCountry(code: "FR").insert(db)
            try TCountry(code: "US").insert(db)
            try TCountry(code: "DE").insert(db)
            try TAuthor(id: 1, countryCode: "FR").insert(db)
            try TAuthor(id: 2, countryCode: "FR").insert(db)
            try TAuthor(id: 3, countryCode: "US").insert(db)
            try TBook(id: 1, authorId: 1).insert(db)
            try TBook(id: 2, authorId: 1).insert(db)
            try TBook(id: 3, authorId: 2).insert(db)
            try TBook(id: 4, authorId: 3).insert(db)
            try TAward(id: 1, bookId: 1).insert(db)
            try TAward(id: 2, bookId: 1).insert(db)
            try TAward(id: 3, bookId: 3).insert(db)
        }
        return dbQueue
    }

    @Test func nestedThroughAssociations() throws {
        struct CountryInfo: Decodable, FetchableRecord {
            var country: TCountry
            var awards: [TAward]
        }
        struct AwardInfo: Decodable, FetchableRecord {
            var award: TAward
            var country: TCountry
        }
        struct BookInfo: Decodable, FetchableRecord {
            var book: TBook
            var siblings: [TBook]
        }
        struct AuthorInfo: Decodable, FetchableRecord {
            struct BookInfo: Decodable {
                var book: TBook
                var awards: [TAward]
            }
            var author: TAuthor
            var books: [BookInfo]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let countries = try CountryInfo.fetchAll(db, TCountry
                .including(all: TCountry.awards.order(Column("id")))
                .order(Column("code")))
            #expect(countries.map(\.country.code) == ["DE", "FR", "US"])
            #expect(countries.map { $0.awards.map(\.id) } == [[], [1, 2, 3], []])

            let awards = try AwardInfo.fetchAll(db, TAward.including(required: TAward.country).order(Column("id")))
            #expect(awards.map(\.country.code) == ["FR", "FR", "FR"])

            let siblings = try BookInfo.fetchAll(db, TBook.including(all: TBook.siblings.order(Column("id"))).order(Column("id")))
            #expect(siblings.map { $0.siblings.map(\.id) } == [[1, 2], [1, 2], [3], [4]])

            let nested = try AuthorInfo.fetchAll(db, TAuthor
                .including(all: TAuthor.books
                    .including(all: TBook.awards.order(Column("id")))
                    .order(Column("id")))
                .order(Column("id")))
            #expect(nested.map { $0.books.map(\.book.id) } == [[1, 2], [3], [4]])
            #expect(nested.map { $0.books.map { $0.awards.map(\.id) } } == [[[1, 2], []], [[3]], [[]]])

            let counts = try Row.fetchAll(db, TCountry.annotated(with: TCountry.awards.count, TCountry.books.count).order(Column("code")))
            #expect(counts.map { $0["awardCount"] as Int } == [0, 3, 0])
            #expect(counts.map { $0["bookCount"] as Int } == [0, 3, 1])

            let laterBooks = try Row.fetchAll(db, TCountry
                .joining(required: TCountry.books.filter(Column("id") > 1))
                .annotated(with: TCountry.books.count)
                .order(Column("code")))
            #expect(laterBooks.map { $0["code"] as String } == ["FR", "US"])
            #expect(laterBooks.map { $0["bookCount"] as Int } == [2, 1])

            // Aggregates and joins in a prefetched association.
            struct AuthorAwardedBooks: Decodable, FetchableRecord {
                struct BookInfo: Decodable {
                    var book: TBook
                    var awardCount: Int
                }
                var author: TAuthor
                var books: [BookInfo]
            }
            let awarded = try AuthorAwardedBooks.fetchAll(db, TAuthor
                .including(all: TAuthor.books
                    .joining(required: TBook.awards.filter(Column("id") > 1))
                    .annotated(with: TBook.awards.count)
                    .order(Column("id")))
                .order(Column("id")))
            #expect(awarded.map { $0.books.map(\.book.id) } == [[1], [3], []])
            #expect(awarded.map { $0.books.map(\.awardCount) } == [[1], [1], []])

            let frenchAwards = try TAward.joining(required: TAward.country.filter(Column("code") == "FR")).fetchCount(db)
            #expect(frenchAwards == 3)
            let awardedCountries = try TCountry.having(TCountry.awards.isEmpty == false).fetchAll(db).map(\.code)
            #expect(awardedCountries == ["FR"])
            let fr = try #require(try TCountry.fetchOne(db, key: "FR"))
            #expect(try fr.request(for: TCountry.awards).fetchCount(db) == 3)
            let book1 = try #require(try TBook.fetchOne(db, key: 1))
            #expect(try book1.request(for: TBook.siblings).fetchCount(db) == 2)
            #expect(try book1.request(for: TBook.country).fetchOne(db)?.code == "FR")
        }
    }
}
