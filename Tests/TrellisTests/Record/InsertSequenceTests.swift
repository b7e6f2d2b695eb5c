import Foundation
import Testing
import Trellis

// A connection reuses the storage of an insert's values for the next insert,
// and overwrites the previous values in place. These tests insert records of
// different shapes one after the other, and read back the rows.

/// Writes the given columns, in the given order.
private struct Shaped: PersistableRecord {
    static let databaseTableName = "shaped"
    var values: KeyValuePairs<String, (any DatabaseValueConvertible)?>

    func encode(to container: inout PersistenceContainer) {
        for (column, value) in values { container[column] = value }
    }
}

/// Keeps the container that its insert gave it.
private struct Keeper: MutablePersistableRecord {
    static let databaseTableName = "shaped"
    var id: Int64
    var a: String
    var inserted: PersistenceContainer?

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["a"] = a
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        self.inserted = inserted.persistenceContainer
    }
}

/// Codable records of two shapes, whose inserts share the encoder that
/// the connection's storage keeps for the last record type.
private struct CodableAB: Codable, PersistableRecord {
    static let databaseTableName = "shaped"
    var id: Int64
    var a: String
    var b: Int
}

private struct CodableC: Codable, PersistableRecord {
    static let databaseTableName = "shaped"
    enum CodingKeys: String, CodingKey { case id, c }
    var id: Int64
    var c: String
}

/// Fails to encode when `fails` is true, after it wrote a column.
private struct FailingCodable: PersistableRecord, Encodable {
    static let databaseTableName = "shaped"
    var id: Int64
    var fails: Bool

    struct Refused: Error {}

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        if fails { throw Refused() }
        try container.encode("ok", forKey: .a)
    }

    enum CodingKeys: String, CodingKey { case id, a }
}

/// Encodes its columns with two containers of different coding keys, as a
/// subclass that calls `super.encode(to:)` does.
private class ShapedBase: Encodable {
    var id: Int64
    init(id: Int64) { self.id = id }
    private enum CodingKeys: String, CodingKey { case id }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
    }
}

private final class ShapedChild: ShapedBase, PersistableRecord {
    static let databaseTableName = "shaped"
    var a: String
    init(id: Int64, a: String) {
        self.a = a
        super.init(id: id)
    }
    private enum ChildKeys: String, CodingKey { case a }
    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: ChildKeys.self)
        try container.encode(a, forKey: .a)
    }
}

/// The database value of `value`.
private func dbValue(_ value: (any DatabaseValueConvertible)?) -> DatabaseValue {
    value?.databaseValue ?? .null
}

