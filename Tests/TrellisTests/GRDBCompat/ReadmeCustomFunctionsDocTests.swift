import Foundation
import Testing
import Trellis

// GRDB's README, "Custom SQL Functions and Aggregates": each sample run as
// written, with the values and errors the README shows.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
    }
}

private struct MaxLength: DatabaseAggregate {
    var maxLength: Int = 0

    mutating func step(_ dbValues: [DatabaseValue]) {
        // At each step, extract string value, if any...
        guard let string = String.fromDatabaseValue(dbValues[0]) else {
            return
        }
        // ... and update the result
        let length = string.count
        if length > maxLength {
            maxLength = length
        }
    }

    func finalize() -> DatabaseValueConvertible? {
        maxLength
    }
}

@Suite struct ReadmeCustomFunctionsDocTests {
    private func makePlayers(_ db: Database) throws {
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try Player(id: 1, name: "Arthur").insert(db)
        try Player(id: 2, name: "Barbara").insert(db)
    }

    @Test func customFunctionRegisteredInTheConfiguration() throws {
        let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
            // Extract string value, if any...
            guard let string = String.fromDatabaseValue(values[0]) else {
                return nil
            }
            // ... and return reversed string:
            return String(string.reversed())
        }
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: reverse)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.read { db throws in
            // "oof"
            #expect(try String.fetchOne(db, sql: "SELECT reverse('foo')") == "oof")
            #expect(try String.fetchOne(db, sql: "SELECT reverse(NULL)") == nil)
        }
        #expect(reverse.name == "reverse")
        #expect(reverse.argumentCount == 1)
        #expect(reverse.isPure)
    }

    @Test func functionsWithAVariableNumberOfArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let averageOf = DatabaseFunction("averageOf", pure: true) { (values: [DatabaseValue]) in
                let doubles = values.compactMap { Double.fromDatabaseValue($0) }
                return doubles.reduce(0, +) / Double(doubles.count)
            }
            db.add(function: averageOf)

            // 2.0
            #expect(try Double.fetchOne(db, sql: "SELECT averageOf(1, 2, 3)") == 2.0)
            #expect(try Double.fetchOne(db, sql: "SELECT averageOf(1, 2, 3, 6)") == 3.0)
            #expect(averageOf.argumentCount == nil)
        }
    }

    @Test func functionsCanThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let sqrt = DatabaseFunction("sqrt", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
                guard let double = Double.fromDatabaseValue(values[0]) else {
                    return nil
                }
                guard double >= 0 else {
                    throw DatabaseError(message: "invalid negative number")
                }
                return Foundation.sqrt(double)
            }
            db.add(function: sqrt)

            #expect(try Double.fetchOne(db, sql: "SELECT sqrt(4)") == 2)
            // SQLite error 1 with statement `SELECT sqrt(-1)`: invalid negative number
            let error = #expect(throws: DatabaseError.self) {
                try Double.fetchOne(db, sql: "SELECT sqrt(-1)")
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "invalid negative number")
            #expect(error?.sql == "SELECT sqrt(-1)")
        }
    }

    @Test func customFunctionsInTheQueryInterface() throws {
        let reverseString = DatabaseFunction("reverseString", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map { String($0.reversed()) }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try makePlayers(db)
            db.add(function: reverseString)
            // SELECT reverseString("name") FROM player
            let request = Player.select { reverseString($0.name) }
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT "reverseString"("name") FROM "player""#
                || statement.sql == #"SELECT reverseString("name") FROM "player""#)
            #expect(try String.fetchAll(db, request.order(\.id)) == ["ruhtrA", "arabraB"])
        }
    }

    @Test func customAggregates() throws {
        let maxLength = DatabaseFunction(
            "maxLength",
            argumentCount: 1,
            pure: true,
            aggregate: MaxLength.self)
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: maxLength)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try makePlayers(db)
        }
        try dbQueue.read { db throws in
            // Some Int
            #expect(try Int.fetchOne(db, sql: "SELECT maxLength(name) FROM player") == 7)

            // SELECT maxLength("name") FROM player
            let request = Player.select { maxLength($0.name) }
            #expect(try Int.fetchOne(db, request) == 7) // Int?
        }
    }
}
