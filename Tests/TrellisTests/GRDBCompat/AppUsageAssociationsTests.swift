import Foundation
import Testing
import Trellis

// Association requests in the shapes application layers compose them: an
// association both included and joined with a filter, nested includes with
// custom keys, aggregates annotated under coding keys and read back by a
// manual `init(row:)`, selections restricted on both sides of a join, and
// has-many-through with an ordering.

private struct Coin: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: String
    var name: String
    var rank: Int

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let rank = Column("rank")
    }

    static let quote = hasOne(Quote.self)
    static let holdings = hasMany(Holding.self)
    static let alerts = hasMany(Alert.self)
}

private struct Quote: Codable, FetchableRecord, PersistableRecord, Equatable {
    var coinId: String
    var price: Double
}

private struct Holding: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var coinId: String
    var walletId: String
    var amount: Double

    enum Columns {
        static let walletId = Column("walletId")
    }
}

private struct Alert: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var coinId: String
    var threshold: Double
}

private struct CoinInfo: Codable, FetchableRecord, Equatable {
    var coin: Coin
    var quote: Quote?
    var holding: Holding?
    var alerts: [Alert]
}

private func makeCoinQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "coin") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull()
            t.column("rank", .integer).notNull()
        }
        try db.create(table: "quote") { t in
            t.primaryKey("coinId", .text).references("coin")
            t.column("price", .double).notNull()
        }
        try db.create(table: "holding") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("coin").notNull()
            t.column("walletId", .text).notNull()
            t.column("amount", .double).notNull()
        }
        try db.create(table: "alert") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("coin").notNull()
            t.column("threshold", .double).notNull()
        }
        try Coin(id: "btc", name: "Bitcoin", rank: 1).insert(db)
        try Coin(id: "eth", name: "Ether", rank: 2).insert(db)
        try Coin(id: "doge", name: "Doge", rank: 3).insert(db)
        try Quote(coinId: "btc", price: 100).insert(db)
        try Holding(id: 1, coinId: "btc", walletId: "w1", amount: 1).insert(db)
        try Holding(id: 2, coinId: "btc", walletId: "w2", amount: 2).insert(db)
        try Holding(id: 3, coinId: "eth", walletId: "w2", amount: 3).insert(db)
        try Alert(id: 1, coinId: "btc", threshold: 90).insert(db)
        try Alert(id: 2, coinId: "btc", threshold: 110).insert(db)
    }
    return dbQueue
}

@Suite("App usage: associations")
struct AppUsageAssociationsTests {
    @Test("An association included, then joined again with a filter, is one join that the filter restricts")
    func includedThenFilteredJoin() throws {
        let dbQueue = try makeCoinQueue()
        let infos = try dbQueue.read { db in
            try Coin
                .including(optional: Coin.quote)
                .including(optional: Coin.holdings.forKey("holding"))
                .including(all: Coin.alerts)
                .joining(optional: Coin.holdings.forKey("holding").filter(Holding.Columns.walletId == "w2"))
                .order(Coin.Columns.rank)
                .asRequest(of: CoinInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.coin.id) == ["btc", "eth", "doge"])
        #expect(infos.map(\.holding?.id) == [2, 3, nil])
        #expect(infos[0].quote?.price == 100)
        #expect(infos[0].alerts.map(\.id) == [1, 2])
        #expect(infos[1].alerts.isEmpty)
    }

    @Test("Filtering on an optional value compares with IS NULL when the value is nil")
    func filterOnOptionalValue() throws {
        let dbQueue = try makeCoinQueue()
        let wanted: String? = "eth"
        let missing: String? = nil
        let found = try dbQueue.read { db in try Coin.filter(Coin.Columns.id == wanted).fetchAll(db) }
        let none = try dbQueue.read { db in try Coin.filter(Coin.Columns.id == missing).fetchAll(db) }
        let notNull = try dbQueue.read { db in try Quote.filter(Column("coinId") != missing).fetchCount(db) }
        #expect(found.map(\.id) == ["eth"])
        #expect(none.isEmpty)
        #expect(notNull == 1)
    }

