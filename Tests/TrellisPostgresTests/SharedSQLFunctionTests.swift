import Foundation
import Testing
import Trellis
import TrellisPostgres

// The operators and functions of the query interface: on PostgreSQL, each
// one gives the result it gives on SQLite, or throws an error that names
// it. One test body, run on both engines (see `Engine`).

private struct Item: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Sendable {
    var id: Int64?
    var name: String
    var score: Int?
    var bonus: Int?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Engine {
    fileprivate func createItems(_ db: Database, _ items: [(String, Int?, Int?)]) throws {
        try db.create(table: "item") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("score", .integer)
            t.column("bonus", .integer)
        }
        for (name, score, bonus) in items {
            var item = Item(id: nil, name: name, score: score, bonus: bonus)
            try item.insert(db)
        }
    }
}

/// Whether a value is stored as the double `expected`: `TOTAL` and `AVG`
/// give doubles on SQLite, even for whole numbers.
private func isDouble(_ value: DatabaseValue?, _ expected: Double) -> Bool {
    guard case .double(let double)? = value?.storage else { return false }
    return double == expected
}

@Suite struct SharedSQLFunctionTests {
    @Test(arguments: Engine.available)
    func likeIgnoresTheCaseOfASCIILetters(_ engine: Engine) async throws {
        try await engine.write { db in
            try engine.createItems(db, [
                ("Arthur", 1, nil), ("arthur", 2, nil), ("ARTHUR", 3, nil), ("Barbara", 4, nil), ("50% off", 5, nil),
                ("500 off", 6, nil),
            ])
            let name = Column("name")
            let ordered = Item.order(Column("id"))
            #expect(try ordered.filter(name.like("arthur")).fetchAll(db).map(\.name) == ["Arthur", "arthur", "ARTHUR"])
            #expect(try ordered.filter(name.like("AR%")).fetchAll(db).map(\.name) == ["Arthur", "arthur", "ARTHUR"])
            #expect(try ordered.filter(!name.like("%r%")).fetchAll(db).map(\.name) == ["50% off", "500 off"])
            #expect(try ordered.filter(name.like("50\\%%", escape: "\\")).fetchAll(db).map(\.name) == ["50% off"])
            #expect(try ordered.filter(name.like("B_RBARA", escape: "\\")).fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try Bool.fetchOne(db, Item.select(name.like("x%")).filter(Column("id") == 4)) == false)
        }
    }

