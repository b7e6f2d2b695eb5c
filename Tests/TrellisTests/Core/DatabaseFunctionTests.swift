import Foundation
import Testing
import Trellis

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int
}

private struct FunctionFailure: Error, CustomStringConvertible {
    var description: String { "the function refused" }
}

/// The longest string of its group, as GRDB's README writes it.
private struct MaxLength: DatabaseAggregate {
    var maxLength: Int = 0

    mutating func step(_ dbValues: [DatabaseValue]) {
        guard let string = String.fromDatabaseValue(dbValues[0]) else { return }
        maxLength = max(maxLength, string.count)
    }

    func finalize() -> DatabaseValueConvertible? { maxLength }
}

/// The strings of its group joined by commas; refuses "bad" and, at the
/// end, groups of more than three.
private struct Joined: DatabaseAggregate {
    var strings: [String] = []

    mutating func step(_ dbValues: [DatabaseValue]) throws {
        let strings = dbValues.compactMap { String.fromDatabaseValue($0) }
        if strings.contains("bad") { throw FunctionFailure() }
        self.strings += strings
    }

    func finalize() throws -> DatabaseValueConvertible? {
        if strings.count > 3 { throw DatabaseError(message: "too many strings") }
        return strings.isEmpty ? nil : strings.joined(separator: ",")
    }
}

@Suite struct DatabaseFunctionTests {
    private let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { dbValues in
        guard let int = Int.fromDatabaseValue(dbValues[0]) else { return nil }
        return int + 1
    }

    @Test func functionsRunInSQLAndInTheQueryInterface() throws {
        var config = Configuration()
        let succ = self.succ
        config.prepareDatabase { db in db.add(function: succ) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column("name", .text)
                t.column("score", .integer)
            }
            try Player(id: 1, name: "Arthur", score: 10).insert(db)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(1)") == 2)
            #expect(try Row.fetchOne(db, sql: "SELECT succ(NULL) AS value")?.hasNull(atIndex: 0) == true)
            #expect(try Int.fetchOne(db, Player.select(succ(Column("score")))) == 11)
            #expect(try Player.filter(succ(Column("score")) == 11).fetchCount(db) == 1)
            // A pure function may index an expression.
            try db.execute(sql: "CREATE INDEX player_succ ON player(succ(score))")
        }
    }

    @Test func variadicFunctionsAndEveryResultType() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            db.add(function: DatabaseFunction("total") { values in
                values.compactMap { Int.fromDatabaseValue($0) }.reduce(0, +)
            })
            db.add(function: DatabaseFunction("shout", argumentCount: 1) { values in
                String.fromDatabaseValue(values[0])?.uppercased()
            })
            db.add(function: DatabaseFunction("half", argumentCount: 1) { values in
                Double.fromDatabaseValue(values[0]).map { $0 / 2 }
            })
            db.add(function: DatabaseFunction("bytes", argumentCount: 1) { values in
                String.fromDatabaseValue(values[0]).map { Data($0.utf8) }
            })
            #expect(try Int.fetchOne(db, sql: "SELECT total(1, 2, 3, NULL, 'x')") == 6)
            #expect(try Int.fetchOne(db, sql: "SELECT total()") == 0)
            #expect(try String.fetchOne(db, sql: "SELECT shout('élan vital')") == "ÉLAN VITAL")
            #expect(try Double.fetchOne(db, sql: "SELECT half(3)") == 1.5)
            #expect(try Data.fetchOne(db, sql: "SELECT bytes('ab')") == Data("ab".utf8))
            #expect(try Int.fetchOne(db, sql: "SELECT length(bytes(''))") == 0)
        }
    }

    @Test func aThrowingFunctionFailsItsStatementOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            db.add(function: DatabaseFunction("refuse", argumentCount: 0) { _ in throw FunctionFailure() })
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT refuse()")
            }
            #expect(error?.message == "the function refused")
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
        }
    }

    @Test func removedFunctionsAreUnknown() throws {
        let dbQueue = try DatabaseQueue()
        let succ = self.succ
        try dbQueue.write { (db: Database) throws in
            db.add(function: succ)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(41)") == 42)
            db.remove(function: succ)
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT succ(41)")
            }
            #expect(error?.message?.contains("no such function: succ") == true)
        }
    }

    @Test func poolReadersGetTheFunctionsOfPrepareDatabase() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("functions-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var config = Configuration()
        let succ = self.succ
        config.prepareDatabase { db in db.add(function: succ) }
        let dbPool = try DatabasePool(path: path, configuration: config)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT succ(9)") } == 10)
        #expect(try dbPool.write { db in try Int.fetchOne(db, sql: "SELECT succ(19)") } == 20)
    }

    @Test func caseFunctionsFollowSwiftUnicodeRules() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            try Player(id: 1, name: "élise dupré", score: 1).insert(db)
            let name = Column("name")
            #expect(try String.fetchOne(db, Player.select(name.uppercased)) == "ÉLISE DUPRÉ")
            #expect(try String.fetchOne(db, Player.select(name.capitalized)) == "Élise Dupré")
            #expect(try String.fetchOne(db, Player.select(name.uppercased.lowercased)) == "élise dupré")
            #expect(try String.fetchOne(db, Player.select(name.localizedUppercased)) == "ÉLISE DUPRÉ")
            #expect(try Player.filter(name.uppercased == "ÉLISE DUPRÉ").fetchCount(db) == 1)
            // Values that are not text pass through.
            #expect(try Int.fetchOne(db, sql: "SELECT swiftUppercaseString(42)") == 42)
        }
    }

    @Test func aggregatesStepOverEachGroup() throws {
        let maxLength = DatabaseFunction("maxLength", argumentCount: 1, pure: true, aggregate: MaxLength.self)
        var config = Configuration()
        config.prepareDatabase { db in db.add(function: maxLength) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            for (id, name, score) in [(1, "Arthur", 1), (2, "Barbara", 1), (3, "Élise", 2)] {
                try Player(id: Int64(id), name: name, score: score).insert(db)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT maxLength(name) FROM player") == 7)
            // Characters, not bytes: "Élise" is five.
            #expect(try Int.fetchAll(db, sql: "SELECT maxLength(name) FROM player GROUP BY score ORDER BY score") == [7, 5])
            // A group without rows finalizes a fresh aggregate.
            #expect(try Int.fetchOne(db, sql: "SELECT maxLength(name) FROM player WHERE 0") == 0)
            #expect(try Int.fetchOne(db, Player.select(maxLength(Column("name")))) == 7)
            let longNames = try Int.fetchAll(db, Player
                .select(Column("score"))
                .group(Column("score"))
                .having(maxLength(Column("name")) > 5)
                .order(Column("score")))
            #expect(longNames == [1])
        }
    }

    @Test func aThrowingAggregateFailsItsStatementOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            db.add(function: DatabaseFunction("joined", aggregate: Joined.self))
            try db.execute(sql: "CREATE TABLE t (a TEXT, b TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES ('x', 'y'), ('z', NULL)")
            #expect(try String.fetchOne(db, sql: "SELECT joined(a, b) FROM t") == "x,y,z")
            #expect(try String.fetchOne(db, sql: "SELECT joined(a) FROM t WHERE 0") == nil)

            try db.execute(sql: "INSERT INTO t VALUES ('bad', NULL)")
            let stepError = #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, sql: "SELECT joined(a) FROM t")
            }
            #expect(stepError?.message == "the function refused")

            try db.execute(sql: "DELETE FROM t WHERE a = 'bad'")
            try db.execute(sql: "INSERT INTO t VALUES ('w', NULL)")
            let finalError = #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, sql: "SELECT joined(a, b) FROM t")
            }
            #expect(finalError?.message == "too many strings")
            #expect(try String.fetchOne(db, sql: "SELECT joined(a) FROM t") == "x,z,w")
            #expect(try String.fetchOne(db, sql: "SELECT joined(b) FROM t") == "y")
        }
    }
}

