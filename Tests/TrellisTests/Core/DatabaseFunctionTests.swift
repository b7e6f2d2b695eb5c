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
}
