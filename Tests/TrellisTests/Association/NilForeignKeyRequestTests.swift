import Foundation
import Testing
import Trellis

// `record.request(for:)` with a nil link value (a record not saved yet, a
// nil foreign key) fetches nothing, rather than the rows whose column IS
// NULL.

private struct Parent: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    static let children = hasMany(Child.self)
    static let grandChildren = hasMany(GrandChild.self, through: children, using: Child.grandChildren)
}

private struct Child: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var parentId: Int64?
    var name: String
    static let parent = belongsTo(Parent.self)
    static let grandChildren = hasMany(GrandChild.self)
}

private struct GrandChild: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var childId: Int64?
}

/// A table whose TEXT primary key admits NULL.
private struct Country: Codable, FetchableRecord, PersistableRecord {
    var code: String?
    var name: String
}

private struct City: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var countryCode: String?
    static let country = belongsTo(Country.self)
}

/// A table with a compound primary key that admits NULL.
private struct Team: Codable, FetchableRecord, PersistableRecord {
    var league: String?
    var number: Int64?
    static let players = hasMany(TeamPlayer.self)
}

private struct TeamPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "teamPlayer"
    var id: Int64
    var teamLeague: String?
    var teamNumber: Int64?
    static let team = belongsTo(Team.self)
}

@Suite struct NilForeignKeyRequestTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id), name TEXT NOT NULL);
                CREATE TABLE grandChild (id INTEGER PRIMARY KEY, childId INTEGER REFERENCES child(id));
                CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE city (id INTEGER PRIMARY KEY, countryCode TEXT REFERENCES country(code));
                CREATE TABLE team (league TEXT, number INTEGER, PRIMARY KEY (league, number));
                CREATE TABLE teamPlayer (
                  id INTEGER PRIMARY KEY, teamLeague TEXT, teamNumber INTEGER,
                  FOREIGN KEY (teamLeague, teamNumber) REFERENCES team(league, number));
                INSERT INTO parent (id, name) VALUES (1, 'Arthur');
                INSERT INTO child (id, parentId, name) VALUES (1, 1, 'Barbara'), (2, NULL, 'Orphan');
                INSERT INTO grandChild (id, childId) VALUES (1, 1), (2, NULL);
                INSERT INTO country (code, name) VALUES (NULL, 'Nowhere'), ('FR', 'France');
                INSERT INTO city (id, countryCode) VALUES (1, 'FR'), (2, NULL);
                INSERT INTO team (league, number) VALUES ('A', NULL), ('A', 1);
                INSERT INTO teamPlayer (id, teamLeague, teamNumber) VALUES (1, 'A', NULL), (2, 'A', 1);
                """)
        }
        return dbQueue
    }

    @Test func hasManyOfUnsavedRecordFetchesNothing() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let unsaved = Parent(id: nil, name: "New")
            let request = unsaved.request(for: Parent.children)
            #expect(try request.fetchAll(db).isEmpty)
            #expect(try request.fetchCount(db) == 0)
            #expect(try unsaved.request(for: Parent.grandChildren).fetchAll(db).isEmpty)
            // A saved parent still finds its children.
            let saved = Parent(id: 1, name: "Arthur")
            #expect(try saved.request(for: Parent.children).fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try saved.request(for: Parent.grandChildren).fetchAll(db).map(\.id) == [1])
        }
    }

    @Test func belongsToWithNilForeignKeyFetchesNothing() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try City(id: 2, countryCode: nil).request(for: City.country).fetchOne(db) == nil)
            #expect(try City(id: 1, countryCode: "FR").request(for: City.country).fetchOne(db)?.name == "France")
            #expect(try Child(id: 2, parentId: nil, name: "Orphan").request(for: Child.parent).fetchOne(db) == nil)
        }
    }

    @Test func compoundKeyWithNilPartFetchesNothing() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Team(league: "A", number: nil).request(for: Team.players).fetchAll(db).isEmpty)
            #expect(try Team(league: "A", number: 1).request(for: Team.players).fetchAll(db).map(\.id) == [2])
            #expect(try TeamPlayer(id: 1, teamLeague: "A", teamNumber: nil).request(for: TeamPlayer.team).fetchOne(db) == nil)
        }
    }

    @Test func requestForNilLinkGeneratesNoMatchingCondition() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Parent(id: nil, name: "New").request(for: Parent.children)
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == #"SELECT * FROM "child" WHERE 0"#)
        }
    }
}
