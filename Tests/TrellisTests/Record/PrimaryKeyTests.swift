import Foundation
import Testing
import Trellis

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    var id: Int64
    var name: String
    var email: String?
}

/// A single-column primary key that is not called "id".
private struct Country: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    var isoCode: String
    var name: String
    var id: String { isoCode }
}

/// A composite primary key.
private struct Citizenship: Codable, FetchableRecord, PersistableRecord, Hashable {
    var citizenId: Int64
    var countryCode: String
    var since: Int
}

/// A table without explicit primary key: the hidden rowid is the key.
private struct Document: Codable, FetchableRecord, PersistableRecord, Hashable {
    var title: String
}

/// UUIDs stored as strings: key lookups apply the strategy.
private struct Device: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    var id: UUID
    var name: String
}

@Suite struct PrimaryKeyTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE);
                INSERT INTO player VALUES (1, 'Arthur', 'arthur@example.com');
                INSERT INTO player VALUES (2, 'Barbara', NULL);
                INSERT INTO player VALUES (3, 'Craig', 'craig@example.com');
                CREATE TABLE country (isoCode TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO country VALUES ('FR', 'France');
                INSERT INTO country VALUES ('US', 'United States');
                INSERT INTO country VALUES ('JP', 'Japan');
                CREATE TABLE citizenship (
                  citizenId INTEGER NOT NULL, countryCode TEXT NOT NULL, since INTEGER NOT NULL,
                  PRIMARY KEY (citizenId, countryCode));
                INSERT INTO citizenship VALUES (1, 'FR', 1990);
                INSERT INTO citizenship VALUES (1, 'US', 2001);
                INSERT INTO citizenship VALUES (2, 'FR', 1985);
                CREATE TABLE document (title TEXT NOT NULL);
                INSERT INTO document (rowid, title) VALUES (1, 'Readme');
                INSERT INTO document (rowid, title) VALUES (2, 'License');
                CREATE TABLE device (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                """)
        }
        return dbQueue
    }

    @Test func fetchOneByKeyAndById() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.fetchOne(db, key: 1)?.name == "Arthur")
            #expect(try Player.fetchOne(db, id: 2)?.name == "Barbara")
            #expect(try Player.fetchOne(db, id: 42) == nil)
            #expect(try Country.fetchOne(db, id: "FR")?.name == "France")
            #expect(try Country.fetchOne(db, key: "JP")?.name == "Japan")
            #expect(try Country.fetchOne(db, key: "XX") == nil)
        }
    }

    @Test func fetchAllAndFetchSetByKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.fetchAll(db, keys: [3, 1, 42]).map(\.id).sorted() == [1, 3])
            #expect(try Player.fetchAll(db, ids: [2]).map(\.name) == ["Barbara"])
            #expect(try Player.fetchAll(db, ids: []) == [])
            #expect(try Country.fetchAll(db, keys: ["FR", "US"]).map(\.name).sorted() == ["France", "United States"])
            #expect(try Country.fetchSet(db, ids: ["FR", "JP"]).map(\.isoCode).sorted() == ["FR", "JP"])
            #expect(try Player.fetchSet(db, keys: [1, 2]).count == 2)
        }
    }

    @Test func findThrowsRecordNotFound() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.find(db, key: 1).name == "Arthur")
            #expect(try Country.find(db, id: "US").name == "United States")
            do {
                _ = try Player.find(db, id: 42)
                Issue.record("expected recordNotFound")
            } catch RecordError.recordNotFound(let table, let key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
            do {
                _ = try Country.find(db, key: "XX")
                Issue.record("expected recordNotFound")
            } catch RecordError.recordNotFound(let table, let key) {
                #expect(table == "country")
                #expect(key == ["isoCode": "XX".databaseValue])
            }
            let error = #expect(throws: RecordError.self) {
                try Citizenship.find(db, key: ["citizenId": 9, "countryCode": "FR"])
            }
            #expect(error?.description.contains("citizenship") == true)
            #expect(error?.description.contains("citizenId") == true)
        }
    }

    @Test func existsByKeyAndById() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.exists(db, key: 1))
            #expect(try !Player.exists(db, key: 42))
            #expect(try Player.exists(db, id: 3))
            #expect(try Country.exists(db, id: "FR"))
            #expect(try !Country.exists(db, key: "XX"))
            #expect(try Player.exists(db, key: ["email": "arthur@example.com"]))
            #expect(try !Player.exists(db, key: ["email": "nobody@example.com"]))
            #expect(try Citizenship.exists(db, key: ["citizenId": 1, "countryCode": "US"]))
            #expect(try !Citizenship.exists(db, key: ["citizenId": 2, "countryCode": "US"]))
        }
    }

    @Test func compositeAndUniqueKeysAreDictionaries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "FR"])?.since == 1990)
            #expect(try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "JP"]) == nil)
            let both = try Citizenship.fetchAll(db, keys: [
                ["citizenId": 1, "countryCode": "US"],
                ["citizenId": 2, "countryCode": "FR"],
            ])
            #expect(both.map(\.since).sorted() == [1985, 2001])
            #expect(try Player.fetchOne(db, key: ["email": "craig@example.com"])?.id == 3)
            #expect(try Citizenship.filter(key: ["citizenId": 1, "countryCode": "FR"]).fetchCount(db) == 1)
            #expect(try Player.filter(key: ["email": "arthur@example.com"]).fetchOne(db)?.id == 1)
        }
    }

    @Test func aKeyThatIsNotUniqueIsAClearError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let notUnique = #expect(throws: DatabaseError.self) { try Player.fetchOne(db, key: ["name": "Arthur"]) }
            #expect(notUnique?.message?.contains("no unique key") == true)
            #expect(notUnique?.message?.contains("name") == true)
            let partial = #expect(throws: DatabaseError.self) { try Citizenship.fetchOne(db, key: ["citizenId": 1]) }
            #expect(partial?.message?.contains("citizenship") == true)
            // A single value can not address a composite primary key.
            let composite = #expect(throws: DatabaseError.self) { try Citizenship.fetchOne(db, key: 1) }
            #expect(composite?.message?.contains("2 columns") == true)
            #expect(throws: DatabaseError.self) { try Citizenship.filter(key: 1).fetchAll(db) }
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test func theHiddenRowidIsTheKeyOfTablesWithoutPrimaryKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try Document.fetchOne(db, key: 2)?.title == "License")
            #expect(try Document.exists(db, key: 1))
            #expect(try Document.fetchAll(db, keys: [1, 2]).count == 2)
            #expect(try Document.orderByPrimaryKey().fetchAll(db).map(\.title) == ["Readme", "License"])
            #expect(try Document.deleteOne(db, key: 1))
            #expect(try Document.fetchAll(db).map(\.title) == ["License"])
        }
    }

    @Test func deleteOneAndDeleteAllByKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try Player.deleteOne(db, key: 1))
            #expect(try !Player.deleteOne(db, key: 1))
            #expect(try Player.deleteOne(db, id: 2))
            #expect(try Player.deleteOne(db, key: ["email": "craig@example.com"]))
            #expect(try Player.fetchCount(db) == 0)
            #expect(try Country.deleteAll(db, ids: ["FR", "US", "XX"]) == 2)
            #expect(try Country.deleteAll(db, keys: ["JP"]) == 1)
            #expect(try Country.fetchCount(db) == 0)
            #expect(try Citizenship.deleteOne(db, key: ["citizenId": 1, "countryCode": "FR"]))
            #expect(try Citizenship.deleteAll(db, keys: [["citizenId": 1, "countryCode": "US"], ["citizenId": 9, "countryCode": "US"]]) == 1)
            #expect(try Citizenship.fetchAll(db) == [Citizenship(citizenId: 2, countryCode: "FR", since: 1985)])
        }
    }

    @Test func requestsFilterByKeysAndIds() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.filter(key: 2).fetchOne(db)?.name == "Barbara")
            #expect(try Player.filter(keys: [1, 3]).order(Column("id")).fetchAll(db).map(\.id) == [1, 3])
            #expect(try Player.filter(id: 3).fetchOne(db)?.name == "Craig")
            #expect(try Country.filter(ids: ["FR", "US"]).fetchCount(db) == 2)
            #expect(try Player.all().filter(id: 1).filter(Column("name") == "Arthur").fetchCount(db) == 1)
            #expect(try Player.filter(ids: []).fetchAll(db) == [])
        }
    }

    @Test func keyLookupsApplyTheRecordUUIDStrategy() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let uuid = UUID()
            try Device(id: uuid, name: "phone").insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT id FROM device") == uuid.uuidString)
            #expect(try Device.fetchOne(db, id: uuid)?.name == "phone")
            #expect(try Device.find(db, id: uuid).name == "phone")
            #expect(try Device.exists(db, id: uuid))
            #expect(try Device.filter(id: uuid).fetchOne(db)?.name == "phone")
            #expect(try Device.fetchAll(db, ids: [uuid]).count == 1)
            #expect(try Device.deleteAll(db, ids: [uuid]) == 1)
            #expect(try Device.fetchCount(db) == 0)
        }
    }
}
