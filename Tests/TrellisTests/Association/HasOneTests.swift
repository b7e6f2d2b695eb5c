import Testing
import Trellis

// The HasOne association between a country and its demographics,
// with the foreign key inferred from the schema, or given as ForeignKey.

private struct Demographics: Codable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var countryCode: String
    var population: Int
    var density: Double
}

private struct Country: Codable, FetchableRecord, PersistableRecord {
    static let demographics = hasOne(Demographics.self)
    var code: String
    var name: String
}

/// The same tables, described by a schema without foreign keys.
private struct LooseDemographics: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "looseDemographics"
    var id: Int64
    var countryCode: String
    var population: Int
}

private struct LooseCountry: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "looseCountry"
    static let demographics = hasOne(LooseDemographics.self, using: ForeignKey(["countryCode"]))
    var code: String
    var name: String
}

private struct CountryInfo: Decodable, FetchableRecord {
    var country: Country
    var demographic: Demographics?
}

@Suite struct HasOneTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT NOT NULL PRIMARY KEY, name TEXT);
                CREATE TABLE demographics (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  countryCode TEXT NOT NULL UNIQUE REFERENCES country(code) ON DELETE CASCADE,
                  population INTEGER,
                  density DOUBLE);
                CREATE TABLE looseCountry (code TEXT NOT NULL PRIMARY KEY, name TEXT);
                CREATE TABLE looseDemographics (id INTEGER PRIMARY KEY, countryCode TEXT, population INTEGER);
                """)
            try Country(code: "FR", name: "France").insert(db)
            try Country(code: "IS", name: "Iceland").insert(db)
            try Demographics(id: nil, countryCode: "FR", population: 68_000_000, density: 122.5).insert(db)
            try db.execute(sql: """
                INSERT INTO looseCountry VALUES ('FR', 'France'), ('IS', 'Iceland');
                INSERT INTO looseDemographics VALUES (1, 'IS', 390000);
                """)
        }
        return dbQueue
    }

    @Test func hasOneInfersTheForeignKeyFromTheSchema() throws {
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in
            try Country.including(optional: Country.demographics)
                .order(Column("code"))
                .asRequest(of: CountryInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.country.code) == ["FR", "IS"])
        #expect(infos[0].demographic?.population == 68_000_000)
        #expect(infos[1].demographic == nil)
    }

    @Test func theDefaultKeyOfHasOneDemographicsIsSingular() throws {
        let dbQueue = try makeDatabase()
        let row = try dbQueue.read { db in
            try Row.fetchOne(db, Country.including(required: Country.demographics))
        }
        #expect(row?.scopes.names == ["demographic"])
        #expect(row?.scopes["demographic"]?["population"] == 68_000_000)
    }

    @Test func hasOneUsesAnExplicitForeignKey() throws {
        let dbQueue = try makeDatabase()
        let codes = try dbQueue.read { db in
            try LooseCountry.joining(required: LooseCountry.demographics).fetchAll(db).map(\.code)
        }
        #expect(codes == ["IS"])
    }

    @Test func requestForFetchesTheProfileOfACountry() throws {
        let dbQueue = try makeDatabase()
        let profile = try dbQueue.read { db in
            try Country(code: "FR", name: "France").request(for: Country.demographics).fetchOne(db)
        }
        #expect(profile?.countryCode == "FR")
    }

    @Test func deletingACountryDeletesItsProfile() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            _ = try Country.deleteOne(db, key: "FR")
            #expect(try Demographics.fetchCount(db) == 0)
        }
    }

    @Test func aProfileCannotPointAtAMissingCountry() throws {
        let dbQueue = try makeDatabase()
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try Demographics(id: nil, countryCode: "XX", population: 1, density: 1).insert(db)
            }
        }
    }
}
