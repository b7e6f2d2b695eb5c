import Foundation
import Testing
import Trellis

// Snippets from the "Query Interface" chapter of GRDB's README, written as
// the documentation writes them.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    static let team = belongsTo(Team.self)
    var id: Int64
    var name: String?
    var email: String?
    var score: Int
    var bonus: Int
    var team: String?
    var teamId: Int64?
    var coachId: Int64?
    var isVerified: Bool
    var isHealthy: Bool
    var isGreat: Bool
    var mask: Int
    var initial: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let email = Column(CodingKeys.email)
        static let score = Column(CodingKeys.score)
        static let bonus = Column(CodingKeys.bonus)
        static let team = Column(CodingKeys.team)
        static let teamId = Column(CodingKeys.teamId)
        static let coachId = Column(CodingKeys.coachId)
        static let isVerified = Column(CodingKeys.isVerified)
        static let isHealthy = Column(CodingKeys.isHealthy)
        static let isGreat = Column(CodingKeys.isGreat)
        static let mask = Column(CodingKeys.mask)
        static let initial = Column(CodingKeys.initial)
    }

    /// A custom request, as in "Custom Requests".
    static func customRequest() -> QueryInterfaceRequest<Player> {
        Player.filter { $0.isVerified }.order(\.id)
    }
}

private struct Team: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let players = hasMany(Player.self)
    var id: Int64
    var name: String
    var color: String
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let color = Column(CodingKeys.color)
    }
}

private struct Country: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
    var id: String
    var population: Int
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let population = Column(CodingKeys.population)
    }
}

private struct Citizenship: Codable, FetchableRecord, PersistableRecord {
    var citizenId: Int64
    var countryCode: String
}

private struct Document: Codable, FetchableRecord, PersistableRecord {
    var content: String
}

private struct PlayerSelection: Codable, FetchableRecord, PersistableRecord {
    var playerId: Int64
    enum Columns {
        static let playerId = Column(CodingKeys.playerId)
    }
}

private struct RestrictedPlayer: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }
    static var databaseSelection: [any SQLSelectable] {
        [Columns.id, Columns.name]
    }
    var id: Int64
    var name: String?
}

private struct ExtendedPlayer: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [.allColumns, .rowID]
    }
}

private struct PartialPlayer: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [.allColumns(excluding: ["email", "mask"])]
    }
}

extension PlayerSelection {
    static func deleteAll(_ db: Database, playerId: Int64) throws {
        try db.execute(literal: "DELETE FROM \(self) WHERE \(CodingKeys.playerId) = \(playerId)")
    }
}

extension Player {
    static func filter(sqlIds ids: [Int64]) -> SQLRequest<Player> {
        "SELECT * FROM \(self) WHERE \(CodingKeys.id) IN \(ids) ORDER BY \(CodingKeys.id)"
    }

    static func maximumScore() -> SQLRequest<Int> {
        "SELECT MAX(\(CodingKeys.score)) FROM \(self)"
    }

    static func leaders() -> SQLRequest<Player> {
        """
        SELECT * FROM \(self)
        WHERE \(CodingKeys.score) = (\(maximumScore()))
        """
    }
}

/// A reusable SQL function, as in "Embedding SQL in Query Interface Requests".
private func date(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQL("DATE(\(value))").sqlExpression
}