@Suite struct DatabaseCollationTests {
    @Test func builtInCollationsAreKnownToEveryConnection() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("collations-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try DatabaseQueue(path: path).write { db in
            try db.create(table: "c") { t in t.column("x", .text).collate(.localizedCaseInsensitiveCompare) }
            try db.execute(sql: "INSERT INTO c VALUES ('b'), ('A'), ('a')")
        }
        // Another connection reads and writes the table that uses it.
        let other = try DatabaseQueue(path: path)
        try other.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO c VALUES ('B')")
            #expect(try String.fetchAll(db, sql: "SELECT x FROM c ORDER BY x").map { $0.lowercased() } == ["a", "a", "b", "b"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM c WHERE x = 'A'") == 2)
            for name in ["swiftCompare", "swiftCaseInsensitiveCompare", "swiftLocalizedCompare", "swiftLocalizedStandardCompare"] {
                #expect(try String.fetchAll(db, sql: "SELECT x FROM c ORDER BY x COLLATE \(name)").count == 4)
            }
            #expect(try String.fetchAll(db, sql: "SELECT x FROM c ORDER BY x COLLATE swiftCaseInsensitiveCompare, x").prefix(2) == ["A", "a"])
        }
    }

    @Test func aRemovedCollationIsUnknown() throws {
        let reversed = DatabaseCollation("reversed") { lhs, rhs in
            lhs < rhs ? .orderedDescending : (lhs == rhs ? .orderedSame : .orderedAscending)
        }
        try DatabaseQueue().write { (db: Database) throws in
            db.add(collation: reversed)
            #expect(try String.fetchAll(db, sql: "SELECT 'a' AS x UNION SELECT 'b' ORDER BY x COLLATE reversed") == ["b", "a"])
            db.remove(collation: reversed)
            #expect { try String.fetchAll(db, sql: "SELECT 'a' AS x UNION SELECT 'b' ORDER BY x COLLATE reversed") } throws: { error in
                (error as? DatabaseError)?.message == "no such collation sequence: reversed"
            }
        }
    }
}
