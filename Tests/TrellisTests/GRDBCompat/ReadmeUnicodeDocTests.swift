import Foundation
import Testing
import Trellis

// GRDB's README, "Unicode" (unicode functions, string comparison): each
// sample run as written, with the values the README shows.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var email: String
    var name: String

    enum Columns {
        static let name = Column(CodingKeys.name)
    }
}

@Suite struct ReadmeUnicodeDocTests {
    @Test func unicodeFunctionsAreAvailableOnEveryConnection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT UPPER('Jérôme')") == "JéRôME")
            let uppercased = DatabaseFunction.uppercase
            #expect(try String.fetchOne(db, sql: "SELECT \(uppercased.name)('Jérôme')") == "JÉRÔME")
            let lowercased = DatabaseFunction.lowercase
            #expect(try String.fetchOne(db, sql: "SELECT \(lowercased.name)('JÉRÔME')") == "jérôme")
            let capitalized = DatabaseFunction.capitalize
            #expect(try String.fetchOne(db, sql: "SELECT \(capitalized.name)('jérôme durand')") == "Jérôme Durand")
        }
    }

    @Test func collationsOfColumnsAndRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique().collate(.nocase)
                t.column("name", .text).collate(.localizedCaseInsensitiveCompare)
            }
            try Player(id: nil, email: "a@example.com", name: "élodie").insert(db)
            try Player(id: nil, email: "b@example.com", name: "Zoé").insert(db)
            try Player(id: nil, email: "c@example.com", name: "arthur").insert(db)
            // The unique email is case-insensitive.
            #expect(throws: DatabaseError.self) {
                try Player(id: nil, email: "A@EXAMPLE.COM", name: "x").insert(db)
            }

            let players = try Player.order(\.name).fetchAll(db)
            #expect(players.map(\.name) == ["arthur", "élodie", "Zoé"])

            let collation = DatabaseCollation.localizedCaseInsensitiveCompare
            let players2 = try Player.fetchAll(db,
                sql: "SELECT * FROM player ORDER BY email COLLATE \(collation.name) DESC")
            #expect(players2.map(\.email) == ["c@example.com", "b@example.com", "a@example.com"])
            let players3 = try Player.order { $0.name.collating(collation) }.fetchAll(db)
            #expect(players3.map(\.name) == ["arthur", "élodie", "Zoé"])
            let binary = try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name COLLATE BINARY")
            #expect(binary == ["Zoé", "arthur", "élodie"])
            let unicode = try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name COLLATE \(DatabaseCollation.unicodeCompare.name)")
            #expect(unicode == ["Zoé", "arthur", "élodie"])
        }
    }

    @Test func customCollations() throws {
        let collation = DatabaseCollation("customCollation") { lhs, rhs in
            // Longest strings first.
            if lhs.count == rhs.count { return .orderedSame }
            return lhs.count > rhs.count ? .orderedAscending : .orderedDescending
        }
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.add(collation: collation)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.read { db throws in
            let strings = try String.fetchAll(db, sql: """
                SELECT s FROM (SELECT 'a' AS s UNION ALL SELECT 'ccc' UNION ALL SELECT 'bb')
                ORDER BY s COLLATE customCollation
                """)
            #expect(strings == ["ccc", "bb", "a"])
            let ordered = try String.fetchAll(db, SQLRequest<String>("""
                SELECT s FROM (SELECT 'a' AS s UNION ALL SELECT 'ccc' UNION ALL SELECT 'bb')
                ORDER BY \(Column("s").collating(collation))
                """))
            #expect(ordered == ["ccc", "bb", "a"])
        }
    }
}
