import Foundation
import Testing
import Trellis

// GRDB's RecordRecommendedPractices.md ("Recommended Practices for Designing
// Record Types", formerly GoodPracticesForDesigningRecordTypes.md): the
// library of books and authors, written as the article writes it.

private struct Author: Codable {
    var id: Int64?
    var name: String
    var countryCode: String?
}

private struct Book: Codable {
    enum Kind: String, Codable {
        case essay, novel, poetry, theater
    }
    var id: Int64?
    var authorId: Int64
    var title: String
    var kind: Kind
}

// Add Database access
extension Author: FetchableRecord, MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Book: FetchableRecord, MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Book.Kind: DatabaseValueConvertible { }

// HOW TO define columns for a Codable record
extension Author {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let countryCode = Column(CodingKeys.countryCode)
    }
}

extension Book {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let authorId = Column(CodingKeys.authorId)
        static let title = Column(CodingKeys.title)
        static let kind = Column(CodingKeys.kind)
    }
}

// Author requests
extension DerivableRequest<Author> {
    /// Order authors by name, in a localized case-insensitive fashion
    func orderByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters authors from a country
    func filter(countryCode: String) -> Self {
        filter { $0.countryCode == countryCode }
    }
}

// Book requests
extension DerivableRequest<Book> {
    /// Order books by title, in a localized case-insensitive fashion
    func orderByTitle() -> Self {
        order { $0.title.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters books by kind (fileprivate only because `Book` is private to this file)
    fileprivate func filter(kind: Book.Kind) -> Self {
        filter { $0.kind == kind }
    }

    /// Filters books from a country
    func filter(authorCountryCode countryCode: String) -> Self {
        // Books do not have any country column. But their author has one!
        // Return books that can be joined to an author from this country:
        joining(required: Book.author.filter(countryCode: countryCode))
    }
}

extension QueryInterfaceRequest<Author> {
    // Selects authors' name
    func selectName() -> QueryInterfaceRequest<String> {
        select(\.name)
    }
}

extension Book {
    static let author = belongsTo(Author.self)
}

extension Author {
    static let books = hasMany(Book.self)
}

// Fetch all authors along with their number of books
private struct AuthorInfo: Decodable, FetchableRecord {
    var author: Author
    var bookCount: Int
}

// Fetch the literary careers of German authors, sorted by name
private struct LiteraryCareer: Codable, FetchableRecord {
    var author: Author
    var books: [Book]
}

// Fetch all Colombian books and their authors
private struct Authorship: Decodable, FetchableRecord {
    var book: Book
    var author: Author
}

// "Second Example: GPS Coordinates": CoreLocation is Apple-only, so a
// stand-in coordinate type plays CLLocationCoordinate2D's part.
private typealias CLLocationDegrees = Double
private struct CLLocationCoordinate2D: Equatable {
    var latitude: CLLocationDegrees
    var longitude: CLLocationDegrees
}

private struct Place: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    private var latitude: CLLocationDegrees
    private var longitude: CLLocationDegrees

    var coordinate: CLLocationCoordinate2D {
        get {
            CLLocationCoordinate2D(
                latitude: latitude,
                longitude: longitude)
        }
        set {
            latitude = newValue.latitude
            longitude = newValue.longitude
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    init(name: String, coordinate: CLLocationCoordinate2D) {
        self.name = name
        self.latitude = coordinate.latitude
        self.longitude = coordinate.longitude
    }
}

private struct Product: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    private var priceCents: Int

    var price: Decimal {
        get {
            Decimal(priceCents) / 100
        }
        set {
            priceCents = Self.cents(for: newValue)
        }
    }

    private static func cents(for value: Decimal) -> Int {
        Int(Double(truncating: NSDecimalNumber(decimal: value * 100)))
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    init(name: String, price: Decimal) {
        self.name = name
        self.priceCents = 0
        self.price = price
    }
}

// "Optional ids are not suitable for Identifiable"; a record with a
// non-optional id adopts it and gains find(_:id:).
private struct IdentifiedAuthor: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "author"
    var id: Int64
    var name: String
    var countryCode: String?
}

@Suite struct RecordRecommendedPracticesDocTests {
    private func makeLibrary() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()

        migrator.registerMigration("createLibrary") { db in
            try db.create(table: "author") { t in             // (1)
                t.autoIncrementedPrimaryKey("id")             // (2)
                t.column("name", .text).notNull()             // (3)
                t.column("countryCode", .text)                // (4)
            }

            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()            // (5)
                t.belongsTo("author", onDelete: .cascade)     // (6)
                    .notNull()                                // (7)
                t.column("kind", .text).notNull()
            }
        }

        try migrator.migrate(dbQueue)
        return dbQueue
    }

