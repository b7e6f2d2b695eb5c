import Foundation
import Testing
import Trellis

// Snippets of GRDB's README: DatabaseValue and row equality, named
// arguments, the database representation of Codable properties, and the
// SQL operators composed.

@Suite struct GRDBCompatReadmeMoreValuesTests {
    @Test func databaseValueEquality() throws {
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue != "1".databaseValue)
        let row1: Row = ["a": 1]
        let row2: Row = ["a": 1.0]
        #expect(row1 == row2)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let rows = try Row.fetchSet(db, sql: "SELECT 1 AS a UNION ALL SELECT 1.0 UNION ALL SELECT 2")
            #expect(rows.count == 2)
            let ints = try Int.fetchSet(db, sql: "SELECT 1 UNION ALL SELECT 1.0")
            #expect(ints == [1])
        }
    }

    @Test func namedArgumentsPrefixes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t(a, b, c)")
            try db.execute(sql: "INSERT INTO t VALUES (:a, $b, @c)", arguments: ["a": 1, "b": 2, "c": 3])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM t")
            #expect(row == ["a": 1, "b": 2, "c": 3])
            // Repeated named argument
            try db.execute(sql: "INSERT INTO t VALUES (:x, :x, :x)", arguments: ["x": 9])
            #expect(try Int.fetchOne(db, sql: "SELECT a + b + c FROM t WHERE a = 9") == 27)
            var arguments: StatementArguments = [1]
            arguments += [2]
            arguments.append(contentsOf: [3])
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: arguments)
            #expect(try Int.fetchOne(db, sql: "SELECT c FROM t WHERE a = 1") == 3)
            var named: StatementArguments = ["a": 5, "b": 6]
            named += ["b": 7, "c": 8]
            try db.execute(sql: "INSERT INTO t VALUES (:a, :b, :c)", arguments: named)
            #expect(try Int.fetchOne(db, sql: "SELECT b FROM t WHERE a = 5") == 7)
            // &+ lets the right-hand side win
            let kept: StatementArguments = ["a": 10, "b": 11] &+ ["b": 12, "c": 13]
            try db.execute(sql: "INSERT INTO t VALUES (:a, :b, :c)", arguments: kept)
            #expect(try Int.fetchOne(db, sql: "SELECT b FROM t WHERE a = 10") == 12)
        }
    }
}

private struct CodableThing: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "thing"
    struct Nested: Codable, Equatable {
        var date: Date
        var data: Data
        var name: String
    }
    enum Color: String, Codable, Equatable {
        case red, blue
    }
    var id: Int64
    var price: Decimal
    var url: URL
    var uuid: UUID
    var color: Color?
    var tags: [String]
    var scores: [String: Int]
    var nested: Nested?
    var date: Date
    var flag: Bool
}

