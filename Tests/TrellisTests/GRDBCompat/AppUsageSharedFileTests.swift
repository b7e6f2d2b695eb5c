import Foundation
import Testing
import Trellis

// A database file shared between an application and its extensions: the
// application writes through a pool, a widget opens the same file read-only
// (as a pool or a queue) and reads what was committed, and any connection
// closed explicitly refuses further accesses with an error.

@Suite("App usage: a database file shared with extensions")
struct AppUsageSharedFileTests {
    private func withPath<T>(_ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appusage-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory.appendingPathComponent("shared.sqlite").path)
    }

    @Test("A read-only pool and a read-only queue read what the app's pool committed, and refuse writes")
    func readOnlyReaders() throws {
        try withPath { path in
            let appPool = try DatabasePool(path: path)
            try appPool.write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
                try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
            }
            var config = Configuration()
            config.readonly = true
            let widgetPool = try DatabasePool(path: path, configuration: config)
            let widgetQueue = try DatabaseQueue(path: path, configuration: config)
            #expect(try widgetPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["first"])
            #expect(try widgetQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["first"])

            try appPool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('second')") }
            #expect(try widgetPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
            #expect(try widgetQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)

            #expect(throws: DatabaseError.self) {
                try widgetQueue.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('no')") }
            }
            #expect(throws: DatabaseError.self) {
                try widgetPool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('no')") }
            }
            #expect(try appPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
        }
    }

    @Test("A closed queue or pool throws on the next access")
    func closedConnections() throws {
        try withPath { path in
            let dbPool = try DatabasePool(path: path)
            try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
            try dbPool.close()
            #expect(throws: DatabaseError.self) {
                try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
            }
            let dbQueue = try DatabaseQueue(path: path)
            #expect(try dbQueue.read { db in try db.tableExists("t") })
            try dbQueue.close()
            #expect(throws: DatabaseError.self) {
                try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
        }
    }
}
