import Foundation
import Testing
import Trellis

// Smaller API forms: SQL interpolations, statement arguments, date
// components with missing fields, Cursor.isEmpty, Database.readOnly,
// Row.withUnsafeData(named:).

private struct InterpolatedPlayer: Codable, TableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var score: Int
    enum CodingKeys: String, CodingKey, ColumnExpression { case id, score }
}

@Suite("API forms")
struct APIFormsTests {
    @Test("SQL interpolation of Data, column coding keys, AllColumns, Bool in closures, and nil")
    func interpolations() throws {
        let blob = Data([1, 2])
        let data: SQL = "SELECT \(blob)"
        let key: SQL = "SELECT \(InterpolatedPlayer.CodingKeys.score) FROM \(InterpolatedPlayer.self)"
        let all: SQL = "SELECT \(AllColumns()) FROM player"
        let makeSQL: (Int) -> SQL = { _ in "SELECT \(true)" }
        let missing: Int? = nil
        let null: SQL = "SELECT \(missing) IS NULL"
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, score INTEGER); INSERT INTO player VALUES (1, 10)")
            #expect(try Data.fetchOne(db, SQLRequest(literal: data)) == blob)
            #expect(try key.build(db).sql == #"SELECT "score" FROM "player""#)
            #expect(try Int.fetchOne(db, SQLRequest(literal: key)) == 10)
            #expect(try all.build(db).sql == "SELECT * FROM player")
            #expect(try Bool.fetchOne(db, SQLRequest(literal: makeSQL(0))) == true)
            // NULL is written in the SQL, as GRDB does: no argument to bind.
            #expect(try null.build(db).sql == "SELECT NULL IS NULL")
            #expect(try null.build(db).arguments.isEmpty)
            let row = try #require(try Row.fetchOne(db, SQLRequest(literal: null)))
            #expect(row.columnNames == ["NULL IS NULL"])
        }
    }

    @Test("StatementArguments &+ and append(contentsOf:) returning the replaced values")
    func argumentsConcatenation() {
        var arguments: StatementArguments = ["name": "Arthur", "score": 1]
        let replaced = arguments.append(contentsOf: ["name": "Barbara"])
        #expect(replaced == ["name": "Arthur".databaseValue])
        let combined: StatementArguments = arguments &+ ["score": 2]
        #expect(combined == ["name": "Barbara", "score": 2])
        // A dictionary literal makes arguments, not an optional.
        #expect("\(StatementArguments(["b": "x", "a": 1]))" == #"["a": 1, "b": "x"]"#)
        #expect("\(StatementArguments([1]) + ["a": 2])" == #"["a": 2, 1]"#)
        let payload: [String: Any] = ["name": "Arthur"]
        #expect(StatementArguments(payload) == ["name": "Arthur"])
        let invalid: [String: Any] = ["date": NSObject()]
        #expect(StatementArguments(invalid) == nil)
    }

    @Test("DatabaseDateComponents writes missing date fields as 0000-01-01")
    func dateComponentsDefaults() {
        var components = DateComponents()
        components.hour = 5
        #expect(DatabaseDateComponents(components, format: .YMD_HMS).databaseValue == "0000-01-01 05:00:00".databaseValue)
        #expect(DatabaseDateComponents(components, format: .HMS).databaseValue == "05:00:00".databaseValue)
    }

    @Test("Cursor.isEmpty, Database.readOnly, Row.withUnsafeData(named:)")
    func smallAPIs() throws {
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a BLOB); INSERT INTO t VALUES (x'0102')")
            #expect(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").isEmpty)
            #expect(try !Int.fetchCursor(db, sql: "SELECT 1").isEmpty)
            #expect(try db.readOnly { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
            #expect(throws: DatabaseError.self) { try db.readOnly { try db.execute(sql: "DELETE FROM t") } }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT a FROM t"))
            #expect(try row.withUnsafeData(named: "a") { $0?.count } == 2)
        }
    }
}
