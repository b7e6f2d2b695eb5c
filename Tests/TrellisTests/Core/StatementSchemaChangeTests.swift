import Foundation
import Testing
import Trellis

/// A statement prepared before a change of the schema reads the columns
/// of the new schema: SQLite prepares it again, and `SELECT *` may then
/// give other columns, in another order.
@Suite struct StatementSchemaChangeTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("schema-change-\(UUID().uuidString).sqlite").path
    }

    private func removeDatabase(at path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The usual migration that moves columns: a new table, a copy, a drop
    /// and a rename.
    private let reorderColumns = """
        CREATE TABLE t2(id INTEGER PRIMARY KEY, email TEXT, name TEXT);
        INSERT INTO t2 SELECT id, email, name FROM t;
        DROP TABLE t;
        ALTER TABLE t2 RENAME TO t
        """

    private func rowDescriptions(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT * FROM t").map { row in
            row.map { name, value in "\(name)=\(value)" }.joined(separator: " ")
        }
    }

    @Test func cachedStatementsReadTheColumnsOfTheNewSchema() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, email TEXT); INSERT INTO t VALUES (1, 'Ann', 'ann@x')")
        }
        #expect(try dbQueue.read(rowDescriptions) == ["id=1 name=\"Ann\" email=\"ann@x\""])
        try dbQueue.write { db in try db.execute(sql: reorderColumns) }
        #expect(try dbQueue.read(rowDescriptions) == ["id=1 email=\"ann@x\" name=\"Ann\""])
        try dbQueue.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN age INT DEFAULT 42") }
        #expect(try dbQueue.read(rowDescriptions) == ["id=1 email=\"ann@x\" name=\"Ann\" age=42"])
        try dbQueue.write { db in try db.execute(sql: "ALTER TABLE t DROP COLUMN email") }
        #expect(try dbQueue.read(rowDescriptions) == ["id=1 name=\"Ann\" age=42"])
    }

    @Test func recordsDecodedFromACachedStatementFollowTheNewSchema() throws {
        struct Person: Decodable, FetchableRecord {
            var name: String
            var email: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, email TEXT); INSERT INTO t VALUES (1, 'Ann', 'ann@x')")
        }
        let fetch = { (db: Database) throws -> [String] in
            try Person.fetchAll(db, sql: "SELECT * FROM t").map { "\($0.name) \($0.email)" }
        }
        #expect(try dbQueue.read(fetch) == ["Ann ann@x"])
        try dbQueue.write { db in try db.execute(sql: reorderColumns) }
        #expect(try dbQueue.read(fetch) == ["Ann ann@x"])
    }

    @Test func aStatementKeptByTheCallerReadsTheNewColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'Ann')")
            let statement = try db.makeStatement(sql: "SELECT * FROM t")
            #expect(try Row.fetchOne(statement) == ["id": 1, "name": "Ann"])
            try db.execute(sql: "ALTER TABLE t ADD COLUMN age INT DEFAULT 42")
            #expect(try Row.fetchOne(statement) == ["id": 1, "name": "Ann", "age": 42])
            #expect(statement.columnNames == ["id", "name", "age"])
            #expect(statement.columnCount == 3)
            let cursor = try Row.fetchCursor(statement)
            let row = try #require(try cursor.next())
            #expect(row.count == 3)
            #expect(row["age"] as Int? == 42)
        }
    }

    @Test func aStatementOfATableThatIsGoneThrowsItsError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'Ann')")
            let statement = try db.makeStatement(sql: "SELECT * FROM t")
            _ = try Row.fetchAll(statement)
            try db.execute(sql: "DROP TABLE t")
            let error = #expect(throws: DatabaseError.self) { try Row.fetchAll(statement) }
            #expect(error?.message == "no such table: t")
            // The connection stays usable.
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
        }
    }

    @Test func theReadersOfAPoolReadTheColumnsOfTheWritersNewSchema() throws {
        let path = temporaryPath()
        defer { removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, email TEXT); INSERT INTO t VALUES (1, 'Ann', 'ann@x')")
        }
        #expect(try dbPool.read(rowDescriptions) == ["id=1 name=\"Ann\" email=\"ann@x\""])
        try dbPool.write { db in try db.execute(sql: reorderColumns) }
        #expect(try dbPool.read(rowDescriptions) == ["id=1 email=\"ann@x\" name=\"Ann\""])
    }

    @Test func aConnectionReadsTheColumnsOfASchemaChangedByAnotherConnection() throws {
        let path = temporaryPath()
        defer { removeDatabase(at: path) }
        let reader = try DatabaseQueue(path: path)
        let migrator = try DatabaseQueue(path: path)
        try migrator.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, email TEXT); INSERT INTO t VALUES (1, 'Ann', 'ann@x')")
        }
        #expect(try reader.read(rowDescriptions) == ["id=1 name=\"Ann\" email=\"ann@x\""])
        try migrator.write { db in try db.execute(sql: reorderColumns) }
        #expect(try reader.read(rowDescriptions) == ["id=1 email=\"ann@x\" name=\"Ann\""])
        try migrator.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN age INT DEFAULT 42") }
        #expect(try reader.write(rowDescriptions) == ["id=1 email=\"ann@x\" name=\"Ann\" age=42"])
    }
}
