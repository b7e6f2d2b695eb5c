import Foundation
import Testing
import Trellis

// GRDB documented associations and requests: samples and documented behaviours of GRDB's
// AssociationsBasics.md, CommonTableExpressions.md, SQLInterpolation.md,
// QueryInterfaceOrganization.md, Migrations.md, DatabaseSchemaModifications.md,
// DatabaseSchemaIntrospection.md, Transactions.md, ValueObservation.md,
// DatabaseRegionObservation.md and TransactionObserver.md, focused on the
// less common parts.

// MARK: - Library schema

private struct ABCountry: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "country"
    static let passports = hasMany(ABPassport.self)
    static let citizens = hasMany(ABCitizen.self, through: passports, using: ABPassport.citizen)
    var code: String
    var name: String
}

private struct ABPerson: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "person"
    static let country = belongsTo(ABCountry.self)
    static let books = hasMany(ABBook.self, using: ForeignKey(["authorId"]))
    static let paintings = hasMany(ABPainting.self)
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let countryCode = Column("countryCode")
        static let deathYear = Column("deathYear")
    }
    var id: Int64
    var name: String
    var countryCode: String?
    var deathYear: Int?
}

private struct ABLibrary: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "library"
    static let address = hasOne(ABAddress.self)
    var id: Int64
    var name: String
}

private struct ABAddress: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "address"
    var id: Int64
    var libraryId: Int64
    var city: String
}

private struct ABBook: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
    static let databaseTableName = "book"
    static let author = belongsTo(ABPerson.self, key: "author", using: ForeignKey(["authorId"]))
    static let translator = belongsTo(ABPerson.self, key: "translator", using: ForeignKey(["translatorId"]))
    static let country = hasOne(ABCountry.self, through: author, using: ABPerson.country)
    static let library = belongsTo(ABLibrary.self)
    static let returnAddress = hasOne(ABAddress.self, through: library, using: ABLibrary.address)
        .forKey("returnAddress")
    static let coverImage = hasOne(ABCoverImage.self)
    static let awards = hasMany(ABAward.self)
    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
        static let kind = Column("kind")
        static let year = Column("year")
        static let price = Column("price")
        static let awardCount = Column("awardCount")
    }
    var id: Int64
    var authorId: Int64
    var translatorId: Int64?
    var libraryId: Int64?
    var title: String
    var kind: String
    var year: Int
    var price: Double?
    var awardCount: Int?

    var returnAddress: QueryInterfaceRequest<ABAddress> { request(for: ABBook.returnAddress) }
}

private struct ABCoverImage: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "coverImage"
    var id: Int64
    var bookId: Int64
    var path: String
}

private struct ABAward: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "award"
    var id: Int64
    var bookId: Int64
    var name: String
}

private struct ABPainting: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "painting"
    var id: Int64
    var personId: Int64
    var title: String
}

private struct ABPassport: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "passport"
    static let country = belongsTo(ABCountry.self)
    static let citizen = belongsTo(ABCitizen.self)
    var id: Int64
    var countryCode: String
    var citizenId: Int64?
}

private struct ABCitizen: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "citizen"
    static let passports = hasMany(ABPassport.self)
    static let countries = hasMany(ABCountry.self, through: passports, using: ABPassport.country)
    var id: Int64
    var name: String

    var countries: QueryInterfaceRequest<ABCountry> { request(for: ABCitizen.countries) }
}

private func makeLibrary() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db throws in
        try db.create(table: "country") { t in
            t.primaryKey("code", .text)
            t.column("name", .text).notNull()
        }
        try db.create(table: "person") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.belongsTo("country", onDelete: .setNull)
            t.column("deathYear", .integer)
        }
        try db.create(table: "library") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "address") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("library").notNull()
            t.column("city", .text).notNull()
        }
        try db.create(table: "book") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("author", inTable: "person").notNull()
            t.belongsTo("translator", inTable: "person")
            t.belongsTo("library")
            t.column("title", .text).notNull()
            t.column("kind", .text).notNull()
            t.column("year", .integer).notNull()
            t.column("price", .double)
            t.column("awardCount", .integer)
        }
        try db.create(table: "coverImage") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("book").notNull()
            t.column("path", .text).notNull()
        }
        try db.create(table: "award") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("book").notNull()
            t.column("name", .text).notNull()
        }
        try db.create(table: "painting") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("person").notNull()
            t.column("title", .text).notNull()
        }
        try db.create(table: "citizen") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "passport") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("country").notNull()
            t.belongsTo("citizen")
        }

        try ABCountry(code: "FR", name: "France").insert(db)
        try ABCountry(code: "US", name: "United States").insert(db)
        try ABCountry(code: "DE", name: "Germany").insert(db)

        try ABPerson(id: 1, name: "Victor Hugo", countryCode: "FR", deathYear: 1885).insert(db)
        try ABPerson(id: 2, name: "Herman Melville", countryCode: "US", deathYear: 1891).insert(db)
        try ABPerson(id: 3, name: "Anonymous", countryCode: nil, deathYear: nil).insert(db)
        try ABPerson(id: 4, name: "Jean Giono", countryCode: "FR", deathYear: 1970).insert(db)

        try ABLibrary(id: 1, name: "Central").insert(db)
        try ABLibrary(id: 2, name: "Annex").insert(db)
        try ABAddress(id: 1, libraryId: 1, city: "Paris").insert(db)

        try ABBook(id: 1, authorId: 1, translatorId: nil, libraryId: 1, title: "Les Misérables",
                   kind: "novel", year: 1862, price: 10, awardCount: 2).insert(db)
        try ABBook(id: 2, authorId: 1, translatorId: nil, libraryId: 2, title: "Toute la lyre",
                   kind: "poems", year: 1888, price: nil, awardCount: nil).insert(db)
        try ABBook(id: 3, authorId: 2, translatorId: 4, libraryId: nil, title: "Moby-Dick",
                   kind: "novel", year: 1851, price: 20, awardCount: 1).insert(db)
        try ABBook(id: 4, authorId: 4, translatorId: nil, libraryId: 1, title: "Regain",
                   kind: "novel", year: 1930, price: 5, awardCount: 0).insert(db)

        try ABCoverImage(id: 1, bookId: 3, path: "moby.jpg").insert(db)
        try ABAward(id: 1, bookId: 1, name: "Classic").insert(db)
        try ABAward(id: 2, bookId: 3, name: "Great").insert(db)
        try ABAward(id: 3, bookId: 3, name: "Legend").insert(db)
        try ABPainting(id: 1, personId: 1, title: "Octopus").insert(db)
        try ABPainting(id: 2, personId: 1, title: "Castle").insert(db)
        try ABPainting(id: 3, personId: 3, title: "Sketch").insert(db)

        try ABCitizen(id: 1, name: "Arthur").insert(db)
        try ABCitizen(id: 2, name: "Barbara").insert(db)
        try ABCitizen(id: 3, name: "Craig").insert(db)
        // Arthur: FR and US; Barbara: FR; Craig: none; one passport without citizen.
        try ABPassport(id: 1, countryCode: "FR", citizenId: 1).insert(db)
        try ABPassport(id: 2, countryCode: "US", citizenId: 1).insert(db)
        try ABPassport(id: 3, countryCode: "FR", citizenId: 2).insert(db)
        try ABPassport(id: 4, countryCode: "DE", citizenId: nil).insert(db)
    }
    return dbQueue
}

// MARK: - HasOneThrough / HasManyThrough

