import Testing
import Trellis

@Suite struct FullTextSearchObservationTests {
    @Test func searchesAreObservedLikeOtherRequests() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            try db.create(virtualTable: "note", using: FTS5()) { t in t.column("text") }
        }
        let pattern = FTS5Pattern(matchingAnyTokenIn: "moby")
        let observation = ValueObservation.tracking { db in
            try String.fetchAll(db, Table("book_ft").select(Column("title")).matching(pattern).order(Column.rank))
                + String.fetchAll(db, Table("note").select(Column("text")).matching(pattern))
        }
        var received: [[String]] = []
        for try await titles in observation.values(in: dbQueue) {
            received.append(titles)
            if received.count == 1 {
                // A write to the content table changes the full-text table
                // through the triggers.
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby Dick')") }
            } else if received.count == 2 {
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('moby')") }
            } else {
                break
            }
        }
        #expect(received == [[], ["Moby Dick"], ["Moby Dick", "moby"]])
    }
}
