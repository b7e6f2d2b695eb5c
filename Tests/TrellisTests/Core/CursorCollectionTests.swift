import Testing
import Trellis

/// Collections built from cursors, and cursors flattened from sequences,
/// as GRDB's documentation shows them.
@Suite struct CursorCollectionTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT);
                INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Arthur');
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT);
                INSERT INTO team VALUES (1, 'Red'), (2, 'Blue');
                """)
        }
        return dbQueue
    }

    @Test func collectionsAreBuiltFromCursors() throws {
        try makeDatabase().read { db in
            let sql = "SELECT name FROM player ORDER BY id"
            #expect(try Array(String.fetchCursor(db, sql: sql)) == ["Arthur", "Barbara", "Arthur"])
            #expect(try Set(String.fetchCursor(db, sql: sql)) == ["Arthur", "Barbara"])
            // Any RangeReplaceableCollection.
            let contiguous = try ContiguousArray(String.fetchCursor(db, sql: sql))
            #expect(Array(contiguous) == ["Arthur", "Barbara", "Arthur"])
            let reserved = try ContiguousArray(String.fetchCursor(db, sql: sql), minimumCapacity: 10)
            #expect(reserved.count == 3 && reserved.capacity >= 10)
            let namesById = try Dictionary(
                uniqueKeysWithValues: Row.fetchCursor(db, sql: "SELECT id, name FROM player").map { row in
                    (row["id"] as Int64, row["name"] as String)
                })
            #expect(namesById == [1: "Arthur", 2: "Barbara", 3: "Arthur"])
            let grouped = try Dictionary(grouping: Int64.fetchCursor(db, sql: "SELECT id FROM player"), by: { $0 % 2 })
            #expect(grouped == [1: [1, 3], 0: [2]])
        }
    }

    @Test func duplicateKeysAreAnErrorOfDictionaryOfUniqueKeys() throws {
        try makeDatabase().read { db in
            _ = #expect(throws: DatabaseError.self) {
                try Dictionary(uniqueKeysWithValues: Row.fetchCursor(db, sql: "SELECT name, id FROM player").map { row in
                    (row["name"] as String, row["id"] as Int64)
                })
            }
        }
    }

    @Test func sequencesOfCursorsAreFlattened() throws {
        try makeDatabase().read { db in
            let names = ["team", "player"].flatMap { table in
                try String.fetchCursor(db, sql: "SELECT name FROM \(table) ORDER BY id")
            }
            #expect(try Array(names) == ["Red", "Blue", "Arthur", "Barbara", "Arthur"])

            let joined = try [
                Int.fetchCursor(db, sql: "SELECT id FROM team ORDER BY id"),
                Int.fetchCursor(db, sql: "SELECT id FROM player ORDER BY id DESC"),
            ].joined()
            #expect(try Array(joined) == [1, 2, 3, 2, 1])
        }
    }

    @Test func cursorsOfCursorsAndOfSequencesAreFlattened() throws {
        try makeDatabase().read { db in
            let teamIds = try Int64.fetchCursor(db, sql: "SELECT id FROM team ORDER BY id")
            let players = teamIds.flatMap { id in
                try String.fetchCursor(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [id])
            }
            #expect(try Array(players) == ["Arthur", "Barbara"])

            let repeated = try Int.fetchCursor(db, sql: "SELECT id FROM team ORDER BY id").flatMap { id in
                Array(repeating: id, count: id)
            }
            #expect(try Array(repeated) == [1, 2, 2])
        }
    }

    @Test func cursorAdaptersBehaveAsTheirSequenceCounterparts() throws {
        try makeDatabase().read { db in
            let sql = "SELECT id FROM player ORDER BY id"
            #expect(try Array(Int.fetchCursor(db, sql: sql).map { $0 * 10 }) == [10, 20, 30])
            #expect(try Array(Int.fetchCursor(db, sql: sql).filter { $0 != 2 }) == [1, 3])
            #expect(try Array(Int.fetchCursor(db, sql: sql).compactMap { $0 == 2 ? nil : -$0 }) == [-1, -3])
            #expect(try Array(Int.fetchCursor(db, sql: sql).enumerated().map { "\($0.offset):\($0.element)" }) == ["0:1", "1:2", "2:3"])
            var visited: [Int] = []
            try Int.fetchCursor(db, sql: sql).forEach { visited.append($0) }
            #expect(visited == [1, 2, 3])
        }
    }
}