@Suite("GRDB documented associations and requests: through associations")
struct GRDBDocumentedAssociationsThroughTests {
    @Test func hasOneThroughBelongsToThenHasOne() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var returnAddress: ABAddress?
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook
                .including(optional: ABBook.returnAddress)
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.book.id) == [1, 2, 3, 4])
            #expect(infos.map { $0.returnAddress?.city } == ["Paris", nil, nil, "Paris"])

            let required = try ABBook
                .joining(required: ABBook.returnAddress)
                .order(\.id)
                .fetchAll(db)
            #expect(required.map(\.id) == [1, 4])

            // request(for:) of a HasOneThrough association
            let book = try #require(try ABBook.fetchOne(db, key: 1))
            #expect(try book.returnAddress.fetchOne(db)?.city == "Paris")
            let book2 = try #require(try ABBook.fetchOne(db, key: 2))
            #expect(try book2.returnAddress.fetchOne(db) == nil)
        }
    }

    @Test func hasOneThroughExplicitForm() throws {
        let returnAddress = ABBook.hasOne(
            ABAddress.self,
            through: ABBook.belongsTo(ABLibrary.self),
            using: ABLibrary.hasOne(ABAddress.self))
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABBook.including(required: returnAddress).order(\.id))
            #expect(rows.map { $0["id"] as Int64 } == [1, 4])
            // The key is the table name of the associated record: row.decode
            // looks up the tree of association keys.
            #expect(try rows.map { try $0.decode(ABAddress.self, forKey: "address").city } == ["Paris", "Paris"])
        }
    }

    @Test func hasOneThroughShortcutsChainedIncludes() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var country: ABCountry?
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let shortcut = try ABBook.including(optional: ABBook.country)
                .order(\.id).asRequest(of: BookInfo.self).fetchAll(db)
            let chained = try ABBook
                .joining(optional: ABBook.author.including(optional: ABPerson.country))
                .order(\.id).asRequest(of: BookInfo.self).fetchAll(db)
            #expect(shortcut.map { $0.country?.code } == ["FR", "FR", "US", "FR"])
            #expect(chained.map { $0.country?.code } == ["FR", "FR", "US", "FR"])
        }
    }

    @Test func hasManyThroughManyToMany() throws {
        struct CitizenInfo: Decodable, FetchableRecord {
            var citizen: ABCitizen
            var countries: [ABCountry]
        }
        struct CountryInfo: Decodable, FetchableRecord {
            var country: ABCountry
            var citizens: [ABCitizen]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let citizenInfos = try ABCitizen
                .including(all: ABCitizen.countries.order(Column("code")))
                .order(Column("id"))
                .asRequest(of: CitizenInfo.self)
                .fetchAll(db)
            #expect(citizenInfos.map { $0.countries.map(\.code) } == [["FR", "US"], ["FR"], []])

            let countryInfos = try ABCountry
                .including(all: ABCountry.citizens.order(Column("name")))
                .order(Column("code"))
                .asRequest(of: CountryInfo.self)
                .fetchAll(db)
            #expect(countryInfos.map(\.country.code) == ["DE", "FR", "US"])
            #expect(countryInfos.map { $0.citizens.map(\.name) } == [[], ["Arthur", "Barbara"], ["Arthur"]])

            let arthur = try #require(try ABCitizen.fetchOne(db, key: 1))
            #expect(try arthur.countries.order(Column("code")).fetchAll(db).map(\.code) == ["FR", "US"])
            #expect(try arthur.countries.fetchCount(db) == 2)
        }
    }

    @Test func hasManyThroughWithNestedRequiredInclude() throws {
        // Known Issues workaround: nest the most remote association.
        struct PassportInfo: Decodable {
            var passport: ABPassport
            var citizen: ABCitizen
        }
        struct CountryInfo: Decodable, FetchableRecord {
            var country: ABCountry
            var passports: [PassportInfo]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABCountry
                .including(all: ABCountry.passports
                    .including(required: ABPassport.citizen)
                    .order(Column("id")))
                .order(Column("code"))
                .asRequest(of: CountryInfo.self)
                .fetchAll(db)
            // The passport without citizen is not included.
            #expect(infos.map { $0.passports.map(\.passport.id) } == [[], [1, 3], [2]])
            #expect(infos.map { $0.passports.map(\.citizen.name) } == [[], ["Arthur", "Barbara"], ["Arthur"]])
        }
    }

    @Test func hasManyThroughWithNestedIncludingAll() throws {
        struct BookInfo: Decodable {
            var book: ABBook
            var awards: [ABAward]
        }
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var books: [BookInfo]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABPerson
                .including(all: ABPerson.books
                    .including(all: ABBook.awards.order(Column("name").desc))
                    .order(\.year))
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.books.map(\.book.id) } == [[1, 2], [3], [], [4]])
            #expect(infos[1].books[0].awards.map(\.name) == ["Legend", "Great"])
            #expect(infos[0].books.map { $0.awards.count } == [1, 0])
        }
    }

    @Test func hasManyThroughAggregatesCountDistinctTargets() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABCountry
                .annotated(with: ABCountry.citizens.count)
                .order(Column("code")))
            #expect(rows.map { $0["citizenCount"] as Int } == [0, 2, 1])

            let withCitizens = try ABCountry
                .having(ABCountry.citizens.isEmpty == false)
                .order(Column("code"))
                .fetchAll(db)
            #expect(withCitizens.map(\.code) == ["FR", "US"])
        }
    }

    @Test func hasManyThroughExplicitForm() throws {
        let countries = ABCitizen.hasMany(
            ABCountry.self,
            through: ABCitizen.hasMany(ABPassport.self),
            using: ABPassport.belongsTo(ABCountry.self))
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABCitizen.annotated(with: countries.count).order(Column("id")))
            #expect(rows.map { $0["countryCount"] as Int } == [2, 1, 0])
        }
    }
}

// MARK: - Ordered associations

private struct ABTeam: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "team"
    static let playerRoles = hasMany(ABPlayerRole.self).order(Column("position"))
    static let players = hasMany(ABPlayer.self, through: playerRoles, using: ABPlayerRole.player)
    var id: Int64
    var name: String
    var players: QueryInterfaceRequest<ABPlayer> { request(for: ABTeam.players) }
}

private struct ABPlayerRole: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "playerRole"
    static let player = belongsTo(ABPlayer.self)
    var teamId: Int64
    var playerId: Int64
    var position: Int
}

private struct ABPlayer: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "player"
    enum Columns {
        static let name = Column("name")
        static let score = Column("score")
    }
    var id: Int64
    var name: String
    var score: Int?
}

private func makeTeams() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db throws in
        try db.create(table: "team") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("score", .integer)
        }
        try db.create(table: "playerRole") { t in
            t.belongsTo("team").notNull()
            t.belongsTo("player").notNull()
            t.column("position", .integer).notNull()
            t.primaryKey(["teamId", "playerId"])
        }
        try ABTeam(id: 1, name: "Reds").insert(db)
        try ABTeam(id: 2, name: "Blues").insert(db)
        try ABTeam(id: 3, name: "Empty").insert(db)
        try ABPlayer(id: 1, name: "Zoe", score: 10).insert(db)
        try ABPlayer(id: 2, name: "Adam", score: -30).insert(db)
        try ABPlayer(id: 3, name: "Mia", score: nil).insert(db)
        try ABPlayerRole(teamId: 1, playerId: 1, position: 2).insert(db)
        try ABPlayerRole(teamId: 1, playerId: 2, position: 3).insert(db)
        try ABPlayerRole(teamId: 1, playerId: 3, position: 1).insert(db)
        try ABPlayerRole(teamId: 2, playerId: 2, position: 1).insert(db)
        try ABPlayerRole(teamId: 2, playerId: 3, position: 7).insert(db)
    }
    return dbQueue
}

@Suite("GRDB documented associations and requests: ordered associations")
struct GRDBDocumentedAssociationsOrderedTests {
    fileprivate struct TeamInfo: Decodable, FetchableRecord {
        var team: ABTeam
        var players: [ABPlayer]
    }

