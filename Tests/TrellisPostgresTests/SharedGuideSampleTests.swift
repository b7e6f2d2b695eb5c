import Foundation
import Testing
import Trellis
import TrellisPostgres

// The samples of the guides (HasOne, ForeignKey, single-row tables,
// TableDefinition), each one test body run on SQLite and on PostgreSQL.

extension Engine {
    /// Applies `migrator` to a new, empty database, then runs `updates` in
    /// a write access.
    func migrate<T: Sendable>(
        _ migrator: DatabaseMigrator, then updates: @escaping @Sendable (Database) throws -> T) async throws -> T
    {
        switch self {
        case .sqlite:
            let dbQueue = try DatabaseQueue()
            try await migrator.migrate(dbQueue)
            return try await dbQueue.write(updates)
        case .postgreSQL:
            return try await PostgresTestServer.withDatabase { database in
                try await migrator.migrate(database)
                return try await database.write(updates)
            }
        }
    }
}

/// Expects `write` to violate a constraint. It runs in a savepoint,
/// because on PostgreSQL a failed statement aborts the transaction.
private func expectConstraintViolation(
    _ db: Database, sourceLocation: SourceLocation = #_sourceLocation, _ write: () throws -> Void) throws
{
    let error = try #require(throws: DatabaseError.self, sourceLocation: sourceLocation) {
        try db.inSavepoint {
            try write()
            return .commit
        }
    }
    #expect(error.resultCode == .SQLITE_CONSTRAINT, sourceLocation: sourceLocation)
}

// MARK: - HasOne

private struct Demographics: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var countryCode: String
    var population: Int
    var density: Double

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A country whose association follows the foreign key of the schema.
private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
    var code: String
    var name: String
    static let demographics = hasOne(Demographics.self)
}

/// A country whose association names its foreign key, for a schema that
/// declares none.
private struct CountryOfKeylessSchema: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "country"
    var code: String
    var name: String
    static let demographics = hasOne(Demographics.self, using: ForeignKey(["countryCode"]))
}

private struct CountryInfo: Decodable, FetchableRecord, Equatable {
    var country: Country
    var demographics: Demographics?
}

private func createCountries(_ db: Database, declaringForeignKey: Bool) throws {
    try db.create(table: "country") { t in
        t.column("code", .text).primaryKey()
        t.column("name", .text)
    }
    try db.create(table: "demographics") { t in
        t.autoIncrementedPrimaryKey("id")
        let countryCode = t.column("countryCode", .text)
            .notNull()
            .unique()
        if declaringForeignKey {
            countryCode.references("country", onDelete: .cascade)
        }
        t.column("population", .integer)
        t.column("density", .double)
    }
    for (code, name) in [("DE", "Germany"), ("FR", "France"), ("IS", "Iceland")] {
        try Country(code: code, name: name).insert(db)
    }
    var france = Demographics(id: nil, countryCode: "FR", population: 68_000_000, density: 122.5)
    try france.insert(db)
    var germany = Demographics(id: nil, countryCode: "DE", population: 84_000_000, density: 233.1)
    try germany.insert(db)
}

@Suite struct SharedGuideSampleTests {
    @Test(arguments: Engine.available)
    func hasOneFollowsTheForeignKeyOfTheSchema(_ engine: Engine) async throws {
        try await engine.write { db in
            try createCountries(db, declaringForeignKey: true)
            let infos = try Country
                .including(optional: Country.demographics.forKey("demographics"))
                .order(Column("code"))
                .asRequest(of: CountryInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.country.code) == ["DE", "FR", "IS"])
            #expect(infos.map { $0.demographics?.population } == [84_000_000, 68_000_000, nil])
            let france = Country(code: "FR", name: "France")
            #expect(try france.request(for: Country.demographics).fetchOne(db)?.density == 122.5)
            let dense = try Country.joining(required: Country.demographics.filter(Column("density") > 200)).fetchAll(db)
            #expect(dense.map(\.code) == ["DE"])

            // NOT NULL and UNIQUE: one profile per country, always linked.
            try expectConstraintViolation(db) {
                var second = Demographics(id: nil, countryCode: "FR", population: 1, density: 1)
                try second.insert(db)
            }
            try expectConstraintViolation(db) {
                try db.execute(sql: #"INSERT INTO "demographics" ("population") VALUES (1)"#)
            }
            // The foreign key: no profile of a missing country, and the
            // profile goes with its country.
            try expectConstraintViolation(db) {
                var orphan = Demographics(id: nil, countryCode: "XX", population: 1, density: 1)
                try orphan.insert(db)
            }
            _ = try france.delete(db)
            #expect(try Demographics.fetchAll(db).map(\.countryCode) == ["DE"])
        }
    }