@Suite struct GRDBCompatReadmeCodablePropertiesTests {
    @Test func propertiesUseTheirDatabaseRepresentation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE thing (id INTEGER PRIMARY KEY, price, url, uuid, color, tags, scores, nested, date, flag)")
            let date = Date(timeIntervalSince1970: 1_000_000)
            let thing = CodableThing(
                id: 1, price: Decimal(string: "10.5")!, url: URL(string: "https://example.com/a")!,
                uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, color: .red,
                tags: ["a", "b"], scores: ["z": 1, "a": 2],
                nested: .init(date: date, data: Data([1, 2]), name: "n"), date: date, flag: true)
            try thing.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT typeof(price), price, typeof(url), url, typeof(uuid), length(uuid), color, tags, scores, nested, date, typeof(flag), flag FROM thing
                """))
            #expect(row[0] as String == "text")
            #expect(row[1] as String == "10.5")
            #expect(row[2] as String == "text")
            #expect(row[3] as String == "https://example.com/a")
            #expect(row[4] as String == "blob")
            #expect(row[5] as Int == 16)
            #expect(row[6] as String == "red")
            #expect(row[7] as String == #"["a","b"]"#)
            #expect(row[8] as String == #"{"a":2,"z":1}"#)
            #expect(row[9] as String == #"{"data":"AQI=","date":1000000000,"name":"n"}"#)
            #expect(row[10] as String == "1970-01-12 13:46:40.000")
            #expect(row[11] as String == "integer")
            #expect(row[12] as Int == 1)
            let fetched = try CodableThing.fetchOne(db)
            #expect(fetched == thing)

            var other = thing
            other.id = 2
            other.nested = nil
            other.color = nil
            try other.insert(db)
            #expect(try CodableThing.fetchOne(db, key: 2) == other)
            #expect(try Row.fetchOne(db, sql: "SELECT nested IS NULL AND color IS NULL FROM thing WHERE id = 2")?[0] == true)
        }
    }
}

@Suite struct GRDBCompatReadmeOperatorsTests {
    @Test func operatorPrecedenceAndAssociativity() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t(a, b, c, s, n, f)")
            try db.execute(sql: "INSERT INTO t VALUES (10, 4, 2, 'x', NULL, 0)")
        }
        try dbQueue.read { db throws in
            let a = Column("a"), b = Column("b"), c = Column("c"), s = Column("s"), n = Column("n"), f = Column("f")
            let t = Table("t")
            func value<T: DatabaseValueConvertible>(_ e: some SQLSpecificExpressible, as: T.Type = T.self) throws -> T? {
                try T.fetchOne(db, t.select(e.sqlExpression))
            }
            #expect(try value(a - (b - c), as: Int.self) == 8)
            #expect(try value(a - b - c, as: Int.self) == 4)
            #expect(try value(a / (b / c), as: Int.self) == 5)
            #expect(try value(a / b / c, as: Int.self) == 1)
            #expect(try value(a * (b + c), as: Int.self) == 60)
            #expect(try value(-(a - b), as: Int.self) == -6)
            #expect(try value(-a + b, as: Int.self) == -6)
            #expect(try value(!(a > b && b > a), as: Bool.self) == true)
            #expect(try value(a > b || b > a && c > a, as: Bool.self) == true)
            #expect(try value((a > b || b > a) && c > a, as: Bool.self) == false)
            #expect(try value(~c, as: Int.self) == -3)
            #expect(try value(c << 2, as: Int.self) == 8)
            #expect(try value(a >> 1, as: Int.self) == 5)
            #expect(try value(a | 1, as: Int.self) == 11)
            #expect(try value(a & (b | c), as: Int.self) == 2)
            #expect(try value(n ?? a, as: Int.self) == 10)
            #expect(try value(n ?? n ?? b, as: Int.self) == 4)
            #expect(try value([s, n].joined(operator: .concat), as: String.self) == nil)
            #expect(try value([s, s].joined(operator: .concat), as: String.self) == "xx")
            #expect(try value(!s.like("X"), as: Bool.self) == false)
            #expect(try value(s.collating(.nocase) == "X", as: Bool.self) == true)
            #expect(try value(min(a, b, c), as: Int.self) == 2)
            #expect(try value(max(a, b, c), as: Int.self) == 10)
            #expect(try value(cast(s, as: .integer), as: Int.self) == 0)
            #expect(try value((1.5...2.5).contains(c), as: Bool.self) == true)
            #expect(try value((2..<3).contains(c), as: Bool.self) == true)
            #expect(try value(!(2..<3).contains(c), as: Bool.self) == false)
            #expect(try value(!f, as: Bool.self) == true)
            #expect(try value(n == nil, as: Bool.self) == true)
            #expect(try value(n != nil, as: Bool.self) == false)
            #expect(try value(a === 10, as: Bool.self) == true)
            #expect(try value(n !== nil, as: Bool.self) == false)
            #expect(try value(a - -b, as: Int.self) == 14)
            #expect(try value(a - (-b), as: Int.self) == 14)
            #expect(try value(length(s), as: Int.self) == 1)
            #expect(try value(abs(b - a), as: Int.self) == 6)
            #expect(try value([a, b, c].joined(operator: .multiply), as: Int.self) == 80)
        }
    }
}