    @Test func hasManyThroughOrderedByThePivot() throws {
        let dbQueue = try makeTeams()
        try dbQueue.read { db throws in
            let team = try #require(try ABTeam.fetchOne(db, key: 1))
            #expect(try team.players.fetchAll(db).map(\.name) == ["Mia", "Zoe", "Adam"])
            let infos = try ABTeam
                .including(all: ABTeam.players)
                .order(Column("id"))
                .asRequest(of: TeamInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.players.map(\.name) } == [["Mia", "Zoe", "Adam"], ["Adam", "Mia"], []])
        }
    }

    @Test func customOrderingEscapesTheDefaultOne() throws {
        let dbQueue = try makeTeams()
        try dbQueue.read { db throws in
            let team = try #require(try ABTeam.fetchOne(db, key: 1))
            #expect(try team.players.order(\.name).fetchAll(db).map(\.name) == ["Adam", "Mia", "Zoe"])
            let infos = try ABTeam
                .including(all: ABTeam.players.order(\.name))
                .order(Column("id"))
                .asRequest(of: TeamInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.players.map(\.name) } == [["Adam", "Mia", "Zoe"], ["Adam", "Mia"], []])
        }
    }

    @Test func ifNullAndAbsOfAggregatesOnThroughAssociations() throws {
        let dbQueue = try makeTeams()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABTeam
                .annotated(with: ABTeam.players.min(\.score) ?? 0)
                .order(Column("id")))
            #expect(rows.map { $0["minPlayerScore"] as Int } == [-30, -30, 0])
            let maxRows = try Row.fetchAll(db, ABTeam
                .annotated(with: ABTeam.players.max(\.score))
                .order(Column("id")))
            #expect(maxRows.map { $0["maxPlayerScore"] as Int? } == [10, -30, nil])
        }
    }
}

// MARK: - Joining methods and filters

@Suite("GRDB documented associations and requests: joining methods")
struct GRDBDocumentedAssociationsJoiningTests {
    @Test func includingOptionalFilteredAssociationKeepsAllBaseRecords() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var author: ABPerson?
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            // The filter of an optional association goes to the ON clause.
            let infos = try ABBook
                .including(optional: ABBook.author.filter { $0.countryCode == "FR" })
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.book.id) == [1, 2, 3, 4])
            #expect(infos.map { $0.author?.name } == ["Victor Hugo", "Victor Hugo", nil, "Jean Giono"])
        }
    }

    @Test func joiningOptionalThenFilteringOnTheAliasInTheWhereClause() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let translatorAlias = TableAlias<ABPerson>()
            // Books without translator
            let untranslated = try ABBook
                .joining(optional: ABBook.translator.aliased(translatorAlias))
                .filter(!translatorAlias.exists)
                .order(\.id)
                .fetchAll(db)
            #expect(untranslated.map(\.id) == [1, 2, 4])
            // Books whose translator is French (WHERE clause on the joined table)
            let frenchTranslated = try ABBook
                .joining(optional: ABBook.translator.aliased(translatorAlias))
                .filter(translatorAlias[Column("countryCode")] == "FR")
                .fetchAll(db)
            #expect(frenchTranslated.map(\.id) == [3])
        }
    }

    @Test func joiningOptionalHasNoObservableEffect() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let books = try ABBook.joining(optional: ABBook.author).order(\.id).fetchAll(db)
            #expect(books.map(\.id) == [1, 2, 3, 4])
            #expect(try ABBook.joining(optional: ABBook.author).fetchCount(db) == 4)
            #expect(try ABBook.joining(optional: ABBook.translator).fetchCount(db) == 4)
            #expect(try ABBook.joining(required: ABBook.translator).fetchCount(db) == 1)
        }
    }

    @Test func joiningRequiredThroughTheChainedOptional() throws {
        // A required association behind a required one filters the base records.
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let books = try ABBook
                .joining(required: ABBook.author.joining(required: ABPerson.country.filter(Column("code") == "US")))
                .fetchAll(db)
            #expect(books.map(\.id) == [3])
        }
    }

    @Test func parallelAssociationsToTheSameTable() throws {
        struct BookInfo: FetchableRecord, Decodable {
            var book: ABBook
            var author: ABPerson
            var translator: ABPerson?
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try BookInfo.fetchAll(db, ABBook
                .including(required: ABBook.author)
                .including(optional: ABBook.translator)
                .order(\.id))
            #expect(infos.map(\.author.name) == ["Victor Hugo", "Victor Hugo", "Herman Melville", "Jean Giono"])
            #expect(infos.map { $0.translator?.name } == [nil, nil, "Jean Giono", nil])
        }
    }

    @Test func annotatedWithOptionalAndRenamedColumn() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var authorName: String?
            var countryCode: String?
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook
                .annotated(withOptional: ABBook.translator.select { [$0.name.forKey("authorName"), $0.countryCode] })
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.authorName) == [nil, nil, "Jean Giono", nil])
            #expect(infos.map(\.countryCode) == [nil, nil, "FR", nil])
            // The base record keeps its own columns
            #expect(infos.map(\.book.title) == ["Les Misérables", "Toute la lyre", "Moby-Dick", "Regain"])
        }
    }

    @Test func annotatedWithRequiredDropsBaseRecordsWithoutAssociatedRecord() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var name: String
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook
                .annotated(withRequired: ABBook.translator.select(\.name))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.book.id) == [3])
            #expect(infos.map(\.name) == ["Jean Giono"])
        }
    }

    @Test func sortingOnAssociatedRecordsAfterTheBaseOrdering() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let sortedAuthor = ABBook.author.order(\.name)
            let rows = try Row.fetchAll(db, ABBook
                .including(required: sortedAuthor)
                .order(\.kind.desc))
            // kind DESC first (poems, novel, novel, novel), then author name
            #expect(rows.map { $0["id"] as Int64 } == [2, 3, 4, 1])
            let rows2 = try Row.fetchAll(db, ABBook.including(required: sortedAuthor))
            #expect(rows2.map { $0.scopes["author"]!["name"] as String } == [
                "Herman Melville", "Jean Giono", "Victor Hugo", "Victor Hugo"])
        }
    }

    @Test func tableAliasOrderingComesFirst() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let authorAlias = TableAlias<ABPerson>()
            let books = try ABBook
                .joining(required: ABBook.author.aliased(authorAlias))
                .order { [authorAlias.name, $0.year.desc] }
                .fetchAll(db)
            #expect(books.map(\.id) == [3, 4, 2, 1])
            let posthumous = try ABBook
                .joining(required: ABBook.author.aliased(authorAlias))
                .filter { $0.year >= authorAlias.deathYear }
                .fetchAll(db)
            #expect(posthumous.map(\.id) == [2])
        }
    }

    @Test func namedTableAliasesInSQLSnippets() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let bookAlias = TableAlias<ABBook>(name: "b")
            let authorAlias = TableAlias<ABPerson>(name: "a")
            let request = ABBook.aliased(bookAlias)
                .joining(required: ABBook.author.aliased(authorAlias)
                    .filter(sql: "a.countryCode = ?", arguments: ["FR"]))
                .filter(sql: "b.year >= a.deathYear - 60")
                .order(sql: "b.id")
            #expect(try request.fetchAll(db).map(\.id) == [1, 2, 4])
        }
    }

    @Test func filterOnAssociationByKeyAndIds() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let books = try ABBook
                .joining(required: ABBook.author.filter(keys: [2, 4]))
                .order(\.id)
                .fetchAll(db)
            #expect(books.map(\.id) == [3, 4])
            let rows = try Row.fetchAll(db, ABPerson
                .including(all: ABPerson.books.filter(ids: [1, 3]).forKey("selectedBooks"))
                .order(\.id))
            #expect(rows.map { $0.prefetchedRows["selectedBooks"]?.count } == [1, 1, 0, 0])
        }
    }
}

// MARK: - Aggregates