    @Test(arguments: Engine.available)
    func hasOneUsesTheForeignKeyItIsGiven(_ engine: Engine) async throws {
        try await engine.write { db in
            try createCountries(db, declaringForeignKey: false)
            let france = CountryOfKeylessSchema(code: "FR", name: "France")
            #expect(try france.request(for: CountryOfKeylessSchema.demographics).fetchOne(db)?.population == 68_000_000)
            let dense = try CountryOfKeylessSchema
                .joining(required: CountryOfKeylessSchema.demographics.filter(Column("density") > 200))
                .fetchAll(db)
            #expect(dense.map(\.code) == ["DE"])

            // Without the ForeignKey, the schema has none to offer.
            let error = try #require(throws: DatabaseError.self) {
                try Country.joining(required: Country.demographics).fetchAll(db)
            }
            #expect(error.message?.hasPrefix("Could not infer foreign key from demographics to country") == true)
        }
    }
}

// MARK: - ForeignKey

private struct Person: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var name: String

    static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey)
    static let translatedBooks = hasMany(Book.self, using: Book.translatorForeignKey)

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A book whose foreign keys are defined from query interface columns.
private struct Book: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    enum Columns: String, ColumnExpression {
        case id, title, authorId, translatorId
    }

    var id: Int64?
    var title: String
    var authorId: Int64
    var translatorId: Int64?

    static let authorForeignKey = ForeignKey([Columns.authorId])
    static let translatorForeignKey = ForeignKey([Columns.translatorId])

    static let author = belongsTo(Person.self, using: authorForeignKey)
    static let translator = belongsTo(Person.self, using: translatorForeignKey)

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A book whose foreign keys are defined from column names, one of them
/// with its destination columns.
private struct NamedKeyBook: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "book"
    var title: String

    static let authorForeignKey = ForeignKey(["authorId"], to: ["id"])
    static let translatorForeignKey = ForeignKey(["translatorId"])

    static let author = belongsTo(Person.self, using: authorForeignKey)
    static let translator = belongsTo(Person.self, using: translatorForeignKey)
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Person
    var translator: Person?
}

extension SharedGuideSampleTests {
    @Test(arguments: Engine.available)
    func twoForeignKeysToOneTableNeedForeignKeyDefinitions(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer).notNull().references("person")
                t.column("translatorId", .integer).references("person")
                t.column("title", .text).notNull()
            }
            var tolstoy = Person(id: nil, name: "Tolstoy")
            var garnett = Person(id: nil, name: "Garnett")
            var maude = Person(id: nil, name: "Maude")
            try tolstoy.insert(db)
            try garnett.insert(db)
            try maude.insert(db)
            let books: [(String, Person?)] = [("Anna Karenina", garnett), ("Childhood", nil), ("War and Peace", maude)]
            for (title, translator) in books {
                var book = Book(id: nil, title: title, authorId: tolstoy.id ?? 0, translatorId: translator?.id)
                try book.insert(db)
            }

            let infos = try Book
                .including(required: Book.author.forKey("author"))
                .including(optional: Book.translator.forKey("translator"))
                .order(Book.Columns.title)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.book.title) == ["Anna Karenina", "Childhood", "War and Peace"])
            #expect(infos.map(\.author.name) == ["Tolstoy", "Tolstoy", "Tolstoy"])
            #expect(infos.map { $0.translator?.name } == ["Garnett", nil, "Maude"])

            // Person's HasMany associations reuse Book's foreign keys.
            #expect(try tolstoy.request(for: Person.writtenBooks).fetchCount(db) == 3)
            #expect(try garnett.request(for: Person.writtenBooks).fetchCount(db) == 0)
            #expect(try garnett.request(for: Person.translatedBooks).fetchAll(db).map(\.title) == ["Anna Karenina"])

            // Foreign keys given by column names, with or without their
            // destination.
            let byMaude = try NamedKeyBook
                .joining(required: NamedKeyBook.translator.filter(Column("name") == "Maude"))
                .fetchAll(db)
            #expect(byMaude.map(\.title) == ["War and Peace"])
            let byTolstoy = try NamedKeyBook
                .joining(required: NamedKeyBook.author.filter(Column("name") == "Tolstoy"))
                .order(Column("title"))
                .fetchAll(db)
            #expect(byTolstoy.map(\.title) == ["Anna Karenina", "Childhood", "War and Peace"])

            // Without a ForeignKey, the two foreign keys of the schema are
            // ambiguous.
            let error = try #require(throws: DatabaseError.self) {
                try Book.including(required: Book.belongsTo(Person.self)).fetchAll(db)
            }
            #expect(error.message?.hasPrefix("Ambiguous foreign key from book to person") == true)
            let hasManyError = try #require(throws: DatabaseError.self) {
                try Person.including(all: Person.hasMany(Book.self)).fetchAll(db)
            }
            #expect(hasManyError.message?.hasPrefix("Ambiguous foreign key from book to person") == true)
        }
    }
}