    /// Authors from several countries, with their books.
    private func makeFilledLibrary() throws -> DatabaseQueue {
        let dbQueue = try makeLibrary()
        try dbQueue.write { db in
            let library: [(String, String?, [(String, Book.Kind)])] = [
                ("Herman Melville", "US", [("Moby-Dick", .novel)]),
                ("émile Zola", "FR", [("Germinal", .novel)]),
                ("Victor Hugo", "FR", [("Les Contemplations", .poetry), ("Les Misérables", .novel)]),
                ("Miguel de Cervantes", "ES", [("Don Quijote", .novel)]),
                ("Federico García Lorca", "ES", [("Bodas de sangre", .theater)]),
                ("Yukio Mishima", "JP", []),
                ("Haruki Murakami", "JP", [("Norwegian Wood", .novel)]),
                ("Thomas Mann", "DE", [("Der Zauberberg", .novel), ("Buddenbrooks", .novel)]),
                ("bertolt Brecht", "DE", [("Mutter Courage", .theater)]),
                ("Italo Calvino", "IT", [("Il barone rampante", .novel), ("Lezioni americane", .essay)]),
                ("Gabriel García Márquez", "CO", [("Cien años de soledad", .novel)]),
                ("Anonymous", nil, [("Beowulf", .poetry)]),
            ]
            for (name, countryCode, books) in library {
                var author = Author(name: name, countryCode: countryCode)
                try author.insert(db)
                for (title, kind) in books {
                    var book = Book(authorId: author.id!, title: title, kind: kind)
                    try book.insert(db)
                }
            }
        }
        return dbQueue
    }

    // MARK: Trust SQLite More Than Yourself