    @Test(arguments: Engine.available)
    func functionsGiveTheSameValuesOnBothEngines(_ engine: Engine) async throws {
        try await engine.write { db in
            try engine.createItems(db, [("Arthur", 10, 3), ("Barbara", 5, nil), ("Craig", nil, 7)])
            let score = Column("score")
            let bonus = Column("bonus")
            let ordered = Item.order(Column("id"))
            #expect(try Int.fetchAll(db, ordered.select(score ?? 0)) == [10, 5, 0])
            #expect(try Int.fetchAll(db, ordered.select(coalesce([score, bonus, 1]))) == [10, 5, 7])
            // `MAX(x, y)` and `MIN(x, y)` are NULL when an argument is NULL.
            #expect(try Int?.fetchAll(db, ordered.select(max(score, bonus))) == [10, nil, nil])
            #expect(try Int?.fetchAll(db, ordered.select(min(score, bonus, 4))) == [3, nil, nil])
            #expect(try Int.fetchAll(db, ordered.select(abs(-score ?? 0))) == [10, 5, 0])
            #expect(try Int.fetchAll(db, ordered.select(length(Column("name")))) == [6, 7, 5])

            let totals = try #require(try Row.fetchOne(db, Item.select(
                total(score).forKey("total"), sum(score).forKey("sum"), average(score).forKey("average"),
                count(score).forKey("count"), count(distinct: bonus).forKey("distinct"))))
            #expect(isDouble(totals["total"] as DatabaseValue?, 15))
            #expect(totals["sum"] as Int? == 15)
            #expect(isDouble(totals["average"] as DatabaseValue?, 7.5))
            #expect(totals["count"] as Int? == 2)
            #expect(totals["distinct"] as Int? == 2)

            // `TOTAL` is 0.0 without rows, `SUM` NULL; `AVG` is a double
            // even when the average is a whole number.
            let empty = try #require(try Row.fetchOne(db, Item.filter(Column("id") > 10).select(
                total(score).forKey("total"), sum(score).forKey("sum"))))
            #expect(isDouble(empty["total"] as DatabaseValue?, 0))
            #expect((empty["sum"] as DatabaseValue?)?.isNull == true)
            let whole = try #require(try Row.fetchOne(db, Item.filter(bonus != nil).select(average(bonus).forKey("average"))))
            #expect(isDouble(whole["average"] as DatabaseValue?, 5))
        }
    }

    @Test(arguments: Engine.available)
    func countingALimitedRequestCountsItsRows(_ engine: Engine) async throws {
        try await engine.write { db in
            try engine.createItems(db, [("Arthur", 10, 3), ("Barbara", 5, nil), ("Craig", nil, 7)])
            #expect(try Item.limit(2).fetchCount(db) == 2)
            #expect(try Item.select(Column("score")).distinct().limit(5).fetchCount(db) == 3)
            #expect(try SQLRequest<Row>(sql: "SELECT * FROM item WHERE score > ?", arguments: [1]).fetchCount(db) == 2)
        }
    }

    @Test(arguments: Engine.available)
    func sqliteOnlyFunctionsThrowOnPostgreSQL(_ engine: Engine) async throws {
        let messages = try await engine.write { db in
            try engine.createItems(db, [("Arthur", 10, 3)])
            let name = Column("name")
            let requests: [(String, QueryInterfaceRequest<Item>)] = [
                ("match", Item.filter(name.match(FTS3Pattern(matchingAllTokensIn: "arthur")))),
                ("fts5", Item.filter(name.match(try FTS5Pattern(rawPattern: "arthur")))),
                ("julianDay", Item.filter(julianDay(name) > 0)),
                ("dateTime", Item.select(dateTime(name, .startOfDay))),
                ("lowercased", Item.filter(name.lowercased == "arthur")),
                ("json", Item.filter(Column("name").asJSON["a"] == 1)),
                ("jsonFunction", Item.select(Database.json(name))),
                ("nocase", Item.order(name.collating(.nocase))),
                ("anyCast", Item.select(name.cast(as: .any))),
            ]
            var messages: [String: String] = [:]
            for (key, request) in requests {
                do {
                    _ = try Row.fetchAll(db, request)
                    messages[key] = "ran"
                } catch let error as DatabaseError {
                    messages[key] = error.message ?? ""
                }
            }
            return messages
        }
        switch engine {
        case .sqlite:
            #expect(messages["julianDay"] == "ran")
            #expect(messages["lowercased"] == "ran")
            #expect(messages["nocase"] == "ran")
            #expect(messages["anyCast"] == "ran")
        case .postgreSQL:
            #expect(messages["match"] == "Full-text search (MATCH) is not supported by PostgreSQL: "
                + "FTS3, FTS4 and FTS5 tables are SQLite's")
            #expect(messages["fts5"] == messages["match"])
            #expect(messages["julianDay"] == "JULIANDAY() is not supported by PostgreSQL: "
                + "compute the date in Swift, or write PostgreSQL's date functions in SQL")
            #expect(messages["dateTime"] == "DATETIME() is not supported by PostgreSQL: "
                + "compute the date in Swift, or write PostgreSQL's date functions in SQL")
            #expect(messages["lowercased"] == "swiftLowercaseString() is not supported by PostgreSQL: "
                + "lowercased, uppercased and capitalized call Swift functions of SQLite connections")
            #expect(messages["json"] == "The JSON operator ->> is not supported by PostgreSQL: "
                + "Trellis's JSON functions are SQLite's")
            #expect(messages["jsonFunction"] == "JSON() is not supported by PostgreSQL: "
                + "Trellis's JSON functions are SQLite's")
            #expect(messages["nocase"] == "COLLATE NOCASE is not supported by PostgreSQL")
            #expect(messages["anyCast"] == "The column type ANY is not supported by PostgreSQL")
        }
    }

    @Test(arguments: Engine.available)
    func binaryCollationOrdersLikeSQLite(_ engine: Engine) async throws {
        try await engine.write { db in
            try engine.createItems(db, [("b", 1, nil), ("B", 2, nil), ("a", 3, nil), ("é", 4, nil), ("Z", 5, nil)])
            let names = try String.fetchAll(db, Item.select(Column("name")).order(Column("name").collating(.binary)))
            #expect(names == ["B", "Z", "a", "b", "é"])
        }
    }
}
