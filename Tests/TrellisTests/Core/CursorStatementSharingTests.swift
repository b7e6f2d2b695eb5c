import Foundation
import Testing
import Trellis

/// A cursor owns its statement until it ends, from its creation: other
/// fetches of the same SQL get another statement, even before the cursor's
/// first step.
@Suite struct CursorStatementSharingTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3)")
        }
        return dbQueue
    }

    private let sql = "SELECT id FROM t WHERE id >= ? ORDER BY id"

    @Test func aFetchOfTheSameSQLDoesNotRebindACursorNotIteratedYet() throws {
        try makeDatabase().read { db in
            let cursor = try Int.fetchCursor(db, sql: sql, arguments: [1])
            #expect(try Int.fetchAll(db, sql: sql, arguments: [3]) == [3])
            #expect(try Array(cursor) == [1, 2, 3])
        }
    }

    @Test func twoCursorsOfTheSameSQLIterateIndependently() throws {
        try makeDatabase().read { db in
            let first = try Int.fetchCursor(db, sql: sql, arguments: [1])
            let second = try Int.fetchCursor(db, sql: sql, arguments: [2])
            var values: [Int?] = []
            values.append(try first.next())
            values.append(try second.next())
            values.append(try first.next())
            values.append(try second.next())
            #expect(values == [1, 2, 2, 3])
        }
    }

    @Test func queryInterfaceCursorsOfTheSameRequestIterateIndependently() throws {
        try makeDatabase().read { db in
            let first = try Table("t").filter(Column("id") >= 2).fetchCursor(db)
            #expect(try Table("t").filter(Column("id") >= 3).fetchAll(db).map { $0["id"] as Int } == [3])
            #expect(try Array(first.map { $0["id"] as Int }) == [2, 3])
        }
    }

    @Test func anEndedCursorGivesItsStatementBack() throws {
        try makeDatabase().read { db in
            let cursor = try Int.fetchCursor(db, sql: sql, arguments: [2])
            #expect(try Array(cursor) == [2, 3])
            let statement = try db.cachedStatement(sql: sql)
            #expect(statement === cursor.statement)
        }
    }
}