    @Test func theSchemaGuardsTheData() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.write { db in
            #expect(try db.indexes(on: "book").contains { $0.columns == ["authorId"] })
            let foreignKeys = try db.foreignKeys(on: "book")
            #expect(foreignKeys.map(\.destinationTable) == ["author"])
            #expect(foreignKeys.map(\.mapping.first?.origin) == ["authorId"])

            // An author must have a name, a book a title and an author.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO author (name) VALUES (NULL)")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title, kind) VALUES ('Orphan', 'novel')")
            }
            // No book refers to a missing author.
            let error = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title, authorId, kind) VALUES ('Ghost', 42, 'novel')")
            }
            #expect(error.resultCode == .SQLITE_CONSTRAINT)

            // Deleting an author deletes its books.
            var author = Author(name: "Herman Melville", countryCode: "US")
            try author.insert(db)
            var book = Book(authorId: author.id!, title: "Moby-Dick", kind: .novel)
            try book.insert(db)
            try author.delete(db)
            #expect(try Book.fetchCount(db) == 0)
        }
    }

    // MARK: Record Types

    @Test func recordsInsertAndFetch() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.write { db in
            // Insert and set author's id
            var author = Author(name: "Herman Melville", countryCode: "US")
            try author.insert(db)
            #expect(author.id == 1)

            // Insert and set book's id
            var book = Book(authorId: author.id!, title: "Moby-Dick", kind: .novel)
            try book.insert(db)
            #expect(book.id == 1)
        }

        let books = try dbQueue.read { db in
            try Book.fetchAll(db)
        }
        #expect(books.map(\.title) == ["Moby-Dick"])
        #expect(books.map(\.authorId) == [1])
    }

    @Test func identifiableRecordsAreFoundById() throws {
        let dbQueue = try makeFilledLibrary()
        let authorID: Int64 = 1
        let author: IdentifiedAuthor = try dbQueue.read { db in
            try IdentifiedAuthor.find(db, id: authorID)
        }
        #expect(author.name == "Herman Melville")

        // A missing id is a RecordError, described in GRDB's words.
        let error = try #require(throws: RecordError.self) {
            try dbQueue.read { db in try IdentifiedAuthor.find(db, id: 42) }
        }
        #expect("\(error)" == #"Key not found in table author: [id:42]"#)
    }

    // MARK: Record Types Hide Intimate Database Details

    @Test func enumPropertiesFilterRequests() throws {
        let dbQueue = try makeFilledLibrary()
        // Fetch all novels
        let novels = try dbQueue.read { db in
            try Book.filter { $0.kind == Book.Kind.novel }.fetchAll(db)
        }
        #expect(novels.count == 9)
        #expect(novels.allSatisfy { $0.kind == .novel })

        // An unknown kind in the database is an error, not a crash.
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO book (title, authorId, kind) VALUES ('Odd', 1, 'comic')")
        }
        #expect(throws: (any Error).self) {
            try dbQueue.read { db in try Book.fetchAll(db) }
        }
    }

    @Test func privatePropertiesHideColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
            }
            try db.create(table: "product") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("priceCents", .integer).notNull()
            }

            var place = Place(name: "Paris", coordinate: CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522))
            try place.insert(db)
            place.coordinate.latitude = 48.85
            try place.update(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT latitude, longitude FROM place"))
            #expect(row["latitude"] as Double == 48.85)
            #expect(row["longitude"] as Double == 2.3522)
            let fetchedPlace = try #require(try Place.fetchOne(db))
            #expect(fetchedPlace.coordinate == CLLocationCoordinate2D(latitude: 48.85, longitude: 2.3522))

            var product = Product(name: "Book", price: Decimal(string: "12.00")!)
            try product.insert(db)
            product.price = Decimal(string: "12.35")!
            try product.update(db)
            #expect(try Int.fetchOne(db, sql: "SELECT priceCents FROM product") == 1235)
            #expect(try Product.fetchOne(db)?.price == Decimal(string: "12.35")!)
            // SQLite sums cents exactly.
            var other = Product(name: "Pen", price: Decimal(string: "0.10")!)
            try other.insert(db)
            #expect(try Int.fetchOne(db, sql: "SELECT SUM(priceCents) FROM product") == 1245)
        }
    }

    // MARK: Record Requests

    @Test func columnsDefineRequests() throws {
        let dbQueue = try makeFilledLibrary()
        try dbQueue.read { db in
            // Fetch all authors, ordered by name,
            // in a localized case-insensitive fashion
            let sortedAuthors: [Author] = try Author.all()
                .order { $0.name.collating(.localizedCaseInsensitiveCompare) }
                .fetchAll(db)
            #expect(sortedAuthors.prefix(4).map(\.name) == [
                "Anonymous", "bertolt Brecht", "émile Zola", "Federico García Lorca",
            ])

            // Count French authors
            let frenchAuthorCount: Int = try Author.all()
                .filter { $0.countryCode == "FR" }
                .fetchCount(db)
            #expect(frenchAuthorCount == 2)
        }
    }

    @Test func commonlyUsedRequestsAreMethods() throws {
        let dbQueue = try makeFilledLibrary()
        try dbQueue.read { db in
            let sortedSpanishAuthors: [Author] = try Author.all()
                .filter(countryCode: "ES")
                .orderByName()
                .fetchAll(db)
            #expect(sortedSpanishAuthors.map(\.name) == ["Federico García Lorca", "Miguel de Cervantes"])

            let novelCount: Int = try Book.all()
                .filter(kind: .novel)
                .fetchCount(db)
            #expect(novelCount == 9)

            // The names of Japanese authors
            let names: Set<String> = try Author.all()
                .filter(countryCode: "JP")
                .selectName()
                .fetchSet(db)
            #expect(names == ["Yukio Mishima", "Haruki Murakami"])
        }
        // The SQL is GRDB's, as GRDB 7 prints it.
        let sql = try dbQueue.read { db in
            try Author.all().filter(countryCode: "ES").orderByName().makePreparedRequest(db).statement.sql
        }
        #expect(sql == #"SELECT * FROM "author" WHERE "countryCode" = ? ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#)
    }

    // MARK: Associations

    @Test func associationsNavigate() throws {
        let dbQueue = try makeFilledLibrary()
        // Fetch all novels from an author
        try dbQueue.read { db in
            let author: Author = try #require(try Author.filter { $0.name == "Thomas Mann" }.fetchOne(db))
            let novels: [Book] = try author.request(for: Author.books)
                .filter(kind: .novel)
                .orderByTitle()
                .fetchAll(db)
            #expect(novels.map(\.title) == ["Buddenbrooks", "Der Zauberberg"])
        }

        // Fetch all Italian novels
        try dbQueue.read { db in
            let italianNovels: [Book] = try Book.all()
                .filter(kind: .novel)
                .filter(authorCountryCode: "IT")
                .fetchAll(db)
            #expect(italianNovels.map(\.title) == ["Il barone rampante"])
        }
    }

    @Test func graphsOfObjects() throws {
        let dbQueue = try makeFilledLibrary()
        let authorInfos: [AuthorInfo] = try dbQueue.read { db in
            try Author
                .annotated(with: Author.books.count)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(authorInfos.count == 12)
        #expect(authorInfos.first { $0.author.name == "Victor Hugo" }?.bookCount == 2)
        #expect(authorInfos.first { $0.author.name == "Yukio Mishima" }?.bookCount == 0)

        let careers: [LiteraryCareer] = try dbQueue.read { db in
            // The article writes `Author.filter(countryCode:)`, which GRDB
            // does not compile either: extensions of DerivableRequest apply to
            // requests, not to the record type.
            try Author.all()
                .filter(countryCode: "DE")
                .orderByName()
                .including(all: Author.books)
                .asRequest(of: LiteraryCareer.self)
                .fetchAll(db)
        }
        #expect(careers.map(\.author.name) == ["bertolt Brecht", "Thomas Mann"])
        #expect(careers.map { Set($0.books.map(\.title)) } == [
            ["Mutter Courage"], ["Der Zauberberg", "Buddenbrooks"],
        ])

        let (authorships, alternative): ([Authorship], [Authorship]) = try dbQueue.read { db in
            let authorships = try Book.all()
                .including(required: Book.author.filter(countryCode: "CO"))
                .asRequest(of: Authorship.self)
                .fetchAll(db)

            // Equivalent alternative
            let alternative = try Book.all()
                .filter(authorCountryCode: "CO")
                .including(required: Book.author)
                .asRequest(of: Authorship.self)
                .fetchAll(db)
            return (authorships, alternative)
        }
        #expect(authorships.map(\.book.title) == ["Cien años de soledad"])
        #expect(authorships.map(\.author.name) == ["Gabriel García Márquez"])
        #expect(alternative.map(\.book.title) == authorships.map(\.book.title))
        #expect(alternative.map(\.author.name) == authorships.map(\.author.name))
    }

    @Test func eagerLoading() throws {
        let dbQueue = try makeFilledLibrary()
        try dbQueue.read { db in
            let request = Author.all()
                .including(all: Author.books) // <- Explicit request for books
                .asRequest(of: LiteraryCareer.self)

            // Fetch first author and its books in one stroke
            let career = try #require(try request.fetchOne(db))
            #expect(career.author.name == "Herman Melville")
            #expect(career.books.map(\.title) == ["Moby-Dick"])
        }
    }
}
