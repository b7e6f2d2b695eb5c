import Foundation
import Testing
import Trellis

// Behaviours that GRDB 7's documentation describes precisely: batch
// updates and deletes, the Table type, SQL literals, values and dates,
// persistence methods and callbacks, errors, migrations, introspection,
// association aggregates.

private struct DocPlayer: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    static let databaseTableName = "player"
    var id: Int64
    var name: String?
    var score: Int?
    var bonus: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
        static let bonus = Column(CodingKeys.bonus)
    }
}

private func makePlayers() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db throws in
        try db.execute(sql: """
            CREATE TABLE player(
              id INTEGER PRIMARY KEY,
              name TEXT,
              score INTEGER,
              bonus INTEGER NOT NULL DEFAULT 0,
              team TEXT);
            INSERT INTO player VALUES (1, 'Arthur', 100, 1, 'red');
            INSERT INTO player VALUES (2, 'Barbara', 200, 2, 'blue');
            INSERT INTO player VALUES (3, 'Craig', NULL, 3, 'red');
            INSERT INTO player VALUES (4, NULL, 50, 0, NULL);
            """)
    }
    return dbQueue
}

@Suite struct GRDBDocumentedBehaviorTests {

    // MARK: - Table

    @Test func tableDeleteAllReturnsCount() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            #expect(try Table("player").filter(Column("team") == "red").deleteAll(db) == 2)
            #expect(try Table("player").deleteAll(db) == 2)
            #expect(try Table("player").fetchCount(db) == 0)
        }
    }

    @Test func tableFetchAndUpdate() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            #expect(try Table("player").fetchCount(db) == 4)
            let rows = try Table("player").order(Column("id")).fetchAll(db)
            #expect(rows.count == 4)
            #expect(rows[0]["name"] as String? == "Arthur")
            let players = try Table<DocPlayer>("player").order(Column("id")).fetchAll(db)
            #expect(players.map(\.id) == [1, 2, 3, 4])
            #expect(try Table("player").updateAll(db, [Column("bonus").set(to: 7)]) == 4)
            #expect(try Int.fetchAll(db, sql: "SELECT bonus FROM player") == [7, 7, 7, 7])
        }
    }

    @Test func tableExistsAndDeleteByKey() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            #expect(try Table("player").exists(db, key: 1))
            #expect(try !Table("player").exists(db, key: 99))
            #expect(try Table("player").deleteOne(db, key: 1))
            #expect(try !Table("player").deleteOne(db, key: 1))
            #expect(try Table("player").deleteAll(db, keys: [2, 3, 99]) == 2)
            #expect(try Table("player").fetchCount(db) == 1)
        }
    }

    // MARK: - Batch updates

    @Test func updateAllCompoundAssignments() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            // The count is read outside of `#expect`: in Swift 6.3, a closure
            // inside `#expect` inside a closure can take the place of the
            // next closure of that closure.
            let count = try DocPlayer.updateAll(db) { $0.score += 10 }
            #expect(count == 4)
            #expect(try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [110, 210, nil, 60])
            try DocPlayer.updateAll(db) { $0.score *= 2 }
            let afterMultiply = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterMultiply == [220, 420, nil, 120])
            try DocPlayer.updateAll(db) { $0.score -= 20 }
            let afterSubtract = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterSubtract == [200, 400, nil, 100])
            try DocPlayer.updateAll(db) { $0.score /= 2 }
            let afterDivide = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterDivide == [100, 200, nil, 50])
            // UPDATE player SET score = score + (bonus * 2)
            try DocPlayer.updateAll(db) { $0.score += $0.bonus * 2 }
            let afterExpression = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterExpression == [102, 204, nil, 50])
        }
    }

    @Test func updateAllSetToNilAndSeveralAssignments() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            let count = try DocPlayer.filter { $0.id == 1 }.updateAll(db) { [
                $0.score.set(to: 0),
                $0.name.set(to: nil),
            ] }
            #expect(count == 1)
            let row = try Row.fetchOne(db, sql: "SELECT name, score FROM player WHERE id = 1")!
            #expect(row["name"] as String? == nil)
            #expect(row["score"] as Int? == 0)
        }
    }

    @Test func updateAllWithOrderAndLimit() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            let count = try DocPlayer.order(\.id.desc).limit(2).updateAll(db) { $0.bonus.set(to: 99) }
            #expect(count == 2)
            #expect(try Int.fetchAll(db, sql: "SELECT bonus FROM player ORDER BY id") == [1, 2, 99, 99])
        }
    }

    @Test func deleteAllWithOrderAndLimit() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            #expect(try DocPlayer.order(\.bonus.desc).limit(1).deleteAll(db) == 1)
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM player ORDER BY id") == [1, 2, 4])
        }
    }

    @Test func updateAllOrIgnoreCountsUpdatedRows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "item") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).unique()
            }
            try db.execute(sql: "INSERT INTO item(name) VALUES ('a'), ('b'), ('c')")
            let count = try Table("item").updateAll(db, onConflict: .ignore, [Column("name").set(to: "z")])
            #expect(count == 1)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id") == ["z", "b", "c"])
        }
    }

    @Test func deleteByKeysAndIdsReturnValues() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            #expect(try DocPlayer.deleteOne(db, id: 1))
            #expect(try !DocPlayer.deleteOne(db, id: 1))
            #expect(try DocPlayer.deleteAll(db, ids: [2, 42]) == 1)
            #expect(try DocPlayer.deleteAll(db, keys: [3, 4]) == 2)
            #expect(try DocPlayer.deleteAll(db) == 0)
        }
    }

    // MARK: - Requests

    @Test func joinedOperatorOnEmptySequences() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let empty: [SQLExpression] = []
            let request = SQLRequest<Row>(literal: """
                SELECT \(empty.joined(operator: .add)), \(empty.joined(operator: .multiply)),
                       \(empty.joined(operator: .concat)), \(empty.joined(operator: .and)),
                       \(empty.joined(operator: .or))
                """)
            let row = try request.fetchOne(db)!
            #expect(row[0] as Int == 0)
            #expect(row[1] as Int == 1)
            #expect(row[2] as String == "")
            #expect(row[3] as Bool == true)
            #expect(row[4] as Bool == false)
        }
    }

    @Test func reversedWithoutOrderingHasNoEffect() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            #expect(try DocPlayer.all().reversed().fetchAll(db).map(\.id) == [1, 2, 3, 4])
        }
    }

    @Test func orderAndLimitReplacePreviousOnes() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let ids = try DocPlayer
                .order(\.name)
                .reversed()
                .order(\.bonus.desc)
                .limit(20, offset: 40)
                .limit(2)
                .fetchAll(db).map(\.id)
            #expect(ids == [3, 2])
        }
    }

    @Test func fetchOneKeepsOffset() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let player = try DocPlayer.order(\.id).limit(2, offset: 1).fetchOne(db)
            #expect(player?.id == 2)
        }
    }

    @Test func rangesAndIsOperator() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            #expect(try DocPlayer.filter { (0..<100).contains($0.score) }.fetchAll(db).map(\.id) == [4])
            #expect(try DocPlayer.filter { (50...100).contains($0.score) }.order(\.id).fetchAll(db).map(\.id) == [1, 4])
            #expect(try DocPlayer.filter { $0.score === 100 }.fetchAll(db).map(\.id) == [1])
            #expect(try DocPlayer.filter { $0.score == nil }.fetchAll(db).map(\.id) == [3])
            #expect(try DocPlayer.filter { ![1, 2, 3].contains($0.id) }.fetchAll(db).map(\.id) == [4])
            #expect(try DocPlayer.filter { ("A"..<"C").contains($0.name) }.order(\.id).fetchAll(db).map(\.id) == [1, 2])
        }
    }

    @Test func likeIsCaseInsensitiveAndEscapes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE book(title TEXT); INSERT INTO book VALUES ('Save 10%!'), ('Save 100 euros')")
            #expect(try Table("book").filter(Column("title").like("save%")).fetchCount(db) == 2)
            #expect(try Table("book").filter(Column("title").like("%10\\%%", escape: "\\")).fetchCount(db) == 1)
        }
    }

    @Test func unicodeStringFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.uppercase.name)('Jérôme')") == "JÉRÔME")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.lowercase.name)('JÉRÔME')") == "jérôme")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.capitalize.name)('jérôme dupont')") == "Jérôme Dupont")
            try db.execute(sql: "CREATE TABLE person(name TEXT); INSERT INTO person VALUES ('jérôme')")
            let name = Column("name")
            #expect(try String.fetchOne(db, Table("person").select(name.uppercased)) == "JÉRÔME")
            #expect(try String.fetchOne(db, Table("person").select(name.capitalized)) == "Jérôme")
            #expect(try String.fetchOne(db, Table("person").select(name.uppercased.lowercased)) == "jérôme")
        }
    }

    @Test func collations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE person(name TEXT); INSERT INTO person VALUES ('b'), ('Élodie'), ('A'), ('c')")
            let name = Column("name")
            #expect(try Table("person").filter(name.collating(.caseInsensitiveCompare) == "ÉLODIE").fetchCount(db) == 1)
            #expect(try Table("person").filter(name.collating(.nocase) == "B").fetchCount(db) == 1)
            let sorted = try String.fetchAll(db, Table("person").select(name).order(name.collating(.localizedCaseInsensitiveCompare)))
            #expect(sorted == ["A", "b", "c", "Élodie"])
            let sortedDesc = try String.fetchAll(db, Table("person").select(name).order(name.collating(.localizedCaseInsensitiveCompare).desc))
            #expect(sortedDesc == ["Élodie", "c", "b", "A"])
        }
    }

    @Test func nullsOrdering() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            #expect(try DocPlayer.order(\.score.ascNullsLast).fetchAll(db).map(\.id) == [4, 1, 2, 3])
            #expect(try DocPlayer.order(\.score.descNullsFirst).fetchAll(db).map(\.id) == [3, 2, 1, 4])
            #expect(try DocPlayer.order(\.score.ascNullsLast).reversed().fetchAll(db).map(\.id) == [3, 2, 1, 4])
        }
    }

    @Test func aggregateFunctions() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, DocPlayer.select { [
                min($0.score), max($0.score), sum($0.score), total($0.score), average($0.score),
                count($0.score), count(distinct: $0.bonus), count($0.name),
            ] })!
            #expect(row[0] as Int == 50)
            #expect(row[1] as Int == 200)
            #expect(row[2] as Int == 350)
            #expect(row[3] as Double == 350.0)
            #expect(abs((row[4] as Double) - 350.0 / 3) < 1e-9)
            #expect(row[5] as Int == 3)
            #expect(row[6] as Int == 4)
            #expect(row[7] as Int == 3)

            let empty = DocPlayer.filter { $0.id > 100 }
            #expect(try empty.select({ sum($0.score) }, as: Int.self).fetchOne(db) == nil)
            #expect(try empty.select({ total($0.score) }, as: Double.self).fetchOne(db) == 0.0)
            #expect(try empty.select({ max($0.score) }, as: Int.self).fetchOne(db) == nil)
            #expect(try empty.select({ count($0.score) }, as: Int.self).fetchOne(db) == 0)
        }
    }

    @Test func scalarFunctions() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            try db.execute(sql: "UPDATE player SET bonus = -5 WHERE id = 4")
            let request = DocPlayer.order(\.id).select { [
                length($0.name), abs($0.bonus), $0.name ?? "Anonymous",
                (cast($0.bonus, as: .real) / 2).forKey("half"),
                ($0.score ?? $0.bonus),
            ] }
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0[0] as Int? } == [6, 7, 5, nil])
            #expect(rows.map { $0[1] as Int } == [1, 2, 3, 5])
            #expect(rows.map { $0[2] as String } == ["Arthur", "Barbara", "Craig", "Anonymous"])
            #expect(rows.map { $0["half"] as Double } == [0.5, 1.0, 1.5, -2.5])
            #expect(rows.map { $0[4] as Int } == [100, 200, 3, 50])
        }
    }

    @Test func sqlExpressionLiteralAndDetachedColumn() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let defaultName = "O'Brien"
            let rows = try Row.fetchAll(db, DocPlayer.order(\.id).select {
                let displayName = SQL("IFNULL(\($0.name), \(defaultName))").sqlExpression
                return [displayName.forKey("displayName"), $0.score]
            })
            #expect(rows.map { $0["displayName"] as String } == ["Arthur", "Barbara", "Craig", "O'Brien"])

            let totals = try Row.fetchAll(db, DocPlayer
                .select { ($0.score + $0.bonus).forKey("total") }
                .order(Column("total").detached.desc))
            #expect(totals.map { $0["total"] as Int? } == [202, 101, 50, nil])

            let ordered = try DocPlayer
                .order {
                    let total = SQL("(\($0.bonus) * 10 - \($0.id))").sqlExpression
                    return [total.desc]
                }
                .reversed()
                .fetchAll(db)
            #expect(ordered.map(\.id) == [4, 1, 2, 3])
        }
    }

    @Test func selectAsAndAsRequestAndFetchSet() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let names = try DocPlayer.select(\.name, as: String?.self).distinct().fetchSet(db)
            #expect(names == ["Arthur", "Barbara", "Craig", nil])
            let maxScore = try DocPlayer.select({ max($0.score) }, as: Int.self).fetchOne(db)
            #expect(maxScore == 200)
            let teams = try DocPlayer.select(Column("team"), as: String?.self).distinct().fetchSet(db)
            #expect(teams == ["red", "blue", nil])
            let players = try DocPlayer.all().fetchSet(db)
            #expect(players.count == 4)
            struct Named: Decodable, FetchableRecord, Hashable { var name: String? }
            let named = try DocPlayer.filter { $0.id <= 2 }.asRequest(of: Named.self).fetchAll(db)
            #expect(Set(named.map(\.name)) == ["Arthur", "Barbara"])
            #expect(try DocPlayer.filter { $0.id > 100 }.isEmpty(db))
            #expect(try !DocPlayer.filter { $0.id == 1 }.isEmpty(db))
            #expect(try DocPlayer.order(\.id.desc).selectID().fetchAll(db) == [4, 3, 2, 1])
            #expect(try Int64.fetchAll(db, DocPlayer.order(\.id).selectPrimaryKey(as: Int64.self)) == [1, 2, 3, 4])
        }
    }

    @Test func annotatedWithExpressionKeepsAllColumns() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, DocPlayer.filter(id: 1).annotated { ($0.score + $0.bonus).forKey("total") })!
            #expect(row["total"] as Int == 101)
            #expect(row["name"] as String == "Arthur")
            #expect(row["team"] as String == "red")
        }
    }

    // MARK: - databaseSelection

    private struct NoScorePlayer: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["score", "team"])] }
        var id: Int64
    }

    private struct ExtendedPlayer: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
        var id: Int64
    }

    private struct AltPlayer: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
        var id: Int64
    }

    @Test func databaseSelectionVariants() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, NoScorePlayer.filter(key: 1))!
            #expect(Set(row.columnNames) == ["id", "name", "bonus"])
            let extended = try Row.fetchOne(db, ExtendedPlayer.filter(key: 2))!
            #expect(extended.columnNames.count == 6)
            #expect(extended[5] as Int64 == 2)
        }
    }

    @Test func columnsOfInterpolation() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let request: SQLRequest<Row> = "SELECT \(columnsOf: AltPlayer.self) FROM player WHERE id = 1"
            let row = try request.fetchOne(db)!
            #expect(row.columnNames == ["id", "name"])
            let aliased: SQLRequest<Row> = "SELECT \(columnsOf: AltPlayer.self, tableAlias: "p") FROM player p WHERE p.id = 2"
            #expect(try aliased.fetchOne(db)?["name"] as String? == "Barbara")
            let table = Table("player")
            let count: SQLRequest<Int> = "SELECT COUNT(*) FROM \(table)"
            #expect(try count.fetchOne(db) == 4)
            let player = try DocPlayer.find(db, id: 1)
            let byTableOf: SQLRequest<Int> = "SELECT COUNT(*) FROM \(tableOf: player)"
            #expect(try byTableOf.fetchOne(db) == 4)
        }
    }

    // MARK: - SQL literal

    @Test func sqlLiteralBuild() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let name = "O'Brien"
            let id = 42
            let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
            let (sql, arguments) = try query.build(db)
            #expect(sql == "UPDATE player SET name = ? WHERE id = ?")
            #expect(arguments == ["O'Brien", 42])

            var composed: SQL = "UPDATE player "
            composed += "SET name = \(name) "
            composed.append(literal: "WHERE id = \(id)")
            #expect(try composed.build(db).0 == "UPDATE player SET name = ? WHERE id = ?")

            let components: [SQL] = ["UPDATE player", "SET name = \(name)", "WHERE id = \(id)"]
            let joined = try components.joined(separator: " ").build(db)
            #expect(joined.0 == "UPDATE player SET name = ? WHERE id = ?")
            #expect(joined.1 == ["O'Brien", 42])

            let plain = SQL(sql: "SELECT ? + ?", arguments: [1, 2])
            #expect(try Int.fetchOne(db, SQLRequest<Int>(literal: plain)) == 3)
        }
    }

    @Test func sqlInterpolationReference() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let empty: [Int] = []
            let none: SQLRequest<Int> = "SELECT COUNT(*) FROM player WHERE id IN \(empty)"
            #expect(try none.fetchOne(db) == 0)
            let all: SQLRequest<Int> = "SELECT COUNT(*) FROM player WHERE id NOT IN \(empty)"
            #expect(try all.fetchOne(db) == 4)
            let some: SQLRequest<Int> = "SELECT COUNT(*) FROM player WHERE id IN \([1, 2, 3])"
            #expect(try some.fetchOne(db) == 3)

            let condition: SQL = "name = \("Arthur")"
            let lit: SQLRequest<Int> = "SELECT id FROM player WHERE \(literal: condition)"
            #expect(try lit.fetchOne(db) == 1)
            let plain: SQLRequest<Int> = "SELECT id FROM \(sql: "player") WHERE \(sql: "name = ?", arguments: ["Barbara"])"
            #expect(try plain.fetchOne(db) == 2)

            let ordered: SQLRequest<Int> = "SELECT id FROM player WHERE name IS NOT NULL ORDER BY \(Column("name").desc)"
            #expect(try ordered.fetchAll(db) == [3, 2, 1])

            let bonus = 100
            let points: SQLRequest<Int> = "SELECT \(Column("score") + bonus) AS points FROM player WHERE id = 1"
            #expect(try points.fetchOne(db) == 200)

            let subquery = DocPlayer.select { max($0.score) }
            let best: SQLRequest<Int> = "SELECT id FROM player WHERE score = (\(subquery))"
            #expect(try best.fetchOne(db) == 2)

            let cte = CommonTableExpression<Void>(named: "name", literal: "SELECT \("O'Brien")")
            let withCTE: SQLRequest<String> = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
            #expect(try withCTE.fetchOne(db) == "O'Brien")

            let collated: SQLRequest<String> = "SELECT name FROM player WHERE name = 'arthur' COLLATE \(.nocase)"
            #expect(try collated.fetchOne(db) == "Arthur")
        }
    }

    @Test func queryInterfaceLiterals() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { db throws in
            let defaultName = "O'Brien"
            let rows = try Row.fetchAll(db, DocPlayer.select(literal: "IFNULL(name, \(defaultName)), score").order(\.id))
            #expect(rows.last?[0] as String? == "O'Brien")
            let rows2 = try Row.fetchAll(db, DocPlayer.select(sql: "IFNULL(name, ?), score", arguments: [defaultName]).order(\.id))
            #expect(rows2.last?[0] as String? == "O'Brien")
            #expect(try DocPlayer.filter(literal: "score >= \(100)").fetchCount(db) == 2)
            #expect(try DocPlayer.filter(sql: "score >= ?", arguments: [150]).fetchCount(db) == 1)
            let minScore = 100
            let count = try DocPlayer.filter {
                let scoreCondition: SQL = "\($0.score) >= \(minScore)"
                return scoreCondition && Column("team") == "red"
            }.fetchCount(db)
            #expect(count == 1)
        }
    }

    // MARK: - Values

    @Test func dateStorageFormat() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let date = Date(timeIntervalSince1970: 1_000_000_000.123)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "2001-09-09 01:46:40.123")
        }
    }

    @Test func dateReadFormats() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            func date(_ string: String) throws -> Date? {
                try Date.fetchOne(db, sql: "SELECT ?", arguments: [string])
            }
            let midnight = Date(timeIntervalSince1970: 1_524_182_400) // 2018-04-20 00:00:00 UTC
            #expect(try date("2018-04-20") == midnight)
            #expect(try date("2018-04-20 12:34") == midnight + 12 * 3600 + 34 * 60)
            #expect(try date("2018-04-20 12:34:56") == midnight + 12 * 3600 + 34 * 60 + 56)
            #expect(try date("2018-04-20T12:34:56") == midnight + 12 * 3600 + 34 * 60 + 56)
            let withMillis = try date("2018-04-20T12:34:56.789")!
            #expect(abs(withMillis.timeIntervalSince(midnight) - (12 * 3600 + 34 * 60 + 56.789)) < 0.0005)
            #expect(try date("2018-04-20 12:34:56Z") == midnight + 12 * 3600 + 34 * 60 + 56)
            #expect(try date("2018-04-20 12:34:56+02:00") == midnight + 10 * 3600 + 34 * 60 + 56)
            #expect(try date("2018-04-20 12:34-01:30") == midnight + 14 * 3600 + 4 * 60)
            #expect(try Date.fetchOne(db, sql: "SELECT 1000") == Date(timeIntervalSince1970: 1000))
            #expect(try Date.fetchOne(db, sql: "SELECT 1000.5") == Date(timeIntervalSince1970: 1000.5))
            #expect(Date(julianDay: 2_440_587.5) == Date(timeIntervalSince1970: 0))
        }
    }

    @Test func dateComponentsFormats() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            var components = DateComponents()
            components.year = 1973
            components.month = 9
            components.day = 18
            let ymd = DatabaseDateComponents(components, format: .YMD)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [ymd]) == "1973-09-18")

            components.hour = 7
            components.minute = 8
            components.second = 9
            components.nanosecond = 123_000_000
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(components, format: .YMD_HM)]) == "1973-09-18 07:08")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(components, format: .YMD_HMS)]) == "1973-09-18 07:08:09")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(components, format: .YMD_HMSS)]) == "1973-09-18 07:08:09.123")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(components, format: .HM)]) == "07:08")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(components, format: .HMS)]) == "07:08:09")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(components, format: .HMSS)]) == "07:08:09.123")

            let read1 = try DatabaseDateComponents.fetchOne(db, sql: "SELECT '1973-09-18'")!
            #expect(read1.format == .YMD)
            #expect(read1.dateComponents.year == 1973)
            #expect(read1.dateComponents.day == 18)
            #expect(read1.dateComponents.hour == nil)
            let read2 = try DatabaseDateComponents.fetchOne(db, sql: "SELECT '12:34'")!
            #expect(read2.format == .HM)
            #expect(read2.dateComponents.hour == 12)
            #expect(read2.dateComponents.minute == 34)
            #expect(read2.dateComponents.year == nil)
            let read3 = try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2018-04-20T12:34:56.789'")!
            #expect(read3.format == .YMD_HMSS)
            #expect(read3.dateComponents.second == 56)
            let read4 = try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2018-04-20 12:34:56+02:00'")!
            #expect(read4.format == .YMD_HMS)
            #expect(read4.dateComponents.timeZone?.secondsFromGMT() == 7200)
            #expect(read4.dateComponents.hour == 12)
        }
    }

    @Test func decimalAndNSNumberStorage() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            func typed(_ value: some DatabaseValueConvertible) throws -> Row {
                try Row.fetchOne(db, sql: "SELECT typeof(?), ?", arguments: [value, value])!
            }
            let d10 = try typed(Decimal(10))
            #expect(d10[0] as String == "text")
            #expect(d10[1] as String == "10")
            let d105 = try typed(Decimal(string: "10.5")!)
            #expect(d105[1] as String == "10.5")
            let n10 = try typed(NSNumber(value: 10))
            #expect(n10[0] as String == "integer")
            let n10d = try typed(NSNumber(value: 10.0))
            #expect(n10d[0] as String == "real")
            let dn10 = try typed(NSDecimalNumber(string: "10.0"))
            #expect(dn10[0] as String == "integer")
            #expect(dn10[1] as Int == 10)
            let dn105 = try typed(NSDecimalNumber(string: "10.5"))
            #expect(dn105[0] as String == "real")

            #expect(try Decimal.fetchOne(db, sql: "SELECT -100") == Decimal(-100))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-100'") == Decimal(-100))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '10.5'") == Decimal(string: "10.5"))
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'") == NSDecimalNumber(string: "1.23"))
            let fromString = try NSNumber.fetchOne(db, sql: "SELECT '10'")
            #expect(fromString is NSDecimalNumber)
            #expect(fromString?.intValue == 10)
        }
    }

    @Test func uuidStorage() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            let row = try Row.fetchOne(db, sql: "SELECT typeof(?), length(?)", arguments: [uuid, uuid])!
            #expect(row[0] as String == "blob")
            #expect(row[1] as Int == 16)
            #expect(try UUID.fetchOne(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'") == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]) == uuid)
        }
    }

    @Test func rowValueConversions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT 0 AS bookCount, NULL AS empty, '20 small cigars' AS cigars, 1 AS foo, 2 AS foo")!
            #expect(row["bookCount"] as Bool == false)
            #expect(row["BOOKCOUNT"] as Int == 0)
            #expect(row["empty"] as Int? == nil)
            #expect((row["empty"] as DatabaseValue).isNull)
            #expect(row["missing"] as String? == nil)
            #expect(row["missing"] as DatabaseValue? == nil)
            #expect(row["foo"] as Int == 1)
            #expect(row.columnNames == ["bookCount", "empty", "cigars", "foo", "foo"])
            #expect(!row.hasColumn("missing"))
            let text = try Row.fetchOne(db, sql: "SELECT 'Mom’s birthday'")![0] as DatabaseValue
            #expect(String.fromDatabaseValue(text) == "Mom’s birthday")
            #expect(Int.fromDatabaseValue(text) == nil)
            #expect(Date.fromDatabaseValue(text) == nil)
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 42 WHERE 0") == .none)
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(.none))
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 42") == .some(.some(42)))
            let coalesced: String? = try Row.fetchOne(db, sql: "SELECT NULL AS nickname, 'Arthur' AS name")!.coalesce(["nickname", "name"])
            #expect(coalesced == "Arthur")
        }
    }

    // MARK: - Codable records

    private struct JSONThing: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "thing"
        struct Payload: Codable { var date: Date; var data: Data }
        var id: Int64
        var payload: Payload
    }

    @Test func jsonColumnsDefaultStrategies() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE thing(id INTEGER PRIMARY KEY, payload TEXT)")
            let thing = JSONThing(id: 1, payload: .init(date: Date(timeIntervalSince1970: 1), data: Data("hi".utf8)))
            try thing.insert(db)
            let json = try String.fetchOne(db, sql: "SELECT payload FROM thing")!
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            #expect((object["date"] as? NSNumber)?.intValue == 1000)
            #expect(object["data"] as? String == "aGk=")
            let fetched = try JSONThing.fetchOne(db)!
            #expect(fetched.payload.date == Date(timeIntervalSince1970: 1))
        }
    }

    private struct UUIDPlayer: Codable, FetchableRecord, PersistableRecord, Identifiable {
        static let databaseTableName = "uplayer"
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
        var id: UUID
        var name: String
        enum Columns { static let id = Column(CodingKeys.id) }
    }

    @Test func uuidEncodingStrategyAppliesToKeyRequestsOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE uplayer(id TEXT PRIMARY KEY, name TEXT)")
            let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            try UUIDPlayer(id: uuid, name: "Arthur").insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT id FROM uplayer") == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            #expect(try UUIDPlayer.filter(id: uuid).fetchOne(db) != nil)
            #expect(try UUIDPlayer.fetchOne(db, id: uuid) != nil)
            #expect(try UUIDPlayer.filter { $0.id == uuid }.fetchOne(db) == nil)
            #expect(try UUIDPlayer.filter { $0.id == uuid.uuidString }.fetchOne(db) != nil)
            #expect(try UUIDPlayer.exists(db, id: uuid))
            #expect(try UUIDPlayer.deleteAll(db, ids: [uuid]) == 1)
        }
    }

    // MARK: - Persistence methods

    private struct FullPlayer: Codable, PersistableRecord, FetchableRecord {
        static let databaseTableName = "fplayer"
        var id: Int64
        var name: String
        var score: Int
        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }
    }

    private struct PartialPlayer: Encodable, PersistableRecord {
        static let databaseTableName = "fplayer"
        var name: String
        typealias Columns = FullPlayer.Columns
    }

    private func makeFullPlayers() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE fplayer(
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  name TEXT NOT NULL UNIQUE,
                  score INTEGER NOT NULL DEFAULT 1000)
                """)
        }
        return dbQueue
    }

    @Test func insertAndFetchVariants() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            let player = try PartialPlayer(name: "Alice").insertAndFetch(db, as: FullPlayer.self)
            #expect(player.id == 1)
            #expect(player.name == "Alice")
            #expect(player.score == 1000)
            let score = try PartialPlayer(name: "Bob").insertAndFetch(db) { statement in
                try Int.fetchOne(statement)
            } select: {
                [$0.score]
            }
            #expect(score == 1000)
        }
    }

    @Test func saveUpdateUpsertAndFetch() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            var p = FullPlayer(id: 5, name: "Arthur", score: 10)
            let saved = try p.saveAndFetch(db)
            #expect(saved.id == 5 && saved.score == 10)
            p.score = 20
            let updated = try p.updateAndFetch(db)
            #expect(updated.score == 20)
            let upserted = try FullPlayer(id: 5, name: "Arthur", score: 30).upsertAndFetch(db)
            #expect(upserted.score == 30)
            #expect(try FullPlayer.fetchCount(db) == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM fplayer WHERE id = 5") == 30)
            p.score = 25
            let changed = try p.updateChangesAndFetch(db, from: FullPlayer(id: 5, name: "Arthur", score: 30))
            #expect(changed?.score == 25)
        }
    }

    @Test func upsertOverwritesAllButPrimaryKey() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            try FullPlayer(id: 1, name: "Arthur", score: 10).insert(db)
            try FullPlayer(id: 1, name: "Arthur2", score: 20).upsert(db)
            let row = try Row.fetchOne(db, sql: "SELECT * FROM fplayer")!
            #expect(row["name"] as String == "Arthur2")
            #expect(row["score"] as Int == 20)
            #expect(try FullPlayer.fetchCount(db) == 1)
        }
    }

    private struct Vocabulary: Encodable, PersistableRecord, FetchableRecord, Decodable {
        var word: String
        var kind: String
        var isTainted: Bool
    }

    @Test func upsertAndFetchVocabularyExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE vocabulary(
                  word TEXT NOT NULL PRIMARY KEY,
                  kind TEXT NOT NULL,
                  isTainted BOOLEAN DEFAULT 0,
                  count INT DEFAULT 1)
                """)
            try db.execute(sql: "INSERT INTO vocabulary VALUES ('jovial', 'noun', 1, 1)")
            let vocabulary = Vocabulary(word: "jovial", kind: "adjective", isTainted: false)
            let upserted = try vocabulary.upsertAndFetch(
                db, onConflict: ["word"],
                doUpdate: { _ in
                    [Column("count") += 1,
                     Column("isTainted").noOverwrite]
                })
            #expect(upserted.kind == "adjective")
            #expect(upserted.isTainted == true)
            let row = try Row.fetchOne(db, sql: "SELECT * FROM vocabulary")!
            #expect(row["count"] as Int == 2)
            #expect(row["kind"] as String == "adjective")
            #expect(row["isTainted"] as Bool == true)
        }
    }

    @Test func batchReturning() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            let updated = try DocPlayer.filter { $0.id <= 2 }.updateAndFetchAll(db) { [$0.bonus += 10] }
            #expect(Set(updated.map(\.bonus)) == [11, 12])
            let statement = try DocPlayer.filter { $0.id <= 2 }.updateAndFetchStatement(db) {
                [$0.bonus += 10]
            } select: {
                [$0.bonus]
            }
            #expect(Set(try Int.fetchAll(statement)) == [21, 22])
            let deleted = try DocPlayer.filter { $0.id >= 3 }.deleteAndFetchAll(db)
            #expect(Set(deleted.map(\.id)) == [3, 4])
            let delStatement = try DocPlayer.all().deleteAndFetchStatement(db) { [$0.name] }
            #expect(try String.fetchSet(delStatement) == ["Arthur", "Barbara"])
        }
    }

    @Test func insertOrIgnoreDetectedWithInsertAndFetch() throws {
        struct IgnPlayer: Codable, PersistableRecord, FetchableRecord {
            static let databaseTableName = "fplayer"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .ignore, update: .abort)
            var id: Int64?
            var name: String
            var score: Int
        }
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            _ = try IgnPlayer(id: 1, name: "Arthur", score: 1).insertAndFetch(db)
            var caught = false
            do {
                _ = try IgnPlayer(id: 1, name: "Arthur", score: 2).insertAndFetch(db)
            } catch RecordError.recordNotFound {
                caught = true
            }
            #expect(caught)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM fplayer") == 1)
        }
    }

    @Test func insertOrReplacePolicy() throws {
        struct RepPlayer: Codable, PersistableRecord {
            static let databaseTableName = "fplayer"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
            var id: Int64?
            var name: String
            var score: Int
        }
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            try RepPlayer(id: nil, name: "Arthur", score: 1).insert(db)
            try RepPlayer(id: nil, name: "Arthur", score: 2).insert(db)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM fplayer") == [2])
        }
    }

    @Test func uniqueOnConflictReplaceInTableDefinition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique(onConflict: .replace)
            }
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM player") == [2])
        }
    }

    @Test func updateChangesAndRecordNotFound() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            var player = try DocPlayer.find(db, id: 1)
            #expect(try player.updateChanges(db) { $0.score = 100 } == false)
            #expect(try player.updateChanges(db) { $0.score = 150 } == true)
            #expect(player.score == 150)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1") == 150)

            var ghost = DocPlayer(id: 42, name: "Ghost", score: 0, bonus: 0)
            // No change: does not hit the database, no error.
            #expect(try ghost.updateChanges(db) { $0.score = 0 } == false)
            do {
                _ = try ghost.updateChanges(db) { $0.score = 1 }
                Issue.record("Expected RecordError")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
            do {
                try ghost.update(db)
                Issue.record("Expected RecordError")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
            do {
                _ = try DocPlayer.find(db, id: 42)
                Issue.record("Expected RecordError")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
        }
    }

    @Test func updateColumnsAndSaveAndDelete() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            var player = try DocPlayer.find(db, id: 1)
            player.name = "Changed"
            player.score = 999
            try player.update(db, columns: ["score"])
            let row = try Row.fetchOne(db, sql: "SELECT name, score FROM player WHERE id = 1")!
            #expect(row["name"] as String == "Arthur")
            #expect(row["score"] as Int == 999)

            let newPlayer = DocPlayer(id: 10, name: "New", score: nil, bonus: 0)
            try newPlayer.save(db)
            #expect(try DocPlayer.exists(db, id: 10))
            #expect(try newPlayer.exists(db))
            #expect(try newPlayer.delete(db))
            #expect(try !newPlayer.delete(db))
            #expect(try !newPlayer.exists(db))

            let old = DocPlayer(id: 1, name: "Arthur", score: 100, bonus: 1)
            let new = DocPlayer(id: 1, name: "Arthur", score: 1000, bonus: 1)
            let changes = try new.databaseChanges(from: old)
            #expect(changes == ["score": 100.databaseValue])
            #expect(new.databaseEquals(new))
            #expect(!new.databaseEquals(old))
        }
    }

    private struct AutoPlayer: Codable, MutablePersistableRecord {
        static let databaseTableName = "fplayer"
        var id: Int64?
        var name: String
        var score: Int
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func insertedAndSavedAreNonMutating() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            let player = AutoPlayer(id: nil, name: "Arthur", score: 1)
            let inserted = try player.inserted(db)
            #expect(player.id == nil)
            #expect(inserted.id == 1)
            let saved = try AutoPlayer(id: nil, name: "Barbara", score: 2).saved(db)
            #expect(saved.id == 2)
        }
    }

    // MARK: - Callbacks

    final class CallbackLog: @unchecked Sendable {
        var events: [String] = []
    }

    private struct CBPlayer: MutablePersistableRecord {
        static let databaseTableName = "fplayer"
        var id: Int64?
        var name: String
        var score = 0
        let log: CallbackLog

        func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["score"] = score
        }
        func willSave(_ db: Database) throws { log.events.append("willSave") }
        func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
            log.events.append("aroundSave")
            _ = try save()
        }
        func didSave(_ saved: PersistenceSuccess) { log.events.append("didSave") }
        mutating func willInsert(_ db: Database) throws { log.events.append("willInsert") }
        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            log.events.append("aroundInsert")
            let success = try insert()
            log.events.append("aroundInsert:\(success.rowID)")
        }
        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
            log.events.append("didInsert:\(inserted.rowID)")
        }
        func willUpdate(_ db: Database, columns: Set<String>) throws { log.events.append("willUpdate") }
        func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
            log.events.append("aroundUpdate")
            _ = try update()
        }
        func didUpdate(_ updated: PersistenceSuccess) { log.events.append("didUpdate") }
        func willDelete(_ db: Database) throws { log.events.append("willDelete") }
        func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
            log.events.append("aroundDelete")
            _ = try delete()
        }
        func didDelete(deleted: Bool) { log.events.append("didDelete:\(deleted)") }
    }

    @Test func callbackOrder() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            let log = CallbackLog()
            var player = CBPlayer(id: nil, name: "Arthur", log: log)
            try player.insert(db)
            #expect(log.events.filter { !$0.hasPrefix("aroundInsert:") } == ["willSave", "aroundSave", "willInsert", "aroundInsert", "didInsert:1", "didSave"])
            log.events = []
            player.score = 3
            try player.update(db)
            #expect(log.events == ["willSave", "aroundSave", "willUpdate", "aroundUpdate", "didUpdate", "didSave"])
            log.events = []
            _ = try player.delete(db)
            #expect(log.events == ["willDelete", "aroundDelete", "didDelete:true"])
            log.events = []
            // Callbacks are not invoked by batch operations.
            _ = try CBPlayer.deleteAll(db)
            #expect(log.events.isEmpty)
        }
    }

    @Test func upsertCallbacksReportUpdatedRowID() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO fplayer(id, name) VALUES (5, 'Arthur')")
            let log = CallbackLog()
            var player = CBPlayer(id: nil, name: "Arthur", score: 7, log: log)
            try player.upsert(db)
            #expect(player.id == 5)
            #expect(log.events == ["willSave", "aroundSave", "willInsert", "aroundInsert", "aroundInsert:5", "didInsert:5", "didSave"]
                    || log.events == ["willSave", "aroundSave", "willInsert", "aroundInsert", "didInsert:5", "aroundInsert:5", "didSave"])
            #expect(!log.events.contains("willUpdate"))
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM fplayer WHERE id = 5") == 7)
        }
    }

    @Test func saveInsertsWhenUpdateFindsNoRow() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            let log = CallbackLog()
            var player = CBPlayer(id: 9, name: "Arthur", log: log)
            try player.save(db)
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM fplayer") == 9)
            #expect(log.events.contains("willInsert"))
            #expect(log.events.first == "willSave")
            #expect(log.events.last == "didSave")
            log.events = []
            var auto = CBPlayer(id: nil, name: "Barbara", log: log)
            try auto.save(db)
            #expect(!log.events.contains("willUpdate"))
            #expect(auto.id == 10)
        }
    }

    // MARK: - Errors

    @Test func databaseErrorFields() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE master(id INTEGER PRIMARY KEY);
                CREATE TABLE pet(masterId INTEGER REFERENCES master(id), name TEXT);
                """)
            do {
                try db.execute(sql: "INSERT INTO pet (masterId, name) VALUES (?, ?)", arguments: [1, "Bobby"])
                Issue.record("Expected DatabaseError")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                #expect(error.resultCode.rawValue == 19)
                #expect(error.extendedResultCode.rawValue == 787)
                #expect(error.message == "FOREIGN KEY constraint failed")
                #expect(error.sql == "INSERT INTO pet (masterId, name) VALUES (?, ?)")
                #expect(error.description == "SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT INTO pet (masterId, name) VALUES (?, ?)`")
            }
        }
    }

    @Test func databaseErrorPatternMatching() throws {
        let dbQueue = try makeFullPlayers()
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO fplayer(name) VALUES ('a')")
            var matched = ""
            do {
                try db.execute(sql: "INSERT INTO fplayer(name) VALUES ('a')")
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                matched = "fk"
            } catch DatabaseError.SQLITE_CONSTRAINT {
                matched = "constraint"
            }
            #expect(matched == "constraint")
            do {
                try db.execute(sql: "INSERT INTO fplayer(name) VALUES ('a')")
            } catch let error as DatabaseError {
                switch error {
                case DatabaseError.SQLITE_CONSTRAINT_UNIQUE: matched = "unique"
                case DatabaseError.SQLITE_CONSTRAINT: matched = "other"
                default: matched = "default"
                }
            }
            #expect(matched == "unique")
            #expect(DatabaseError.SQLITE_CONSTRAINT_UNIQUE.rawValue == 2067)
        }
    }

    @Test func rowDecodingError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT NULL AS name, 'x' AS other")!
            #expect(throws: RowDecodingError.self) { try row.decode(String.self, forColumn: "name") }
            #expect(try row.decode(String.self, atIndex: 1) == "x")
            #expect(try row.decode(String?.self, forColumn: "name") == nil)
        }
    }

    // MARK: - Migrations

    @Test func migratorQueries() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY)") }
        migrator.registerMigration("v2") { db in try db.execute(sql: "CREATE TABLE b(id INTEGER PRIMARY KEY)") }
        migrator.registerMigration("v3") { db in try db.execute(sql: "CREATE TABLE c(id INTEGER PRIMARY KEY)") }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == [])
            #expect(try migrator.completedMigrations(db) == [])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
        }
        try migrator.migrate(dbQueue, upTo: "v2")
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try migrator.appliedIdentifiers(db) == ["v1", "v2"])
            #expect(try migrator.completedMigrations(db) == ["v1", "v2"])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try db.tableExists("b"))
            #expect(try !db.tableExists("c"))
        }
        #expect(try dbQueue.read(migrator.completedMigrations).last == "v2")
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
        }
        var older = DatabaseMigrator()
        older.registerMigration("v1") { _ in }
        older.registerMigration("v2") { _ in }
        try dbQueue.read { db throws in
            #expect(try older.hasBeenSuperseded(db))
            #expect(try older.hasCompletedMigrations(db))
            #expect(try older.appliedMigrations(db) == ["v1", "v2"])
            #expect(try older.appliedIdentifiers(db) == ["v1", "v2", "v3"])
        }
    }

    @Test func failingMigrationRollsBackAndStops() throws {
        struct Boom: Error {}
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY)") }
        migrator.registerMigration("v2") { db throws in
            try db.execute(sql: "CREATE TABLE b(id INTEGER PRIMARY KEY)")
            throw Boom()
        }
        migrator.registerMigration("v3") { db in try db.execute(sql: "CREATE TABLE c(id INTEGER PRIMARY KEY)") }
        let dbQueue = try DatabaseQueue()
        #expect(throws: Boom.self) { try migrator.migrate(dbQueue) }
        try dbQueue.read { db throws in
            #expect(try db.tableExists("a"))
            #expect(try !db.tableExists("b"))
            #expect(try !db.tableExists("c"))
            #expect(try migrator.appliedMigrations(db) == ["v1"])
        }
    }

    @Test func deferredAndImmediateForeignKeyChecks() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("schema") { db throws in
            try db.execute(sql: """
                CREATE TABLE author(id INTEGER PRIMARY KEY);
                CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), name TEXT);
                """)
        }
        migrator.registerMigration("deferred") { db throws in
            // Violation fixed before the end of the migration: OK.
            try db.execute(sql: "INSERT INTO book VALUES (1, 1, 'Moby-Dick')")
            try db.execute(sql: "INSERT INTO author VALUES (1)")
        }
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book") } == 1)

        var m2 = migrator
        m2.registerMigration("violation") { db throws in
            try db.execute(sql: "INSERT INTO book VALUES (2, 2, 'Dune')")
        }
        #expect(throws: DatabaseError.self) { try m2.migrate(dbQueue) }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book") } == 1)

        var m3 = migrator
        m3.registerMigration("immediate", foreignKeyChecks: .immediate) { db throws in
            do {
                try db.execute(sql: "INSERT INTO book VALUES (3, 3, 'Emma')")
                Issue.record("Expected immediate failure")
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            }
        }
        try m3.migrate(dbQueue)

        var m4 = migrator.disablingDeferredForeignKeyChecks()
        m4.registerMigration("unchecked") { db throws in
            try db.execute(sql: "INSERT INTO book VALUES (4, 4, 'Ulysses')")
        }
        try m4.migrate(dbQueue)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book") } == 2)
        try dbQueue.read { db throws in
            do {
                try db.checkForeignKeys(in: "book")
                Issue.record("Expected violation")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.message?.hasPrefix("FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:4 authorId:4 name:\"Ulysses\"]") == true)
            }
            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.count == 1)
            #expect(violations.first?.originTable == "book")
            #expect(violations.first?.destinationTable == "author")
        }
    }

    @Test func eraseDatabaseOnSchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        var m1 = DatabaseMigrator()
        m1.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY)") }
        try m1.migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO a VALUES (1)") }

        // Same schema: no erase.
        var same = DatabaseMigrator()
        same.eraseDatabaseOnSchemaChange = true
        same.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY)") }
        try same.migrate(dbQueue)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM a") } == 1)

        // Changed schema: erase and recreate.
        var changed = DatabaseMigrator()
        changed.eraseDatabaseOnSchemaChange = true
        changed.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT)") }
        try changed.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM a") == 0)
            #expect(try db.columns(in: "a").map(\.name) == ["id", "name"])
        }

        // Renamed migration: erase.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO a VALUES (1, 'x')") }
        var renamed = DatabaseMigrator()
        renamed.eraseDatabaseOnSchemaChange = true
        renamed.registerMigration("v1bis") { db in try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT)") }
        try renamed.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM a") == 0)
            #expect(try renamed.appliedMigrations(db) == ["v1bis"])
        }
    }

    // MARK: - Schema introspection

    @Test func schemaIntrospection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE author(id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL DEFAULT 'x');
                CREATE TABLE book(authorId INTEGER NOT NULL REFERENCES author(id), isbn TEXT, title TEXT, PRIMARY KEY (authorId, isbn));
                CREATE INDEX book_title ON book(title);
                CREATE TABLE doc(content TEXT);
                """)
            let columns = try db.columns(in: "author")
            #expect(columns.map(\.name) == ["id", "email", "name"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "TEXT"])
            #expect(columns.map(\.isNotNull) == [false, false, true])
            #expect(columns[2].defaultValueSQL == "'x'")
            #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0])

            let pk = try db.primaryKey("author")
            #expect(pk.columns == ["id"])
            #expect(pk.rowIDColumn == "id")
            #expect(pk.isRowID)
            let bookPK = try db.primaryKey("book")
            #expect(bookPK.columns == ["authorId", "isbn"])
            #expect(bookPK.rowIDColumn == nil)
            let docPK = try db.primaryKey("doc")
            #expect(docPK.columns == [Column.rowID.name])
            #expect(docPK.rowIDColumn == nil)
            #expect(docPK.isRowID)

            #expect(try db.table("author", hasUniqueKey: ["email"]))
            #expect(try db.table("author", hasUniqueKey: ["id"]))
            #expect(try db.table("author", hasUniqueKey: ["id", "name"]))
            #expect(try !db.table("author", hasUniqueKey: ["name"]))
            #expect(try db.table("book", hasUniqueKey: ["authorId", "isbn"]))
            #expect(try !db.table("book", hasUniqueKey: ["authorId"]))

            let fks = try db.foreignKeys(on: "book")
            #expect(fks.count == 1)
            #expect(fks[0].destinationTable == "author")
            #expect(fks[0].originColumns == ["authorId"])
            #expect(fks[0].destinationColumns == ["id"])

            let indexes = try db.indexes(on: "book")
            let titleIndex = indexes.first { $0.name == "book_title" }
            #expect(titleIndex?.columns == ["title"])
            #expect(titleIndex?.isUnique == false)
            let authorIndexes = try db.indexes(on: "author")
            #expect(authorIndexes.contains { $0.columns == ["email"] && $0.isUnique })
        }
    }

    // MARK: - Fetching by key

    private struct RowIDDocument: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "doc"
        var content: String
    }

    private struct Citizenship: Codable, FetchableRecord, PersistableRecord, Hashable {
        var citizenId: Int64
        var countryCode: String
    }

    @Test func keysOnRowIDAndCompositeTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE doc(content TEXT);
                INSERT INTO doc VALUES ('a'), ('b');
                CREATE TABLE citizenship(citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode));
                INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US'), (2, 'FR');
                """)
            #expect(try RowIDDocument.fetchOne(db, key: 2)?.content == "b")
            #expect(try RowIDDocument.exists(db, key: 1))
            #expect(try RowIDDocument.deleteOne(db, key: 1))
            #expect(try RowIDDocument.fetchCount(db) == 1)

            #expect(try Citizenship.exists(db, key: ["citizenId": 1, "countryCode": "FR"]))
            #expect(try Citizenship.fetchOne(db, key: ["citizenId": 2, "countryCode": "FR"]) != nil)
            let keys = try Citizenship.orderByPrimaryKey().selectPrimaryKey(as: Row.self).fetchAll(db)
            #expect(keys.map { $0["countryCode"] as String } == ["FR", "US", "FR"])
            #expect(keys.first?.columnNames == ["citizenId", "countryCode"])
            #expect(try Citizenship.deleteOne(db, key: ["citizenId": 1, "countryCode": "FR"]))
            #expect(try Citizenship.deleteAll(db, keys: [["citizenId": 1, "countryCode": "US"], ["citizenId": 9, "countryCode": "XX"]]) == 1)
            #expect(try Citizenship.fetchCount(db) == 1)
            #expect(try Citizenship.fetchSet(db, keys: [["citizenId": 2, "countryCode": "FR"]]).count == 1)
        }
    }

    // MARK: - Association aggregates

    private struct Author: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    private struct Book: Codable, FetchableRecord, PersistableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var year: Int
        var price: Double
        var awards: Int
        var kind: String
        enum Columns {
            static let year = Column(CodingKeys.year)
            static let price = Column(CodingKeys.price)
            static let awards = Column(CodingKeys.awards)
            static let kind = Column(CodingKeys.kind)
        }
    }

    private func makeLibrary() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("author").notNull()
                t.column("year", .integer)
                t.column("price", .double)
                t.column("awards", .integer)
                t.column("kind", .text)
            }
            try Author(id: 1, name: "A").insert(db)
            try Author(id: 2, name: "B").insert(db)
            try Author(id: 3, name: "C").insert(db)
            try Book(id: 1, authorId: 1, year: 2000, price: 10, awards: 1, kind: "novel").insert(db)
            try Book(id: 2, authorId: 1, year: 2012, price: 20, awards: 2, kind: "essay").insert(db)
            try Book(id: 3, authorId: 1, year: 2005, price: 30, awards: 0, kind: "novel").insert(db)
            try Book(id: 4, authorId: 2, year: 1990, price: 5, awards: 3, kind: "essay").insert(db)
        }
        return dbQueue
    }

    @Test func aggregateDefaultNames() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let request = Author.orderByPrimaryKey().annotated(with:
                Author.books.isEmpty,
                Author.books.count,
                Author.books.min(\.year),
                Author.books.max(\.year),
                Author.books.average(\.price))
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["hasNoBook"] as Bool } == [false, false, true])
            #expect(rows.map { $0["bookCount"] as Int } == [3, 1, 0])
            #expect(rows.map { $0["minBookYear"] as Int? } == [2000, 1990, nil])
            #expect(rows.map { $0["maxBookYear"] as Int? } == [2012, 1990, nil])
            #expect(rows.map { $0["averageBookPrice"] as Double? } == [20, 5, nil])
            let sums = try Row.fetchAll(db, Author.orderByPrimaryKey().annotated(with: Author.books.sum(\.awards)))
            #expect(sums.map { $0["bookAwardsSum"] as Int? } == [3, 3, nil])
            let totals = try Row.fetchAll(db, Author.orderByPrimaryKey().annotated(with: Author.books.total(\.awards)))
            #expect(totals.map { $0["bookAwardsSum"] as Double? } == [3, 3, 0])
            let coalesced = try Row.fetchAll(db, Author.orderByPrimaryKey().annotated(with: Author.books.min(\.year) ?? 0))
            #expect(coalesced.map { $0["minBookYear"] as Int? } == [2000, 1990, 0])
            let hasBooks = try Row.fetchAll(db, Author.orderByPrimaryKey().annotated(with: (Author.books.isEmpty == false).forKey("hasBooks")))
            #expect(hasBooks.map { $0["hasBooks"] as Bool } == [true, true, false])
        }
    }

    @Test func havingAggregates() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            #expect(try Author.having(Author.books.isEmpty).fetchAll(db).map(\.id) == [3])
            #expect(try Author.having(Author.books.isEmpty == false).orderByPrimaryKey().fetchAll(db).map(\.id) == [1, 2])
            #expect(try Author.having(Author.books.count >= 2).fetchAll(db).map(\.id) == [1])
            #expect(try Author.having(Author.books.count > 2).fetchAll(db).map(\.id) == [1])
            #expect(try Author.having(Author.books.max(\.year) >= 2010).fetchAll(db).map(\.id) == [1])
            let novels = Author.books.filter { $0.kind == "novel" }
            #expect(try Author.having(novels.isEmpty == false).fetchAll(db).map(\.id) == [1])
            #expect(try Author.having(novels.isEmpty).orderByPrimaryKey().fetchAll(db).map(\.id) == [2, 3])
            #expect(try Author.having(Author.books.count >= 1).fetchCount(db) == 2)
            struct AuthorInfo: Decodable, FetchableRecord {
                var author: Author
                var bookCount: Int
            }
            let infos = try Author.annotated(with: Author.books.count).orderByPrimaryKey().asRequest(of: AuthorInfo.self).fetchAll(db)
            #expect(infos.map(\.bookCount) == [3, 1, 0])
            #expect(infos.map(\.author.name) == ["A", "B", "C"])
        }
    }

    @Test func associationRequestsForOneRecord() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { db throws in
            let author = try Author.fetchOne(db, key: 1)!
            let books = author.request(for: Author.books)
            #expect(try books.fetchCount(db) == 3)
            #expect(try Int.fetchOne(db, books.select { max($0.year) }) == 2012)
            #expect(try !books.isEmpty(db))
            let lazy = try Author.fetchOne(db, key: 3)!
            #expect(try lazy.request(for: Author.books).isEmpty(db))
        }
    }

    // MARK: - Executing updates

    @Test func multipleStatementsShareArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, score INT)")
            try db.execute(sql: """
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (?, ?);
                """, arguments: ["Arthur", 750, "Barbara", 1000])
            try db.execute(literal: """
                INSERT INTO player (name, score) VALUES (\("Craig"), \(500));
                INSERT INTO player (name, score) VALUES (\("David"), \(250));
                """)
            #expect(db.lastInsertedRowID == 4)
            try db.execute(sql: "UPDATE player SET score = :score WHERE id = :id", arguments: ["score": 1, "id": 1])
            #expect(db.changesCount == 1)
            let rows = try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
            #expect(rows.map { $0["name"] as String } == ["Arthur", "Barbara", "Craig", "David"])
            #expect(rows.map { $0["score"] as Int } == [1, 1000, 500, 250])
        }
    }

    // MARK: - Transaction date

    private struct StampedPlayer: Codable, MutablePersistableRecord {
        static let databaseTableName = "stamped"
        var id: Int64?
        var creationDate: Date?
        var name: String
        mutating func willInsert(_ db: Database) throws {
            if creationDate == nil { creationDate = try db.transactionDate }
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func transactionDateIsConstantInATransaction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "stamped") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("creationDate", .datetime).notNull()
                t.column("name", .text).notNull()
            }
        }
        let dates = try dbQueue.write { db -> [Date?] in
            var a = StampedPlayer(name: "a")
            try a.insert(db)
            Thread.sleep(forTimeInterval: 0.02)
            var b = StampedPlayer(name: "b")
            try b.insert(db)
            return [a.creationDate, b.creationDate, try db.transactionDate]
        }
        #expect(dates[0] != nil)
        #expect(dates[0] == dates[1])
        #expect(dates[1] == dates[2])
        Thread.sleep(forTimeInterval: 0.02)
        let next = try dbQueue.write { db in try db.transactionDate }
        #expect(next > dates[0]!)
    }

    // MARK: - Codable DatabaseValueConvertible

    private struct Stamp: Codable, DatabaseValueConvertible, Equatable {
        var date: Date
        var data: Data
    }

    @Test func codableValueIsJSON() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let stamp = Stamp(date: Date(timeIntervalSince1970: 2), data: Data("hi".utf8))
            let row = try Row.fetchOne(db, sql: "SELECT typeof(?), ?", arguments: [stamp, stamp])!
            #expect(row[0] as String == "text")
            let object = try JSONSerialization.jsonObject(with: Data((row[1] as String).utf8)) as! [String: Any]
            #expect((object["date"] as? NSNumber)?.intValue == 2000)
            #expect(object["data"] as? String == "aGk=")
            #expect(try Stamp.fetchOne(db, sql: "SELECT ?", arguments: [stamp]) == stamp)
        }
    }

    @Test func multiplyAssignmentAlone() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            try DocPlayer.updateAll(db) { $0.score *= 2 }
            let scores = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(scores == [200, 400, nil, 100])
            try Table("player").updateAll(db, [Column("bonus") *= 3])
            let bonuses = try Int.fetchAll(db, sql: "SELECT bonus FROM player ORDER BY id")
            #expect(bonuses == [3, 6, 9, 0])
            try DocPlayer.updateAll(db) { $0.score.set(to: $0.score * 2) }
            let doubled = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(doubled == [400, 800, nil, 200])
        }
    }

    @Test(arguments: ["+=", "-=", "*=", "/="])
    func compoundAfterCompound(first: String) throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { db throws in
            let col = Column("score")
            let a: ColumnAssignment
            switch first {
            case "+=": a = col += 10
            case "-=": a = col -= 10
            case "*=": a = col *= 10
            default: a = col /= 10
            }
            try Table("player").updateAll(db, [a])
            let before = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            try Table("player").updateAll(db, [col *= 3])
            let afterMul = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterMul == before.map { $0.map { $0 * 3 } }, "first \(first)")
            try Table("player").updateAll(db, [col += 1])
            let afterAdd = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterAdd == afterMul.map { $0.map { $0 + 1 } }, "first \(first)")
            try Table("player").updateAll(db, [col /= 2])
            let afterDiv = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterDiv == afterAdd.map { $0.map { $0 / 2 } }, "first \(first)")
            try Table("player").updateAll(db, [col -= 1])
            let afterSub = try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(afterSub == afterDiv.map { $0.map { $0 - 1 } }, "first \(first)")
        }
    }
}