@Suite("GRDB documented associations and requests: association aggregates")
struct GRDBDocumentedAssociationsAggregateTests {
    @Test func sumAndTotalDefaultNamesAndNullHandling() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABPerson
                .annotated(with: ABPerson.books.sum(\.awardCount))
                .order(\.id))
            // SUM is NULL when there is no (non-null) value
            #expect(rows.map { $0["bookAwardCountSum"] as Int? } == [2, 1, nil, 0])
            let totals = try Row.fetchAll(db, ABPerson
                .annotated(with: ABPerson.books.total(\.awardCount))
                .order(\.id))
            // TOTAL is 0.0 when there is no value
            #expect(totals.map { $0["bookAwardCountSum"] as Double } == [2, 1, 0, 0])
        }
    }

    @Test func averageAndMinDefaultNames() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var averageBookPrice: Double?
            var minBookYear: Int?
            var hasNoBook: Bool
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABPerson
                .annotated(with: ABPerson.books.average(\.price), ABPerson.books.min(\.year), ABPerson.books.isEmpty)
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.averageBookPrice) == [10, 20, nil, 5])
            #expect(infos.map(\.minBookYear) == [1862, 1851, nil, 1930])
            #expect(infos.map(\.hasNoBook) == [false, false, true, false])
        }
    }

    @Test func isolationWithDistinctKeysCountsEachPopulation() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var novelCount: Int
            var theatrePlayCount: Int
            var poemCount: Int
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let novelCount = ABPerson.books.filter { $0.kind == "novel" }.forKey("novels").count
            let theatrePlayCount = ABPerson.books.filter { $0.kind == "theatrePlay" }.forKey("theatrePlays").count
            let poemCount = ABPerson.books.filter { $0.kind == "poems" }.forKey("poems").count
            let infos = try ABPerson
                .annotated(with: novelCount, theatrePlayCount, poemCount)
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.novelCount) == [1, 1, 0, 1])
            #expect(infos.map(\.theatrePlayCount) == [0, 0, 0, 0])
            #expect(infos.map(\.poemCount) == [1, 0, 0, 0])
        }
    }

    @Test func workCountFromTwoAssociations() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var workCount: Int
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let aggregate = ABPerson.books.count + ABPerson.paintings.count
            let infos = try ABPerson
                .annotated(with: aggregate.forKey("workCount"))
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            // Hugo: 2 books + 2 paintings (no cartesian blow-up)
            #expect(infos.map(\.workCount) == [4, 1, 1, 1])
        }
    }

    @Test func aggregateCombinedWithAJoinedFilter() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABPerson
                .joining(required: ABPerson.country.filter(Column("code") == "FR"))
                .annotated(with: ABPerson.books.count, ABPerson.paintings.count)
                .order(\.id))
            #expect(rows.map { $0["id"] as Int64 } == [1, 4])
            #expect(rows.map { $0["bookCount"] as Int } == [2, 1])
            #expect(rows.map { $0["paintingCount"] as Int } == [2, 0])
        }
    }

    @Test func havingWithIncludingAllAndAggregatesOnNestedAssociation() throws {
        struct AuthorInfo: FetchableRecord, Decodable {
            var person: ABPerson
            var awardedBooks: [ABBook]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let awardedBooks = ABPerson.books
                .having(ABBook.awards.isEmpty == false)
                .forKey("awardedBooks")
            let infos = try ABPerson
                .including(all: awardedBooks)
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.awardedBooks.map(\.id) } == [[1], [3], [], []])
        }
    }

    @Test func aggregatesMultipliedAndCompared() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            // Arithmetic loses the default name: use forKey.
            let rows = try Row.fetchAll(db, ABPerson
                .annotated(with: (ABPerson.books.count * 10 - ABPerson.paintings.count).forKey("score"))
                .order(\.id))
            #expect(rows.map { $0["score"] as Int } == [18, 10, -1, 10])
            let prolific = try ABPerson
                .having(ABPerson.books.count >= ABPerson.paintings.count && ABPerson.books.max(\.year) < 1900)
                .order(\.id)
                .fetchAll(db)
            #expect(prolific.map(\.id) == [1, 2])
        }
    }

    @Test func aggregateFromASingleRecord() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let author = try #require(try ABPerson.fetchOne(db, key: 1))
            let books = author.request(for: ABPerson.books)
            #expect(try books.fetchCount(db) == 2)
            let maxBookYear = try Int.fetchOne(db, books.select { max($0.year) })
            #expect(maxBookYear == 1888)
            let nobody = try #require(try ABPerson.fetchOne(db, key: 3))
            #expect(try Int.fetchOne(db, nobody.request(for: ABPerson.books).select { max($0.year) }) == nil)
        }
    }

    @Test func aggregateWithCodingKeyForKey() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var numberOfBooks: Int
            static func all() -> QueryInterfaceRequest<AuthorInfo> {
                let numberOfBooks = ABPerson.books.count.forKey(CodingKeys.numberOfBooks)
                return ABPerson.annotated(with: numberOfBooks).asRequest(of: AuthorInfo.self)
            }
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try AuthorInfo.all().fetchAll(db)
            #expect(infos.sorted { $0.person.id < $1.person.id }.map(\.numberOfBooks) == [2, 1, 0, 1])
        }
    }

    @Test func groupedAssociationWithMaxYearPerKind() throws {
        struct BookKindInfo: Decodable {
            var kind: String
            var maxYear: Int
        }
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var bookKindInfos: [BookKindInfo]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let bookKindInfos = ABPerson.books
                .select { [$0.kind, max($0.year).forKey("maxYear")] }
                .group(\.kind)
                .order(\.kind)
                .forKey("bookKindInfos")
            let infos = try ABPerson
                .including(all: bookKindInfos)
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos[0].bookKindInfos.map(\.kind) == ["novel", "poems"])
            #expect(infos[0].bookKindInfos.map(\.maxYear) == [1862, 1888])
            #expect(infos[2].bookKindInfos.isEmpty)
        }
    }
}

// MARK: - Decoding joined requests

@Suite("GRDB documented associations and requests: decoding joined requests")
struct GRDBDocumentedAssociationsDecodingTests {
    @Test func fetchableRecordDecodesKeysAndMissingOptionalsAsNil() throws {
        struct BookInfo: FetchableRecord {
            var book: ABBook
            var author: ABPerson
            var country: ABCountry?
            var coverImage: ABCoverImage?
            init(row: Row) throws {
                book = try ABBook(row: row)
                author = try row.decode(forKey: "author")
                country = try row.decodeIfPresent(forKey: "country")
                coverImage = try row.decodeIfPresent(forKey: "coverImage")
            }
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let request = ABBook
                .including(required: ABBook.author.including(optional: ABPerson.country))
                .including(optional: ABBook.coverImage)
                .order(\.id)
            let infos = try BookInfo.fetchAll(db, request)
            #expect(infos.map(\.author.id) == [1, 1, 2, 4])
            #expect(infos.map { $0.country?.code } == ["FR", "FR", "US", "FR"])
            #expect(infos.map { $0.coverImage?.path } == [nil, nil, "moby.jpg", nil])
            // A key that is not in the row decodes as nil too
            let row = try #require(try Row.fetchOne(db, request))
            #expect(try row.decodeIfPresent(ABAward.self, forKey: "missingKey") == nil)
        }
    }

    @Test func rowDecodeOfAMissingRequiredKeyThrows() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, ABBook.including(optional: ABBook.coverImage).filter(key: 1)))
            #expect(throws: (any Error).self) {
                _ = try row.decode(ABPerson.self, forKey: "author")
            }
            // An all-NULL scope fails decoding a non-optional record
            #expect(throws: (any Error).self) {
                _ = try row.decode(ABCoverImage.self, forKey: "coverImage")
            }
        }
    }

    @Test func includingAllDecodesArrayAndSetByInitRow() throws {
        struct AuthorInfo: FetchableRecord {
            var person: ABPerson
            var books: [ABBook]
            var bookSet: Set<ABBook>
            init(row: Row) throws {
                person = try ABPerson(row: row)
                books = try row.decode(forKey: "books")
                bookSet = try row.decode(forKey: "books")
            }
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try AuthorInfo.fetchAll(db, ABPerson.including(all: ABPerson.books.order(\.id)).order(\.id))
            #expect(infos.map { $0.books.map(\.id) } == [[1, 2], [3], [], [4]])
            #expect(infos.map { Set($0.bookSet.map(\.id)) } == [[1, 2], [3], [], [4]])
        }
    }

    @Test func hierarchicalDecodableWithCodingKeys() throws {
        struct BookInfo: FetchableRecord, Decodable {
            struct PersonInfo: Decodable {
                var person: ABPerson
                var country: ABCountry?
            }
            var book: ABBook
            var authorInfo: PersonInfo
            var translatorInfo: PersonInfo?
            var coverImage: ABCoverImage?

            static func all() -> QueryInterfaceRequest<BookInfo> {
                ABBook.including(optional: ABBook.coverImage)
                    .including(required: ABBook.author
                        .forKey(CodingKeys.authorInfo)
                        .including(optional: ABPerson.country))
                    .including(optional: ABBook.translator
                        .forKey(CodingKeys.translatorInfo)
                        .including(optional: ABPerson.country))
                    .asRequest(of: BookInfo.self)
            }
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try BookInfo.all().order(Column("id")).fetchAll(db)
            #expect(infos.map(\.authorInfo.person.name) == ["Victor Hugo", "Victor Hugo", "Herman Melville", "Jean Giono"])
            #expect(infos.map { $0.authorInfo.country?.code } == ["FR", "FR", "US", "FR"])
            #expect(infos.map { $0.translatorInfo?.person.name } == [nil, nil, "Jean Giono", nil])
            #expect(infos.map { $0.translatorInfo?.country?.code } == [nil, nil, "FR", nil])
        }
    }

    @Test func debugDescriptionShowsScopesAndPrefetchedRows() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let request = ABBook
                .including(required: ABBook.author.including(optional: ABPerson.country))
                .including(optional: ABBook.coverImage)
                .including(all: ABBook.awards)
                .filter(key: 3)
            let row = try #require(try Row.fetchOne(db, request))
            let description = row.debugDescription
            #expect(description.contains("- author: "))
            #expect(description.contains("- country: "))
            #expect(description.contains("- coverImage: "))
            #expect(description.contains("+ awards: 2 rows"))
            #expect(description.contains("unadapted: "))
        }
    }

    @Test func customKeyAppearsInScopes() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, ABBook.including(optional: ABBook.author.forKey("writer")).filter(key: 3)))
            #expect(row.scopes["writer"]?["name"] == "Herman Melville")
            #expect(row.scopes["author"] == nil)
        }
    }
}