// MARK: - Single-row table

private struct AppConfiguration: Codable {
    // Support for the single row guarantee
    private var id = 1

    // The stored properties
    private var storedFlag: Bool?
}

// Support for default values
extension AppConfiguration {
    var flag: Bool {
        get { storedFlag ?? true /* the default value */ }
        set { storedFlag = newValue }
    }

    mutating func resetFlag() {
        storedFlag = nil
    }
}

extension AppConfiguration {
    /// The default configuration
    static let `default` = AppConfiguration(storedFlag: nil)
}

// Database Access
extension AppConfiguration: FetchableRecord, PersistableRecord {
    // Customize the default PersistableRecord behavior
    func willUpdate(_ db: Database, columns: Set<String>) throws {
        // Insert the default configuration if it does not exist yet.
        if try !exists(db) {
            try AppConfiguration.default.insert(db)
        }
    }

    /// Returns the persisted configuration, or the default one if the
    /// database table is empty.
    static func find(_ db: Database) throws -> AppConfiguration {
        try fetchOne(db) ?? .default
    }
}

/// The migration of the single-row table, with the conflict resolution of
/// its primary key.
private func appConfigurationMigrator(onConflict: Database.ConflictResolution?) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("appConfiguration") { db in
        try db.create(table: "appConfiguration") { t in
            // Single row guarantee: have inserts replace the existing row,
            // and make sure the id column is always 1.
            t.primaryKey("id", .integer, onConflict: onConflict)
                .check { $0 == 1 }

            // The configuration columns
            t.column("storedFlag", .boolean)
        }
    }
    return migrator
}

/// The rows of the single-row table, as `id: storedFlag`.
private func storedConfigurations(_ db: Database) throws -> [String] {
    try Row.fetchAll(db, sql: #"SELECT "id", "storedFlag" FROM "appConfiguration" ORDER BY "id""#).map { row in
        let id: Int64 = row["id"]
        let flag: Bool? = row["storedFlag"]
        return "\(id): " + (flag.map { "\($0)" } ?? "NULL")
    }
}

