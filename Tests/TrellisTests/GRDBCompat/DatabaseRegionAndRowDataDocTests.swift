import Foundation
import Testing
import Trellis

// GRDB's reference of `DatabaseRegion(table:)`, `Database.isReadOnly` and
// `Row.dataNoCopy(...)`: the region of one table, whether writes are
// forbidden in the current access, and the blob of a column.

@Suite struct DatabaseRegionAndRowDataDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try db.create(table: "document") { t in
                t.column("data", .blob)
            }
        }
        return dbQueue
    }

    @Test func regionOfOneTable() throws {
        let dbQueue = try makeDatabase()
        let region = DatabaseRegion(table: "player")
        #expect(region.description == "player(*)")
        #expect(region == DatabaseRegion(tables: ["player"]))
        #expect(region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"])))
        #expect(!region.isModified(byEventsOfKind: .insert(tableName: "document")))

        // A region observation of the table sees its changes only.
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            func increment() { lock.withLock { count += 1 } }
        }
        let counter = Counter()
        let observer = DatabaseRegionObservation(tracking: region).start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { _ in
            counter.increment()
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO document (data) VALUES (x'00')") }
        #expect(counter.lock.withLock { counter.count } == 1)
        observer.cancel()
    }

    @Test func isReadOnly() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in #expect(db.isReadOnly) }
        try dbQueue.write { db in
            #expect(!db.isReadOnly)
            try db.readOnly { #expect(db.isReadOnly) }
            #expect(!db.isReadOnly)
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        var config = Configuration()
        config.readonly = true
        let readonlyQueue = try DatabaseQueue(path: path, configuration: config)
        try readonlyQueue.writeWithoutTransaction { db in #expect(db.isReadOnly) }

        let dbPool = try DatabasePool(path: path)
        try dbPool.read { db in #expect(db.isReadOnly) }
        try dbPool.write { db in #expect(!db.isReadOnly) }
        // A reader never writes, even outside of a read access.
        try dbPool.unsafeRead { db in
            #expect(db.isReadOnly)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }

        let readonlyCopy = try DatabaseQueue.temporaryCopy(fromPath: path, configuration: config)
        try readonlyCopy.writeWithoutTransaction { db in
            #expect(db.isReadOnly)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        let writableCopy = try DatabaseQueue.temporaryCopy(fromPath: path)
        try writableCopy.writeWithoutTransaction { db in #expect(!db.isReadOnly) }
    }

    @Test func dataNoCopy() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO document (data) VALUES (x'0102'), (NULL), ('abc')")
            let rows = try Row.fetchCursor(db, sql: "SELECT data FROM document ORDER BY rowid")
            var values: [Data?] = []
            while let row = try rows.next() {
                // The data outlives the step of the cursor.
                values.append(row.dataNoCopy(atIndex: 0))
                #expect(row.dataNoCopy(named: "data") == values.last!)
                #expect(row.dataNoCopy(Column("data")) == values.last!)
                #expect(row.dataNoCopy(named: "missing") == nil)
            }
            #expect(values == [Data([1, 2]), nil, Data("abc".utf8)])
        }
    }
}