// MARK: - Refining association requests / DerivableRequest

extension DerivableRequest<ABPerson> {
    fileprivate func filter(country: String) -> Self {
        filter { $0.countryCode == country }
    }
    fileprivate func orderedByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }
}

extension DerivableRequest<ABBook> {
    fileprivate func filter(authorCountry: String) -> Self {
        joining(required: ABBook.author.filter(country: authorCountry))
    }
    fileprivate func orderedByAuthorNameAndYear() -> Self {
        let authorAlias = TableAlias<ABPerson>()
        return self
            .joining(optional: ABBook.author.aliased(authorAlias))
            .order { [authorAlias.name.collating(.localizedCaseInsensitiveCompare), $0.year] }
    }
}

@Suite("GRDB documented associations and requests: refining association requests")
struct GRDBDocumentedAssociationsRefiningTests {
    @Test func fluentCompositionMergesTheSameAssociation() throws {
        struct BookInfo: FetchableRecord, Decodable {
            var book: ABBook
            var author: ABPerson
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook.all()
                .filter(authorCountry: "FR")
                .orderedByAuthorNameAndYear()
                .including(required: ABBook.author)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            // Optional joining + required including = required: French authors only
            #expect(infos.map(\.book.id) == [4, 1, 2])
            #expect(infos.map(\.author.name) == ["Jean Giono", "Victor Hugo", "Victor Hugo"])
        }
    }

    @Test func requiredWinsOverOptional() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABBook
                .including(optional: ABBook.translator)
                .joining(required: ABBook.translator))
            #expect(rows.map { $0["id"] as Int64 } == [3])
            #expect(rows.first?.scopes["translator"]?["name"] == "Jean Giono")
        }
    }

    @Test func allFiltersAreApplied() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let books = try ABBook
                .joining(required: ABBook.author.filter { $0.countryCode == "FR" })
                .joining(optional: ABBook.author.filter { $0.deathYear < 1900 })
                .order(\.id)
                .fetchAll(db)
            #expect(books.map(\.id) == [1, 2])
        }
    }

    @Test func derivableRequestOnAssociationAndRequest() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            #expect(try ABPerson.all().filter(country: "FR").orderedByName().fetchAll(db).map(\.name)
                == ["Jean Giono", "Victor Hugo"])
            let books = try ABBook.all().filter(authorCountry: "US").fetchAll(db)
            #expect(books.map(\.id) == [3])
        }
    }

    @Test func associationWithItsOwnCommonTableExpression() throws {
        struct AuthorInfo: FetchableRecord, Decodable {
            var person: ABPerson
            var specialBooks: [ABBook]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let specialCTE = CommonTableExpression(named: "special", sql: "SELECT 1 AS bookId UNION ALL SELECT 4")
            let specialBooks = ABPerson.books
                .with(specialCTE)
                .filter { specialCTE.all().select(Column("bookId")).contains($0.id) }
                .forKey("specialBooks")
            let infos = try ABPerson
                .including(all: specialBooks)
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.specialBooks.map(\.id) } == [[1], [], [], [4]])
        }
    }
}

// MARK: - More joins: nested to-many inside to-one, self through, counts

private struct ABTag: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "tag"
    var bookId: Int64
    var label: String
}

extension ABBook {
    fileprivate static let tags = hasMany(ABTag.self, using: ForeignKey(["bookId"], to: ["id"]))
    fileprivate static let siblings = hasMany(ABBook.self, through: author, using: ABPerson.books)
        .forKey("siblings")
}

private func makeLibraryWithTags() throws -> DatabaseQueue {
    let dbQueue = try makeLibrary()
    try dbQueue.write { db throws in
        // A table without primary key (rowid only)
        try db.create(table: "tag") { t in
            t.column("bookId", .integer).notNull().references("book")
            t.column("label", .text).notNull()
        }
        try ABTag(bookId: 3, label: "sea").insert(db)
        try ABTag(bookId: 3, label: "sea").insert(db)
        try ABTag(bookId: 3, label: "whale").insert(db)
        try ABTag(bookId: 1, label: "paris").insert(db)
    }
    return dbQueue
}

@Suite("GRDB documented associations and requests: nested joins")
struct GRDBDocumentedAssociationsNestedJoinTests {
    @Test func includingAllNestedInIncludingRequired() throws {
        struct AuthorInfo: Decodable {
            var person: ABPerson
            var paintings: [ABPainting]
        }
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var author: AuthorInfo
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook
                .including(required: ABBook.author
                    .forKey("author")
                    .including(all: ABPerson.paintings.order(Column("id"))))
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.author.person.id) == [1, 1, 2, 4])
            #expect(infos.map { $0.author.paintings.map(\.title) } == [["Octopus", "Castle"], ["Octopus", "Castle"], [], []])
        }
    }

    @Test func includingAllNestedInIncludingOptionalWithMissingParent() throws {
        struct TranslatorInfo: Decodable {
            var person: ABPerson
            var paintings: [ABPainting]
        }
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var translator: TranslatorInfo?
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook
                .including(optional: ABBook.translator.including(all: ABPerson.paintings))
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.book.id) == [1, 2, 3, 4])
            #expect(infos.map { $0.translator?.person.name } == [nil, nil, "Jean Giono", nil])
            #expect(infos[2].translator?.paintings == [])
        }
    }

    @Test func hasManyThroughBackToTheSameTable() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var siblings: [ABBook]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook
                .including(all: ABBook.siblings.order(Column("id")))
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            // Books of the same author, including the book itself
            #expect(infos.map { $0.siblings.map(\.id) } == [[1, 2], [1, 2], [3], [4]])
            let rows = try Row.fetchAll(db, ABBook.annotated(with: ABBook.siblings.count).order(\.id))
            #expect(rows.map { $0["siblingCount"] as Int } == [2, 2, 1, 1])
        }
    }

    @Test func fetchOneWithIncludingAll() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var books: [ABBook]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let info = try ABPerson
                .filter(key: 1)
                .including(all: ABPerson.books.order(\.id))
                .asRequest(of: AuthorInfo.self)
                .fetchOne(db)
            #expect(info?.books.map(\.id) == [1, 2])
        }
    }

    @Test func includingAllWithAPagedBaseRequest() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var books: [ABBook]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABPerson
                .including(all: ABPerson.books.order(\.year.desc))
                .order(\.id.desc)
                .limit(2, offset: 1)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.person.id) == [3, 2])
            #expect(infos.map { $0.books.map(\.id) } == [[], [3]])
        }
    }

    @Test func countsOfAggregatedAndJoinedRequests() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            // fetchCount counts the fetched base records
            #expect(try ABPerson.having(ABPerson.books.isEmpty == false).fetchCount(db) == 3)
            #expect(try ABPerson.annotated(with: ABPerson.books.count).fetchCount(db) == 4)
            #expect(try ABPerson.including(all: ABPerson.books).fetchCount(db) == 4)
            #expect(try ABBook.including(required: ABBook.translator).fetchCount(db) == 1)
            #expect(try ABPerson.joining(required: ABPerson.books).distinct().fetchCount(db) == 3)
        }
    }

    @Test func joiningRequiredToManyFiltersTheBase() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let poets = try ABPerson
                .joining(required: ABPerson.books.filter { $0.kind == "poems" })
                .fetchAll(db)
            #expect(poets.map(\.id) == [1])
            let novelists = try ABPerson
                .joining(required: ABPerson.books.filter { $0.kind == "novel" })
                .distinct()
                .order(\.id)
                .fetchAll(db)
            #expect(novelists.map(\.id) == [1, 2, 4])
        }
    }

    @Test func aggregatesOfATableWithoutPrimaryKeyAreNotInflated() throws {
        let dbQueue = try makeLibraryWithTags()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABBook
                .annotated(with: ABBook.tags.count, ABBook.awards.count.forKey("numberOfAwards"))
                .order(\.id))
            #expect(rows.map { $0["tagCount"] as Int } == [1, 0, 3, 0])
            #expect(rows.map { $0["numberOfAwards"] as Int } == [1, 0, 2, 0])
        }
    }

    @Test func compositePrimaryKeyPivotAggregates() throws {
        let dbQueue = try makeTeams()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABTeam
                .annotated(with: ABTeam.playerRoles.count, ABTeam.players.max(\.score))
                .order(Column("id")))
            #expect(rows.map { $0["playerRoleCount"] as Int } == [3, 2, 0])
            #expect(rows.map { $0["maxPlayerScore"] as Int? } == [10, -30, nil])
        }
    }

    @Test func annotatedWithOptionalThroughAssociation() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: ABBook
            var countryName: String?
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABBook
                .annotated(withOptional: ABBook.country.select(Column("name").forKey("countryName")))
                .order(\.id)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.countryName) == ["France", "France", "United States", "France"])
        }
    }

    @Test func associationFilterReferringToTheBaseAlias() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let bookAlias = TableAlias<ABBook>()
            let posthumous = try ABBook
                .aliased(bookAlias)
                .joining(required: ABBook.author.filter { $0.deathYear <= bookAlias.year })
                .fetchAll(db)
            #expect(posthumous.map(\.id) == [2])
            // An untyped alias
            let alias = TableAlias()
            let count = try ABBook
                .joining(required: ABBook.author.aliased(alias))
                .filter(alias[Column("name")].like("%Hugo%"))
                .fetchCount(db)
            #expect(count == 2)
        }
    }
}