extension SharedGuideSampleTests {
    /// `ON CONFLICT REPLACE` is SQLite's: PostgreSQL has no conflict
    /// resolution in a constraint, and the migration says so.
    @Test(arguments: Engine.available)
    func theSingleRowTableReplacesItsRowOnSQLiteOnly(_ engine: Engine) async throws {
        let migrator = appConfigurationMigrator(onConflict: .replace)
        switch engine {
        case .sqlite:
            let rows = try await engine.migrate(migrator) { db in
                try db.execute(sql: #"INSERT INTO "appConfiguration" ("id", "storedFlag") VALUES (1, 0)"#)
                try db.execute(sql: #"INSERT INTO "appConfiguration" ("id", "storedFlag") VALUES (1, 1)"#)
                try expectConstraintViolation(db) {
                    try db.execute(sql: #"INSERT INTO "appConfiguration" ("id", "storedFlag") VALUES (2, 0)"#)
                }
                return try storedConfigurations(db)
            }
            #expect(rows == ["1: true"])
        case .postgreSQL:
            let error = try await #require(throws: DatabaseError.self) {
                try await engine.migrate(migrator) { db in try db.tableExists("appConfiguration") }
            }
            #expect(error.message == "ON CONFLICT REPLACE in a constraint is not supported by PostgreSQL")
        }
    }

    /// Every way to read and write the single-row record. On PostgreSQL the
    /// table's key can not replace on conflict (see above): there, an
    /// `insert` of the existing row throws, and the other writes behave as
    /// on SQLite.
    @Test(arguments: Engine.available)
    func theSingleRowRecordReadsItsDefaultAndWritesItsOneRow(_ engine: Engine) async throws {
        let migrator = appConfigurationMigrator(onConflict: engine == .sqlite ? .replace : nil)
        try await engine.migrate(migrator) { db in
            // READ an empty table: the default configuration.
            let config = try AppConfiguration.find(db)
            #expect(config.flag)
            #expect(try AppConfiguration.fetchOne(db) == nil)
            #expect(try !config.exists(db))

            // WRITE: willUpdate inserts the missing row before the update.
            var updated = try AppConfiguration.find(db)
            let changed = try updated.updateChanges(db) {
                $0.flag = true
            }
            #expect(changed)
            #expect(try storedConfigurations(db) == ["1: true"])

            // Other possible ways to save the config.
            var config2 = try AppConfiguration.find(db)
            #expect(config2.flag)
            config2.flag = false
            try config2.save(db)
            #expect(try storedConfigurations(db) == ["1: false"])
            config2.flag = true
            try config2.update(db)
            #expect(try storedConfigurations(db) == ["1: true"])
            config2.flag = false
            switch engine {
            case .sqlite:
                try config2.insert(db)
                #expect(try storedConfigurations(db) == ["1: false"])
            case .postgreSQL:
                try expectConstraintViolation(db) { try config2.insert(db) }
                #expect(try storedConfigurations(db) == ["1: true"])
            }
            config2.flag = false
            try config2.upsert(db)
            #expect(try storedConfigurations(db) == ["1: false"])

            // Back to the default value.
            config2.resetFlag()
            try config2.save(db)
            #expect(try storedConfigurations(db) == ["1: NULL"])
            #expect(try AppConfiguration.find(db).flag)

            // An update of an empty table inserts the default row first.
            try db.execute(sql: #"DELETE FROM "appConfiguration""#)
            config2.flag = false
            try config2.update(db)
            #expect(try storedConfigurations(db) == ["1: false"])
            #expect(try AppConfiguration.find(db).flag == false)

            // The CHECK constraint keeps the id at 1.
            try expectConstraintViolation(db) {
                try db.execute(
                    sql: #"INSERT INTO "appConfiguration" ("id", "storedFlag") VALUES (?, ?)"#, arguments: [2, true])
            }
            #expect(try storedConfigurations(db) == ["1: false"])
        }
    }
}

// MARK: - TableDefinition

/// The name, NOT NULL and primary key position of each column. A column
/// of the primary key is NOT NULL on PostgreSQL, and is not said to be on
/// SQLite: its NOT NULL is left out.
private func columnSummary(_ db: Database, _ table: String) throws -> [String] {
    try db.columns(in: table).map { column in
        if column.primaryKeyIndex > 0 { return column.name + " PK\(column.primaryKeyIndex)" }
        return column.name + (column.isNotNull ? " NOT NULL" : "")
    }
}

/// The destination, columns and actions of each foreign key.
private func foreignKeySummary(_ db: Database, on table: String) throws -> [String] {
    try db.foreignKeys(on: table).map { foreignKey in
        "\(foreignKey.originColumns) -> \(foreignKey.destinationTable)\(foreignKey.destinationColumns)"
            + " delete: \(foreignKey.onDelete?.rawValue ?? "NO ACTION")"
            + " update: \(foreignKey.onUpdate?.rawValue ?? "NO ACTION")"
    }
}

private func createCitizenships(_ db: Database) throws {
    try db.create(table: "citizenship") { t in
        t.column("citizenID", .integer)
        t.column("countryCode", .text)
        t.primaryKey(["citizenID", "countryCode"])
    }
    try db.execute(sql: #"INSERT INTO "citizenship" ("citizenID", "countryCode") VALUES (1, 'FR'), (1, 'DE')"#)
}

/// The guide's CHECK constraint in raw SQL, with unquoted identifiers.
private func createPhoneCheckedPlayers(_ db: Database) throws {
    try db.create(table: "player") { t in
        t.column("personalPhone", .text)
        t.column("workPhone", .text)
        t.check(sql: "personalPhone IS NOT NULL OR workPhone IS NOT NULL")
    }
}

extension SharedGuideSampleTests {
    @Test(arguments: Engine.available)
    func anAutoIncrementedPrimaryKeyNeverReusesAnId(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try db.execute(sql: #"INSERT INTO "player" ("name") VALUES ('Arthur'), ('Barbara')"#)
            try db.execute(sql: #"DELETE FROM "player" WHERE "id" = 2"#)
            try db.execute(sql: #"INSERT INTO "player" ("name") VALUES ('Craig')"#)
            #expect(try Row.fetchAll(db, sql: #"SELECT "id", "name" FROM "player" ORDER BY "id""#)
                == [["id": 1, "name": "Arthur"], ["id": 3, "name": "Craig"]])
            #expect(try columnSummary(db, "player") == ["id PK1", "name"])
            #expect(try db.primaryKey("player").columns == ["id"])
        }
    }

    @Test(arguments: Engine.available)
    func primaryAndUniqueKeysOfSeveralColumnsRefuseDuplicates(_ engine: Engine) async throws {
        try await engine.write { db in
            try createCitizenships(db)
            try expectConstraintViolation(db) {
                try db.execute(sql: #"INSERT INTO "citizenship" ("citizenID", "countryCode") VALUES (1, 'FR')"#)
            }
            #expect(try db.primaryKey("citizenship").columns == ["citizenID", "countryCode"])

            try db.create(table: "place") { t in
                t.column("latitude", .double)
                t.column("longitude", .double)
                t.uniqueKey(["latitude", "longitude"])
            }
            try db.execute(sql: #"INSERT INTO "place" ("latitude", "longitude") VALUES (48.5, 2.25), (48.5, 2.5)"#)
            try expectConstraintViolation(db) {
                try db.execute(sql: #"INSERT INTO "place" ("latitude", "longitude") VALUES (48.5, 2.25)"#)
            }
            #expect(try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "place""#) == 2)
            #expect(try columnSummary(db, "place") == ["latitude", "longitude"])
        }
    }

    @Test(arguments: Engine.available)
    func aForeignKeyOfSeveralColumnsCascadesDeletes(_ engine: Engine) async throws {
        try await engine.write { db in
            try createCitizenships(db)
            try db.create(table: "passport") { t in
                t.column("issueDate", .date)
                t.column("citizenID", .integer)
                t.column("countryCode", .text)
                t.foreignKey(["citizenID", "countryCode"], references: "citizenship", onDelete: .cascade)
            }
            let insert = #"INSERT INTO "passport" ("issueDate", "citizenID", "countryCode") VALUES (?, ?, ?)"#
            try db.execute(sql: insert, arguments: ["2024-05-01", 1, "FR"])
            try db.execute(sql: insert, arguments: ["2025-01-15", 1, "DE"])
            try expectConstraintViolation(db) {
                try db.execute(sql: insert, arguments: ["2024-05-01", 2, "FR"])
            }
            try db.execute(sql: #"DELETE FROM "citizenship" WHERE "countryCode" = 'FR'"#)
            #expect(try String.fetchAll(db, sql: #"SELECT "issueDate" FROM "passport""#) == ["2025-01-15"])
            #expect(try foreignKeySummary(db, on: "passport") == [
                #"["citizenID", "countryCode"] -> citizenship["citizenID", "countryCode"] delete: CASCADE update: NO ACTION"#,
            ])
        }
    }

    @Test(arguments: Engine.available)
    func aForeignKeyNamesItsColumnsActionsAndDeferral(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.create(table: "citizenship") { t in
                t.column("citizenID", .integer)
                t.column("countryCode", .text)
                t.primaryKey(["citizenID", "countryCode"])
            }
            try db.create(table: "visa") { t in
                t.column("citizenID", .integer)
                t.column("countryCode", .text)
                t.foreignKey(
                    ["citizenID", "countryCode"], references: "citizenship", columns: ["citizenID", "countryCode"],
                    onDelete: .setNull, onUpdate: .cascade, deferred: true)
            }
            // Deferred: the visa may come before its citizenship, in the
            // same transaction.
            try db.execute(sql: #"INSERT INTO "visa" ("citizenID", "countryCode") VALUES (1, 'FR'), (2, 'FR')"#)
            try db.execute(sql: #"INSERT INTO "citizenship" ("citizenID", "countryCode") VALUES (1, 'FR'), (2, 'FR')"#)
            // ON UPDATE CASCADE, then ON DELETE SET NULL.
            try db.execute(sql: #"UPDATE "citizenship" SET "countryCode" = 'DE' WHERE "citizenID" = 1"#)
            try db.execute(sql: #"DELETE FROM "citizenship" WHERE "citizenID" = 2"#)
            let visas = try Row.fetchAll(db, sql: #"SELECT "citizenID", "countryCode" FROM "visa" ORDER BY "citizenID""#)
            #expect(visas == [["citizenID": nil, "countryCode": nil], ["citizenID": 1, "countryCode": "DE"]]
                || visas == [["citizenID": 1, "countryCode": "DE"], ["citizenID": nil, "countryCode": nil]])
            #expect(try foreignKeySummary(db, on: "visa") == [
                #"["citizenID", "countryCode"] -> citizenship["citizenID", "countryCode"] delete: SET NULL update: CASCADE"#,
            ])
        }
    }

    @Test(arguments: Engine.available)
    func aCheckConstraintFromAnExpressionRefusesRows(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.create(table: "player") { t in
                t.column("personalPhone", .text)
                t.column("workPhone", .text)
                let personalPhone = Column("personalPhone")
                let workPhone = Column("workPhone")
                t.check(personalPhone != nil || workPhone != nil)
            }
            try db.execute(sql: #"INSERT INTO "player" ("personalPhone") VALUES ('555-1234')"#)
            try db.execute(sql: #"INSERT INTO "player" ("workPhone") VALUES ('555-9876')"#)
            try expectConstraintViolation(db) {
                try db.execute(sql: #"INSERT INTO "player" ("personalPhone", "workPhone") VALUES (NULL, NULL)"#)
            }
            #expect(try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "player""#) == 2)
        }
    }

    /// PostgreSQL folds the unquoted identifiers of raw SQL to lower case:
    /// the sample's `personalPhone` is `personalphone` there, a column that
    /// does not exist. Quoted, the same check runs on both engines.
    @Test(arguments: Engine.available)
    func aCheckConstraintFromSQLRefusesRows(_ engine: Engine) async throws {
        try await engine.write { db in
            switch engine {
            case .sqlite:
                try createPhoneCheckedPlayers(db)
                try expectConstraintViolation(db) {
                    try db.execute(sql: #"INSERT INTO "player" ("personalPhone", "workPhone") VALUES (NULL, NULL)"#)
                }
                try db.drop(table: "player")
            case .postgreSQL:
                let error = try #require(throws: DatabaseError.self) {
                    try db.inSavepoint {
                        try createPhoneCheckedPlayers(db)
                        return .commit
                    }
                }
                #expect(error.message?.contains(#"column "personalphone" does not exist"#) == true)
                #expect(try !db.tableExists("player"))
            }
            try db.create(table: "player") { t in
                t.column("personalPhone", .text)
                t.column("workPhone", .text)
                t.check(sql: #""personalPhone" IS NOT NULL OR "workPhone" IS NOT NULL"#)
            }
            try db.execute(sql: #"INSERT INTO "player" ("workPhone") VALUES ('555-9876')"#)
            try expectConstraintViolation(db) {
                try db.execute(sql: #"INSERT INTO "player" ("personalPhone", "workPhone") VALUES (NULL, NULL)"#)
            }
            #expect(try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "player""#) == 1)
        }
    }
}