@Suite struct GRDBCompatQueryInterfaceTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("color", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("email", .text).unique()
                t.column("score", .integer).notNull()
                t.column("bonus", .integer).notNull()
                t.column("team", .text)
                t.column("teamId", .integer).references("team")
                t.column("coachId", .integer).references("player")
                t.column("isVerified", .boolean).notNull()
                t.column("isHealthy", .boolean).notNull()
                t.column("isGreat", .boolean).notNull()
                t.column("mask", .integer).notNull()
                t.column("initial", .text).notNull()
            }
            try db.create(table: "country") { t in
                t.primaryKey("id", .text)
                t.column("population", .integer).notNull()
            }
            try db.create(table: "citizenship") { t in
                t.column("citizenId", .integer).notNull()
                t.column("countryCode", .text).notNull()
                t.primaryKey(["citizenId", "countryCode"])
            }
            try db.execute(sql: "CREATE TABLE document (content TEXT NOT NULL)")
            try db.create(table: "playerSelection") { t in
                t.column("playerId", .integer).notNull()
            }

            try Team(id: 1, name: "Reds", color: "red").insert(db)
            try Team(id: 2, name: "Blues", color: "blue").insert(db)
            try Team(id: 3, name: "Greens", color: "green").insert(db)
            let players = [
                Player(id: 1, name: "Arthur", email: "arthur@example.com", score: 1000, bonus: 10, team: "Reds", teamId: 1,
                       coachId: nil, isVerified: true, isHealthy: true, isGreat: false, mask: 3, initial: "A"),
                Player(id: 2, name: "Barbara", email: nil, score: 1500, bonus: 0, team: "Reds", teamId: 1,
                       coachId: 1, isVerified: false, isHealthy: false, isGreat: false, mask: 2, initial: "B"),
                Player(id: 3, name: nil, email: "anon@test.org", score: 500, bonus: 5, team: "Blues", teamId: 2,
                       coachId: 1, isVerified: true, isHealthy: true, isGreat: false, mask: 1, initial: "Z"),
                Player(id: 4, name: "Craig", email: "100%@example.com", score: 1200, bonus: 20, team: nil, teamId: nil,
                       coachId: 3, isVerified: false, isHealthy: true, isGreat: false, mask: 0, initial: "N"),
            ]
            for player in players { try player.insert(db) }
            try Country(id: "FR", population: 67_000_000).insert(db)
            try Country(id: "US", population: 330_000_000).insert(db)
            try Country(id: "DE", population: 83_000_000).insert(db)
            try Citizenship(citizenId: 1, countryCode: "FR").insert(db)
            try Citizenship(citizenId: 1, countryCode: "US").insert(db)
            try Document(content: "SQLite database").insert(db)
            try Document(content: "Swift").insert(db)
            try PlayerSelection(playerId: 2).insert(db)
            try PlayerSelection(playerId: 4).insert(db)
        }
        return dbQueue
    }

    private func ids(_ db: Database, _ request: QueryInterfaceRequest<Player>) throws -> [Int64] {
        try request.fetchAll(db).map(\.id)
    }

    // MARK: Requests

    @Test func requestsFromRecordsAndTables() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.filter { $0.email != nil }.order(\.name)
            #expect(try request.fetchAll(db).map(\.id) == [3, 1, 4])
            #expect(try request.fetchCount(db) == 3)

            let rows = try Table("player").all().fetchAll(db)
            #expect(rows.count == 4)
            let players = try Table<Player>("player").all().fetchAll(db)
            #expect(Set(players.map(\.id)) == [1, 2, 3, 4])
            #expect(try Table("player").filter(Column("score") > 1000).fetchCount(db) == 2)
        }
    }

    @Test func requestMethods() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Player.none().fetchAll(db).isEmpty)
            #expect(try Player.order(\.id).select(\.name, as: String?.self).fetchAll(db) == ["Arthur", "Barbara", nil, "Craig"])
            // A NULL that can not be decoded is an error, not a crash.
            #expect(throws: RowDecodingError.self) { try Player.select(\.name, as: String.self).fetchAll(db) }
            #expect(try Player.order(\.id).selectID().fetchAll(db) == [1, 2, 3, 4])
            #expect(try Player.filter { $0.name != nil }.order(\.id).selectID().fetchAll(db) == [1, 2, 4])

            let totals = try Row.fetchAll(db, Player.annotated { ($0.score + $0.bonus).forKey("total") }.order(\.id))
            #expect(totals.map { $0["total"] as Int } == [1010, 1500, 505, 1220])
            let counts = try Row.fetchAll(db, Team.annotated(with: Team.players.count).order(\.id))
            #expect(counts.map { $0["playerCount"] as Int } == [2, 1, 0])
            let colors = try Row.fetchAll(db, Player.annotated(withRequired: Player.team.select(\.color)).order(\.id))
            #expect(colors.map { $0["color"] as String } == ["red", "red", "blue"])

            // COUNT(DISTINCT team): the NULL team is not counted.
            #expect(try Player.select(\.team, as: String?.self).distinct().fetchCount(db) == 2)
            #expect(try ids(db, Player.filter { [1, 2, 3].contains($0.id) }.order(\.id)) == [1, 2, 3])
            #expect(try ids(db, Player.filter { $0.name != nil && $0.score > 1100 }.order(\.id)) == [2, 4])
            #expect(try Player.filter(id: 1).fetchOne(db)?.name == "Arthur")
            #expect(try Country.filter(ids: ["FR", "US"]).fetchCount(db) == 2)
            #expect(try Player.filter(key: 1).fetchOne(db)?.name == "Arthur")
            #expect(try Country.filter(keys: ["FR", "US"]).fetchCount(db) == 2)
            #expect(try Citizenship.filter(key: ["citizenId": 1, "countryCode": "FR"]).fetchCount(db) == 1)
            #expect(try Player.filter(key: ["email": "arthur@example.com"]).fetchOne(db)?.id == 1)

            let maxByTeam = try Row.fetchAll(db, Player
                .select { [$0.team, max($0.score)] }
                .filter { $0.team != nil }
                .group(\.team)
                .order(\.team))
            #expect(maxByTeam.map { $0[1] as Int } == [500, 1500])
            let strongTeams = try Row.fetchAll(db, Player
                .select { [$0.team, max($0.score)] }
                .group(\.team)
                .having { min($0.score) >= 1000 }
                .order(\.team))
            #expect(strongTeams.map { $0[0] as String? } == [nil, "Reds"])
            #expect(try Team.having(Team.players.count >= 2).fetchAll(db).map(\.id) == [1])

            #expect(try ids(db, Player.order(\.score)) == [3, 1, 4, 2])
            #expect(try ids(db, Player.order(\.score.desc)) == [2, 4, 1, 3])
            #expect(try ids(db, Player.order { [$0.team.desc, $0.score] }) == [1, 2, 3, 4])
            #expect(try ids(db, Player.order(\.name.ascNullsLast)) == [1, 2, 4, 3])
            #expect(try ids(db, Player.order(\.score).order(\.name)) == [3, 1, 2, 4])
            #expect(try ids(db, Player.order { [$0.team.desc, $0.score] }.reversed()) == [4, 3, 2, 1])
            #expect(try ids(db, Player.limit(2, offset: 1).order(\.id)) == [2, 3])

            #expect(try Player.order(\.id).selectPrimaryKey(as: Int64.self).fetchAll(db) == [1, 2, 3, 4])
            #expect(try Country.selectPrimaryKey(as: String.self).orderByPrimaryKey().fetchAll(db) == ["DE", "FR", "US"])
            let citizenshipKeys = try Citizenship.selectPrimaryKey(as: Row.self).orderByPrimaryKey().fetchAll(db)
            #expect(citizenshipKeys.map { $0["countryCode"] as String } == ["FR", "US"])
            #expect(try ids(db, Player.orderByPrimaryKey()) == [1, 2, 3, 4])
            let grouped = try Row.fetchAll(db, Player
                .select { [$0.id, count($0.id)] }
                .groupByPrimaryKey()
                .orderByPrimaryKey())
            #expect(grouped.map { $0[1] as Int } == [1, 1, 1, 1])
        }
    }

    @Test func refinementsReplaceOrExtend() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player
                .filter { $0.name != nil }
                .filter { $0.email != nil }
                .order(\.name)
                .reversed()
                .order(\.score)
                .limit(20, offset: 40)
                .limit(10)
            #expect(try ids(db, request) == [1, 4])
            // Reversing an unordered request has no effect.
            #expect(Set(try ids(db, Player.all().reversed())) == [1, 2, 3, 4])
            #expect(try Player.all().reversed().makePreparedRequest(db).statement.sql == #"SELECT * FROM "player""#)
            let rows = try Row.fetchAll(db, Player
                .select(sql: "team, COUNT(*)")
                .filter(sql: "name = ? OR name = ?", arguments: ["Arthur", "Barbara"])
                .group(sql: "team"))
            #expect(rows.count == 1)
            #expect(rows.first?[1] == 2)
        }
    }

    @Test func columnsSelectedByARequest() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Row.fetchOne(db, RestrictedPlayer.all())?.columnNames == ["id", "name"])
            let extended = try #require(try Row.fetchOne(db, ExtendedPlayer.all()))
            #expect(extended.count == 14)
            let partial = try #require(try Row.fetchOne(db, PartialPlayer.all()))
            #expect(!partial.columnNames.contains("email"))
            #expect(!partial.columnNames.contains("mask"))
            #expect(partial.columnNames.count == 11)

            let maxScore = try Int.fetchOne(db, Player.select { max($0.score) })
            #expect(maxScore == 1500)
            let maxScore2 = try Player.select({ max($0.score) }, as: Int.self).fetchOne(db)
            #expect(maxScore2 == 1500)
        }
    }

    // MARK: Expressions

    @Test func comparisonAndArithmeticOperators() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try ids(db, Player.filter { $0.name == "Arthur" }) == [1])
            #expect(try ids(db, Player.filter { $0.name == nil }) == [3])
            #expect(try ids(db, Player.filter { $0.score === 1000 }) == [1])
            #expect(try ids(db, Player.filter { $0.name !== nil }.order(\.id)) == [1, 2, 4])
            #expect(try ids(db, Player.filter { $0.mask < $0.bonus }.order(\.id)) == [1, 3, 4])

            let maximumScore = Player.select { max($0.score) }
            #expect(try ids(db, Player.filter { $0.score == maximumScore }) == [2])
            let maximumScore2 = SQLRequest<Int>("SELECT max(score) FROM player")
            #expect(try ids(db, Player.filter { $0.score == maximumScore2 }) == [2])

            let fahrenheit = try Double.fetchAll(db, Player.select { ($0.score * 1.8 + 32).forKey("fahrenheit") }.order(\.id))
            #expect(fahrenheit.first == 1832)
            let sums = try Int.fetchAll(db, Player.select {
                [$0.score, $0.bonus, 1000.databaseValue].joined(operator: .add)
            }.order(\.id))
            #expect(sums == [2010, 2500, 1505, 2220])
            let rocky = try Int.fetchAll(db, Player.select { ($0.mask & 2).forKey("isRocky") }.order(\.id))
            #expect(rocky == [2, 2, 0, 0])
            let names = try String.fetchAll(db, Player.select {
                [$0.name, " ".databaseValue, $0.initial].joined(operator: .concat)
            }.filter(id: 1))
            #expect(names == ["Arthur A"])
            #expect(try ids(db, Player.filter { !$0.isVerified || $0.score < 1000 }.order(\.id)) == [2, 3, 4])
            #expect(try ids(db, Player.filter {
                [$0.isVerified, $0.score >= 1000, $0.name != nil].joined(operator: .and)
            }) == [1])
            let noConditions: [SQLExpression] = []
            #expect(try Player.filter(noConditions.joined(operator: .and)).fetchCount(db) == 4)
            #expect(try Player.filter(noConditions.joined(operator: .or)).fetchCount(db) == 0)
        }
    }

    @Test func inclusionExistenceAndLike() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try ids(db, Player.filter { ![1, 2, 3].contains($0.id) }) == [4])
            #expect(try ids(db, Player.filter { (0...1000).contains($0.score) }.order(\.id)) == [1, 3])
            #expect(try ids(db, Player.filter { (0..<1000).contains($0.score) }) == [3])
            #expect(try ids(db, Player.filter { ("A"..."N").contains($0.initial) }.order(\.id)) == [1, 2, 4])
            #expect(try ids(db, Player.filter { ("A"..<"N").contains($0.initial) }.order(\.id)) == [1, 2])

            let selectedPlayerIds = PlayerSelection.select(\.playerId)
            #expect(try ids(db, Player.filter { selectedPlayerIds.contains($0.id) }.order(\.id)) == [2, 4])
            let selectedPlayerIds2 = SQLRequest<Int64>("SELECT playerId FROM playerSelection")
            #expect(try ids(db, Player.filter { selectedPlayerIds2.contains($0.id) }.order(\.id)) == [2, 4])

            let teamAlias = TableAlias<Team>()
            let player = Player.filter { $0.teamId == teamAlias.id }
            #expect(try Team.aliased(teamAlias).filter(player.exists()).order(\.id).fetchAll(db).map(\.id) == [1, 2])
            #expect(try Team.aliased(teamAlias).filter(!player.exists()).fetchAll(db).map(\.id) == [3])

            let coachAlias = TableAlias<Player>(name: "coach")
            let coachedPlayer = Player.filter { $0.coachId == coachAlias.id }
            #expect(try ids(db, Player.aliased(coachAlias).filter(coachedPlayer.exists()).order(\.id)) == [1, 3])
            let coachedPlayer2 = SQLRequest<Row>("SELECT * FROM player WHERE coachId = \(coachAlias.id)")
            #expect(try ids(db, Player.aliased(coachAlias).filter(coachedPlayer2.exists()).order(\.id)) == [1, 3])

            #expect(try ids(db, Player.filter { $0.email.like("%@example.com") }.order(\.id)) == [1, 4])
            #expect(try ids(db, Player.filter { $0.email.like("%100\\%%", escape: "\\") }) == [4])
        }
    }

    @Test func aliasesAndFunctions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let totals = try Int.fetchAll(db, Player
                .select { ($0.score + $0.bonus).forKey("total") }
                .order(Column("total").detached))
            #expect(totals == [505, 1010, 1220, 1500])
            // A detached column is not qualified in joined requests.
            let joinedTotals = try Row.fetchAll(db, Player
                .select { ($0.score + $0.bonus).forKey("total") }
                .joining(required: Player.team)
                .order(Column("total").detached.desc))
            #expect(joinedTotals.map { $0["total"] as Int } == [1500, 1010, 505])

            let minMax = try #require(try Row.fetchOne(db, Player.select { [min($0.score), max($0.score)] }))
            #expect(minMax[0] as Int? == 500)
            #expect(minMax[1] as Int? == 1500)
            #expect(try Int.fetchOne(db, Player.select { count($0.name) }) == 3)
            #expect(try Int.fetchOne(db, Player.select { count(distinct: $0.team) }) == 2)
            let rates = try Double.fetchAll(db, Player.select { (cast($0.bonus, as: .real) / $0.score).forKey("rate") }.filter(id: 3))
            #expect(rates == [0.01])
            #expect(try String.fetchAll(db, Player.select { $0.name ?? "Anonymous" }.order(\.id)) == ["Arthur", "Barbara", "Anonymous", "Craig"])
            #expect(try String.fetchAll(db, Player.select { $0.name ?? $0.email }.filter(id: 3)) == ["anon@test.org"])
            #expect(try String.fetchAll(db, Player.select { $0.name.uppercased }.filter(id: 1)) == ["ARTHUR"])
            #expect(try String.fetchAll(db, Player.select { $0.name.lowercased }.filter(id: 1)) == ["arthur"])
            #expect(try ids(db, Player.filter { $0.name.collating(.caseInsensitiveCompare) == "ARTHUR" }) == [1])
            #expect(try Int.fetchOne(db, Player.select { abs($0.bonus - $0.score) }.filter(id: 1)) == 990)
            #expect(try Int.fetchOne(db, Player.select { length($0.name) }.filter(id: 1)) == 6)
            #expect(try Double.fetchOne(db, Player.select { average($0.score) }) == 1050)
            #expect(try Int.fetchOne(db, Player.select { sum($0.bonus) }) == 35)
        }
    }

    @Test func embeddingSQL() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let defaultName = "O'Brien"
            let rows = try Row.fetchAll(db, Player.select(sql: "IFNULL(name, ?), score", arguments: [defaultName]).order(sql: "id"))
            #expect(rows.map { $0[0] as String } == ["Arthur", "Barbara", "O'Brien", "Craig"])
            let rows2 = try Row.fetchAll(db, Player.select(literal: "IFNULL(name, \(defaultName)), score").order(\.id))
            #expect(rows2.map { $0[0] as String } == ["Arthur", "Barbara", "O'Brien", "Craig"])
            let rows3 = try Row.fetchAll(db, Player.select {
                let displayName: SQL = "IFNULL(\($0.name), \(defaultName)) AS displayName"
                return [displayName, $0.score]
            }.order(\.id))
            #expect(rows3.map { $0["displayName"] as String } == ["Arthur", "Barbara", "O'Brien", "Craig"])
            let rows4 = try Row.fetchAll(db, Player.select {
                let displayName = SQL("IFNULL(\($0.name), \(defaultName))").sqlExpression
                return [displayName.forKey("displayName"), $0.score]
            }.order(\.id))
            #expect(rows4.map { $0["displayName"] as String } == ["Arthur", "Barbara", "O'Brien", "Craig"])

            #expect(try Player.filter { date($0.initial) == nil }.fetchCount(db) == 4)
            #expect(try String.fetchOne(db, Player.select { date($0.initial ?? "2020-01-23 12:00:00") }) == nil)
            #expect(try ids(db, Player.filter(sql: "score >= 1000").order(\.id)) == [1, 2, 4])
            let minScore = 1000
            #expect(try ids(db, Player.filter(sql: "score >= ?", arguments: [minScore]).order(\.id)) == [1, 2, 4])
            #expect(try ids(db, Player.filter(literal: "score >= \(minScore)").order(\.id)) == [1, 2, 4])
            #expect(try ids(db, Player.filter {
                let scoreCondition: SQL = "\($0.score) >= \(minScore)"
                return scoreCondition && $0.team == "Reds"
            }.order(\.id)) == [1, 2])
            #expect(try ids(db, Player.order {
                let total = SQL("(\($0.score) + \($0.bonus))").sqlExpression
                return [total.desc, $0.name]
            }.reversed()) == [3, 1, 4, 2])
        }
    }

    // MARK: Fetching

    @Test func fetchingFromRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.filter { $0.team == "Reds" }
            var cursorIds: [Int64] = []
            let cursor = try request.order(\.id).fetchCursor(db)
            while let player = try cursor.next() { cursorIds.append(player.id) }
            #expect(cursorIds == [1, 2])
            #expect(try request.fetchSet(db).count == 2)
            #expect(try Player.filter { $0.name == "Arthur" }.fetchOne(db)?.id == 1)
            let row = try #require(try Row.fetchOne(db, Player.select { [min($0.score), max($0.score)] }))
            #expect(row[0] as Int? == 500)
            #expect(try Player.customRequest().fetchAll(db).map(\.id) == [1, 3])
        }
    }

    @Test func fetchingByKeyAndExistence() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Player.find(db, id: 1).name == "Arthur")
            #expect(try Player.fetchOne(db, id: 1)?.name == "Arthur")
            #expect(try Country.fetchAll(db, ids: ["FR", "US"]).count == 2)
            #expect(try Country.fetchSet(db, ids: ["FR", "XX"]).map(\.id) == ["FR"])
            #expect(try Player.find(db, key: 1).name == "Arthur")
            #expect(try Player.fetchOne(db, key: 1)?.name == "Arthur")
            #expect(try Country.fetchAll(db, keys: ["FR", "US"]).count == 2)
            #expect(try Player.fetchOne(db, key: ["email": "arthur@example.com"])?.id == 1)
            #expect(try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "FR"]) != nil)
            #expect(try Document.fetchOne(db, key: 1)?.content == "SQLite database")
            #expect(throws: RecordError.self) { try Player.find(db, id: 42) }

            #expect(try Player.filter { $0.score > 2000 }.isEmpty(db))
            #expect(try !Player.filter { $0.score > 1000 }.isEmpty(db))
            #expect(try Player.exists(db, id: 1))
            #expect(try Country.exists(db, id: "FR"))
            #expect(try !Country.exists(db, id: "XX"))
            #expect(try Player.exists(db, key: 1))
            #expect(try Country.exists(db, key: "FR"))
            #expect(try Player.exists(db, key: ["email": "arthur@example.com"]))
            #expect(try Citizenship.exists(db, key: ["citizenId": 1, "countryCode": "FR"]))
            #expect(try !Citizenship.exists(db, key: ["citizenId": 2, "countryCode": "FR"]))
        }
    }

    @Test func sqlLiteralsInEveryClause() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let minimumCount = 1
            let teams = try Row.fetchAll(db, Player
                .select(sql: "team, COUNT(*) AS count")
                .filter(literal: "team IS NOT NULL")
                .group(literal: "team")
                .having(literal: "COUNT(*) > \(minimumCount)"))
            #expect(teams == [["team": "Reds", "count": 2]])
            #expect(try ids(db, Player.order(literal: "score DESC")) == [2, 4, 1, 3])
            #expect(try Table("player").order(literal: "score").select(Column("id"), as: Int64.self).fetchAll(db) == [3, 1, 4, 2])
            // Requests and tables interpolate without parentheses, as in GRDB.
            let reds = Player.select(\.id).filter { $0.team == "Reds" }
            let blues = Player.select(\.id).filter { $0.team == "Blues" }
            let union: SQL = "SELECT * FROM \(Table("player")) WHERE id IN (\(reds) UNION \(blues)) ORDER BY id"
            #expect(try Row.fetchAll(db, SQLRequest(literal: union)).map { $0["id"] as Int64 } == [1, 2, 3])
            let anyReds = SQLRequest(literal: "SELECT 1 FROM player WHERE team = \("Reds")").sqlSubquery
            #expect(try Player.filter(anyReds.exists()).fetchCount(db) == 4)
            #expect(try Int.fetchAll(db, Player.select(1.databaseValue).limit(1)) == [1])
            #expect(try ids(db, Player.order("name".databaseValue, Column("id"))) == [1, 2, 3, 4])
            let statement = try Player.filter(Column("email") == "arthur@example.com").makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "player" WHERE "email" = ?"#)
            #expect(statement.arguments == ["arthur@example.com"])
        }
    }

    @Test func fetchOneLimitsOnlyRequestsThatMayReturnSeveralRows() throws {
        final class Log: @unchecked Sendable { var statements: [String] = [] }
        let log = Log()
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            db.trace { log.statements.append($0.description) }
            _ = try Player.filter { $0.id == 1 }.fetchOne(db)
            _ = try Player.filter(id: 1).fetchOne(db)
            _ = try Player.filter { $0.email == "arthur@example.com" }.fetchOne(db)  // a unique column
            _ = try Player.filter { $0.score == 1000 }.fetchOne(db)
            _ = try Player.filter(sql: "id = 1").fetchOne(db)
            db.trace(nil)
        }
        // Schema introspection is traced too: only the fetches are compared.
        #expect(log.statements.filter { $0.hasPrefix("SELECT") } == [
            #"SELECT * FROM "player" WHERE "id" = ?"#,
            #"SELECT * FROM "player" WHERE "id" = ?"#,
            #"SELECT * FROM "player" WHERE "email" = ?"#,
            #"SELECT * FROM "player" WHERE "score" = ? LIMIT 1"#,
            #"SELECT * FROM "player" WHERE id = 1 LIMIT 1"#,
        ])
    }

    @Test func fetchingAggregatedValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try Player.fetchCount(db) == 4)
            #expect(try Player.filter { $0.email != nil }.fetchCount(db) == 3)
            // SELECT COUNT(DISTINCT team) FROM player: NULL is not counted.
            #expect(try Player.select(\.team).distinct().fetchCount(db) == 2)
            #expect(try Row.fetchAll(db, Player.select(\.team).distinct()).count == 3)
            // SELECT COUNT(*) FROM (SELECT DISTINCT team, isHealthy FROM player)
            #expect(try Player.select { [$0.team, $0.isHealthy] }.distinct().fetchCount(db) == 4)
            #expect(try Player.select(\.isHealthy).distinct().fetchCount(db) == 2)
        }
    }

    // MARK: Delete and update

    @Test func deleteRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try Player.updateAll(db) { $0.coachId.set(to: nil) }
            #expect(try Player.filter { $0.team == "Blues" }.deleteAll(db) == 1)
            #expect(try Player.order(\.score).limit(1).deleteAll(db) == 1)
            #expect(try Player.fetchAll(db).map(\.id).sorted() == [2, 4])
            #expect(try Player.deleteOne(db, id: 2))
            #expect(try !Player.deleteOne(db, id: 2))
            #expect(try Country.deleteAll(db, ids: ["FR", "US"]) == 2)
            #expect(try Country.deleteOne(db, key: "DE"))
            #expect(try Player.deleteOne(db, key: ["email": "100%@example.com"]))
            #expect(try Citizenship.deleteOne(db, key: ["citizenId": 1, "countryCode": "FR"]))
            #expect(try Citizenship.deleteAll(db, keys: [["citizenId": 1, "countryCode": "US"]]) == 1)
            #expect(try Document.deleteOne(db, key: 1))
            #expect(try Table("document").deleteAll(db) == 1)
            #expect(try Player.deleteAll(db) == 0)
        }
    }

    @Test func updateRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try Player.filter { $0.team == "Reds" }.updateAll(db) { $0.score.set(to: 0) }
            #expect(try Player.filter { $0.score == 0 }.fetchCount(db) == 2)
            try Player.order(\.score.desc).limit(1).updateAll(db) { $0.isGreat.set(to: true) }
            #expect(try Player.filter { $0.isGreat }.fetchAll(db).map(\.id) == [4])
            try Country.filter(id: "FR").updateAll(db) { $0.population.set(to: 67_848_156) }
            #expect(try Country.find(db, id: "FR").population == 67_848_156)
            try Player.updateAll(db) { $0.score.set(to: $0.score + $0.bonus * 2) }
            #expect(try Player.find(db, id: 1).score == 20)
            try Player.updateAll(db) { $0.score += $0.bonus * 2 }
            #expect(try Player.find(db, id: 1).score == 40)
            try Player.updateAll(db) { [
                $0.isHealthy.set(to: true),
                $0.bonus.set(to: 1),
                $0.team.set(to: nil),
            ] }
            let updated = Player.filter { $0.team == nil }.filter { $0.isHealthy }.filter { $0.bonus == 1 }
            #expect(try updated.fetchCount(db) == 4)
            // UPDATE OR IGNORE skips the row that would break the unique email.
            let changed = try Player.updateAll(db, onConflict: .ignore) { $0.email.set(to: "same@example.com") }
            #expect(changed == 1)
            #expect(try Table("player").updateAll(db, [Column("bonus").set(to: 7)]) == 4)
            #expect(try Player.filter { $0.bonus == 7 }.fetchCount(db) == 4)
        }
    }

    @Test func untypedTableAliases() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let teamAlias = TableAlias()
            let request = Player
                .joining(required: Player.team.aliased(teamAlias))
                .filter(teamAlias[Column("color")] == "red")
                .order(\.id)
            #expect(try ids(db, request) == [1, 2])
            let named = TableAlias(name: "t")
            let request2 = Player
                .joining(required: Player.team.aliased(named))
                .filter(sql: "t.color = ?", arguments: ["blue"])
            #expect(try ids(db, request2) == [3])
        }
    }

    // MARK: SQL interpolation (SQLInterpolation.md, with GRDB 7's `SQL`)

    @Test func sqlLiteralsAreBuiltStepByStep() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let name = "O'Brien"
            let id: Int64 = 4
            var query: SQL = "UPDATE player "
            query += "SET name = \(name) "
            query.append(literal: "WHERE id = \(id)")
            try db.execute(literal: query)
            #expect(try Player.find(db, id: 4).name == "O'Brien")

            let components: [SQL] = [
                "UPDATE player",
                "SET name = \("Craig")",
                "WHERE id = \(id)",
            ]
            try db.execute(literal: components.joined(separator: " "))
            #expect(try Player.find(db, id: 4).name == "Craig")

            let built = try SQL("SELECT * FROM player WHERE name = \(name) AND id = \(id)").build(db)
            #expect(built.sql == "SELECT * FROM player WHERE name = ? AND id = ?")
            #expect(built.arguments == [name, id])
            let plain = SQL(sql: "UPDATE player SET bonus = ? WHERE id = ?", arguments: [99, id])
            try db.execute(literal: plain)
            #expect(try Player.find(db, id: 4).bonus == 99)
            #expect([SQL]().joined(separator: " ").isEmpty)
        }
    }

    @Test func sqlInterpolationOfRecordsKeysAndRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try PlayerSelection.deleteAll(db, playerId: 4)
            #expect(try PlayerSelection.fetchCount(db) == 1)
            #expect(try Player.filter(sqlIds: [1, 2, 3]).fetchAll(db).map(\.id) == [1, 2, 3])
            #expect(try Player.maximumScore().fetchOne(db) == 1500)
            #expect(try Player.leaders().fetchAll(db).map(\.id) == [2])
            var query: SQL = "SELECT \(Player.self).* FROM \(Player.self) "
            query += "JOIN \(Team.self) ON \(Team.self).id = \(Player.self).teamId "
            query += "WHERE \(Team.self).color = \("red")"
            #expect(try SQLRequest<Player>(literal: query).fetchCount(db) == 2)
            let bonus = 100
            let points = try Int.fetchAll(db, SQLRequest<Int>("SELECT \(Column("score") + bonus) AS points FROM player ORDER BY id"))
            #expect(points == [1100, 1600, 600, 1300])
            let points2 = try Int.fetchAll(db, SQLRequest<Int>("SELECT (score + \(bonus)) AS points FROM player ORDER BY \(Column("id").desc)"))
            #expect(points2 == [1300, 600, 1600, 1100])
        }
    }

    @Test func dateAndTimeFunctions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let day = SQL("'2020-03-15 10:30:00'").sqlExpression
            #expect(try String.fetchOne(db, Player.select { _ in dateTime(day) }) == "2020-03-15 10:30:00")
            #expect(try String.fetchOne(db, Player.select { _ in dateTime(day, .startOfDay, .hour(12)) }) == "2020-03-15 12:00:00")
            #expect(try String.fetchOne(db, Player.select { _ in dateTime(day, .startOfMonth, .day(1), .month(-1)) }) == "2020-02-02 00:00:00")
            #expect(try Double.fetchOne(db, Player.select { _ in julianDay(day, .startOfYear) }) == 2458849.5)
            #expect(try String.fetchOne(db, Player.select { _ in dateTime(SQL("0").sqlExpression, .unixEpoch) }) == "1970-01-01 00:00:00")
        }
    }
}