    @Test("Selections restricted on the base and the included record decode with the remaining columns")
    func restrictedSelections() throws {
        struct Slim: Decodable, FetchableRecord, Equatable {
            struct CoinName: Decodable, Equatable { var id: String; var name: String }
            struct Amount: Decodable, Equatable { var amount: Double }
            var coin: CoinName
            var holding: Amount
        }
        let dbQueue = try makeCoinQueue()
        let rows = try dbQueue.read { db in
            try Coin
                .select(Column("id"), Column("name"))
                .filter(Column("rank") <= 2)
                .including(required: Coin.holdings.forKey("holding").select(Column("amount")).filter(Column("walletId") == "w2"))
                .order(Column("rank"))
                .asRequest(of: Slim.self)
                .fetchAll(db)
        }
        #expect(rows == [
            Slim(coin: .init(id: "btc", name: "Bitcoin"), holding: .init(amount: 2)),
            Slim(coin: .init(id: "eth", name: "Ether"), holding: .init(amount: 3)),
        ])
    }

    @Test("fetchOne(db, request) and fetchAll(db, request) decode an including request into another type")
    func fetchThroughRequestArgument() throws {
        let dbQueue = try makeCoinQueue()
        try dbQueue.read { db in
            let request = Coin.filter(key: "btc")
                .including(optional: Coin.quote)
                .including(optional: Coin.holdings.forKey("holding").filter(Column("walletId") == "w1"))
                .including(all: Coin.alerts.order(Column("threshold").desc))
            let info = try CoinInfo.fetchOne(db, request)
            #expect(info?.holding?.id == 1)
            #expect(info?.alerts.map(\.id) == [2, 1])
            let several = try CoinInfo.fetchAll(db, Coin.filter(keys: ["eth", "doge"])
                .including(optional: Coin.quote)
                .including(optional: Coin.holdings.forKey("holding"))
                .including(all: Coin.alerts)
                .order(Column("rank")))
            #expect(several.map(\.coin.id) == ["eth", "doge"])
        }
    }
}

// MARK: - Aggregates under coding keys, read by a manual init(row:)

private struct Show: Codable, FetchableRecord, PersistableRecord, Equatable, Identifiable {
    var id: Int64
    var title: String

    static let episodes = hasMany(Airing.self)
}

private struct Airing: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var showId: Int64
    var airedAt: Date
    var title: String

    enum Columns {
        static let airedAt = Column("airedAt")
        static let title = Column("title")
    }
}

private struct ShowWithStats: FetchableRecord, Equatable {
    var show: Show
    var episodeCount: Int
    var latestAiring: Date?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case episodeCount
        case latestAiring
    }

    init(row: Row) throws {
        show = try Show(row: row)
        episodeCount = row[CodingKeys.episodeCount]
        latestAiring = row[CodingKeys.latestAiring]
    }

    static func all() -> QueryInterfaceRequest<ShowWithStats> {
        Show.all()
            .annotated(with: [
                Show.episodes.count.forKey(CodingKeys.episodeCount),
                Show.episodes.max(Airing.Columns.airedAt).forKey(CodingKeys.latestAiring),
            ])
            .asRequest(of: ShowWithStats.self)
    }
}

@Suite("App usage: annotated aggregates")
struct AppUsageAggregatesTests {
    @Test("count and max aggregates under coding keys decode in a manual init(row:) that decodes the base record")
    func aggregatesUnderCodingKeys() throws {
        let dbQueue = try DatabaseQueue()
        let day1 = Date(timeIntervalSince1970: 86_400)
        let day2 = Date(timeIntervalSince1970: 2 * 86_400)
        try dbQueue.write { db in
            try db.create(table: "show") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
            }
            try db.create(table: "airing") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("show").notNull()
                t.column("airedAt", .datetime).notNull()
                t.column("title", .text).notNull()
            }
            try Show(id: 1, title: "News").insert(db)
            try Show(id: 2, title: "Quiet").insert(db)
            try Airing(id: 1, showId: 1, airedAt: day2, title: "b").insert(db)
            try Airing(id: 2, showId: 1, airedAt: day1, title: "a").insert(db)
        }
        let stats = try dbQueue.read { db in try ShowWithStats.all().order(Column("id")).fetchAll(db) }
        #expect(stats.map(\.show.title) == ["News", "Quiet"])
        #expect(stats.map(\.episodeCount) == [2, 0])
        #expect(stats.map(\.latestAiring) == [day2, nil])
    }
}
