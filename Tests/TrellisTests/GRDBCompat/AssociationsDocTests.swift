import Foundation
import Testing
import Trellis

// Snippets from GRDB's AssociationsBasics.md and README FAQ, written as the
// documentation writes them, against a small library: countries, authors,
// books, paintings, cover images, awards.

private struct Country: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let authors = hasMany(Author.self)
    static let books = hasMany(Book.self, through: authors, using: Author.books)
    var code: String
    var name: String
}

private struct Author: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
    static let books = hasMany(Book.self)
    static let paintings = hasMany(Painting.self)
    static let country = belongsTo(Country.self)
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let countryCode = Column(CodingKeys.countryCode)
        static let deathYear = Column(CodingKeys.deathYear)
    }
    var id: Int64
    var name: String
    var countryCode: String?
    var deathYear: Int?

    var books: QueryInterfaceRequest<Book> {
        request(for: Author.books)
    }
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
    enum Kind: String, Codable, DatabaseValueConvertible, Hashable {
        case novel, poems
    }
    static let author = belongsTo(Author.self)
    static let coverImage = hasOne(CoverImage.self)
    static let awards = hasMany(Award.self)
    static let country = hasOne(Country.self, through: author, using: Author.country)
    static let restrictedAuthor = belongsTo(RestrictedAuthor.self)
    static let extendedAuthor = belongsTo(ExtendedAuthor.self)
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let title = Column(CodingKeys.title)
        static let year = Column(CodingKeys.year)
    }
    var id: Int64
    var authorId: Int64
    var title: String
    var kind: Kind
    var year: Int
    var price: Double

    var author: QueryInterfaceRequest<Author> {
        request(for: Book.author)
    }
}

private struct Painting: Codable, FetchableRecord, PersistableRecord, Hashable {
    var id: Int64
    var authorId: Int64
    var title: String
}

private struct CoverImage: Codable, FetchableRecord, PersistableRecord, Hashable {
    var id: Int64
    var bookId: Int64
    var path: String
}

private struct Award: Codable, FetchableRecord, PersistableRecord, Hashable {
    var id: Int64
    var bookId: Int64
    var name: String
}

private struct RestrictedAuthor: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "author"
    static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]
    var id: Int64
    var name: String
}

private struct ExtendedAuthor: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "author"
    static let databaseSelection: [any SQLSelectable] = [AllColumns(), Column.rowID]
}

// Ordered associations
private struct Team: Codable, FetchableRecord, PersistableRecord {
    static let players = hasMany(Player.self).order(Column("position"))
    static let playerRoles = hasMany(PlayerRole.self).order(Column("position"))
    static let rolePlayers = hasMany(Player.self, through: playerRoles, using: PlayerRole.player, key: "rolePlayers")
    var id: Int64
    var name: String

    var players: QueryInterfaceRequest<Player> {
        request(for: Team.players)
    }
}

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var teamId: Int64
    var name: String
    var position: Int
    var score: Int
}

private struct PlayerRole: Codable, FetchableRecord, PersistableRecord {
    static let player = belongsTo(Player.self)
    var teamId: Int64
    var playerId: Int64
    var position: Int
}

// Requests shared by requests and associations (DerivableRequest)
extension DerivableRequest where RowDecoder == Author {
    fileprivate func filter(country: String) -> Self {
        filter(Column("countryCode") == country)
    }

    fileprivate func orderedByName() -> Self {
        order(Column("name").collating(.localizedCaseInsensitiveCompare))
    }
}

extension DerivableRequest where RowDecoder == Book {
    fileprivate func filter(authorCountry: String) -> Self {
        joining(required: Book.author.filter(country: authorCountry))
    }

    fileprivate func orderedByAuthorNameAndYear() -> Self {
        let authorAlias = TableAlias<Author>()
        return self
            .joining(optional: Book.author.aliased(authorAlias))
            .order(
                authorAlias[Column("name")].collating(.localizedCaseInsensitiveCompare),
                Column("year"))
    }
}

// Generic code over the facets of DerivableRequest.
extension DerivableRequest where RowDecoder == Author {
    fileprivate func firstAuthors() -> Self {
        filter(ids: [1, 2]).orderByPrimaryKey()
    }
}

private func authorsWithPaintings<R: AggregatingRequest & JoinableRequest>(_ request: R) -> R where R.RowDecoder == Author {
    request.joining(required: Author.paintings).group(Column("id")).having(literal: "COUNT(*) >= \(1)")
}

private func unordered<R: OrderedRequest & FilteredRequest>(_ request: R) -> R {
    request.order(literal: "1").unordered().filter(literal: "1 = 1")
}

private func distinctNames<R: DerivableRequest>(_ request: R) -> R {
    request.select(Column("name")).distinct()
}

// The primary associated type spelling of GRDB 6+.
extension DerivableRequest<Painting> {
    fileprivate func orderedByTitle() -> Self {
        order(Column("title").collating(.localizedCaseInsensitiveCompare))
    }
}

@Suite struct GRDBCompatAssociationsTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "country") { t in
                t.primaryKey("code", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("countryCode", .text).references("country")
                t.column("deathYear", .integer)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer).notNull().indexed().references("author", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("year", .integer).notNull()
                t.column("price", .double).notNull()
            }
            try db.create(table: "painting") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer).notNull().references("author")
                t.column("title", .text).notNull()
            }
            try db.create(table: "coverImage") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("bookId", .integer).notNull().unique().references("book")
                t.column("path", .text).notNull()
            }
            try db.create(table: "award") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("bookId", .integer).notNull().references("book")
                t.column("name", .text).notNull()
            }
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("teamId", .integer).notNull().references("team")
                t.column("name", .text).notNull()
                t.column("position", .integer).notNull()
                t.column("score", .integer).notNull()
            }
            try db.create(table: "playerRole") { t in
                t.column("teamId", .integer).notNull().references("team")
                t.column("playerId", .integer).notNull().references("player")
                t.column("position", .integer).notNull()
                t.primaryKey(["teamId", "playerId"])
            }

            try Country(code: "FR", name: "France").insert(db)
            try Country(code: "US", name: "United States").insert(db)
            try Author(id: 1, name: "Victor Hugo", countryCode: "FR", deathYear: 1885).insert(db)
            try Author(id: 2, name: "Herman Melville", countryCode: "US", deathYear: 1891).insert(db)
            try Author(id: 3, name: "emily Dickinson", countryCode: "US", deathYear: 1886).insert(db)
            try Author(id: 4, name: "Nobody", countryCode: nil, deathYear: nil).insert(db)
            try Book(id: 1, authorId: 1, title: "Les Misérables", kind: .novel, year: 1862, price: 10).insert(db)
            try Book(id: 2, authorId: 1, title: "Les Contemplations", kind: .poems, year: 1856, price: 8).insert(db)
            try Book(id: 3, authorId: 1, title: "Toute la lyre", kind: .poems, year: 1888, price: 5).insert(db)
            try Book(id: 4, authorId: 2, title: "Moby-Dick", kind: .novel, year: 1851, price: 12).insert(db)
            try Book(id: 5, authorId: 3, title: "Poems", kind: .poems, year: 1890, price: 6).insert(db)
            try Painting(id: 1, authorId: 1, title: "Octopus").insert(db)
            try Painting(id: 2, authorId: 4, title: "Landscape").insert(db)
            try Painting(id: 3, authorId: 4, title: "Sea").insert(db)
            try CoverImage(id: 1, bookId: 1, path: "miserables.jpg").insert(db)
            try CoverImage(id: 2, bookId: 4, path: "moby.jpg").insert(db)
            try Award(id: 1, bookId: 1, name: "Classic").insert(db)
            try Award(id: 2, bookId: 4, name: "Great").insert(db)
            try Award(id: 3, bookId: 4, name: "Legend").insert(db)

            try Team(id: 1, name: "Reds").insert(db)
            try Team(id: 2, name: "Blues").insert(db)
            try Player(id: 1, teamId: 1, name: "Zoe", position: 2, score: 10).insert(db)
            try Player(id: 2, teamId: 1, name: "Adam", position: 3, score: -30).insert(db)
            try Player(id: 3, teamId: 1, name: "Mia", position: 1, score: 20).insert(db)
            try PlayerRole(teamId: 1, playerId: 1, position: 2).insert(db)
            try PlayerRole(teamId: 1, playerId: 2, position: 1).insert(db)
            try PlayerRole(teamId: 2, playerId: 3, position: 1).insert(db)
        }
        return dbQueue
    }

    // MARK: Requesting associated records

    @Test func requestForBuildsRequestsOfAssociatedRecords() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let book = try #require(try Book.fetchOne(db, key: 4))
            let author = try book.author.fetchOne(db)
            #expect(author?.name == "Herman Melville")

            let hugo = try #require(try Author.fetchOne(db, key: 1))
            let books = try hugo.books.order(Column("id")).fetchAll(db)
            #expect(books.map(\.id) == [1, 2, 3])
            let poems = try hugo.books
                .filter(Column("kind") == Book.Kind.poems)
                .order(Column("year").desc)
                .fetchAll(db)
            #expect(poems.map(\.title) == ["Toute la lyre", "Les Contemplations"])
            #expect(try hugo.books.fetchCount(db) == 3)
            let maxYear = try Int.fetchOne(db, hugo.books.select(max(Column("year"))))
            #expect(maxYear == 1888)
        }
    }

    // MARK: Joining methods

    @Test func includingRequiredWithAPartialAssociatedRecord() throws {
        struct BookInfo: Decodable, FetchableRecord {
            struct PartialAuthor: Decodable {
                var name: String
                var countryCode: String?
            }
            var book: Book
            var author: PartialAuthor
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db throws in
            try Book
                .including(required: Book.author.select(Column("name"), Column("countryCode")))
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.author.name) == ["Victor Hugo", "Victor Hugo", "Victor Hugo", "Herman Melville", "emily Dickinson"])
        #expect(infos.map(\.author.countryCode) == ["FR", "FR", "FR", "US", "US"])
    }

    @Test func annotatedWithRequiredAndOptional() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var name: String
            var countryCode: String?
        }
        struct BookAuthorName: Decodable, FetchableRecord {
            var book: Book
            var authorName: String?

            static func all() -> QueryInterfaceRequest<BookAuthorName> {
                Book
                    .annotated(withOptional: Book.author.select {
                        $0.name.forKey(CodingKeys.authorName)
                    })
                    .order(Column("id"))
                    .asRequest(of: BookAuthorName.self)
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let infos = try Book
                .annotated(withRequired: Book.author.select(Column("name"), Column("countryCode")))
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.name) == ["Victor Hugo", "Victor Hugo", "Victor Hugo", "Herman Melville", "emily Dickinson"])
            #expect(infos.map(\.book.title).first == "Les Misérables")

            let named = try BookAuthorName.all().fetchAll(db)
            #expect(named.map(\.authorName) == ["Victor Hugo", "Victor Hugo", "Victor Hugo", "Herman Melville", "emily Dickinson"])

            let renamed = try Book
                .annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))
                .filter(Column("id") == 5)
                .asRequest(of: BookAuthorName.self)
                .fetchOne(db)
            #expect(renamed?.authorName == "emily Dickinson")
        }
    }

    @Test func joiningFiltersOnTheAssociatedRecord() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let frenchBooks = try Book
                .joining(required: Book.author.filter(Column("countryCode") == "FR"))
                .order(Column("id"))
                .fetchAll(db)
            #expect(frenchBooks.map(\.id) == [1, 2, 3])

            // FAQ: books that have a cover image, and those that have none.
            let covered = try Book.joining(required: Book.coverImage).order(Column("id")).fetchAll(db)
            #expect(covered.map(\.id) == [1, 4])
            let coverAlias = TableAlias<CoverImage>()
            let uncovered = try Book
                .joining(optional: Book.coverImage.aliased(coverAlias))
                .filter(!coverAlias.exists)
                .order(Column("id"))
                .fetchAll(db)
            #expect(uncovered.map(\.id) == [2, 3, 5])
            let coveredAgain = try Book
                .joining(optional: Book.coverImage.aliased(coverAlias))
                .filter(coverAlias.exists)
                .order(Column("id"))
                .fetchAll(db)
            #expect(coveredAgain.map(\.id) == [1, 4])
        }
    }

    @Test func chainedAndThroughAssociations() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var country: Country?
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let viaJoin = try Book
                .joining(optional: Book.author.including(optional: Author.country))
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(viaJoin.map(\.country?.code) == ["FR", "FR", "FR", "US", "US"])
            let viaThrough = try Book
                .including(optional: Book.country)
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(viaThrough.map(\.country?.code) == ["FR", "FR", "FR", "US", "US"])
        }
    }

    @Test func includingAllWithPartialRecordsAndSingleColumns() throws {
        struct AuthorBooks: Decodable, FetchableRecord {
            struct PartialBook: Decodable {
                var title: String
                var year: Int
            }
            var author: Author
            var books: [PartialBook]
        }
        struct AuthorTitles: Decodable, FetchableRecord {
            var author: Author
            var bookTitles: [String]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let partial = try Author
                .including(all: Author.books.select(Column("title"), Column("year")).order(Column("year")))
                .order(Column("id"))
                .asRequest(of: AuthorBooks.self)
                .fetchAll(db)
            #expect(partial.map { $0.books.map(\.year) } == [[1856, 1862, 1888], [1851], [1890], []])

            let titles = try Author
                .including(all: Author.books
                    .select(Column("title"))
                    .order(Column("title"))
                    .forKey("bookTitles"))
                .order(Column("id"))
                .asRequest(of: AuthorTitles.self)
                .fetchAll(db)
            #expect(titles.map(\.bookTitles) == [
                ["Les Contemplations", "Les Misérables", "Toute la lyre"], ["Moby-Dick"], ["Poems"], [],
            ])
        }
    }

    @Test func filteredAssociationsUnderDistinctKeys() throws {
        struct AuthorInfo: FetchableRecord, Decodable {
            var author: Author
            var novels: [Book]
            var poems: [Book]
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db throws in
            let request = Author
                .including(all: Author.books
                    .filter(Column("kind") == "novel")
                    .forKey("novels"))
                .including(all: Author.books
                    .filter(Column("kind") == "poems")
                    .order(Column("id"))
                    .forKey("poems"))
                .order(Column("id"))
            return try AuthorInfo.fetchAll(db, request)
        }
        #expect(infos.map { $0.novels.map(\.id) } == [[1], [4], [], []])
        #expect(infos.map { $0.poems.map(\.id) } == [[2, 3], [], [5], []])
    }

    // MARK: Sorting

    @Test func sortingOnAssociatedRecords() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Author
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // The base record first, the associated record next.
            let sortedAuthor = Book.author.order(Column("name").desc)
            let infos = try Book
                .including(required: sortedAuthor)
                .order(Column("kind"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.book.kind) == [.novel, .novel, .poems, .poems, .poems])
            #expect(infos.map(\.author.name) == ["Victor Hugo", "Herman Melville", "emily Dickinson", "Victor Hugo", "Victor Hugo"])
        }
    }

    @Test func orderedAssociationsAreSortedByDefault() throws {
        struct TeamInfo: Decodable, FetchableRecord {
            var team: Team
            var players: [Player]
        }
        struct TeamRoleInfo: Decodable, FetchableRecord {
            var team: Team
            var rolePlayers: [Player]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let team = try #require(try Team.fetchOne(db, key: 1))
            #expect(try team.players.fetchAll(db).map(\.name) == ["Mia", "Zoe", "Adam"])
            #expect(try team.players.order(Column("name")).fetchAll(db).map(\.name) == ["Adam", "Mia", "Zoe"])
            let infos = try Team.including(all: Team.players).order(Column("id")).asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(infos.map { $0.players.map(\.name) } == [["Mia", "Zoe", "Adam"], []])
            let byName = try Team.including(all: Team.players.order(Column("name")))
                .order(Column("id")).asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(byName.map { $0.players.map(\.name) } == [["Adam", "Mia", "Zoe"], []])
            // Through an ordered pivot.
            let roles = try Team.including(all: Team.rolePlayers)
                .order(Column("id")).asRequest(of: TeamRoleInfo.self).fetchAll(db)
            #expect(roles.map { $0.rolePlayers.map(\.name) } == [["Adam", "Zoe"], ["Mia"]])
            #expect(try team.request(for: Team.rolePlayers).fetchAll(db).map(\.name) == ["Adam", "Zoe"])
        }
    }

    // MARK: Columns selected by an association

    @Test func databaseSelectionOfTheAssociatedType() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, Book.including(required: Book.restrictedAuthor).filter(Column("id") == 4)))
            let authorRow = try #require(row.scopes["author"])
            #expect(authorRow.columnNames == ["id", "name"])
            #expect(authorRow["name"] == "Herman Melville")

            let extended = try #require(try Row.fetchOne(db, Book.including(required: Book.extendedAuthor).filter(Column("id") == 4)))
            let extendedRow = try #require(extended.scopes["author"])
            #expect(extendedRow.columnNames.count == 5)
            #expect(Array(extendedRow.columnNames.prefix(4)) == ["id", "name", "countryCode", "deathYear"])

            #expect(try RestrictedAuthor.all().order(Column("id")).fetchAll(db).map(\.name).first == "Victor Hugo")
            #expect(try Row.fetchOne(db, RestrictedAuthor.all())?.columnNames == ["id", "name"])
        }
    }

    // MARK: Further refinements

    @Test func distinctAssociationFeedsASet() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var bookKinds: Set<Book.Kind>
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db throws in
            let distinctBookKinds = Author.books
                .select(Column("kind"))
                .distinct()
                .forKey("bookKinds")
            return try Author
                .including(all: distinctBookKinds)
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.bookKinds) == [[.novel, .poems], [.novel], [.poems], []])
    }

    @Test func groupedAssociationComputesPerParentGroups() throws {
        struct BookKindInfo: Decodable {
            var kind: Book.Kind
            var maxYear: Int
        }
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var bookKindInfos: [BookKindInfo]
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db throws in
            let bookKindInfos = Author.books
                .select(
                    Column("kind"),
                    max(Column("year")).forKey("maxYear"))
                .group(Column("kind"))
                .order(Column("kind"))
                .forKey("bookKindInfos")
            return try Author
                .including(all: bookKindInfos)
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map { $0.bookKindInfos.map(\.kind) } == [[.novel, .poems], [.novel], [.poems], []])
        #expect(infos.map { $0.bookKindInfos.map(\.maxYear) } == [[1862, 1888], [1851], [1890], []])
    }

    @Test func groupedAssociationWithHavingKeepsMatchingGroups() throws {
        struct BookKindCount: Decodable {
            var kind: Book.Kind
            var count: Int
        }
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var kinds: [BookKindCount]
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db throws in
            try Author
                .including(all: Author.books
                    .select(Column("kind"), count(Column("id")).forKey("count"))
                    .group(Column("kind"))
                    .having(count(Column("id")) >= 2)
                    .forKey("kinds"))
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map { $0.kinds.map(\.kind) } == [[.poems], [], [], []])
        #expect(infos.first?.kinds.first?.count == 2)
    }

    @Test func associationHavingAnAggregate() throws {
        struct AuthorInfo: FetchableRecord, Decodable {
            var author: Author
            var awardedBooks: [Book]
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db throws in
            let awardedBooks = Author.books
                .having(Book.awards.isEmpty == false)
                .forKey("awardedBooks")
            return try Author
                .including(all: awardedBooks)
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map { $0.awardedBooks.map(\.id) } == [[1], [4], [], []])
    }

    @Test func refinedAssociationsCannotBeJoinedToOne() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            for request in [
                Author.joining(required: Author.books.limit(1)).asRequest(of: Row.self),
                Author.joining(optional: Author.books.distinct()).asRequest(of: Row.self),
                Author.joining(required: Author.books.group(Column("kind"))).asRequest(of: Row.self),
            ] {
                #expect(throws: DatabaseError.self) { try request.fetchAll(db) }
            }
            // The connection stays usable.
            #expect(try Author.fetchCount(db) == 4)
        }
    }

    // MARK: Table aliases

    @Test func tableAliasesFilterAndSortOnSeveralTables() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // Posthumous books
            let authorAlias = TableAlias<Author>()
            let posthumous = try Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter(Column("year") >= authorAlias[Column("deathYear")])
                .order(Column("id"))
                .fetchAll(db)
            #expect(posthumous.map(\.id) == [3, 5])

            // The same through the dynamic member of the alias.
            let posthumous2 = try Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter { $0.year >= authorAlias.deathYear }
                .order(Column("id"))
                .fetchAll(db)
            #expect(posthumous2.map(\.id) == [3, 5])

            // Sorting on the author name first.
            let sorted = try Book
                .joining(required: Book.author.aliased(authorAlias))
                .order(authorAlias[Column("name")], Column("year"))
                .fetchAll(db)
            #expect(sorted.map(\.id) == [4, 2, 1, 3, 5])

            // Closures see the alias too.
            let sorted2 = try Book
                .joining(required: Book.author.aliased(authorAlias))
                .order { [authorAlias.name, $0.title] }
                .fetchAll(db)
            #expect(sorted2.map(\.id) == [4, 2, 1, 3, 5])

            // Named aliases for SQL snippets.
            let bookAlias = TableAlias<Book>(name: "b")
            let namedAuthorAlias = TableAlias<Author>(name: "a")
            let french = try Book.aliased(bookAlias)
                .joining(required: Book.author.aliased(namedAuthorAlias)
                    .filter(sql: "a.countryCode = ?", arguments: ["FR"]))
                .filter(sql: "b.year >= a.deathYear")
                .fetchAll(db)
            #expect(french.map(\.id) == [3])
        }
    }

    @Test func reusingATableAliasForTwoTablesIsAnError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let alias = TableAlias<Author>()
            let request = Book.aliased(alias).joining(required: Book.author.aliased(alias))
            #expect(throws: DatabaseError.self) { try request.fetchAll(db) }
        }
    }

    // MARK: Refining association requests

    @Test func joiningTheSameAssociationTwiceMergesIt() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // Required wins over optional, filters add up.
            let rows = try Row.fetchAll(db, Book
                .including(optional: Book.author.filter(Column("countryCode") == "US"))
                .including(required: Book.author.filter(Column("deathYear") > 1890))
                .order(Column("id")))
            #expect(rows.map { $0["id"] as Int64 } == [4])
            #expect(rows.first?.scopes["author"]?["name"] == "Herman Melville")
        }
    }

    @Test func derivableRequestExtensionsComposeFluently() throws {
        struct BookInfo: FetchableRecord, Decodable {
            var book: Book
            var author: Author
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Author.all().orderedByName().fetchAll(db).map(\.id) == [3, 2, 4, 1])
            #expect(try Author.all().filter(country: "US").orderedByName().fetchAll(db).map(\.id) == [3, 2])
            // The same generic code refines requests and associations.
            #expect(try Author.all().firstAuthors().fetchAll(db).map(\.id) == [1, 2])
            #expect(try Book.joining(required: Book.author.firstAuthors()).order(Column("id")).fetchAll(db).map(\.id)
                == Int64.fetchAll(db, sql: "SELECT id FROM book WHERE authorId IN (1, 2) ORDER BY id"))
            #expect(try Author.all().filter(id: 4).fetchOne(db)?.id == 4)
            #expect(try Set(authorsWithPaintings(Author.all()).fetchAll(db).map(\.id)) == [1, 4])
            #expect(try unordered(Author.all()).fetchCount(db) == 4)
            #expect(try Row.fetchAll(db, distinctNames(Author.all())).count == 4)
            let bookInfos = try Book.all()
                .filter(authorCountry: "US")
                .orderedByAuthorNameAndYear()
                .including(required: Book.author)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(bookInfos.map(\.book.id) == [5, 4])
            #expect(bookInfos.map(\.author.name) == ["emily Dickinson", "Herman Melville"])
        }
    }

    // MARK: Decoding

    @Test func hierarchicalDecodableRecord() throws {
        struct BookInfo: FetchableRecord, Decodable {
            struct AuthorInfo: Decodable {
                var author: Author
                var country: Country?
            }
            var book: Book
            var authorInfo: AuthorInfo
            var coverImage: CoverImage?

            static func all() -> QueryInterfaceRequest<BookInfo> {
                Book.including(optional: Book.coverImage)
                    .including(required: Book.author
                        .forKey(CodingKeys.authorInfo)
                        .including(optional: Author.country))
                    .order(Column("id"))
                    .asRequest(of: BookInfo.self)
            }
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in try BookInfo.all().fetchAll(db) }
        #expect(infos.map(\.authorInfo.author.id) == [1, 1, 1, 2, 3])
        #expect(infos.map(\.authorInfo.country?.code) == ["FR", "FR", "FR", "US", "US"])
        #expect(infos.map(\.coverImage?.path) == ["miserables.jpg", nil, nil, "moby.jpg", nil])
    }

    @Test func handWrittenFetchableRecordReadsScopesAndPrefetchedRows() throws {
        struct BookInfo: FetchableRecord {
            var book: Book
            var author: Author
            var country: Country?
            var coverImage: CoverImage?
            var awards: [Award]

            init(row: Row) throws {
                book = try Book(row: row)
                author = try row["author"]
                country = try row["country"]
                coverImage = try row["coverImage"]
                awards = try row["awards"]
            }
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db throws in
            try BookInfo.fetchAll(db, Book
                .including(required: Book.author.including(optional: Author.country))
                .including(optional: Book.coverImage)
                .including(all: Book.awards.order(Column("id")))
                .order(Column("id")))
        }
        #expect(infos.map(\.author.name) == ["Victor Hugo", "Victor Hugo", "Victor Hugo", "Herman Melville", "emily Dickinson"])
        #expect(infos.map(\.country?.name) == ["France", "France", "France", "United States", "United States"])
        #expect(infos.map(\.coverImage?.id) == [1, nil, nil, 2, nil])
        #expect(infos.map { $0.awards.map(\.name) } == [["Classic"], [], [], ["Great", "Legend"], []])
    }

    // MARK: Association aggregates

    @Test func aggregatesHaveDocumentedDefaultNames() throws {
        let dbQueue = try makeDatabase()
        let row = try dbQueue.read { db throws in
            try Row.fetchOne(db, Author
                .annotated(with:
                    Author.books.isEmpty,
                    Author.books.count,
                    Author.books.min(Column("year")),
                    Author.books.max(Column("year")),
                    Author.books.average(Column("price")),
                    Author.books.sum(Column("price")))
                .filter(key: 1))
        }
        let r = try #require(row)
        #expect(r["hasNoBook"] == false)
        #expect(r["bookCount"] == 3)
        #expect(r["minBookYear"] == 1856)
        #expect(r["maxBookYear"] == 1888)
        #expect(abs((r["averageBookPrice"] as Double) - 23.0 / 3) < 0.0001)
        #expect(r["bookPriceSum"] == 23.0)

        let totalRow = try dbQueue.read { db throws in
            try Row.fetchOne(db, Author.annotated(with: Author.books.total(Column("price"))).filter(key: 4))
        }
        #expect(totalRow?["bookPriceSum"] == 0.0)
    }

    @Test func aggregatesRenamedWithForKey() throws {
        struct NumberInfo: Decodable, FetchableRecord {
            var author: Author
            var numberOfBooks: Int

            static func all() -> QueryInterfaceRequest<NumberInfo> {
                let numberOfBooks = Author.books.count.forKey(CodingKeys.numberOfBooks)
                return Author
                    .annotated(with: numberOfBooks)
                    .order(Column("id"))
                    .asRequest(of: NumberInfo.self)
            }
        }
        struct HasBooksInfo: Decodable, FetchableRecord {
            var author: Author
            var hasBooks: Bool
        }
        struct WorkInfo: Decodable, FetchableRecord {
            var author: Author
            var workCount: Int
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try NumberInfo.all().fetchAll(db).map(\.numberOfBooks) == [3, 1, 1, 0])

            let hasBooks = (Author.books.isEmpty == false).forKey("hasBooks")
            let hasBooksInfos: [HasBooksInfo] = try HasBooksInfo.fetchAll(db, Author.annotated(with: hasBooks).order(Column("id")))
            #expect(hasBooksInfos.map(\.hasBooks) == [true, true, true, false])

            let workCount = (Author.books.count + Author.paintings.count).forKey("workCount")
            let workInfos: [WorkInfo] = try WorkInfo.fetchAll(db, Author.annotated(with: workCount).order(Column("id")))
            #expect(workInfos.map(\.workCount) == [4, 1, 1, 2])
        }
    }

    private func ids(_ db: Database, _ request: QueryInterfaceRequest<Author>) throws -> [Int64] {
        try request.order(Column("id")).fetchAll(db).map(\.id)
    }

    @Test func havingFiltersOnAggregateConditions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try ids(db, Author.having(Author.books.isEmpty)) == [4])
            #expect(try ids(db, Author.having(Author.books.isEmpty == false)) == [1, 2, 3])
            #expect(try ids(db, Author.having(Author.books.count >= 2)) == [1])
            #expect(try ids(db, Author.having(Author.books.max(Column("year")) >= 1880)) == [1, 3])
            let novels = Author.books.filter(Column("kind") == "novel")
            #expect(try ids(db, Author.having(novels.isEmpty == false)) == [1, 2])
            #expect(try ids(db, Author.having(Author.books.count > Author.paintings.count)) == [1, 2, 3])
            #expect(try ids(db, Author.having(Author.books.isEmpty && !Author.paintings.isEmpty)) == [4])
            #expect(try ids(db, Author.all().having(Author.books.isEmpty || Author.paintings.isEmpty)) == [2, 3, 4])
        }
    }

    @Test func aggregateOperationsKeepOrComputeValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // IFNULL keeps the default name of the aggregate.
            let rows = try Row.fetchAll(db, Team
                .annotated(with: Team.players.min(Column("score")) ?? 0)
                .order(Column("id")))
            #expect(rows.map { $0["minPlayerScore"] as Int? } == [-30, 0])

            let absRows = try Row.fetchAll(db, Team
                .annotated(with: abs(Team.players.min(Column("score"))).forKey("best"))
                .order(Column("id")))
            #expect(absRows.map { $0["best"] as Int? } == [30, nil])
        }
    }

    @Test func isolationOfMultipleAggregates() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var minBookYear: Int?
            var maxBookYear: Int?
        }
        struct KindInfo: Decodable, FetchableRecord {
            var author: Author
            var novelCount: Int
            var poemCount: Int
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Author.annotated(with:
                Author.books.min(Column("year")),
                Author.books.max(Column("year")))
                .order(Column("id"))
            let infos: [AuthorInfo] = try AuthorInfo.fetchAll(db, request)
            #expect(infos.map(\.minBookYear) == [1856, 1851, 1890, nil])
            #expect(infos.map(\.maxBookYear) == [1888, 1851, 1890, nil])

            let novelCount = Author.books
                .filter(Column("kind") == "novel")
                .forKey("novels")
                .count
            let poemCount = Author.books
                .filter(Column("kind") == "poems")
                .forKey("poems")
                .count
            let kindInfos: [KindInfo] = try KindInfo.fetchAll(db, Author.annotated(with: novelCount, poemCount).order(Column("id")))
            #expect(kindInfos.map(\.novelCount) == [1, 1, 0, 0])
            #expect(kindInfos.map(\.poemCount) == [2, 0, 1, 0])
        }
    }

    @Test func aggregatesThroughHasManyThrough() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, Country.annotated(with: Country.books.count).order(Column("code")))
            #expect(rows.map { $0["bookCount"] as Int } == [3, 2])
        }
    }

    // MARK: Known issues of GRDB: Trellis does not crash

    @Test func directAndIndirectToManyOfTheSameBase() throws {
        struct CountryInfo: Decodable, FetchableRecord {
            var country: Country
            var authors: [Author]
            var books: [Book]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Country
                .including(all: Country.authors.order(Column("id")))
                .including(all: Country.books.order(Column("id")))
                .order(Column("code"))
                .asRequest(of: CountryInfo.self)
            let infos = try request.fetchAll(db)
            #expect(infos.map { $0.authors.map(\.id) } == [[1], [2, 3]])
            #expect(infos.map { $0.books.map(\.id) } == [[1, 2, 3], [4, 5]])
        }
    }

    @Test func includingAllFilteredOnTheParentAliasIsAClearError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let authorAlias = TableAlias<Author>()
            let request = Author
                .aliased(authorAlias)
                .including(all: Author.books
                    .filter(Column("year") >= authorAlias[Column("deathYear")]))
            do {
                _ = try Row.fetchAll(db, request)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message?.contains("including(all:) can not be filtered on the tables of the parent request") == true, "\(error)")
            }
            // An alias that no request adopts is an error too.
            let orphan = TableAlias<Author>()
            do {
                _ = try Book.filter(orphan[Column("name")] == "x").fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message?.contains("A TableAlias of table author is used in a query that does not include its table") == true)
            }
            #expect(try Author.fetchCount(db) == 4)
        }
    }

    // MARK: Key filters on associations

    @Test func associationsAreFilteredByKeyAndId() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var books: [Book]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let byHugo = try Book.joining(required: Book.author.filter(key: 1)).order(Column("id")).fetchAll(db)
            #expect(byHugo.map(\.id) == [1, 2, 3])
            let byHugo2 = try Book.joining(required: Book.author.filter(id: 1)).order(Column("id")).fetchAll(db)
            #expect(byHugo2.map(\.id) == [1, 2, 3])
            let byAmericans = try Book.joining(required: Book.author.filter(keys: [2, 3])).order(Column("id")).fetchAll(db)
            #expect(byAmericans.map(\.id) == [4, 5])
            let byKey = try Book.joining(required: Book.author.filter(key: ["id": 2])).fetchAll(db)
            #expect(byKey.map(\.id) == [4])
            let infos = try Author
                .including(all: Author.books.filter(ids: [1, 3, 4]).order(Column("id")))
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.books.map(\.id) } == [[1, 3], [4], [], []])
            // A key that is not unique is an error.
            #expect(throws: DatabaseError.self) {
                try Book.joining(required: Book.author.filter(key: ["name": "Victor Hugo"])).fetchAll(db)
            }
        }
    }

    @Test func derivableRequestWithPrimaryAssociatedType() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var paintings: [Painting]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Painting.all().orderedByTitle().fetchAll(db).map(\.title) == ["Landscape", "Octopus", "Sea"])
            let infos = try Author
                .including(all: Author.paintings.orderedByTitle())
                .filter(key: 4)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.first?.paintings.map(\.title) == ["Landscape", "Sea"])
        }
    }

    // MARK: More combinations

    @Test func aliasedColumnsAnnotateTheBaseRecord() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var authorName: String
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let authorAlias = TableAlias<Author>()
            let infos = try Book
                .joining(required: Book.author.aliased(authorAlias))
                .annotated(with: authorAlias[Column("name")].forKey("authorName"))
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.authorName) == ["Victor Hugo", "Victor Hugo", "Victor Hugo", "Herman Melville", "emily Dickinson"])
            let withAllColumns = try Row.fetchAll(db, Book
                .select(Column("title"))
                .joining(required: Book.author.aliased(authorAlias))
                .annotated(with: authorAlias.allColumns)
                .filter(key: 4))
            #expect(withAllColumns.first?.columnNames == ["title", "id", "name", "countryCode", "deathYear"])
        }
    }

    @Test func countingAndPagingJoinedRequests() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var author: Author
            var books: [Book]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Book.including(required: Book.author.filter(Column("countryCode") == "US")).fetchCount(db) == 2)
            #expect(try Author.including(all: Author.books).fetchCount(db) == 4)
            #expect(try Author.joining(required: Author.books).distinct().fetchCount(db) == 3)
            let page = try Author
                .including(all: Author.books.order(Column("id")))
                .order(Column("id"))
                .limit(2, offset: 1)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(page.map(\.author.id) == [2, 3])
            #expect(page.map { $0.books.map(\.id) } == [[4], [5]])
            let first = try Author
                .including(all: Author.books.order(Column("id")))
                .filter(key: 1)
                .asRequest(of: AuthorInfo.self)
                .fetchOne(db)
            #expect(first?.books.map(\.id) == [1, 2, 3])
        }
    }

    @Test func aggregatesOnFilteredRequestsAndOrderings() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // Sorting on an aggregate.
            let authors = try Author
                .annotated(with: Author.books.count)
                .order(Author.books.count.desc, Column("id"))
                .fetchAll(db)
            #expect(authors.map(\.id) == [1, 2, 3, 4])
            // Aggregates with the record's columns.
            let rows = try Row.fetchAll(db, Author
                .annotated(with: Author.books.max(\.year), Author.books.min(\.year))
                .filter(key: 1))
            #expect(rows.first?["maxBookYear"] == 1888)
            #expect(rows.first?["minBookYear"] == 1856)
            // An aggregate in a filter on a joined request.
            let books = try Book
                .joining(required: Book.author.having(Author.paintings.isEmpty == false))
                .order(Column("id"))
                .fetchAll(db)
            #expect(books.map(\.id) == [1, 2, 3])
        }
    }

    @Test func refinementRulesOfTheSameAssociation() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // including wins over joining
            let included = try #require(try Row.fetchOne(db, Book
                .including(optional: Book.author)
                .joining(optional: Book.author)
                .filter(key: 4)))
            #expect(included.scopes["author"]?["name"] == "Herman Melville")

            // The last ordering wins (the associated ordering comes after the base one).
            let ordered = try Book
                .including(required: Book.author.order(Column("name")))
                .including(optional: Book.author.order(Column("name").desc))
                .order(Column("kind"))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(ordered.map { $0.scopes["author"]?["name"] as String? } == [
                "Victor Hugo", "Herman Melville", "emily Dickinson", "Victor Hugo", "Victor Hugo",
            ])

            // The last selection wins.
            let selected = try #require(try Row.fetchOne(db, Book
                .including(required: Book.author.select(Column("id")))
                .including(optional: Book.author.select(Column("name")))
                .filter(key: 4)))
            #expect(selected.scopes["author"]?.columnNames == ["name"])

            // A custom key stops merging.
            let twice = try #require(try Row.fetchOne(db, Book
                .including(required: Book.author.select(Column("id")))
                .including(optional: Book.author.select(Column("name")).forKey("writer"))
                .filter(key: 4)))
            #expect(twice.scopes["author"]?.columnNames == ["id"])
            #expect(twice.scopes["writer"]?["name"] == "Herman Melville")
        }
    }
}
