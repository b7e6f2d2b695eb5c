import Foundation
import Testing
import Trellis
import TrellisPostgres

// `Database.lastInsertedRowID`: SQLite's rowid of the last insertion; on a
// server, which has no rowid, the key of the last record inserted, and an
// error rather than a wrong id after another INSERT.

private struct Item: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Sendable {
    var id: Int64?
    var name: String

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private let unknownKeyMessage = "lastInsertedRowID after an INSERT statement is not supported by PostgreSQL: "
    + "read the key with INSERT ... RETURNING, or insert a record"

@Suite struct SharedLastInsertedRowIDTests {
    @Test(arguments: Engine.available)
    func recordInsertsSetTheLastInsertedRowID(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.execute(sql: "CREATE TABLE item (id \(engine.generatedKey), name TEXT NOT NULL UNIQUE)")
            #expect(db.lastInsertedRowID == 0)
            var first = Item(id: nil, name: "first")
            try first.insert(db)
            #expect(first.id == 1)
            #expect(db.lastInsertedRowID == 1)
            var second = Item(id: nil, name: "second")
            try second.upsert(db)
            #expect(db.lastInsertedRowID == 2)
            // Statements that do not insert leave it.
            try db.execute(sql: "UPDATE item SET name = name || '!' WHERE id = 1")
            #expect(try Item.fetchCount(db) == 2)
            #expect(db.lastInsertedRowID == 2)
            // RETURNING tells the key of raw SQL on both engines.
            let id = try Int64.fetchOne(db, sql: "INSERT INTO item (name) VALUES (?) RETURNING id", arguments: ["third"])
            #expect(id == 3)
        }
    }

    @Test(arguments: Engine.available)
    func rawSQLInsertsNeverGiveAWrongRowID(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.execute(sql: "CREATE TABLE item (id \(engine.generatedKey), name TEXT NOT NULL UNIQUE)")
            var first = Item(id: nil, name: "first")
            try first.insert(db)
            try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["second"])
            switch engine {
            case .sqlite:
                #expect(db.lastInsertedRowID == 2)
            case .postgreSQL:
                // Not the stale 1 of the record: an error, at the next statement.
                _ = db.lastInsertedRowID
                let error = try #require(throws: DatabaseError.self) { try Item.fetchCount(db) }
                #expect(error.message == unknownKeyMessage)
                #expect(try Item.fetchCount(db) == 2)
                // A record insert tells the key again.
                var third = Item(id: nil, name: "third")
                try third.insert(db)
                #expect(db.lastInsertedRowID == 3)
            }
        }
    }

    /// The error of a read of the unknown key at the end of an access fails
    /// the access, whose transaction is rolled back.
    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
    func anUnknownRowIDReadLastFailsTheAccess() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { db in
                try db.execute(sql: "CREATE TABLE item (id \(Engine.postgreSQL.generatedKey), name TEXT NOT NULL)")
            }
            let error = await #expect(throws: DatabaseError.self) {
                try await database.write { db in
                    try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
                    return db.lastInsertedRowID
                }
            }
            #expect(error?.message == unknownKeyMessage)
            #expect(try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 0)
        }
    }

    /// A fetching insert reads the generated key from the sequence of the
    /// key column: never the last value of another table's sequence.
    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
    func fetchingInsertsReadTheKeyOfTheirOwnTable() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { db in
                try db.execute(sql: "CREATE TABLE item (id \(Engine.postgreSQL.generatedKey), name TEXT NOT NULL)")
                try db.execute(sql: "CREATE TABLE other (id \(Engine.postgreSQL.generatedKey), name TEXT NOT NULL)")
                try db.execute(sql: "ALTER SEQUENCE other_id_seq RESTART WITH 100")
                let first = Item(id: nil, name: "first")
                let fetched = try first.insertAndFetch(db)
                #expect(fetched.id == 1)
                #expect(db.lastInsertedRowID == 1)
                // A trigger that draws from another sequence after the insertion
                // moves lastval(), not the key of the row.
                try db.execute(sql: """
                    CREATE FUNCTION copy_item() RETURNS trigger AS $$
                    BEGIN INSERT INTO other (name) VALUES (NEW.name); RETURN NEW; END $$ LANGUAGE plpgsql
                    """)
                try db.execute(sql: "CREATE TRIGGER copy AFTER INSERT ON item FOR EACH ROW EXECUTE FUNCTION copy_item()")
                let second = Item(id: nil, name: "second")
                #expect(try second.insertAndFetch(db).id == 2)
                #expect(db.lastInsertedRowID == 2)
                #expect(try Int64.fetchOne(db, sql: "SELECT lastval()") == 100)
            }
        }
    }

    /// A key that a default fills without a sequence can not be told by a
    /// fetching insert: an error, not a wrong id.
    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
    func fetchingInsertsOfKeysWithoutASequenceThrow() async throws {
        try await PostgresTestServer.withDatabase { database in
            let error = await #expect(throws: DatabaseError.self) {
                try await database.write { db in
                    try db.execute(sql: "CREATE TABLE other (id \(Engine.postgreSQL.generatedKey), name TEXT NOT NULL)")
                    try db.execute(sql: "INSERT INTO other (name) VALUES ('a sequence value')")
                    try db.execute(sql: "CREATE TABLE item (id BIGINT PRIMARY KEY DEFAULT 42, name TEXT NOT NULL)")
                    let item = Item(id: nil, name: "first")
                    _ = try item.insertAndFetch(db)
                }
            }
            #expect(error?.message?.contains("the key id of item that the insertion generated can not be read") == true)
        }
    }
}
