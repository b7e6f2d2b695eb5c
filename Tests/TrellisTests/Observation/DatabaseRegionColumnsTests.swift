import Foundation
import Testing
import Trellis

/// Regions know the columns that requests read, as GRDB's do: an update of
/// other columns does not impact them. Descriptions and answers were
/// checked against GRDB 7.10.0.
@Suite struct DatabaseRegionColumnsTests {
    private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
        var id: Int64
        var name: String
        var score: Int

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("score", .integer)
            }
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try Player(id: 1, name: "Arthur", score: 10).insert(db)
            try Player(id: 2, name: "Barbara", score: 20).insert(db)
        }
        return dbQueue
    }

    @Test func regionsDescribeTheColumnsThatRequestsRead() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            #expect(try Player.all().databaseRegion(db).description == "player(id,name,score)")
            #expect(try Player.select(Column("score")).databaseRegion(db).description == "player(score)")
            #expect(try Player.order(Column("score")).select(Column("name")).databaseRegion(db).description == "player(name,score)")
            #expect(try SQLRequest<Row>(sql: "SELECT name FROM player WHERE score > 1").databaseRegion(db).description == "player(name,score)")
            #expect(try SQLRequest<Row>(sql: "SELECT player.name, team.name FROM player, team").databaseRegion(db).description == "player(name),team(name)")
            // A table read without naming a column is read whole.
            #expect(try SQLRequest<Int>(sql: "SELECT COUNT(*) FROM player").databaseRegion(db).description == "player(*)")
            #expect(try Table("player").databaseRegion(db).description == "player(*)")
            #expect(try SQLRequest<Row>(sql: "SELECT rowid FROM player").databaseRegion(db).description == "player(*)")
            #expect(try SQLRequest<Bool>(sql: "SELECT EXISTS (SELECT 1 FROM player)").databaseRegion(db).description == "player(*)")
            #expect(try SQLRequest<Row>(sql: "SELECT * FROM player").databaseRegion(db).description == "player(id,name,score)")
            #expect(try db.makeStatement(sql: "SELECT name FROM player").databaseRegion.description == "player(name)")
            var region = try Player.select(Column("name")).databaseRegion(db)
            region.formUnion(try Table("team").databaseRegion(db))
            #expect(region.description == "player(name),team(*)")
            region.formUnion(.fullDatabase)
            #expect(region.isFullDatabase)
            #expect(DatabaseRegion().description == "empty")
            #expect(DatabaseRegion.fullDatabase.description == "full database")
        }
    }

    @Test func regionsAreModifiedByEventsOnTheirColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let region = try Player.select(Column("score")).filter(id: 1).databaseRegion(db)
            #expect(!region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"])))
            #expect(region.isModified(byEventsOfKind: .update(tableName: "PLAYER", columnNames: ["SCORE"])))
            #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
            #expect(region.isModified(byEventsOfKind: .delete(tableName: "player")))
            #expect(!region.isModified(byEventsOfKind: .delete(tableName: "team")))
            #expect(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: .delete(tableName: "team")))
        }
    }

    /// The example of GRDB's ValueObservation guide: a player's row, only
    /// when their score changes.
    @Test func anObservationOfAColumnIgnoresUpdatesOfOtherColumns() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking(
            region: Player.select(\.score).filter(id: 1),
            fetch: { db in try Player.fetchOne(db, id: 1) })
        var received: [String] = []
        for try await player in observation.values(in: dbQueue) {
            received.append("\(player?.name ?? "nil") \(player?.score ?? 0)")
            if received.count == 1 {
                // Not observed: the name only. A value it triggered would be
                // fetched inside its write, and delivered before the value of
                // the next write, which is observed: the score.
                try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Art' WHERE id = 1") }
                try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 11 WHERE id = 1") }
            } else if received.count == 2 {
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
                try await dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 1") }
            } else {
                break
            }
        }
        #expect(received == ["Arthur 10", "Art 11", "nil 0"])
    }

    @Test func anObservationOfTrackedColumnsIsImpactedByInsertionsAndDeletions() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking { db in
            try String.fetchAll(db, Player.select(Column("name")).order(Column("name")))
        }
        var received: [[String]] = []
        for try await names in observation.values(in: dbQueue) {
            received.append(names)
            if received.count == 1 {
                // Not observed, or its value would come before the insert's:
                // the fetch of a change runs inside the write that made it.
                try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = score + 1") }
                try await dbQueue.write { db in try Player(id: 3, name: "Craig", score: 0).insert(db) }
            } else if received.count == 2 {
                #expect(try await dbQueue.write { db in try Player.deleteOne(db, id: 1) })
            } else {
                break
            }
        }
        #expect(received == [["Arthur", "Barbara"], ["Arthur", "Barbara", "Craig"], ["Barbara", "Craig"]])
    }

    @Test func aRegionObservationOfAColumnIgnoresUpdatesOfOtherColumns() throws {
        let dbQueue = try makeDatabase()
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            func increment() { lock.lock(); count += 1; lock.unlock() }
            var value: Int { lock.lock(); defer { lock.unlock() }; return count }
        }
        let counter = Counter()
        let cancellable = DatabaseRegionObservation(tracking: Player.select(Column("score")))
            .start(in: dbQueue) { error in Issue.record("unexpected error \(error)") } onChange: { _ in counter.increment() }
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Art'") }
        #expect(counter.value == 0)
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 0") }
        #expect(counter.value == 1)
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 2") }
        #expect(counter.value == 2)
        cancellable.cancel()
    }

    /// Foreign key actions and triggers change other tables: SQLite reports
    /// their writes when it prepares the statement that fires them.
    @Test func indirectChangesImpactObservedColumns() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT,
                    authorId INTEGER REFERENCES author(id) ON DELETE SET NULL ON UPDATE CASCADE);
                CREATE TABLE log(message TEXT);
                CREATE TRIGGER author_renamed AFTER UPDATE OF name ON author BEGIN
                    INSERT INTO log VALUES ('renamed');
                END;
                INSERT INTO author VALUES (1, 'Homer');
                INSERT INTO book VALUES (1, 'Iliad', 1);
                """)
        }
        let observation = ValueObservation.tracking { db in
            try Row.fetchAll(db, sql: "SELECT authorId FROM book").map { $0[0] as Int64? }
        }
        var received: [[Int64?]] = []
        for try await authorIds in observation.values(in: dbQueue) {
            received.append(authorIds)
            if received.count == 1 {
                try await dbQueue.write { db in try db.execute(sql: "UPDATE author SET id = 2") }
            } else if received.count == 2 {
                try await dbQueue.write { db in try db.execute(sql: "DELETE FROM author") }
            } else {
                break
            }
        }
        #expect(received == [[1], [2], [nil]])

        let logObservation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM log") ?? 0 }
        var counts: [Int] = []
        for try await count in logObservation.values(in: dbQueue) {
            counts.append(count)
            if counts.count == 1 {
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO author VALUES (3, 'Virgil'); UPDATE author SET name = 'Vergil'") }
            } else {
                break
            }
        }
        #expect(counts == [0, 1])
    }
}
