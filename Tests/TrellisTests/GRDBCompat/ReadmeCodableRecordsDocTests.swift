import Foundation
import Testing
import Trellis

// GRDB's README, "Codable Records" and "JSON Columns": the database
// representation of the properties of Codable records.

private enum AchievementColor: String, Codable {
    case bronze, silver, gold
}

private struct Meta: Codable, Equatable {
    var date: Date
    var data: Data
    var tags: [String]
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var color: AchievementColor
    var meta: Meta?
    var scores: [Int]
    var ranks: [String: Int]
    var url: URL?
    var nickname: String?
}

@Suite struct ReadmeCodableRecordsDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("color", .text)
                t.column("meta", .jsonText)
                t.column("scores", .jsonText)
                t.column("ranks", .jsonText)
                t.column("url", .text)
                t.column("nickname", .text)
            }
        }
        return dbQueue
    }

    @Test func propertiesAndTheirColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let meta = Meta(date: Date(timeIntervalSince1970: 1), data: Data([1, 2, 3]), tags: ["a"])
            let player = Player(
                id: 1, color: .gold, meta: meta, scores: [3, 1], ranks: ["b": 2, "a": 1],
                url: URL(string: "https://example.com/x"), nickname: nil)
            try player.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(row["color"] == "gold".databaseValue)
            // Dates in JSON are milliseconds since 1970, data is base64,
            // and keys are sorted.
            #expect(row["meta"] == #"{"data":"AQID","date":1000,"tags":["a"]}"#.databaseValue)
            #expect(row["scores"] == "[3,1]".databaseValue)
            #expect(row["ranks"] == #"{"a":1,"b":2}"#.databaseValue)
            #expect(row["url"] == "https://example.com/x".databaseValue)
            #expect(row["nickname"] == DatabaseValue.null)
            #expect(try Player.fetchOne(db) == player)

            var other = player
            other.id = 2
            other.meta = nil
            try other.insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT meta FROM player WHERE id = 2")?["meta"] == DatabaseValue.null)
            #expect(try Player.fetchOne(db, key: 2)?.meta == nil)
        }
    }
}