// MARK: - Common table expressions

private enum ABCTE1 {}
private enum ABCTE2 {}

@Suite("GRDB documented associations and requests: common table expressions")
struct GRDBDocumentedAssociationsCTETests {
    @Test func typedCommonTableExpressionsChainAssociations() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let cte1 = CommonTableExpression<ABCTE1>(
                named: "frenchAuthor",
                request: ABPerson.filter { $0.countryCode == "FR" })
            let cte2 = CommonTableExpression<ABCTE2>(
                named: "frCountry",
                sql: "SELECT * FROM country WHERE code = ?", arguments: ["FR"])
            let assoc1 = ABBook.association(to: cte1, on: { book, author in
                book[Column("authorId")] == author[Column("id")]
            })
            let assoc2 = cte1.association(to: cte2, on: { author, country in
                author[Column("countryCode")] == country[Column("code")]
            })
            let assoc3 = cte2.association(to: ABCountry.self, on: { cte, country in
                cte[Column("code")] == country[Column("code")]
            })
            let books = try ABBook
                .with(cte1).with(cte2)
                .joining(required: assoc1
                    .joining(required: assoc2
                        .joining(required: assoc3)))
                .order(\.id)
                .fetchAll(db)
            #expect(books.map(\.id) == [1, 2, 4])
        }
    }

    @Test func commonTableExpressionOfRecords() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let cte = CommonTableExpression<ABPerson>(
                named: "deadAuthor",
                request: ABPerson.filter { $0.deathYear != nil })
            let people = try cte.all().with(cte).order(Column("name")).fetchAll(db)
            #expect(people.map(\.name) == ["Herman Melville", "Jean Giono", "Victor Hugo"])
            let rows = try CommonTableExpression(named: "deadAuthor", request: ABPerson.filter { $0.deathYear != nil })
                .all()
                .with(cte)
                .filter(Column("deathYear") < 1890)
                .fetchAll(db)
            #expect(rows.count == 1)
            let viaAsRequest = try cte.all().with(cte).asRequest(of: Row.self).fetchCount(db)
            #expect(viaAsRequest == 3)
        }
    }

    @Test func cteAllCanBeFilteredSortedAndGrouped() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let counterCTE = CommonTableExpression(
                recursive: true,
                named: "counter",
                columns: ["x"],
                sql: """
                    VALUES(1)
                    UNION ALL
                    SELECT x+1 FROM counter WHERE x<1000
                    """)
            let values = try counterCTE.all().with(counterCTE)
                .select(Column("x"), as: Int.self)
                .filter(Column("x") > 997)
                .order(Column("x").desc)
                .fetchAll(db)
            #expect(values == [1000, 999, 998])
            let total = try counterCTE.all().with(counterCTE)
                .select(sum(Column("x")), as: Int.self)
                .fetchOne(db)
            #expect(total == 500500)
        }
    }

    @Test func recursiveCommonTableExpressionJoinedToARecord() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let decadeCTE = CommonTableExpression(
                recursive: true,
                named: "decade",
                columns: ["start"],
                sql: "VALUES(1850) UNION ALL SELECT start + 10 FROM decade WHERE start < 1880")
            let decade = ABBook.association(to: decadeCTE, on: { book, decade in
                book[Column("year")] >= decade[Column("start")] && book[Column("year")] < decade[Column("start")] + 10
            })
            let rows = try Row.fetchAll(db, ABBook
                .with(decadeCTE)
                .including(optional: decade)
                .order(\.id))
            #expect(rows.map { $0.scopes["decade"]?["start"] as Int? } == [1860, 1880, 1850, nil])
        }
    }

    @Test func commonTableExpressionUsedInUpdateAndDelete() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.write { db throws in
            let name = "O'Brien"
            let nameCTE = CommonTableExpression(named: "newName", literal: "SELECT \(name)")
            try ABPerson(id: 5, name: "Temp", countryCode: nil, deathYear: nil).insert(db)
            try ABPerson.with(nameCTE).filter(key: 5).updateAll(db) { $0.name.set(to: nameCTE.all()) }
            #expect(try String.fetchOne(db, sql: "SELECT name FROM person WHERE id = 5") == "O'Brien")
            let deleted = try ABPerson.with(nameCTE).filter { $0.name == nameCTE.all() }.deleteAll(db)
            #expect(deleted == 1)
            #expect(try ABPerson.fetchCount(db) == 4)
        }
    }
}

// MARK: - SQL interpolation in joined requests

@Suite("GRDB documented associations and requests: SQL interpolation")
struct GRDBDocumentedAssociationsInterpolationTests {
    @Test func literalExpressionIsQualifiedInJoinedRequest() throws {
        // Both tables have a "name" column: the literal must refer to the base table.
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let name = Column("name")
            let upperName = SQL("UPPER(\(name))")
            let rows = try Row.fetchAll(db, ABCountry.all()
                .filter(upperName == "FRANCE")
                .including(all: ABCountry.passports))
            #expect(rows.count == 1)
            let people = try ABPerson
                .filter(upperName == "JEAN GIONO")
                .including(required: ABPerson.country)
                .fetchAll(db)
            #expect(people.map(\.id) == [4])
        }
    }

    @Test func literalFunctionInAssociationFilter() throws {
        func upper(_ expression: some SQLExpressible) -> SQLExpression {
            SQL("UPPER(\(expression))").sqlExpression
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let books = try ABBook
                .joining(required: ABBook.author.filter { upper($0.name) == "HERMAN MELVILLE" })
                .fetchAll(db)
            #expect(books.map(\.id) == [3])
        }
    }

    @Test func interpolatedSubqueryAndSequence() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let ids: Set<Int64> = [1, 4]
            let request: SQLRequest<String> = "SELECT \(Column("title")) FROM \(ABBook.self) WHERE \(Column("authorId")) IN \(ids) ORDER BY \(Column("id").desc)"
            #expect(try request.fetchAll(db) == ["Regain", "Toute la lyre", "Les Misérables"])
            let latest = ABBook.select(max(Column("year")))
            let newest: SQLRequest<ABBook> = "SELECT * FROM book WHERE year = (\(latest))"
            #expect(try newest.fetchAll(db).map(\.id) == [4])
            let emptyIDs: [Int64] = []
            #expect(try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM book WHERE id NOT IN \(emptyIDs)").fetchOne(db) == 4)
        }
    }
}

