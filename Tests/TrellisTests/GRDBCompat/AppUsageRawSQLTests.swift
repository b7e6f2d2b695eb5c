import Foundation
import Testing
import Trellis

// Raw SQL as application layers run it: several statements in one call
// that share one array of arguments, cursors walked with `next()` or turned
// into collections, change counts after updates, and the last inserted
// rowid.

@Suite("App usage: raw SQL")
struct AppUsageRawSQLTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE event (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, at INTEGER NOT NULL);
                CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                INSERT INTO counter VALUES ('events', 0);
                """)
        }
        return dbQueue
    }

    @Test("Several statements in one execute consume the arguments in order")
    func argumentsAcrossStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO event (kind, at) VALUES (?, ?);
                    UPDATE counter SET value = value + ? WHERE name = ?;
                    """,
                arguments: ["open", 10, 1, "events"])
            let kind = "close"
            try db.execute(literal: """
                INSERT INTO event (kind, at) VALUES (\(kind), \(20));
                UPDATE counter SET value = value + \(1) WHERE name = \("events");
                """)
        }
        let (events, counter) = try dbQueue.read { db in
            (try Row.fetchAll(db, sql: "SELECT kind, at FROM event ORDER BY id"),
             try Int.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'events'"))
        }
        #expect(events == [["kind": "open", "at": 10], ["kind": "close", "at": 20]])
        #expect(counter == 2)
    }

    @Test("Cursors walked with next(), and turned into arrays, sets and dictionaries")
    func cursors() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            for (index, kind) in ["a", "b", "a", "c"].enumerated() {
                try db.execute(sql: "INSERT INTO event (kind, at) VALUES (?, ?)", arguments: [kind, index])
            }
        }
        let (walked, kinds, uniqueKinds, byID, total) = try dbQueue.read { db in
            var walked: [String] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM event ORDER BY id")
            while let row = try rows.next() {
                walked.append(row["kind"])
            }
            let kinds = try Array(String.fetchCursor(db, sql: "SELECT kind FROM event ORDER BY id"))
            let uniqueKinds = try Set(String.fetchCursor(db, sql: "SELECT kind FROM event"))
            let byID = try Dictionary(
                uniqueKeysWithValues: Row.fetchCursor(db, sql: "SELECT id, kind FROM event").map { row in
                    (row["id"] as Int64, row["kind"] as String)
                })
            let total = try Int.fetchCursor(db, sql: "SELECT at FROM event").reduce(0, +)
            return (walked, kinds, uniqueKinds, byID, total)
        }
        #expect(walked == ["a", "b", "a", "c"])
        #expect(kinds == walked)
        #expect(uniqueKinds == ["a", "b", "c"])
        #expect(byID == [1: "a", 2: "b", 3: "a", 4: "c"])
        #expect(total == 6)
    }

    @Test("changesCount after an update, and lastInsertedRowID after an insert")
    func changeCounts() throws {
        let dbQueue = try makeQueue()
        let (rowID, changes, total) = try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO event (kind, at) VALUES ('a', 1)")
            try db.execute(sql: "INSERT INTO event (kind, at) VALUES ('b', 2)")
            let rowID = db.lastInsertedRowID
            try db.execute(sql: "UPDATE event SET at = at + 1")
            return (rowID, db.changesCount, db.totalChangesCount)
        }
        #expect(rowID == 2)
        #expect(changes == 2)
        #expect(total >= 4)
    }
}