@Suite struct InsertSequenceTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "shaped") { t in
                t.primaryKey("id", .integer)
                t.column("a")
                t.column("b")
                t.column("c")
                t.column("description_of_the_thing")
            }
        }
        return dbQueue
    }

    private func rows(_ dbQueue: DatabaseQueue) throws -> [[DatabaseValue]] {
        try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, a, b, c FROM shaped ORDER BY id").map { row in
                (0..<4).map { row[$0] as DatabaseValue }
            }
        }
    }

    @Test func recordsOfDifferentColumnsInsertTheirOwnValues() throws {
        let dbQueue = try makeDatabase()
        let blob = Data(repeating: 7, count: 100)
        try dbQueue.write { db in
            try Shaped(values: ["id": 1, "a": "one", "b": blob, "c": 1.5]).insert(db)
            try Shaped(values: ["id": 2, "a": 2]).insert(db)                // fewer columns
            try Shaped(values: ["id": 3, "c": "three", "a": nil]).insert(db) // other columns, other order
            try Shaped(values: ["id": 4, "a": "four", "b": blob, "c": 4]).insert(db)
            try Shaped(values: ["id": 5, "a": "five", "b": "five"]).insert(db) // text where a blob was
        }
        let expected: [[DatabaseValue]] = [
            [dbValue(1), dbValue("one"), dbValue(blob), dbValue(1.5)],
            [dbValue(2), dbValue(2), .null, .null],
            [dbValue(3), .null, .null, dbValue("three")],
            [dbValue(4), dbValue("four"), dbValue(blob), dbValue(4)],
            [dbValue(5), dbValue("five"), dbValue("five"), .null],
        ]
        #expect(try rows(dbQueue) == expected)
    }

    @Test func equalColumnNamesStoredApartAreOneColumn() throws {
        let dbQueue = try makeDatabase()
        // A long name built at run time is stored apart from the literal.
        let builtName = ["description", "of", "the", "thing"].joined(separator: "_")
        try dbQueue.write { db in
            try Shaped(values: ["id": 1, "description_of_the_thing": "literal"]).insert(db)
            try Shaped(values: ["id": 2, builtName: "built"]).insert(db)
            try Shaped(values: ["id": 3, "A": "upper"]).insert(db)
            try Shaped(values: ["id": 4, "a": "lower"]).insert(db)
        }
        let values = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT a, description_of_the_thing FROM shaped ORDER BY id").map { [$0[0] as DatabaseValue, $0[1] as DatabaseValue] }
        }
        let expected: [[DatabaseValue]] = [
            [.null, dbValue("literal")],
            [.null, dbValue("built")],
            [dbValue("upper"), .null],
            [dbValue("lower"), .null],
        ]
        #expect(values == expected)
    }

    @Test func aKeptInsertionContainerIsNotOverwrittenByTheNextInsert() throws {
        let dbQueue = try makeDatabase()
        var first = Keeper(id: 1, a: "first")
        var second = Keeper(id: 2, a: "second")
        try dbQueue.write { db in
            try first.insert(db)
            try second.insert(db)
            try Shaped(values: ["id": 3, "a": "third"]).insert(db)
        }
        #expect(first.inserted?["a"]?.databaseValue == "first".databaseValue)
        #expect(first.inserted?["id"]?.databaseValue == 1.databaseValue)
        #expect(second.inserted?["a"]?.databaseValue == "second".databaseValue)
        #expect(first.inserted?.columnNames == ["id", "a"])
    }

    @Test func codableRecordsOfAlternatingTypesInsertTheirOwnColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try CodableAB(id: 1, a: "one", b: 10).insert(db)
            try CodableC(id: 2, c: "two").insert(db)
            try CodableAB(id: 3, a: "three", b: 30).insert(db)
            try CodableAB(id: 4, a: "four", b: 40).insert(db)
            try CodableC(id: 5, c: "five").insert(db)
        }
        let expected: [[DatabaseValue]] = [
            [dbValue(1), dbValue("one"), dbValue(10), .null],
            [dbValue(2), .null, .null, dbValue("two")],
            [dbValue(3), dbValue("three"), dbValue(30), .null],
            [dbValue(4), dbValue("four"), dbValue(40), .null],
            [dbValue(5), .null, .null, dbValue("five")],
        ]
        #expect(try rows(dbQueue) == expected)
    }

    @Test func aCodableRecordThatFailsToEncodeLeavesTheNextInsertIntact() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try FailingCodable(id: 1, fails: false).insert(db)
            #expect(throws: FailingCodable.Refused.self) { try FailingCodable(id: 2, fails: true).insert(db) }
            try FailingCodable(id: 3, fails: false).insert(db)
            try CodableAB(id: 4, a: "four", b: 40).insert(db)
        }
        let expected: [[DatabaseValue]] = [
            [dbValue(1), dbValue("ok"), .null, .null],
            [dbValue(3), dbValue("ok"), .null, .null],
            [dbValue(4), dbValue("four"), dbValue(40), .null],
        ]
        #expect(try rows(dbQueue) == expected)
    }

    @Test func codableRecordsWithTwoKeyTypesInsertAllTheirColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try ShapedChild(id: 1, a: "one").insert(db)
            try ShapedChild(id: 2, a: "two").insert(db)
            try CodableAB(id: 3, a: "three", b: 30).insert(db)
            try ShapedChild(id: 4, a: "four").insert(db)
        }
        let expected: [[DatabaseValue]] = [
            [dbValue(1), dbValue("one"), .null, .null],
            [dbValue(2), dbValue("two"), .null, .null],
            [dbValue(3), dbValue("three"), dbValue(30), .null],
            [dbValue(4), dbValue("four"), .null, .null],
        ]
        #expect(try rows(dbQueue) == expected)
    }

    @Test func aCopiedContainerKeepsItsValuesWhenTheOriginalEncodesAgain() throws {
        var container = PersistenceContainer()
        try CodableAB(id: 1, a: "one", b: 10).encode(to: &container)
        let copy = container
        try CodableAB(id: 2, a: "two", b: 20).encode(to: &container)
        #expect(copy["a"]?.databaseValue == "one".databaseValue)
        #expect(container["a"]?.databaseValue == "two".databaseValue)
    }

    @Test func aFailedInsertLeavesTheNextOneIntact() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try Shaped(values: ["id": 1, "a": "one"]).insert(db)
            #expect(throws: DatabaseError.self) {
                try Shaped(values: ["id": 1, "a": "again", "b": "x"]).insert(db)
            }
            try Shaped(values: ["id": 2, "a": "two"]).insert(db)
        }
        let expected: [[DatabaseValue]] = [
            [dbValue(1), dbValue("one"), .null, .null],
            [dbValue(2), dbValue("two"), .null, .null],
        ]
        #expect(try rows(dbQueue) == expected)
    }
}