// MARK: - Observation of joined requests

private final class ABCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var _count = 0
    var count: Int { lock.withLock { _count } }
    func increment() { lock.withLock { _count += 1 } }
}

private final class ABEventLog: TransactionObserver, @unchecked Sendable {
    let lock = NSLock()
    var events: [String] = []
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {
        let kind: String
        switch event.kind {
        case .insert: kind = "insert"
        case .update: kind = "update"
        case .delete: kind = "delete"
        }
        lock.withLock { events.append("\(kind) \(event.tableName)") }
    }
    func databaseDidCommit(_ db: Database) { lock.withLock { events.append("commit") } }
    func databaseDidRollback(_ db: Database) { lock.withLock { events.append("rollback") } }
}

@Suite("GRDB documented associations and requests: observation")
struct GRDBDocumentedAssociationsObservationTests {
    @Test func regionOfAJoinedRequestCoversAllTables() throws {
        let dbQueue = try makeLibrary()
        let prefetch = ABCounter()
        let aggregate = ABCounter()
        let join = ABCounter()
        let c1 = DatabaseRegionObservation(tracking: ABPerson.including(all: ABPerson.paintings))
            .start(in: dbQueue) { _ in } onChange: { _ in prefetch.increment() }
        let c2 = DatabaseRegionObservation(tracking: ABPerson.annotated(with: ABPerson.books.count))
            .start(in: dbQueue) { _ in } onChange: { _ in aggregate.increment() }
        let c3 = DatabaseRegionObservation(tracking: ABBook.including(required: ABBook.returnAddress))
            .start(in: dbQueue) { _ in } onChange: { _ in join.increment() }
        try dbQueue.write { db throws in
            try ABPainting(id: 10, personId: 2, title: "Whale").insert(db)
        }
        #expect([prefetch.count, aggregate.count, join.count] as [Int] == [1, 0, 0])
        try dbQueue.write { db throws in
            try db.execute(sql: "UPDATE book SET authorId = 2 WHERE id = 2")
        }
        #expect([prefetch.count, aggregate.count, join.count] as [Int] == [1, 1, 1])
        try dbQueue.write { db throws in
            try db.execute(sql: "UPDATE address SET city = 'Lyon'")
        }
        #expect([prefetch.count, aggregate.count, join.count] as [Int] == [1, 1, 2])
        try dbQueue.write { db throws in
            try db.execute(sql: "UPDATE library SET id = id")
        }
        #expect(join.count == 3)
        _ = (c1, c2, c3)
    }

    @Test func regionOfASelectedColumnIgnoresOtherColumns() throws {
        let dbQueue = try makeLibrary()
        let counter = ABCounter()
        let cancellable = DatabaseRegionObservation(tracking: ABBook.select(\.title))
            .start(in: dbQueue) { _ in } onChange: { _ in counter.increment() }
        try dbQueue.write { db throws in try db.execute(sql: "UPDATE book SET year = 2000") }
        #expect(counter.count == 0)
        try dbQueue.write { db throws in try db.execute(sql: "UPDATE book SET title = 'x' WHERE id = 2") }
        #expect(counter.count == 1)
        try dbQueue.write { db throws in try db.execute(sql: "DELETE FROM book WHERE id = 2") }
        #expect(counter.count == 2)
        _ = cancellable
    }

    @Test func foreignKeyActionsAreNotified() throws {
        let dbQueue = try makeLibrary()
        let counter = ABCounter()
        let log = ABEventLog()
        dbQueue.add(transactionObserver: log)
        let cancellable = DatabaseRegionObservation(tracking: Table("person"))
            .start(in: dbQueue) { _ in } onChange: { _ in counter.increment() }
        // person.countryCode is ON DELETE SET NULL
        try dbQueue.write { db throws in
            try db.execute(sql: "DELETE FROM passport WHERE countryCode = 'US'")
            try db.execute(sql: "DELETE FROM country WHERE code = 'US'")
        }
        #expect(counter.count == 1)
        let events = log.lock.withLock { log.events }
        #expect(events.sorted() == ["commit", "delete country", "delete passport", "update person"])
        #expect(events.last == "commit")
        _ = cancellable
    }

    @Test func rowRestrictedRegionsIgnoreOtherRows() throws {
        // QueryInterfaceOrganization.md: "When a request is limited to a known
        // list of rowids in a database table, changes applied to other rows do
        // not trigger the observation."
        let dbQueue = try makeLibrary()
        let byKey = ABCounter()
        let byColumn = ABCounter()
        let c1 = DatabaseRegionObservation(tracking: ABBook.filter(key: 1))
            .start(in: dbQueue) { _ in } onChange: { _ in byKey.increment() }
        let c2 = DatabaseRegionObservation(tracking: ABBook.filter { $0.id == 1 })
            .start(in: dbQueue) { _ in } onChange: { _ in byColumn.increment() }
        try dbQueue.write { db throws in try db.execute(sql: "UPDATE book SET title = 'x' WHERE id = 2") }
        #expect(byKey.count == 0)
        #expect(byColumn.count == 0)
        try dbQueue.write { db throws in try db.execute(sql: "UPDATE book SET title = 'x' WHERE id = 1") }
        #expect(byKey.count == 1)
        #expect(byColumn.count == 1)
        _ = (c1, c2)
    }

    @Test func replaceConflictDeletionsAreNotNotified() throws {
        let dbQueue = try makeLibrary()
        let log = ABEventLog()
        dbQueue.add(transactionObserver: log)
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT OR REPLACE INTO award (id, bookId, name) VALUES (1, 1, 'Replaced')")
        }
        // The replaced row's deletion is not notified; the insertion is.
        #expect(log.lock.withLock { log.events } == ["insert award", "commit"])
    }

    @Test func nextTransactionExtentCoversOneTransaction() throws {
        let dbQueue = try makeLibrary()
        let log = ABEventLog()
        dbQueue.add(transactionObserver: log, extent: .nextTransaction)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "UPDATE book SET year = 1 WHERE id = 1")
            return .rollback
        }
        try dbQueue.write { db throws in
            try db.execute(sql: "UPDATE book SET year = 2 WHERE id = 1")
        }
        #expect(log.lock.withLock { log.events } == ["update book", "rollback"])
    }

    @Test func readOnlyTransactionsAreNotNotified() throws {
        let dbQueue = try makeLibrary()
        let log = ABEventLog()
        dbQueue.add(transactionObserver: log)
        _ = try dbQueue.read { db throws in try ABBook.fetchCount(db) }
        #expect(log.lock.withLock { log.events }.isEmpty)
    }
}

// MARK: - Qualification of columns in joined requests

