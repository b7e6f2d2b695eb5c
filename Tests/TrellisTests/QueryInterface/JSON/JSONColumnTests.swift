import Foundation
import Testing
import Trellis

// The samples of GRDB's "JSON Support" article and of the "JSON Columns"
// section of its README. The SQL below is the SQL of GRDB 7 for the same
// Swift code.

private struct Address: Codable, Equatable {
    var street: String
    var city: String
    var country: String
}

extension Address: DatabaseValueConvertible {}

private struct Player: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    // Stored as a JSON string
    var address: Address

    enum Columns {
        static let name = Column("name")
        static let address = JSONColumn("address")
    }
}

private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "player") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull()
            t.column("address", .jsonText).notNull() // A JSON column
        }
        try Player(id: "1", name: "Arthur", address: Address(street: "Rue", city: "Berlin", country: "DE")).insert(db)
        try Player(id: "2", name: "Barbara", address: Address(street: "Street", city: "Paris", country: "FR")).insert(db)
    }
    return dbQueue
}

@Suite struct JSONColumnTests {
    @Test func aJSONTextColumnIsATextColumn() throws {
        try makeDatabase().read { (db: Database) throws in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player'")
            #expect(sql == #"CREATE TABLE "player" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "address" TEXT NOT NULL)"#)
            #expect(try db.columns(in: "player").map(\.type) == ["TEXT", "TEXT", "TEXT"])
            #expect(Database.ColumnType.jsonText == .text)
        }
    }

