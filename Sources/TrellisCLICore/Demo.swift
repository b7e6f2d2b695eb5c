import Foundation
import Trellis
import TrellisObjects

/// `trellis demo`: the scenarios of the documentation, run on a database
/// file, with what they fetch printed as tables.
public enum Demo {
    /// The default database file, in the current folder.
    public static let defaultPath = "trellis-demo.sqlite"

    /// Creates the database at `path` (or recreates a previous demo
    /// database), runs the scenarios, and writes what a newcomer should see
    /// to `output`. Any other file at `path` is left alone: an error says
    /// so.
    public static func run(path: String = defaultPath, output: (String) -> Void) throws {
        try checkReplaceable(path)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(path: path)
        } catch {
            throw CommandError("can not create \(path): \(error)")
        }
        try migrator.migrate(dbQueue)
        output("Trellis demo: \(path)\n")
        try countries(dbQueue, output)
        try library(dbQueue, output)
        try configuration(dbQueue, output)
        try objects(dbQueue, output)
        output("The database is at \(URL(fileURLWithPath: path).path). Open it with:\n    sqlite3 \(path)")
    }

    /// Throws unless `path` names no file, an empty file, or a database
    /// that the demo made: the demo must not replace a folder or someone's
    /// database (a slip for `trellis inspect` is easy).
    static func checkReplaceable(_ path: String) throws {
        guard !path.isEmpty, path != ":memory:" else {
            throw CommandError("give the path of a database file to create")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard !isDirectory.boolValue else {
            throw CommandError("\(path) is a folder, not a database file")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber
        if size?.intValue == 0 { return }
        var configuration = Configuration()
        configuration.readonly = true
        let isDemo = (try? DatabaseQueue(path: path, configuration: configuration).read { db in
            try migrator.appliedIdentifiers(db).contains("countries")
        }) ?? false
        guard isDemo else {
            throw CommandError("\(path) exists and is not a Trellis demo database: give another path, or remove the file first")
        }
    }

    // MARK: Schema

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("countries") { db in
            try db.create(table: "country") { t in
                t.column("code", .text).primaryKey()
                t.column("name", .text)
            }
            try db.create(table: "demographics") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("countryCode", .text).notNull().unique().references("country", onDelete: .cascade)
                t.column("population", .integer)
                t.column("density", .double)
            }
        }
        migrator.registerMigration("library") { db in
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", inTable: "person").notNull()
                t.belongsTo("translator", inTable: "person")
                t.column("title", .text).notNull()
            }
        }
        migrator.registerMigration("appConfiguration") { db in
            try db.create(table: "appConfiguration") { t in
                t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
                t.column("storedFlag", .boolean)
            }
        }
        return migrator
    }

    // MARK: Countries (hasOne)

    struct Demographics: Codable, FetchableRecord, PersistableRecord {
        var id: Int64?
        var countryCode: String
        var population: Int
        var density: Double
    }

    struct Country: Codable, FetchableRecord, PersistableRecord {
        static let demographics = hasOne(Demographics.self)
        var code: String
        var name: String
    }

    struct CountryInfo: Decodable, FetchableRecord {
        var country: Country
        var demographic: Demographics?
    }

    static func countries(_ dbQueue: DatabaseQueue, _ output: (String) -> Void) throws {
        try dbQueue.write { db in
            for (code, name) in [("FR", "France"), ("IS", "Iceland"), ("JP", "Japan")] {
                try Country(code: code, name: name).insert(db)
            }
            try Demographics(id: nil, countryCode: "FR", population: 68_170_000, density: 122.5).insert(db)
            try Demographics(id: nil, countryCode: "JP", population: 124_500_000, density: 330.0).insert(db)
        }
        let infos = try dbQueue.read { db in
            try Country.including(optional: Country.demographics).order(Column("name")).asRequest(of: CountryInfo.self).fetchAll(db)
        }
        output("1. Countries and their demographics: Country.including(optional: Country.demographics)")
        output(TextTable(headers: ["country", "population", "density"], rows: infos.map {
            [$0.country.name, $0.demographic.map { String($0.population) } ?? "-", $0.demographic.map { String($0.density) } ?? "-"]
        }).rendered + "\n")
    }

    // MARK: Library (ForeignKey)

    struct Person: Codable, FetchableRecord, PersistableRecord {
        static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey).forKey("writtenBooks")
        static let translatedBooks = hasMany(Book.self, using: Book.translatorForeignKey).forKey("translatedBooks")
        var id: Int64
        var name: String
    }

    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let authorForeignKey = ForeignKey(["authorId"])
        static let translatorForeignKey = ForeignKey(["translatorId"])
        static let author = belongsTo(Person.self, using: authorForeignKey).forKey("author")
        static let translator = belongsTo(Person.self, using: translatorForeignKey).forKey("translator")
        var id: Int64
        var authorId: Int64
        var translatorId: Int64?
        var title: String
    }

    struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Person
        var translator: Person?
    }

    struct PersonInfo: Decodable, FetchableRecord {
        var person: Person
        var writtenBookCount: Int
        var translatedBookCount: Int
    }

    /// Without ForeignKey, the two foreign keys from book to person are
    /// ambiguous.
    struct AmbiguousBook: TableRecord {
        static let databaseTableName = "book"
        static let person = belongsTo(Person.self)
    }

    static func library(_ dbQueue: DatabaseQueue, _ output: (String) -> Void) throws {
        try dbQueue.write { db in
            for (id, name) in [(1, "Victor Hugo"), (2, "Isabel Hapgood"), (3, "Leo Tolstoy")] {
                try Person(id: Int64(id), name: name).insert(db)
            }
            try Book(id: 1, authorId: 1, translatorId: 2, title: "Les Misérables").insert(db)
            try Book(id: 2, authorId: 3, translatorId: nil, title: "War and Peace").insert(db)
            try Book(id: 3, authorId: 3, translatorId: 2, title: "Anna Karenina").insert(db)
        }
        let infos = try dbQueue.read { db in
            try Book.including(required: Book.author).including(optional: Book.translator)
                .order(Column("title")).asRequest(of: BookInfo.self).fetchAll(db)
        }
        output("2. Books with an author and a translator: two foreign keys to person, told apart with ForeignKey")
        output(TextTable(headers: ["title", "author", "translator"], rows: infos.map {
            [$0.book.title, $0.author.name, $0.translator?.name ?? "-"]
        }).rendered + "\n")

        let people = try dbQueue.read { db in
            try Person.annotated(with: Person.writtenBooks.count, Person.translatedBooks.count)
                .order(Column("name")).asRequest(of: PersonInfo.self).fetchAll(db)
        }
        output("   People and their books: Person.annotated(with: Person.writtenBooks.count, Person.translatedBooks.count)")
        output(TextTable(headers: ["person", "written", "translated"], rows: people.map {
            [$0.person.name, String($0.writtenBookCount), String($0.translatedBookCount)]
        }).rendered + "\n")

        do {
            _ = try dbQueue.read { db in try Row.fetchAll(db, AmbiguousBook.including(required: AmbiguousBook.person)) }
        } catch let error as DatabaseError {
            output("   Without ForeignKey, the fetch throws (and the process goes on):")
            output("   \(error.message ?? "\(error)")\n")
        }
    }

    // MARK: Configuration (single-row table)

    struct AppConfiguration: Codable, FetchableRecord, PersistableRecord {
        private var id = 1
        private var storedFlag: Bool?

        static let `default` = AppConfiguration(storedFlag: nil)

        var flag: Bool {
            get { storedFlag ?? true }
            set { storedFlag = newValue }
        }

        func willUpdate(_ db: Database, columns: Set<String>) throws {
            if try !exists(db) {
                try AppConfiguration.default.insert(db)
            }
        }

        static func find(_ db: Database) throws -> AppConfiguration {
            try fetchOne(db) ?? .default
        }
    }

    static func configuration(_ dbQueue: DatabaseQueue, _ output: (String) -> Void) throws {
        func describe() throws -> [String] {
            let config = try dbQueue.read { try AppConfiguration.find($0) }
            let rows = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM appConfiguration") ?? 0 }
            return ["flag = \(config.flag)", "\(rows) row(s) on disk"]
        }
        let before = try describe()
        try dbQueue.write { db in
            var config = try AppConfiguration.find(db)
            try config.updateChanges(db) { $0.flag = false }
        }
        let after = try describe()
        output("3. The single-row configuration, before and after updateChanges { $0.flag = false }")
        output(TextTable(headers: ["", "configuration", "storage"], rows: [["before"] + before, ["after"] + after]).rendered + "\n")
    }

    // MARK: Objects

    final class Spouse: Entity {
        static var entityName: String { "PersonObject" }
        var id: Id = 0
        var name = ""
        var spouse: ToOne<Spouse> = nil
    }

    final class Customer: Entity {
        var id: Id = 0
        var name = ""
        var orders: ToMany<Order> = nil
    }

    final class Order: Entity {
        static var entityName: String { "CustomerOrder" }
        var id: Id = 0
        var label = ""
        var customer: ToOne<Customer> = nil
    }

    static func objects(_ dbQueue: DatabaseQueue, _ output: (String) -> Void) throws {
        let store = Store(queue: dbQueue)
        let personBox = store.box(for: Spouse.self)
        let amanda = Spouse()
        amanda.name = "Amanda"
        let bob = Spouse()
        bob.name = "Bob"
        amanda.spouse.target = bob
        try personBox.put(amanda)

        func spouses() throws -> [[String]] {
            try personBox.all().map { [$0.name, $0.spouse.target?.name ?? "-"] }
        }
        output("4. Objects: amanda.spouse.target = bob; personBox.put(amanda) puts bob first")
        output(TextTable(headers: ["person", "spouse"], rows: try spouses()).rendered + "\n")
        amanda.spouse = nil
        try personBox.put(amanda)
        output("   After amanda.spouse = nil; personBox.put(amanda)")
        output(TextTable(headers: ["person", "spouse"], rows: try spouses()).rendered + "\n")

        let customer = Customer()
        customer.name = "Ada"
        for label in ["books", "lamp", "tea"] {
            let order = Order()
            order.label = label
            customer.orders.append(order)
        }
        try store.box(for: Customer.self).put(customer)
        func orders() throws -> String {
            let reloaded = try store.box(for: Customer.self).get(customer.id)
            return reloaded.map { $0.orders.map(\.label).joined(separator: ", ") } ?? ""
        }
        output("   Customer \(customer.name) and the backlink ToMany<Order>: \(try orders())")
        let detached: [Order] = try store.box(for: Customer.self).get(customer.id).map { Array($0.orders) } ?? []
        detached.forEach { $0.customer = nil }
        try store.box(for: Order.self).put(detached)
        let remaining = try orders()
        output("   After each order.customer = nil and a put: \(remaining.isEmpty ? "no order" : remaining)\n")
    }
}