@Suite("GRDB documented associations and requests: column qualification")
struct GRDBDocumentedAssociationsQualificationTests {
    @Test func literalColumnsInAssociationFiltersAreQualified() throws {
        // person and country both have a `name` column.
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let france = ABPerson.country.filter(SQL("\(Column("name")) = \("France")"))
            let people = try ABPerson
                .joining(required: france)
                .order(\.id)
                .fetchAll(db)
            #expect(people.map(\.id) == [1, 4])
            let literal = try ABPerson
                .joining(required: ABPerson.country.filter(literal: "\(Column("name")) = \("United States")"))
                .fetchAll(db)
            #expect(literal.map(\.id) == [2])
        }
    }

    @Test func baseColumnsAreQualifiedInJoinedRequests() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let rows = try Row.fetchAll(db, ABPerson
                .including(required: ABPerson.country)
                .filter(Column("name") != "Jean Giono")
                .order(Column("name").desc))
            #expect(rows.map { $0["name"] as String } == ["Victor Hugo", "Herman Melville"])
            #expect(rows.map { $0.scopes["country"]?["name"] as String? } == ["France", "United States"])
        }
    }

    @Test func baseSelectionInJoinedRequest() throws {
        struct Info: Decodable, FetchableRecord {
            var name: String
            var country: ABCountry
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABPerson
                .select(Column("name"))
                .including(required: ABPerson.country)
                .order(Column("id"))
                .asRequest(of: Info.self)
                .fetchAll(db)
            #expect(infos.map(\.name) == ["Victor Hugo", "Herman Melville", "Jean Giono"])
            #expect(infos.map(\.country.code) == ["FR", "US", "FR"])
        }
    }

    @Test func singleColumnOfThroughAssociationIncludedAll() throws {
        struct CitizenInfo: Decodable, FetchableRecord {
            var citizen: ABCitizen
            var countryNames: [String]
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABCitizen
                .including(all: ABCitizen.countries
                    .select(Column("name"))
                    .order(Column("name"))
                    .forKey("countryNames"))
                .order(Column("id"))
                .asRequest(of: CitizenInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.countryNames) == [["France", "United States"], ["France"], []])
        }
    }

    @Test func havingAndWhereTogether() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let people = try ABPerson
                .filter { $0.countryCode == "FR" }
                .having(ABPerson.books.count >= 2)
                .fetchAll(db)
            #expect(people.map(\.id) == [1])
            let lazyFrench = try ABPerson
                .having(ABPerson.paintings.isEmpty)
                .filter { $0.countryCode == "FR" }
                .fetchAll(db)
            #expect(lazyFrench.map(\.id) == [4])
        }
    }

    @Test func prefetchAndAggregateOfTheSameAssociation() throws {
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: ABPerson
            var novels: [ABBook]
            var bookCount: Int
        }
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let infos = try ABPerson
                .including(all: ABPerson.books.filter { $0.kind == "novel" }.forKey("novels"))
                .annotated(with: ABPerson.books.count)
                .order(\.id)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.bookCount) == [2, 1, 0, 1])
            #expect(infos.map { $0.novels.map(\.id) } == [[1], [3], [], [4]])
        }
    }
}

// MARK: - Composite foreign keys

private struct ABRelease: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "release"
    static let tracks = hasMany(ABTrack.self)
    var label: String
    var number: Int
    var title: String
}

private struct ABTrack: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "track"
    static let release = belongsTo(ABRelease.self)
    var id: Int64
    var label: String?
    var number: Int?
    var name: String
}

@Suite("GRDB documented associations and requests: composite foreign keys")
struct GRDBDocumentedAssociationsCompositeKeyTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "release") { t in
                t.column("label", .text).notNull()
                t.column("number", .integer).notNull()
                t.column("title", .text).notNull()
                t.primaryKey(["label", "number"])
            }
            try db.create(table: "track") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("label", .text)
                t.column("number", .integer)
                t.column("name", .text).notNull()
                t.foreignKey(["label", "number"], references: "release")
            }
            try ABRelease(label: "Blue", number: 1, title: "Kind of Blue").insert(db)
            try ABRelease(label: "Blue", number: 2, title: "Somethin' Else").insert(db)
            try ABRelease(label: "Red", number: 1, title: "Red One").insert(db)
            try ABTrack(id: 1, label: "Blue", number: 1, name: "So What").insert(db)
            try ABTrack(id: 2, label: "Blue", number: 1, name: "Freddie").insert(db)
            try ABTrack(id: 3, label: "Red", number: 1, name: "Intro").insert(db)
            // A NULL column voids the foreign key
            try ABTrack(id: 4, label: "Blue", number: nil, name: "Orphan").insert(db)
        }
        return dbQueue
    }

    @Test func compositeKeysJoinPrefetchAndAggregate() throws {
        struct ReleaseInfo: Decodable, FetchableRecord {
            var release: ABRelease
            var tracks: [ABTrack]
        }
        struct TrackInfo: Decodable, FetchableRecord {
            var track: ABTrack
            var release: ABRelease?
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let releaseInfos = try ABRelease
                .including(all: ABRelease.tracks.order(Column("id")))
                .order(Column("label"), Column("number"))
                .asRequest(of: ReleaseInfo.self)
                .fetchAll(db)
            #expect(releaseInfos.map { $0.tracks.map(\.id) } == [[1, 2], [], [3]])

            let trackInfos = try ABTrack
                .including(optional: ABTrack.release)
                .order(Column("id"))
                .asRequest(of: TrackInfo.self)
                .fetchAll(db)
            #expect(trackInfos.map { $0.release?.title } == ["Kind of Blue", "Kind of Blue", "Red One", nil])

            let counts = try Row.fetchAll(db, ABRelease
                .annotated(with: ABRelease.tracks.count)
                .order(Column("label"), Column("number")))
            #expect(counts.map { $0["trackCount"] as Int } == [2, 0, 1])

            let orphan = try #require(try ABTrack.fetchOne(db, key: 4))
            #expect(try orphan.request(for: ABTrack.release).fetchOne(db) == nil)
            let release = try #require(try ABRelease.fetchOne(db, key: ["label": "Blue", "number": 1]))
            #expect(try release.request(for: ABRelease.tracks).order(Column("id")).fetchAll(db).map(\.id) == [1, 2])
        }
    }

    @Test func nullForeignKeyMatchesNothing() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let book = try #require(try ABBook.fetchOne(db, key: 1))
            #expect(try book.request(for: ABBook.translator).fetchOne(db) == nil)
            #expect(try book.request(for: ABBook.translator).fetchCount(db) == 0)
        }
    }
}

@Suite("GRDB documented associations and requests: aggregate names")
struct GRDBDocumentedAssociationsAggregateNameTests {
    @Test func modifiedAggregatesLoseTheirDefaultName() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let negated = try #require(try Row.fetchOne(db, ABPerson.annotated(with: !ABPerson.books.isEmpty).filter(key: 1)))
            #expect(!negated.hasColumn("hasNoBook"))
            let multiplied = try #require(try Row.fetchOne(db, ABPerson.annotated(with: ABPerson.books.count * 2).filter(key: 1)))
            #expect(!multiplied.hasColumn("bookCount"))
            #expect(multiplied.count == 5)
            let renamed = try #require(try Row.fetchOne(db, ABPerson
                .annotated(with: (ABPerson.books.isEmpty == false).forKey("hasBooks"))
                .filter(key: 3)))
            #expect(renamed["hasBooks"] == false)
        }
    }
}

@Suite("GRDB documented associations and requests: observing associations")
struct GRDBDocumentedAssociationsObservingAssociationsTests {
    @Test func valueObservationOfAnAggregatedRequest() async throws {
        let dbQueue = try makeLibrary()
        let observation = ValueObservation.tracking { db in
            try Row.fetchAll(db, ABPerson.annotated(with: ABPerson.books.count).order(\.id))
                .map { $0["bookCount"] as Int }
        }
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == [2, 1, 0, 1])
        try await dbQueue.write { db throws in
            try ABBook(id: 10, authorId: 3, translatorId: nil, libraryId: nil, title: "New",
                       kind: "novel", year: 2000, price: nil, awardCount: nil).insert(db)
        }
        #expect(try await iterator.next() == [2, 1, 1, 1])
    }

    @Test func valueObservationOfAPrefetchedAssociation() async throws {
        struct CitizenInfo: Decodable, FetchableRecord, Equatable {
            var citizen: ABCitizen
            var countries: [ABCountry]
        }
        let dbQueue = try makeLibrary()
        let observation = ValueObservation.tracking { db in
            try ABCitizen.including(all: ABCitizen.countries.order(Column("code")))
                .filter(key: 3)
                .asRequest(of: CitizenInfo.self)
                .fetchOne(db)?.countries.map(\.code)
        }
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == [])
        // A change in the pivot table
        try await dbQueue.write { db throws in
            try db.execute(sql: "UPDATE passport SET citizenId = 3 WHERE id = 4")
        }
        #expect(try await iterator.next() == ["DE"])
    }
}