    @Test func indexesOnJSONComponents() throws {
        try makeDatabase().write { (db: Database) throws in
            // CREATE INDEX player_on_country
            // ON player(address ->> 'country')
            try db.create(
                index: "player_on_country",
                on: "player",
                expressions: [
                    JSONColumn("address")["country"],
                ])
            try db.create(
                index: "player_on_city_and_name",
                on: "player",
                expressions: [JSONColumn("address")["city"], Column("name")],
                options: [.unique, .ifNotExists],
                condition: JSONColumn("address")["street"] != nil)
            let sql = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            #expect(sql == [
                #"CREATE UNIQUE INDEX "player_on_city_and_name" ON "player"("address" ->> 'city', "name") WHERE ("address" ->> 'street') IS NOT NULL"#,
                #"CREATE INDEX "player_on_country" ON "player"("address" ->> 'country')"#,
            ])
            // SQLite uses the index to look for German players.
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM player WHERE address ->> 'country' = 'DE'")
            #expect(plan.contains { ($0["detail"] as String).contains("player_on_country") })
        }
    }

    @Test func filterOnAJSONComponent() throws {
        try makeDatabase().read { (db: Database) throws in
            // SELECT * FROM player
            // WHERE address ->> 'country' = 'DE'
            let request = Player.filter { $0.address["country"] == "DE" }
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "player" WHERE ("address" ->> ?) = ?"#)
            #expect(statement.arguments == ["country", "DE"])
            let germanPlayers = try request.fetchAll(db)
            #expect(germanPlayers.map(\.name) == ["Arthur"])
        }
    }

    @Test func codablePropertiesAreStoredAsJSONText() throws {
        try makeDatabase().read { (db: Database) throws in
            let addresses = try String.fetchAll(db, sql: "SELECT address FROM player ORDER BY id")
            #expect(addresses == [
                #"{"city":"Berlin","country":"DE","street":"Rue"}"#,
                #"{"city":"Paris","country":"FR","street":"Street"}"#,
            ])
            #expect(try Player.fetchAll(db).map(\.address.city) == ["Berlin", "Paris"])
        }
    }

    @Test func filterOnACodableDatabaseValue() throws {
        try makeDatabase().read { (db: Database) throws in
            // SELECT * FROM player
            // WHERE address = '{"street": "...", "city": "...", "country": "..."}'
            let paris = Address(street: "Street", city: "Paris", country: "FR")
            let request = Player.filter { $0.address == paris }
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "player" WHERE "address" = ?"#)
            #expect(statement.arguments == [#"{"city":"Paris","country":"FR","street":"Street"}"#])
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
        }
    }

    @Test func codableDatabaseValuesAreJSON() throws {
        try makeDatabase().read { (db: Database) throws in
            let address = Address(street: "Street", city: "Paris", country: "FR")
            #expect(address.databaseValue == #"{"city":"Paris","country":"FR","street":"Street"}"#.databaseValue)
            #expect(Address.fromDatabaseValue(#"{"street":"S","city":"C","country":"X"}"#.databaseValue)
                    == Address(street: "S", city: "C", country: "X"))
            #expect(Address.fromDatabaseValue(Data(#"{"street":"S","city":"C","country":"X"}"#.utf8).databaseValue)
                    == Address(street: "S", city: "C", country: "X"))
            #expect(Address.fromDatabaseValue(1.databaseValue) == nil)
            #expect(Address.fromDatabaseValue("garbage".databaseValue) == nil)
            #expect(try Address.fetchAll(db, sql: "SELECT address FROM player ORDER BY id").map(\.country) == ["DE", "FR"])
            #expect(throws: (any Error).self) {
                try Address.fetchAll(db, sql: "SELECT 'garbage'")
            }
        }
    }

    @Test func codableEnumsWithRawValuesAreStoredAsTheirRawValue() throws {
        enum Color: String, Codable, DatabaseValueConvertible { case red, blue }
        #expect(Color.red.databaseValue == "red".databaseValue)
        #expect(Color.fromDatabaseValue("blue".databaseValue) == .blue)
        #expect(Color.fromDatabaseValue(#""blue""#.databaseValue) == nil)
    }

    @Test func flexibleSchemasUseStringAndDataProperties() throws {
        // JSON String property
        struct FlexiblePlayer: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "player"
            var id: String
            var name: String
            var address: String // JSON string
        }

        // JSON Data property, saved as text in the database
        struct Team: Codable, FetchableRecord, PersistableRecord {
            var id: String
            var color: String
            var info: Data // JSON UTF8 data

            // Support SQLite JSON functions and operators
            // by storing JSON data as database text:
            static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
                .text
            }
        }

        try makeDatabase().write { (db: Database) throws in
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("color", .text).notNull()
                t.column("info", .jsonText).notNull()
            }
            try Team(id: "red", color: "red", info: Data(#"{"members":3}"#.utf8)).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(info) FROM team") == "text")
            #expect(try Int.fetchOne(db, Team.select(JSONColumn("info")["members"])) == 3)
            #expect(try Team.fetchOne(db)?.info == Data(#"{"members":3}"#.utf8))

            let players = try FlexiblePlayer.order(Column("id")).fetchAll(db)
            #expect(players.map(\.address) == [
                #"{"city":"Berlin","country":"DE","street":"Rue"}"#,
                #"{"city":"Paris","country":"FR","street":"Street"}"#,
            ])
            try FlexiblePlayer(id: "3", name: "Craig", address: #"{"country":"IT"}"#).insert(db)
            #expect(try FlexiblePlayer.filter(JSONColumn("address")["country"] == "IT").fetchCount(db) == 1)
        }
    }

    @Test func jsonFunctionsOnRecordColumns() throws {
        try makeDatabase().write { (db: Database) throws in
            let address = Player.Columns.address
            let request = Player.select(Database.jsonGroupArray(address), as: String.self)
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT JSON_GROUP_ARRAY(JSON("address")) FROM "player""#)
            #expect(try request.fetchOne(db)
                    == #"[{"city":"Berlin","country":"DE","street":"Rue"},{"city":"Paris","country":"FR","street":"Street"}]"#)

            let byName = Player.select(Database.jsonGroupObject(key: Column("name"), value: address), as: String.self)
            #expect(try byName.makePreparedRequest(db).statement.sql
                    == #"SELECT JSON_GROUP_OBJECT("name", JSON("address")) FROM "player""#)
            #expect(try byName.fetchOne(db)
                    == #"{"Arthur":{"city":"Berlin","country":"DE","street":"Rue"},"Barbara":{"city":"Paris","country":"FR","street":"Street"}}"#)

            let objects = Player
                .select({ Database.jsonObject(["name": $0.name, "address": $0.address] as KeyValuePairs<String, any SQLExpressible>) },
                        as: String.self)
                .order(Column("id"))
            #expect(try objects.makePreparedRequest(db).statement.sql
                    == #"SELECT JSON_OBJECT(?, "name", ?, JSON("address")) FROM "player" ORDER BY "id""#)
            #expect(try objects.fetchAll(db).first
                    == #"{"name":"Arthur","address":{"city":"Berlin","country":"DE","street":"Rue"}}"#)

            let cities = Player.select({ $0.address.jsonRepresentation(atPath: "city") }, as: String.self).order(Column("id"))
            #expect(try cities.makePreparedRequest(db).statement.sql == #"SELECT "address" -> ? FROM "player" ORDER BY "id""#)
            #expect(try cities.fetchAll(db) == [#""Berlin""#, #""Paris""#])

            let ordered = Player.order { $0.address["country"].desc }
            #expect(try ordered.makePreparedRequest(db).statement.sql == #"SELECT * FROM "player" ORDER BY "address" ->> ? DESC"#)
            #expect(try ordered.fetchAll(db).map(\.name) == ["Barbara", "Arthur"])

            // UPDATE player SET address = JSON_SET(address, '$.city', 'Lyon')
            try Player.updateAll(db, address.set(to: Database.jsonSet(address, ["$.city": "Lyon"])))
            #expect(try Player.fetchAll(db).map(\.address.city) == ["Lyon", "Lyon"])
            #expect(try String.fetchOne(db, sql: "SELECT address FROM player WHERE id = '1'")
                    == #"{"city":"Lyon","country":"DE","street":"Rue"}"#)
        }
    }

    @Test func jsonColumnsOfTableAliases() throws {
        try makeDatabase().read { (db: Database) throws in
            let alias = TableAlias<Player>()
            let request = Player.aliased(alias).filter(alias.address["country"] == "DE")
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT * FROM "player" WHERE ("address" ->> ?) = ?"#)
            #expect(try request.fetchAll(db).map(\.name) == ["Arthur"])
            let subscripted = Player.aliased(alias).filter(alias[JSONColumn("address")]["country"] == "DE")
            #expect(try subscripted.fetchAll(db).map(\.name) == ["Arthur"])
            let arrays = Player.aliased(alias).select([Database.jsonArray([alias[JSONColumn("address")]])], as: String.self)
            #expect(try arrays.makePreparedRequest(db).statement.sql == #"SELECT JSON_ARRAY(JSON("address")) FROM "player""#)
            #expect(try arrays.fetchAll(db).first == #"[{"city":"Berlin","country":"DE","street":"Rue"}]"#)
        }
    }

    @Test func readmeAchievementsAreStoredInAJSONColumn() throws {
        enum AchievementColor: String, Codable {
            case bronze, silver, gold
        }

        struct Achievement: Codable {
            var name: String
            var color: AchievementColor
        }

        struct Player: Codable, FetchableRecord, PersistableRecord {
            var name: String
            var score: Int
            var achievements: [Achievement] // stored in a JSON column
        }

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
                t.column("achievements", .jsonText)
            }
            // INSERT INTO player (name, score, achievements)
            // VALUES (
            //   'Arthur',
            //   100,
            //   '[{"color":"gold","name":"Use Codable Records"}]')
            let achievement = Achievement(name: "Use Codable Records", color: .gold)
            let player = Player(name: "Arthur", score: 100, achievements: [achievement])
            try player.insert(db)

            #expect(try String.fetchOne(db, sql: "SELECT achievements FROM player")
                    == #"[{"color":"gold","name":"Use Codable Records"}]"#)
            let achievements = JSONColumn("achievements")
            #expect(try Int.fetchOne(db, Player.select(Database.jsonArrayLength(achievements))) == 1)
            #expect(try String.fetchOne(db, Player.select(achievements["$[0].color"])) == "gold")
            #expect(try Player.filter(achievements["$[0].color"] == "gold").fetchCount(db) == 1)
            #expect(try Player.fetchOne(db)?.achievements.first?.color == .gold)
        }
    }
}
