import Foundation
import Testing
import Trellis

// A nil key identifies no row: requests and methods by key match nothing
// instead of the rows whose key column IS NULL.

/// A record whose id is nil until it is inserted.
private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Identifiable {
    var id: Int64?
    var name: String
}

/// A table whose TEXT primary key admits NULL, as SQLite allows in a
/// table with a rowid.
private struct Country: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: String?
    var name: String
}

/// A table whose unique key admits NULL.
private struct Membership: Codable, FetchableRecord, PersistableRecord {
    var teamId: Int64?
    var playerId: Int64?
    var role: String
}

@Suite struct NilKeyTests {
    private func makeDatabase(trace: StatementTrace? = nil) throws -> DatabaseQueue {
        let dbQueue = try trace.map { try DatabaseQueue(configuration: $0.configuration()) } ?? DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE country (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE membership (teamId INTEGER, playerId INTEGER, role TEXT NOT NULL, UNIQUE (teamId, playerId));
                INSERT INTO player (id, name) VALUES (1, 'Arthur');
                INSERT INTO country (id, name) VALUES (NULL, 'Nowhere'), ('FR', 'France');
                INSERT INTO membership (teamId, playerId, role) VALUES (1, NULL, 'orphan'), (1, 2, 'member');
                """)
        }
        _ = trace?.take()
        return dbQueue
    }

    private func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    @Test func nilIdFiltersMatchNothing() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try sql(db, Player.filter(id: nil)) == #"SELECT * FROM "player" WHERE 0"#)
            #expect(try Country.filter(id: nil).fetchAll(db).isEmpty)
            #expect(try Country.all().filter(id: nil).fetchCount(db) == 0)
            #expect(try Table<Country>("country").filter(id: nil).fetchAll(db).isEmpty)
            #expect(try Country.filter(key: nil).fetchAll(db).isEmpty)
            #expect(try Table("country").filter(key: nil).fetchAll(db).isEmpty)
            #expect(try Table("country").all().filter(key: nil).fetchAll(db).isEmpty)
            // The non-nil key is still found.
            #expect(try Country.filter(id: "FR").fetchOne(db)?.name == "France")
        }
    }

    @Test func nilKeysInListsAreLeftOut() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Country.filter(keys: [nil, "FR"]).fetchAll(db).map(\.name) == ["France"])
            #expect(try Country.filter(ids: [nil]).fetchAll(db).isEmpty)
            #expect(try sql(db, Country.filter(ids: [nil])) == #"SELECT * FROM "country" WHERE 0"#)
            #expect(try Country.fetchAll(db, keys: [nil, "FR"]).map(\.name) == ["France"])
            #expect(try Table("country").fetchAll(db, keys: [nil as String?]).isEmpty)
        }
    }

    @Test func nilKeyDictionaryValuesMatchNothing() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let key: [String: (any DatabaseValueConvertible)?] = ["teamId": 1, "playerId": nil]
            #expect(try Membership.filter(key: key).fetchAll(db).isEmpty)
            #expect(try Membership.all().filter(key: key).fetchAll(db).isEmpty)
            #expect(try Table("membership").filter(key: key).fetchAll(db).isEmpty)
            #expect(try Membership.fetchOne(db, key: key) == nil)
            #expect(try !Membership.exists(db, key: key))
            #expect(try Table("membership").fetchOne(db, key: key) == nil)
            #expect(try Country.fetchOne(db, key: ["id": nil]) == nil)

            let keys: [[String: (any DatabaseValueConvertible)?]] = [key, ["teamId": 1, "playerId": 2]]
            #expect(try Membership.filter(keys: keys).fetchAll(db).map(\.role) == ["member"])
            #expect(try Membership.fetchAll(db, keys: keys).map(\.role) == ["member"])
            #expect(try Table("membership").fetchAll(db, keys: keys).count == 1)

            #expect(try !Membership.deleteOne(db, key: key))
            #expect(try Membership.deleteAll(db, keys: [key]) == 0)
            #expect(try !Table("membership").deleteOne(db, key: key))
            #expect(try Table("membership").deleteAll(db, keys: [key]) == 0)
            #expect(try Membership.fetchCount(db) == 2)
        }
    }

    @Test func nilKeyDictionaryStillChecksItsColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws -> Void in
            #expect(throws: DatabaseError.self) {
                _ = try Membership.fetchOne(db, key: ["role": nil])
            }
        }
    }

    @Test func fetchAndDeleteByNilKeyDoNotQuery() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace: trace)
        try dbQueue.write { (db: Database) throws in
            _ = trace.take()
            #expect(try Country.fetchOne(db, id: nil) == nil)
            #expect(try Country.fetchOne(db, key: nil) == nil)
            #expect(try !Country.exists(db, id: nil))
            #expect(try !Country.deleteOne(db, id: nil))
            #expect(try !Country.deleteOne(db, key: nil))
            #expect(try Table("country").fetchOne(db, key: nil as String?) == nil)
            #expect(try !Table("country").exists(db, key: nil as String?))
            #expect(try !Table("country").deleteOne(db, key: nil as String?))
            #expect(trace.take().isEmpty)
            #expect(try Country.fetchCount(db) == 2)
            #expect(try !Player.deleteOne(db, id: nil))
            #expect(try Player.fetchOne(db, id: nil) == nil)
        }
    }

    /// The key filters of generic derivable requests, shared with
    /// associations.
    private func filtered<R: DerivableRequest>(_ request: R, key: some DatabaseValueConvertible) -> R
    where R.RowDecoder: TableRecord { request.filter(key: key) }

    private func filtered<R: DerivableRequest>(_ request: R, keys: [Int64?]) -> R
    where R.RowDecoder: TableRecord { request.filter(keys: keys) }

    private func filtered<R: DerivableRequest>(_ request: R, key: [String: (any DatabaseValueConvertible)?]) -> R
    where R.RowDecoder: TableRecord { request.filter(key: key) }

    @Test func derivableRequestKeyFiltersWithNilMatchNothing() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try filtered(Country.all(), key: nil as String?).fetchAll(db).isEmpty)
            #expect(try filtered(Country.all(), key: "FR").fetchAll(db).map(\.name) == ["France"])
            #expect(try sql(db, filtered(Player.all(), keys: [nil, 1])) == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(try sql(db, filtered(Player.all(), keys: [nil])) == #"SELECT * FROM "player" WHERE 0"#)
            #expect(try filtered(Membership.all(), key: ["teamId": 1, "playerId": nil]).fetchAll(db).isEmpty)
        }
    }
}
