import Foundation
import Testing
import Trellis
import TrellisPostgres

// Booleans in the SQL that Trellis writes: SQLite stores a `Bool` as 1 or
// 0, PostgreSQL has a boolean type that refuses integers in `DEFAULT`,
// `WHERE` and `ON`. One test body, run on both engines (see `Engine`).

private struct Account: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Sendable {
    var id: Int64?
    var name: String
    var isActive: Bool

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

@Suite struct SharedBooleanTests {
    @Test(arguments: Engine.available)
    func booleanDefaultsAreWrittenForTheColumnType(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("isActive", .boolean).notNull().defaults(to: true)
                t.column("isArchived", .boolean).notNull().defaults(to: false)
                t.column("isPinned", .boolean).defaults(to: 1)
                // An integer column keeps the integer that a Bool stores.
                t.column("flag", .integer).notNull().defaults(to: true)
            }
            try db.alter(table: "account") { t in
                t.add(column: "isVisible", .boolean).notNull().defaults(to: true)
            }
            try db.execute(sql: "INSERT INTO account (name) VALUES ('Arthur')")
            let row = try #require(try Row.fetchOne(
                db, sql: #"SELECT "isActive", "isArchived", "isPinned", flag, "isVisible" FROM account"#))
            #expect(row["isActive"] as Bool? == true)
            #expect(row["isArchived"] as Bool? == false)
            #expect(row["isPinned"] as Bool? == true)
            #expect(row["flag"] as Int? == 1)
            #expect(row["isVisible"] as Bool? == true)

            let defaults = Dictionary(uniqueKeysWithValues: try db.columns(in: "account").map { ($0.name, $0.defaultValueSQL) })
            switch engine {
            case .sqlite:
                // SQLite's SQL is unchanged: Bool is the integer 1 or 0.
                #expect(defaults["isActive"] == "1")
                #expect(defaults["isArchived"] == "0")
                #expect(defaults["flag"] == "1")
            case .postgreSQL:
                #expect(defaults["isActive"] == "true")
                #expect(defaults["isArchived"] == "false")
                #expect(defaults["flag"] == "1")
            }
        }
    }

    @Test(arguments: Engine.available)
    func theQueryInterfaceComparesBooleanColumns(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("isActive", .boolean).notNull()
            }
            for (name, isActive) in [("Arthur", true), ("Barbara", false), ("Craig", true)] {
                var account = Account(id: nil, name: name, isActive: isActive)
                try account.insert(db)
            }
            let byName = Column("name")
            let isActive = Column("isActive")
            #expect(try Account.filter(isActive == true).order(byName).fetchAll(db).map(\.name) == ["Arthur", "Craig"])
            #expect(try Account.filter(isActive == false).fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try Account.filter(isActive != true).fetchAll(db).map(\.name) == ["Barbara"])
            #expect(try Account.filter(isActive).fetchCount(db) == 2)
            #expect(try Account.filter(!isActive).fetchCount(db) == 1)
            #expect(try Account.filter([true].contains(isActive)).fetchCount(db) == 2)
            #expect(try Account.filter(isActive && byName == "Craig").fetchCount(db) == 1)
            #expect(try Account.filter(byName !== "Arthur").fetchCount(db) == 2)
            #expect(try Account.filter(byName === "Arthur").fetchCount(db) == 1)
            #expect(try Account.filter(isActive == true).updateAll(db, isActive.set(to: false)) == 2)
            #expect(try Account.filter(isActive == false).fetchCount(db) == 3)
            #expect(try Account.filter(isActive === false).deleteAll(db) == 3)
        }
    }

    /// The query interface writes constant conditions for the filters that
    /// match no row or every row, and for joins without a condition.
    @Test(arguments: Engine.available)
    func constantConditionsRunOnBothEngines(_ engine: Engine) async throws {
        try await engine.write { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("isActive", .boolean).notNull()
            }
            for name in ["Arthur", "Barbara"] {
                var account = Account(id: nil, name: name, isActive: true)
                try account.insert(db)
            }
            #expect(try Account.filter(keys: [Int64]()).fetchCount(db) == 0)
            #expect(try Account.filter(key: Int64?.none).fetchOne(db) == nil)
            #expect(try Account.filter([Int64]().contains(Column("id"))).fetchCount(db) == 0)
            #expect(try Account.filter(![Int64]().contains(Column("id"))).fetchCount(db) == 2)
            #expect(try Account.deleteAll(db, keys: [Int64]()) == 0)

            let bestCTE = CommonTableExpression(
                named: "best", request: Account.select(max(Column("id")).forKey("bestId")))
            let rows = try Account.with(bestCTE)
                .including(required: Account.association(to: bestCTE))
                .order(Column("name"))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows.map { $0["name"] as String? } == ["Arthur", "Barbara"])
            #expect(rows.map { $0.scopes["best"]?["bestId"] as Int64? } == [2, 2])
        }
    }
}
