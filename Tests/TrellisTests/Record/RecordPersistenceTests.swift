import Foundation
import Testing
import Trellis

// Record persistence at its edges: transactions SQLite ended, container
// columns set twice, values that are no columns, ignored changes, coding
// strategies.

@Suite("Record persistence")
struct RecordPersistenceTests {
    struct Named: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "named"
        var id: Int64
        var name: String
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE named(id INTEGER PRIMARY KEY, name TEXT UNIQUE); INSERT INTO named VALUES (1, 'a')")
        }
        return dbQueue
    }

    @Test("After SQLite ends the transaction of a write, the statements that follow fail instead of committing one by one")
    func statementsAfterAnAbortedTransactionFail() throws {
        let dbQueue = try makeDatabase()
        var laterErrors: [DatabaseError] = []
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try Named(id: 2, name: "b").insert(db)
                // The UNIQUE conflict rolls the transaction back.
                do { try Named(id: 3, name: "a").insert(db, onConflict: .rollback) } catch {}
                do { try Named(id: 4, name: "c").insert(db) } catch let error as DatabaseError { laterErrors.append(error) }
                do { try db.execute(sql: "UPDATE named SET name = 'A' WHERE id = 1") } catch let error as DatabaseError { laterErrors.append(error) }
                do { _ = try Named.fetchAll(db) } catch let error as DatabaseError { laterErrors.append(error) }
            }
        }
        #expect(laterErrors.map(\.resultCode) == [.SQLITE_ABORT, .SQLITE_ABORT, .SQLITE_ABORT])
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(error?.message == "Transaction was aborted")
        #expect(try dbQueue.read { try Row.fetchAll($0, sql: "SELECT id, name FROM named") } == [["id": 1, "name": "a"]])

        // A raw ROLLBACK inside a savepoint ends the transaction too.
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.inSavepoint {
                    try db.execute(sql: "ROLLBACK")
                    try db.execute(sql: "INSERT INTO named VALUES (5, 'e')")
                    return .commit
                }
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM named") } == 1)
        // The connection is usable afterwards.
        try dbQueue.write { db in try Named(id: 6, name: "f").insert(db) }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM named") } == 2)
    }

    @Test("A container column set twice, in two cases, is one column with the last value")
    func containerColumnsIgnoreCase() throws {
        struct Twice: PersistableRecord {
            static let databaseTableName = "named"
            var id: Int64
            func encode(to container: inout PersistenceContainer) {
                container["id"] = id
                container["name"] = "lower"
                container["NAME"] = "upper"
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "DELETE FROM named")
            try Twice(id: 10).insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM named ORDER BY id") == ["upper"])
            try db.execute(sql: "UPDATE named SET name = 'x'")
            try Twice(id: 10).update(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM named ORDER BY id") == ["upper"])
            try db.execute(sql: "DELETE FROM named")
            try Twice(id: 11).upsert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM named ORDER BY id") == ["upper"])
            #expect(try Twice(id: 1).databaseDictionary.count == 2)
        }
    }

    @Test("An update writes only the encoded values that are columns of the table")
    func updateSkipsEncodedValuesThatAreNoColumns() throws {
        struct Extra: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "named"
            var id: Int64
            var name: String
            var nope: Int
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Extra(id: 1, name: "b", nope: 5).update(db)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM named") == "b")
            try Extra(id: 1, name: "c", nope: 5).save(db)
            let old = Extra(id: 1, name: "c", nope: 5)
            #expect(try Extra(id: 1, name: "d", nope: 6).updateChanges(db, from: old))
            #expect(try String.fetchOne(db, sql: "SELECT name FROM named") == "d")
            // An insert has no such leeway, as in GRDB.
            #expect(throws: DatabaseError.self) { try Extra(id: 2, name: "e", nope: 1).insert(db) }
        }
    }

    /// Encodes its columns in an order, and with names, that change from
    /// one record to the next.
    struct Shifting: PersistableRecord {
        static let databaseTableName = "shifting"
        var id: Int64
        var a: Int
        var b: Int?
        var reversed: Bool

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            // Names made at run time: equal to the statement's columns,
            // without being the same strings.
            let names = reversed ? ["b", "a"] : ["a", String("ab".dropFirst())]
            for name in names {
                if name == "a" { container[name] = a } else if let b { container[name] = b }
            }
        }
    }

    @Test("A loop of inserts whose records change their columns, their order or their names writes each value into its column")
    func insertsOfChangingColumnsWriteTheirValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE shifting(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER DEFAULT 99)")
            for id in Int64(1)...12 {
                try Shifting(id: id, a: Int(id) * 10, b: id % 3 == 0 ? nil : Int(id) * 100, reversed: id % 2 == 0).insert(db)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, a, b FROM shifting ORDER BY id")
            #expect(rows.map { $0["a"] as Int } == (1...12).map { $0 * 10 })
            #expect(rows.map { $0["b"] as Int } == (1...12).map { $0 % 3 == 0 ? 99 : $0 * 100 })
        }
    }

    @Test("A change that a trigger ignores (RAISE(IGNORE)) after writing elsewhere changed no row")
    func ignoredChangesChangeNoRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE log(message TEXT);
                INSERT INTO named VALUES (2, 'keep');
                CREATE TRIGGER skipUpdate BEFORE UPDATE ON named WHEN NEW.name = 'skip'
                BEGIN INSERT INTO log VALUES ('skipped'); SELECT RAISE(IGNORE); END;
                CREATE TRIGGER keepRow BEFORE DELETE ON named WHEN OLD.name = 'keep'
                BEGIN INSERT INTO log VALUES ('kept'); SELECT RAISE(IGNORE); END;
                """)
            #expect(throws: RecordError.self) { try Named(id: 1, name: "skip").update(db) }
            #expect(try Named(id: 2, name: "keep").delete(db) == false)
            #expect(try Named.deleteOne(db, key: 2) == false)
            #expect(try Named.deleteOne(db, key: 1) == true)
            #expect(try String.fetchAll(db, sql: "SELECT message FROM log") == ["skipped", "kept", "kept"])
        }
    }

    @Test("Strategies are methods, as in GRDB 7: a static property of the former name is not read")
    func strategyPropertiesAreNotRead() throws {
        struct Stamped: Codable, PersistableRecord {
            static let databaseTableName = "stamped"
            static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
            static let databaseUUIDEncodingStrategy = DatabaseUUIDEncodingStrategy.uppercaseString
            var date: Date
            var uuid: UUID
        }
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE stamped(date, uuid)")
            try Stamped(date: Date(timeIntervalSince1970: 0), uuid: UUID()).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT date FROM stamped") == "1970-01-01 00:00:00.000")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(uuid) FROM stamped") == "blob")
        }
    }

    @Test("Coding strategies apply to single-value keys, not to key dictionaries")
    func strategiesDoNotApplyToKeyDictionaries() throws {
        struct Token: Codable, FetchableRecord, PersistableRecord, Identifiable {
            static let databaseTableName = "token"
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
            var id: UUID
        }
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE token(id TEXT PRIMARY KEY)")
            let id = UUID()
            try Token(id: id).insert(db)
            #expect(try Token.fetchOne(db, key: id) != nil)
            #expect(try Token.fetchOne(db, id: id) != nil)
            #expect(try Token.fetchOne(db, key: ["id": id]) == nil)
            #expect(try Token.fetchOne(db, key: ["id": id.uuidString]) != nil)
        }
    }
}
