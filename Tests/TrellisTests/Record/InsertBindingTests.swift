import Foundation
import Testing
import Trellis
import TrellisSQLite

// A loop of inserts of one record type binds each value to the cached
// statement as `encode(to:)` sets it. These tests check that each row gets
// its own values whatever the records do with their containers: values of
// changing types, encodes that throw halfway, containers kept or replaced
// by the record, values that SQLite refuses to bind.

@Suite("Insert binding")
struct InsertBindingTests {
    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, a, b)")
        }
        return dbQueue
    }

    struct Item: PersistableRecord {
        static let databaseTableName = "item"
        var id: Int64
        var a: DatabaseValue
        var b: DatabaseValue

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["a"] = a
            container["b"] = b
        }
    }

    struct CodableItem: Codable, PersistableRecord {
        static let databaseTableName = "item"
        var id: Int64
        var a: String?
        var b: Double?
    }

    @Test("A loop of inserts whose values change type (integer, real, text, blob, NULL) writes each value")
    func valuesOfChangingTypes() throws {
        let dbQueue = try makeDatabase()
        let values: [DatabaseValue] = [
            1.databaseValue, 2.5.databaseValue, "three".databaseValue, Data([4, 4]).databaseValue, .null,
            "six".databaseValue, 7.databaseValue, Data().databaseValue, "".databaseValue, 10.databaseValue,
        ]
        try dbQueue.write { db in
            for (index, value) in values.enumerated() {
                try Item(id: Int64(index + 1), a: value, b: values[(index + 3) % values.count]).insert(db)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM item ORDER BY id")
            #expect(rows.map { $0[0] as DatabaseValue } == values)
            #expect(rows.map { $0[1] as DatabaseValue } == (0..<values.count).map { values[($0 + 3) % values.count] })
        }
    }

    @Test("A loop of inserts of Codable records whose optional values are set or nil writes each value")
    func codableValuesSetOrNil() throws {
        let dbQueue = try makeDatabase()
        let records = (1...9).map { (id: Int) -> CodableItem in
            let a: String? = id % 2 == 0 ? nil : "text \(id)"
            let b: Double? = id % 3 == 0 ? nil : Double(id) / 2
            return CodableItem(id: Int64(id), a: a, b: b)
        }
        try dbQueue.write { db in
            for record in records { try record.insert(db) }
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM item ORDER BY id")
            #expect(rows.map { $0["a"] as String? } == records.map(\.a))
            #expect(rows.map { $0["b"] as Double? } == records.map(\.b))
        }
    }

    /// Throws from `encode(to:)` after its first column when `fails`.
    struct Failing: PersistableRecord {
        struct Refused: Error {}
        static let databaseTableName = "item"
        var id: Int64
        var a: Int
        var fails: Bool

        func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            if fails { throw Refused() }
            container["a"] = a
            container["b"] = a * 2
        }
    }

    @Test("An insert whose encode throws halfway writes nothing, and the inserts after it write their own values")
    func encodeThatThrowsHalfway() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            for id in Int64(1)...9 {
                do {
                    try Failing(id: id, a: Int(id) * 10, fails: id % 3 == 0).insert(db)
                } catch is Failing.Refused {}
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, a, b FROM item ORDER BY id")
            #expect(rows.map { $0["id"] as Int } == [1, 2, 4, 5, 7, 8])
            #expect(rows.map { $0["a"] as Int } == [10, 20, 40, 50, 70, 80])
            #expect(rows.map { $0["b"] as Int } == [20, 40, 80, 100, 140, 160])
        }
    }

    /// The containers that records keep, out of their inserts.
    final class KeptContainers: @unchecked Sendable {
        var containers: [PersistenceContainer] = []
    }

    /// Keeps its container, or a copy of it and then replaces it, and
    /// writes into the containers kept by the records before it after it
    /// wrote its own values.
    struct Keeping: PersistableRecord {
        enum Keep { case nothing, container, copyThenReplace }
        static let databaseTableName = "item"
        var id: Int64
        var a: Int
        var keep: Keep
        var kept: KeptContainers

        func encode(to container: inout PersistenceContainer) {
            let earlier = kept.containers.indices
            container["id"] = id
            switch keep {
            case .nothing:
                container["a"] = a
            case .container:
                container["a"] = a
                kept.containers.append(container)
            case .copyThenReplace:
                kept.containers.append(container)
                container = PersistenceContainer()
                container["id"] = id
                container["a"] = a
            }
            container["b"] = a + 1
            // Each kept container writes the next column of the insert
            // that kept it: no value may reach this insert's statement.
            for index in earlier {
                if kept.containers[index].columnNames == ["id"] { kept.containers[index]["a"] = -1 }
                kept.containers[index]["b"] = -1
            }
        }
    }

    @Test("Records that keep their container, or replace it, leave each row its own values")
    func recordsThatKeepOrReplaceTheirContainer() throws {
        let dbQueue = try makeDatabase()
        let kept = KeptContainers()
        let plan: [Keeping.Keep] = [.nothing, .nothing, .copyThenReplace, .nothing, .nothing, .container, .nothing, .nothing, .nothing]
        try dbQueue.write { db in
            for (index, keep) in plan.enumerated() {
                try Keeping(id: Int64(index + 1), a: (index + 1) * 10, keep: keep, kept: kept).insert(db)
            }
            // The kept containers, written after their inserts, write nothing.
            for index in kept.containers.indices {
                kept.containers[index]["a"] = -2
            }
            try Keeping(id: 100, a: 1000, keep: .nothing, kept: KeptContainers()).insert(db)
            let rows = try Row.fetchAll(db, sql: "SELECT id, a, b FROM item ORDER BY id")
            #expect(rows.map { $0["id"] as Int } == Array(1...9) + [100])
            #expect(rows.map { $0["a"] as Int } == (1...9).map { $0 * 10 } + [1000])
            #expect(rows.map { $0["b"] as Int } == (1...9).map { $0 * 10 + 1 } + [1001])
        }
        #expect(kept.containers.count == 2)
    }

    @Test("A value that SQLite refuses to bind fails its insert with a DatabaseError; the inserts after it write their values")
    func valueThatDoesNotBind() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let connection = try #require(db.sqliteConnection)
            sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, 100)
            let long = String(repeating: "x", count: 200)
            for id in Int64(1)...6 {
                let value = id == 4 ? long : "value \(id)"
                if id == 4 {
                    let error = #expect(throws: DatabaseError.self) {
                        try Item(id: id, a: value.databaseValue, b: .null).insert(db)
                    }
                    #expect(error?.resultCode == .SQLITE_TOOBIG)
                } else {
                    try Item(id: id, a: value.databaseValue, b: id.databaseValue).insert(db)
                }
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, a, b FROM item ORDER BY id")
            #expect(rows.map { $0["id"] as Int } == [1, 2, 3, 5, 6])
            #expect(rows.map { $0["a"] as String } == ["value 1", "value 2", "value 3", "value 5", "value 6"])
            #expect(rows.map { $0["b"] as Int } == [1, 2, 3, 5, 6])
        }
    }
}
