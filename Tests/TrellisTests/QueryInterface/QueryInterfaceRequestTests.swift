import Foundation
import Testing
import Trellis

/// Columns as an enum of `ColumnExpression` cases.
private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    enum Columns: String, ColumnExpression { case id, name, score, team, email, bonus }
    var id: Int64
    var name: String
    var score: Int
    var team: String?
    var email: String?
    var bonus: Int = 0
}

/// Columns as static properties, derived from coding keys.
private struct Gamer: Codable, FetchableRecord, TableRecord, Identifiable {
    static let databaseTableName = "player"
    var id: Int64
    var name: String
    var score: Int
    var team: String?
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
        static let team = Column(CodingKeys.team)
    }
}

/// A table whose name and columns need quoting.
private struct Keyword: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "select"
    var order: String
    var group: Int
    enum Columns {
        static let order = Column("order")
        static let group = Column("group")
    }
}

/// A self-referencing table, for correlated subqueries.
private struct Member: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var coachId: Int64?
    enum Columns {
        static let id = Column("id")
        static let coachId = Column("coachId")
    }
}

@Suite struct QueryInterfaceRequestTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("team", .text)
                t.column("email", .text).unique()
                t.column("bonus", .integer).notNull().defaults(to: 0)
            }
            try Player(id: 1, name: "Arthur", score: 100, team: "red", email: "arthur@example.com", bonus: 10).insert(db)
            try Player(id: 2, name: "Barbara", score: 300, team: "blue", email: nil, bonus: 0).insert(db)
            try Player(id: 3, name: "Craig", score: 200, team: "red", email: "craig@test.org", bonus: 5).insert(db)
            try Player(id: 4, name: "O'Brien", score: 50, team: nil, email: nil, bonus: 0).insert(db)
        }
        return dbQueue
    }

    private func ids(_ db: Database, _ request: QueryInterfaceRequest<Player>) throws -> [Int64] {
        try request.order(Column("id")).fetchAll(db).map(\.id)
    }

    // MARK: all, none

    @Test func allFetchesEveryRowAndNoneNoRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try ids(db, Player.all()) == [1, 2, 3, 4])
            #expect(try Player.none().fetchAll(db).isEmpty)
            #expect(try Player.none().fetchCount(db) == 0)
            #expect(try Player.filter(Column("score") > 0).none().isEmpty(db))
        }
    }

    // MARK: Operators

    @Test func equalityOperatorsAndNilComparisons() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let team = Player.Columns.team
            #expect(try ids(db, Player.filter(team == "red")) == [1, 3])
            #expect(try ids(db, Player.filter("red" == team)) == [1, 3])
            #expect(try ids(db, Player.filter(team != "red")) == [2])  // NULL <> 'red' is not true
            #expect(try ids(db, Player.filter(team == nil)) == [4])
            #expect(try ids(db, Player.filter(team != nil)) == [1, 2, 3])
            let noTeam: String? = nil
            #expect(try ids(db, Player.filter(team == noTeam)) == [4])
            #expect(try ids(db, Player.filter(team === "red")) == [1, 3])
            #expect(try ids(db, Player.filter(team === noTeam)) == [4])
            #expect(try ids(db, Player.filter(team !== "red")) == [2, 4])  // IS NOT includes NULL
            #expect(try ids(db, Player.filter(Column("email") == Column("team"))) == [])
        }
    }

    @Test func comparisonOperators() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let score = Player.Columns.score
            #expect(try ids(db, Player.filter(score < 100)) == [4])
            #expect(try ids(db, Player.filter(score <= 100)) == [1, 4])
            #expect(try ids(db, Player.filter(score > 200)) == [2])
            #expect(try ids(db, Player.filter(score >= 200)) == [2, 3])
            #expect(try ids(db, Player.filter(150 < score)) == [2, 3])
            #expect(try ids(db, Player.filter(Column("bonus") * 20 >= score)) == [1])
            #expect(try ids(db, Player.filter(Column("name") > "C")) == [3, 4])
        }
    }

    @Test func logicalOperators() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let score = Player.Columns.score
            let team = Player.Columns.team
            #expect(try ids(db, Player.filter(score >= 100 && score <= 200)) == [1, 3])
            #expect(try ids(db, Player.filter(score < 100 || team == "blue")) == [2, 4])
            #expect(try ids(db, Player.filter(!(team == "red"))) == [2])
            #expect(try ids(db, Player.filter(!(score > 100 || team == nil) && team == "red")) == [1])
            #expect(try ids(db, Player.filter(team == "red" && (score > 150 || Column("bonus") > 5))) == [1, 3])
            #expect(try ids(db, Player.filter(team == "red").filter(score > 150)) == [3])
            #expect(try ids(db, Player.filter([Column("score") > 50, team != nil].joined(operator: .and))) == [1, 2, 3])
            #expect(try ids(db, Player.filter([score > 250, score < 60].joined(operator: .or))) == [2, 4])
            #expect(try ids(db, Player.filter([SQLExpression]().joined(operator: .and))) == [1, 2, 3, 4])
            #expect(try ids(db, Player.filter([SQLExpression]().joined(operator: .or))) == [])
        }
    }

    @Test func arithmeticOperatorsAndIfNull() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let score = Player.Columns.score
            #expect(try ids(db, Player.filter(score * 2 + 10 == 210)) == [1])
            #expect(try ids(db, Player.filter(score - Column("bonus") == 90)) == [1])
            #expect(try ids(db, Player.filter(score / 100 == 3)) == [2])
            #expect(try ids(db, Player.filter(score % 200 == 100)) == [1, 2])
            #expect(try ids(db, Player.filter(-score < -250)) == [2])
            #expect(try ids(db, Player.filter(10 - score / 10 == 0)) == [1])
            #expect(try ids(db, Player.filter((Column("team") ?? "none") == "none")) == [4])
            #expect(try ids(db, Player.filter((Column("email") ?? Column("team")) == "blue")) == [2])
            let totals = try Int.fetchAll(db, Player.select((score + Column("bonus")).forKey("total")).order(Column("id")))
            #expect(totals == [110, 300, 205, 50])
            let joined = try Int.fetchAll(db, Player.select([score, Column("bonus"), 1000.databaseValue].joined(operator: .add)).order(Column("id")))
            #expect(joined == [1110, 1300, 1205, 1050])
            let product = try Int.fetchOne(db, Player.select([score, 2.databaseValue].joined(operator: .multiply)).filter(key: 1))
            #expect(product == 200)
            let concat = try String.fetchOne(db, Player.select([Column("name"), " / ".databaseValue, Column("team")].joined(operator: .concat)).filter(key: 1))
            #expect(concat == "Arthur / red")
            #expect(try Int.fetchOne(db, Player.select((score & 6).forKey("bits")).filter(key: 1)) == 4)
            #expect(try Int.fetchOne(db, Player.select((Column("bonus") | 1) << 1).filter(key: 1)) == 22)
        }
    }

    @Test func likeAndCollations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try ids(db, Player.filter(Column("email").like("%@example.com"))) == [1])
            #expect(try ids(db, Player.filter(Column("name").like("a%"))) == [1])  // LIKE ignores ASCII case
            try Player(id: 5, name: "100% sure", score: 0).insert(db)
            #expect(try ids(db, Player.filter(Column("name").like("%0\\%%", escape: "\\"))) == [5])
            #expect(try ids(db, Player.filter(Column("name").collating(.nocase) == "arthur")) == [1])
            #expect(try ids(db, Player.filter(Column("name") == "arthur")) == [])
            #expect(try ids(db, Player.filter(Column("name").collating(.caseInsensitiveCompare) == "CRAIG")) == [3])
            let names = try Player.order(Column("name").collating(.localizedCaseInsensitiveCompare)).fetchAll(db).map(\.name)
            #expect(names == ["100% sure", "Arthur", "Barbara", "Craig", "O'Brien"])
        }
    }

    @Test func containsOnArraysSetsAndRanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let score = Player.Columns.score
            #expect(try ids(db, Player.filter([1, 3, 9].contains(Column("id")))) == [1, 3])
            #expect(try ids(db, Player.filter(!([1, 3, 9].contains(Column("id"))))) == [2, 4])
            #expect(try ids(db, Player.filter(Set(["red", "blue"]).contains(Column("team")))) == [1, 2, 3])
            #expect(try ids(db, Player.filter([Int]().contains(Column("id")))) == [])
            #expect(try ids(db, Player.filter(!([Int]().contains(Column("id"))))) == [1, 2, 3, 4])
            #expect(try ids(db, Player.filter((100...200).contains(score))) == [1, 3])
            #expect(try ids(db, Player.filter(!(100...200).contains(score))) == [2, 4])
            #expect(try ids(db, Player.filter((100..<200).contains(score))) == [1])
            #expect(try ids(db, Player.filter(("A"..."C").contains(Column("name")))) == [1, 2])
            #expect(try ids(db, Player.filter(("A"..<"C").contains(Column("name")))) == [1, 2])
            #expect(try ids(db, Player.filter { [2, 4].contains($0.id) }) == [2, 4])
        }
    }

    @Test func sqlLiteralsInsideExpressions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let doubled = SQL("\(Column("score")) * 2").sqlExpression
            #expect(try ids(db, Player.filter(doubled > 300)) == [2, 3])
            #expect(try ids(db, Player.filter(SQL("\(Column("score")) > \(150)") && Column("team") == "red")) == [3])
            #expect(try ids(db, Player.filter {
                let scoreCondition: SQL = "\($0.score) >= \(200)"
                return scoreCondition && $0.team == "red"
            }) == [3])
            #expect(try ids(db, Player.filter(SQLExpression.sql("score + ? > ?", arguments: [50, 300]))) == [2])
            let displayName = SQL("IFNULL(\(Column("team")), \("nobody"))").sqlExpression
            #expect(try String.fetchOne(db, Player.select(displayName.forKey("displayName")).filter(key: 4)) == "nobody")
        }
    }

    @Test func rawSQLFiltersTakeArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try ids(db, Player.filter(sql: "score > ?", arguments: [250])) == [2])
            #expect(try ids(db, Player.filter(sql: "score > :min AND team = :team", arguments: ["min": 150, "team": "red"])) == [3])
            #expect(try ids(db, Player.filter(sql: "team = ?", arguments: ["red"]).filter(sql: "score < ?", arguments: [150])) == [1])
            #expect(try ids(db, Player.filter(literal: "name = \("O'Brien")")) == [4])
            #expect(try ids(db, Player.filter(sql: "score > 250")) == [2])
            let error = #expect(throws: DatabaseError.self) { try Player.filter(sql: "score > ?").fetchAll(db) }
            #expect(error != nil)
        }
    }

    @Test func closureFiltersUseTheRecordColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.filter { $0.name == "Arthur" }.fetchOne(db)?.id == 1)
            #expect(try ids(db, Player.filter { $0.score > 150 && $0.team != nil }) == [2, 3])
            #expect(try Gamer.filter { $0.name == "Arthur" }.fetchOne(db)?.id == 1)
            #expect(try Gamer.filter { $0.team == nil }.fetchAll(db).map(\.name) == ["O'Brien"])
            #expect(try Gamer.all().filter { $0.score < 100 }.fetchCount(db) == 1)
        }
    }

    // MARK: Ordering

    @Test func orderingReversingAndUnordering() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.order(Player.Columns.score.desc).fetchAll(db).map(\.id) == [2, 3, 1, 4])
            #expect(try Player.order(Column("team").desc, Column("score")).fetchAll(db).map(\.id) == [1, 3, 2, 4])
            #expect(try Player.order(Column("team").ascNullsLast, Column("id")).fetchAll(db).map(\.id) == [2, 1, 3, 4])
            #expect(try Player.order(Column("team").descNullsFirst, Column("id")).fetchAll(db).map(\.id) == [4, 1, 3, 2])
            #expect(try Player.order(Column("score")).reversed().fetchAll(db).map(\.id) == [2, 3, 1, 4])
            #expect(try Player.order(Column("score")).reversed().reversed().fetchAll(db).map(\.id) == [4, 1, 3, 2])
            #expect(try Player.order(Column("team").desc, Column("score")).reversed().fetchAll(db).map(\.id) == [4, 2, 3, 1])
            // Each order() replaces the previous ordering, and the reversal.
            #expect(try Player.order(Column("name")).reversed().order(Column("score")).fetchAll(db).map(\.id) == [4, 1, 3, 2])
            #expect(try Player.orderByPrimaryKey().fetchAll(db).map(\.id) == [1, 2, 3, 4])
            #expect(try Player.orderByPrimaryKey().reversed().fetchAll(db).map(\.id) == [4, 3, 2, 1])
            #expect(try Player.order(Column("score")).unordered().order(Column("name").desc).fetchAll(db).map(\.id) == [4, 3, 2, 1])
            #expect(try Gamer.order(\.score.desc).fetchAll(db).map(\.id) == [2, 3, 1, 4])
            #expect(try Gamer.order { [$0.team.desc, $0.score] }.fetchAll(db).map(\.id) == [1, 3, 2, 4])
            #expect(try Player.order(sql: "score % ?", arguments: [200]).order(sql: "name").fetchAll(db).map(\.id) == [1, 2, 3, 4])
            let total = SQL("(\(Column("score")) + \(Column("bonus")))").sqlExpression
            #expect(try Player.order(total.desc).reversed().fetchAll(db).map(\.id) == [4, 1, 3, 2])
        }
    }

    @Test func compositePrimaryKeysOrderAndReverseColumnByColumn() throws {
        struct Citizenship: Codable, FetchableRecord, PersistableRecord {
            var citizenId: Int64
            var countryCode: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode))")
            for (id, code) in [(2, "FR"), (1, "US"), (1, "FR"), (2, "US")] {
                try Citizenship(citizenId: Int64(id), countryCode: code).insert(db)
            }
            let ordered = try Citizenship.orderByPrimaryKey().fetchAll(db).map { "\($0.citizenId)\($0.countryCode)" }
            #expect(ordered == ["1FR", "1US", "2FR", "2US"])
            let reversed = try Citizenship.orderByPrimaryKey().reversed().fetchAll(db).map { "\($0.citizenId)\($0.countryCode)" }
            #expect(reversed == ["2US", "2FR", "1US", "1FR"])
            let keys = try Citizenship.selectPrimaryKey(as: Row.self).orderByPrimaryKey().fetchAll(db)
            #expect(keys.first == ["citizenId": 1, "countryCode": "FR"])
        }
    }

    // MARK: Selection

    @Test func selectAndSelectAs() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.select(Column("name"), as: String.self).order(Column("name")).fetchAll(db) == ["Arthur", "Barbara", "Craig", "O'Brien"])
            #expect(try Player.select(max(Column("score")), as: Int.self).fetchOne(db) == 300)
            #expect(try Gamer.filter(id: 2).select(\.name, as: String.self).fetchOne(db) == "Barbara")
            #expect(try Gamer.select({ max($0.score) }, as: Int.self).fetchOne(db) == 300)
            #expect(try Int.fetchOne(db, Gamer.select { min($0.score) }) == 50)
            let row = try #require(try Row.fetchOne(db, Gamer.select { [min($0.score), max($0.score)] }))
            #expect(row[0] as Int == 50)
            #expect(row[1] as Int == 300)
            #expect(try Player.select(sql: "IFNULL(team, ?)", arguments: ["none"], as: String.self).filter(key: 4).fetchOne(db) == "none")
            #expect(try Player.select(literal: "IFNULL(team, \("none"))", as: String.self).filter(key: 4).fetchOne(db) == "none")
            #expect(try Player.select(Column("name")).select(Column("score"), as: Int.self).filter(key: 1).fetchOne(db) == 100)
            let names: QueryInterfaceRequest<String> = Gamer.all().select(\.name)
            #expect(try names.fetchSet(db) == ["Arthur", "Barbara", "Craig", "O'Brien"])
            #expect(try Player.selectID().fetchAll(db).sorted() == [1, 2, 3, 4])
            #expect(try Player.filter { $0.team == "red" }.selectID().fetchSet(db) == [1, 3])
            #expect(try Player.selectPrimaryKey(as: Int64.self).fetchCount(db) == 4)
            let ordered = try Int.fetchAll(db, Player.select((Column("score") + Column("bonus")).forKey("total")).order(Column("total").detached))
            #expect(ordered == [50, 110, 205, 300])
        }
    }

    @Test func annotatedAppendsToTheSelection() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, Player.annotated(with: (Column("score") * 2).forKey("double")).filter(id: 1)))
            #expect(row["double"] == 200)
            #expect(row["name"] == "Arthur")
            let total = try #require(try Row.fetchOne(db, Gamer.annotated { ($0.score + 1).forKey("next") }.filter(id: 2)))
            #expect(total["next"] == 301)
            #expect(total.count == 7)
        }
    }

    // MARK: Grouping

    @Test func groupAndHaving() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let teams = try Row.fetchAll(db, Player
                .select(Column("team"), count(Column("id")).forKey("n"), sum(Column("score")).forKey("total"))
                .filter(Column("team") != nil)
                .group(Column("team"))
                .having(count(Column("id")) > 1))
            #expect(teams == [["team": "red", "n": 2, "total": 300]])
            let best = try Row.fetchAll(db, Gamer
                .select { [$0.team, max($0.score)] }
                .group(\.team)
                .having { min($0.score) >= 100 }
                .order(Column("team")))
            #expect(best.map { $0[0] as String? } == ["blue", "red"])
            #expect(try Player.group(sql: "team").having(sql: "COUNT(*) = ?", arguments: [1]).fetchCount(db) == 2)
            #expect(try Gamer.all().group { [$0.team] }.fetchCount(db) == 3)
        }
    }

    // MARK: Distinct, limit, counting, existence

    @Test func distinctLimitAndOffset() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.select(Column("team"), as: String?.self).filter(Column("team") != nil).distinct().order(Column("team")).fetchAll(db) == ["blue", "red"])
            #expect(try Player.orderByPrimaryKey().limit(2).fetchAll(db).map(\.id) == [1, 2])
            #expect(try Player.orderByPrimaryKey().limit(2, offset: 1).fetchAll(db).map(\.id) == [2, 3])
            #expect(try Player.orderByPrimaryKey().limit(5, offset: 3).fetchAll(db).map(\.id) == [4])
            // The last limit wins.
            #expect(try Player.orderByPrimaryKey().limit(1).limit(3).fetchAll(db).count == 3)
            #expect(try Player.order(Column("score").desc).fetchOne(db)?.id == 2)
        }
    }

    @Test func fetchCountCountsWhatWouldBeFetched() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.fetchCount(db) == 4)
            #expect(try Player.filter(Column("score") > 60).fetchCount(db) == 3)
            #expect(try Player.filter { $0.email != nil }.fetchCount(db) == 2)
            #expect(try Player.select(Column("bonus")).distinct().fetchCount(db) == 3)
            #expect(try Player.select(Column("team"), Column("bonus")).distinct().fetchCount(db) == 4)
            #expect(try Player.limit(2).fetchCount(db) == 2)
            #expect(try Player.limit(10, offset: 3).fetchCount(db) == 1)
            #expect(try Player.filter(Column("team") != nil).group(Column("team")).fetchCount(db) == 2)
            #expect(try Player.order(Column("name")).fetchCount(db) == 4)
            #expect(try Player.none().fetchCount(db) == 0)
        }
    }

    @Test func existsAndIsEmpty() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.filter(Column("score") > 1000).isEmpty(db))
            #expect(try !Player.filter(Column("score") > 1000).exists(db))
            #expect(try Player.filter(Column("score") > 250).exists(db))
            #expect(try !Player.all().isEmpty(db))
            #expect(try Player.all().limit(1, offset: 10).isEmpty(db))
        }
    }

    // MARK: Batch updates and deletes

    @Test func deleteAllDeletesTheRowsOfTheRequest() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try Player.filter { $0.team == "red" }.filter(Column("score") > 150).deleteAll(db) == 1)
            #expect(try Player.order(Column("score")).limit(1).deleteAll(db) == 1)
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM player ORDER BY id") == [1, 2])
            #expect(try Player.filter(sql: "name = ?", arguments: ["Nobody"]).deleteAll(db) == 0)
            #expect(try Player.deleteAll(db) == 2)
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func updateAllAssignsColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(try Player.filter(Column("team") == "red").updateAll(db, Column("score") += 10) == 2)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [110, 300, 210, 50])
            #expect(try Player.updateAll(db, Column("team").set(to: "none"), Column("email").set(to: nil)) == 4)
            #expect(try String.fetchAll(db, sql: "SELECT DISTINCT team FROM player") == ["none"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(email) FROM player") == 0)
            try Player.filter(key: 1).updateAll(db, Column("score") -= 10)
            try Player.filter(key: 2).updateAll(db, Column("score") *= 2)
            try Player.filter(key: 3).updateAll(db, Column("score") /= 2)
            try Player.filter(key: 4).updateAll(db, Column("score").set(to: Column("score") + Column("bonus") * 2 + 1))
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [100, 600, 105, 51])
            #expect(try Player.updateAll(db) { $0.bonus.set(to: 7) } == 4)
            #expect(try Player.filter { $0.id <= 2 }.updateAll(db) { [$0.score.set(to: 0), $0.bonus += 1] } == 2)
            #expect(try Row.fetchAll(db, sql: "SELECT score, bonus FROM player WHERE id <= 2") == [["score": 0, "bonus": 8], ["score": 0, "bonus": 8]])
            #expect(try Player.order(Column("score").desc).limit(1).updateAll(db) { $0.name.set(to: "Top") } == 1)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 3") == "Top")
            #expect(try Player.updateAll(db, [ColumnAssignment]()) == 0)
        }
    }

    @Test func batchOperationsCanReturnTheChangedRecords() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let updated = try Player.filter { $0.team == "red" }.updateAndFetchAll(db) { [$0.score += 10] }
            #expect(updated.map(\.score).sorted() == [110, 210])
            let renamed = try Player.filter(key: 4).updateAndFetchAll(db, [Column("name").set(to: "Obi")])
            #expect(renamed.map(\.name) == ["Obi"])
            #expect(try Player.all().updateAndFetchAll(db, [ColumnAssignment]()).isEmpty)
            let deleted = try Player.filter(Column("score") > 200).deleteAndFetchAll(db)
            #expect(deleted.map(\.id).sorted() == [2, 3])
            #expect(try Player.fetchCount(db) == 2)
            #expect(try Player.deleteAndFetchAll(db).count == 2)
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func limitedBatchOperationsWorkOnWithoutRowIDTables() throws {
        struct Pair: Codable, FetchableRecord, PersistableRecord {
            var a: Int
            var b: Int
            var label: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE pair (a INTEGER, b INTEGER, label TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID")
            for (a, b) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
                try Pair(a: a, b: b, label: "x").insert(db)
            }
            #expect(try Pair.orderByPrimaryKey().limit(2).updateAll(db, Column("label").set(to: "first")) == 2)
            #expect(try String.fetchAll(db, sql: "SELECT label FROM pair ORDER BY a, b") == ["first", "first", "x", "x"])
            #expect(try Pair.orderByPrimaryKey().reversed().limit(1).deleteAll(db) == 1)
            #expect(try Row.fetchAll(db, sql: "SELECT a, b FROM pair ORDER BY a, b") == [["a": 1, "b": 1], ["a": 1, "b": 2], ["a": 2, "b": 1]])
        }
    }

    @Test func updateAllFollowsTheConflictResolution() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) {
                try Player.updateAll(db, Column("email").set(to: "same@example.com"))
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(try Player.updateAll(db, onConflict: .ignore, Column("email").set(to: "same@example.com")) == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE email = 'same@example.com'") == 1)
        }
    }

    // MARK: Subqueries

    @Test func subqueries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let best = Player.select(max(Column("score")))
            #expect(try Player.filter(Column("score") == best).fetchAll(db).map(\.name) == ["Barbara"])
            let maximumScore = Gamer.select { max($0.score) }
            #expect(try Gamer.filter { $0.score == maximumScore }.fetchOne(db)?.name == "Barbara")
            let redIds = Player.select(Column("id")).filter(Column("team") == "red")
            #expect(try ids(db, Player.filter(redIds.contains(Column("id")))) == [1, 3])
            #expect(try ids(db, Player.filter(!redIds.contains(Column("id")))) == [2, 4])
            let sqlBest = SQLRequest<Int>(sql: "SELECT MAX(score) FROM player")
            #expect(try ids(db, Player.filter(Column("score") == sqlBest)) == [2])
            let sqlIds = SQLRequest(sql: "SELECT id FROM player WHERE team = ?", arguments: ["blue"])
            #expect(try ids(db, Player.filter(sqlIds.contains(Column("id")))) == [2])
            #expect(try ids(db, Player.filter(Player.filter(Column("score") > 1000).exists())) == [])
            #expect(try ids(db, Player.filter(!Player.filter(Column("score") > 1000).exists())) == [1, 2, 3, 4])
        }
    }

    @Test func tableAliasesLetSubqueriesReferToTheOuterTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT NOT NULL, coachId INTEGER REFERENCES member(id))")
            try Member(id: 1, name: "Coach", coachId: nil).insert(db)
            try Member(id: 2, name: "Assistant", coachId: 1).insert(db)
            try Member(id: 3, name: "Player", coachId: 2).insert(db)
            try Member(id: 4, name: "Loner", coachId: nil).insert(db)

            let coachAlias = TableAlias<Member>(name: "coach")
            let coachedMember = Member.filter { $0.coachId == coachAlias.id }
            let coaches = try Member.aliased(coachAlias).filter(coachedMember.exists()).order(Column("id")).fetchAll(db)
            #expect(coaches.map(\.name) == ["Coach", "Assistant"])
            let nonCoaches = try Member.aliased(coachAlias).filter(!coachedMember.exists()).order(Column("id")).fetchAll(db)
            #expect(nonCoaches.map(\.name) == ["Player", "Loner"])

            let sqlCoached: SQLRequest<Row> = "SELECT * FROM member WHERE coachId = \(coachAlias.id)"
            #expect(try Member.aliased(coachAlias).filter(sqlCoached.exists()).fetchCount(db) == 2)

            let teamAlias = TableAlias<Member>()
            let subordinates = Member.filter(Column("coachId") == teamAlias[Column("id")]).select(count(Column("id")))
            let counts = try Int.fetchAll(db, Member.aliased(teamAlias).select(subordinates.forKey("n")).order(Column("id")))
            #expect(counts == [1, 1, 0, 0])
        }
    }

    @Test func keyFiltersAndPrimaryKeyOrderingsWorkOnJoinedRequests() throws {
        struct Author: Codable, FetchableRecord, PersistableRecord, Identifiable {
            var id: Int64
            var name: String
        }
        struct Book: Codable, FetchableRecord, PersistableRecord, Identifiable {
            static let author = belongsTo(Author.self)
            var id: Int64
            var authorId: Int64
            var title: String
        }
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Author
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
                INSERT INTO author VALUES (1, 'Melville'), (2, 'Orwell');
                INSERT INTO book VALUES (1, 2, '1984'), (2, 1, 'Moby-Dick'), (3, 2, 'Animal Farm');
                """)
            // Both tables have an "id" column: key filters, selected ids and
            // primary key orderings must name the book table.
            let request = Book.including(required: Book.author).asRequest(of: BookInfo.self)
            #expect(try request.filter(key: 2).fetchOne(db)?.author.name == "Melville")
            #expect(try request.filter(keys: [1, 3]).fetchAll(db).map(\.book.title).sorted() == ["1984", "Animal Farm"])
            #expect(try request.orderByPrimaryKey().reversed().fetchAll(db).map(\.book.id) == [3, 2, 1])
            #expect(try Book.joining(required: Book.author.filter(Column("name") == "Orwell")).selectID().fetchAll(db).sorted() == [1, 3])
            // Columns interpolated in SQL literals belong to the book table too.
            #expect(try request.filter(SQL("\(Column("id")) = \(3)")).fetchOne(db)?.book.title == "Animal Farm")
            #expect(try request.order(SQL("\(Column("id"))").sqlExpression.desc).fetchAll(db).map(\.book.id) == [3, 2, 1])
        }
    }

    // MARK: SQLRequest

    @Test func sqlRequestsBindInterpolatedValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let name = "O'Brien"
            let request: SQLRequest<Player> = "SELECT * FROM player WHERE name = \(name)"
            #expect(try request.fetchOne(db)?.id == 4)
            let ids = [1, 3]
            let inList = SQLRequest<Player>("SELECT \(columnsOf: Player.self) FROM \(Player.self) WHERE \(Column("id")) IN \(ids) ORDER BY id")
            #expect(try inList.fetchAll(db).map(\.id) == [1, 3])
            let notIn = SQLRequest<Int64>("SELECT id FROM player WHERE id NOT IN \([Int]()) ORDER BY \(Column("id").desc)")
            #expect(try notIn.fetchAll(db) == [4, 3, 2, 1])
            let maximumScore = Player.select(max(Column("score")))
            let best = SQLRequest<String>("SELECT name FROM player WHERE score = (\(maximumScore))")
            #expect(try best.fetchOne(db) == "Barbara")
            let sqlMaximum = SQLRequest<Int>("SELECT MAX(score) FROM player")
            #expect(try SQLRequest<String>("SELECT name FROM player WHERE score = (\(sqlMaximum))").fetchOne(db) == "Barbara")
            let redIds = Player.select(Column("id")).filter(Column("team") == "red")
            #expect(try SQLRequest<Int>("SELECT COUNT(*) FROM player WHERE id IN (\(redIds))").fetchOne(db) == 2)
            let sorted = SQLRequest<String>("SELECT name FROM player ORDER BY name COLLATE \(.nocase) DESC LIMIT 1")
            #expect(try sorted.fetchOne(db) == "O'Brien")
            let localized = SQLRequest<String>("SELECT name FROM player ORDER BY name COLLATE \(.localizedCaseInsensitiveCompare)")
            #expect(try localized.fetchAll(db).first == "Arthur")
            let condition: SQL = "team = \("red")"
            #expect(try SQLRequest<Int>("SELECT COUNT(*) FROM player WHERE \(literal: condition)").fetchOne(db) == 2)
            #expect(try SQLRequest<Int>("SELECT COUNT(*) FROM \(sql: "player") WHERE \(sql: "score > ?", arguments: [150])").fetchOne(db) == 2)
            let rows = try SQLRequest(sql: "SELECT name FROM player WHERE score > ?", arguments: [250]).fetchAll(db)
            #expect(rows == [["name": "Barbara"]])
            #expect(try SQLRequest<Player>(sql: "SELECT * FROM player").fetchCount(db) == 4)
        }
    }

    // MARK: Safety

    @Test func valuesAreBoundAndIdentifiersQuoted() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "select") { t in
                t.column("order", .text)
                t.column("group", .integer)
            }
            let hostile = "x'); DROP TABLE \"select\"; --"
            try Keyword(order: hostile, group: 1).insert(db)
            try Keyword(order: "O'Brien", group: 2).insert(db)
            #expect(try Keyword.filter(Column("order") == hostile).fetchCount(db) == 1)
            #expect(try Keyword.filter { $0.order == "O'Brien" }.fetchOne(db)?.group == 2)
            #expect(try Keyword.filter(Column("order").like("%'%")).fetchCount(db) == 2)
            #expect(try Keyword.select(Column("group"), as: Int.self).order(Column("order").desc).fetchAll(db) == [1, 2])
            #expect(try Keyword.group(Column("order")).fetchCount(db) == 2)
            #expect(try Keyword.filter(Column("group") == 2).updateAll(db, Column("order").set(to: "Robert'); --")) == 1)
            #expect(try String.fetchOne(db, sql: "SELECT \"order\" FROM \"select\" WHERE \"group\" = 2") == "Robert'); --")
            #expect(try SQLRequest<Int>("SELECT \(Column("group")) FROM \(Keyword.self) WHERE \(Column("order")) = \(hostile)").fetchOne(db) == 1)
            #expect(try Keyword.filter(Column("order") == hostile).deleteAll(db) == 1)
            #expect(try db.tableExists("select"))
            #expect(try Keyword.fetchCount(db) == 1)
        }
    }

    @Test func badInputIsAClearErrorAndTheConnectionStaysUsable() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let unknownColumn = #expect(throws: DatabaseError.self) { try Player.filter(Column("nope") == 1).fetchAll(db) }
            #expect(unknownColumn?.message == "no such column: nope")
            let unknownOrder = #expect(throws: DatabaseError.self) { try Player.order(Column("nope")).fetchAll(db) }
            #expect(unknownOrder?.message?.contains("nope") == true)
            struct Ghost: Codable, FetchableRecord, PersistableRecord { var id: Int64 }
            let missingTable = #expect(throws: DatabaseError.self) { try Ghost.fetchAll(db) }
            #expect(missingTable?.message == "no such table: ghost")
            #expect(throws: DatabaseError.self) { try Ghost.filter(Column("id") == 1).fetchAll(db) }
            struct Strict: Decodable, FetchableRecord { var team: String }
            let null = #expect(throws: RowDecodingError.self) { try Strict.fetchAll(db, sql: "SELECT team FROM player ORDER BY id") }
            #expect(null?.description.contains("team") == true)
            #expect(try Player.fetchCount(db) == 4)
        }
    }
}
