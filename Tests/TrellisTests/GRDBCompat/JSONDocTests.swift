import Foundation
import Testing
import Trellis

// Snippets from GRDB's "JSON Support" guide, and from the "JSON Columns"
// chapter of GRDB's README, written as the documentation writes them.

private struct Address: Codable, Equatable {
    var street: String
    var city: String
    var country: String
}

extension Address: DatabaseValueConvertible {}

/// The strict schema: a Codable property stored as a JSON string.
private struct StrictPlayer: Codable, Equatable {
    static let databaseTableName = "player"
    var id: String
    var name: String
    var address: Address

    enum Columns {
        static let address = JSONColumn("address")
    }
}

extension StrictPlayer: FetchableRecord, PersistableRecord {}

/// The flexible schema: a JSON string property.
private struct FlexiblePlayer: Codable {
    static let databaseTableName = "player"
    var id: String
    var name: String
    var address: String // JSON string
}

extension FlexiblePlayer: FetchableRecord, PersistableRecord {}

/// The flexible schema: a JSON data property, saved as text.
private struct Team: Codable {
    var id: String
    var color: String
    var info: Data // JSON UTF8 data
}

extension Team: FetchableRecord, PersistableRecord {
    // Support SQLite JSON functions and operators
    // by storing JSON data as database text:
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        .text
    }
}

/// The same team, with the default strategy: JSON data as a blob.
private struct BlobTeam: Codable {
    static let databaseTableName = "team"
    var id: String
    var color: String
    var info: Data
}

extension BlobTeam: FetchableRecord, PersistableRecord {}

/// The README's JSON columns.
private enum AchievementColor: String, Codable {
    case bronze, silver, gold
}

private struct Achievement: Codable, Equatable {
    var name: String
    var color: AchievementColor
}

private struct AchievementPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "achiever"
    var name: String
    var score: Int
    var achievements: [Achievement] // stored in a JSON column
}

/// A record that customizes the JSON format of its columns.
private struct Event: Codable, FetchableRecord, PersistableRecord, Equatable {
    struct Payload: Codable, Equatable {
        var date: Date
        var bytes: Data
    }
    var id: Int64
    var payload: Payload

    static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

@Suite struct GRDBCompatJSONTests {
    private func makeDatabase(trace: StatementTrace? = nil) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: trace?.configuration() ?? Configuration())
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("address", .jsonText).notNull() // A JSON column
            }
        }
        _ = trace?.take()
        return dbQueue
    }

    private static let paris = Address(street: "Rue de Rivoli", city: "Paris", country: "FR")
    private static let berlin = Address(street: "Unter den Linden", city: "Berlin", country: "DE")

    // MARK: Store and fetch JSON values

    @Test func jsonColumnIsText() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let columns = try db.columns(in: "player")
            #expect(columns.map(\.name) == ["id", "name", "address"])
            #expect(columns.map(\.type) == ["TEXT", "TEXT", "TEXT"])
        }
        #expect(Database.ColumnType.jsonText == Database.ColumnType.text)
    }

    @Test func indexOnJSONSubcomponent() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace: trace)
        try dbQueue.write { db throws in
            // CREATE INDEX player_on_country
            // ON player(address ->> 'country')
            try db.create(
                index: "player_on_country",
                on: "player",
                expressions: [
                    JSONColumn("address")["country"],
                ])
            #expect(trace.take().contains(#"CREATE INDEX "player_on_country" ON "player"("address" ->> 'country')"#))

            try StrictPlayer(id: "1", name: "Arthur", address: Self.paris).insert(db)
            try StrictPlayer(id: "2", name: "Barbara", address: Self.berlin).insert(db)
            _ = trace.take()

            // SELECT * FROM player
            // WHERE address ->> 'country' = 'DE'
            let request = StrictPlayer.filter { $0.address["country"] == "DE" }
            let germanPlayers = try request.fetchAll(db)
            #expect(germanPlayers.map(\.name) == ["Barbara"])
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "player" WHERE ("address" ->> ?) = ?"#)
            #expect(statement.arguments == ["country", "DE"])

            // The index serves the query.
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM player WHERE address ->> 'country' = 'DE'")
            #expect(plan.contains { ($0["detail"] as String?)?.contains("player_on_country") == true })
        }
    }

    @Test func strictSchemaStoresCodablePropertiesAsJSON() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let player = StrictPlayer(id: "1", name: "Arthur", address: Self.paris)
            try player.insert(db)
            // Stored as a JSON string
            let stored = try Row.fetchOne(db, sql: "SELECT address, typeof(address) AS type FROM player")
            let row = try #require(stored)
            #expect(row["type"] as String == "text")
            #expect(row["address"] as String == #"{"city":"Paris","country":"FR","street":"Rue de Rivoli"}"#)
            #expect(try StrictPlayer.fetchOne(db) == player)

            // JSON functions see the JSON object.
            #expect(try String.fetchOne(db, sql: "SELECT address ->> 'city' FROM player") == "Paris")
        }
    }

    @Test func flexibleSchemaWithStringAndData() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("color", .text).notNull()
                t.column("info", .jsonText).notNull()
            }

            let json = #"{"street":"Main Street","city":"Springfield","country":"US"}"#
            try FlexiblePlayer(id: "1", name: "Homer", address: json).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT address FROM player") == json)
            #expect(try FlexiblePlayer.fetchOne(db)?.address == json)
            let cities = try String.fetchAll(db, StrictPlayer.select(JSONColumn("address")["city"]))
            #expect(cities == ["Springfield"])

            // JSON data saved as text
            let info = Data(#"{"motto":"Go Reds"}"#.utf8)
            try Team(id: "reds", color: "red", info: info).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(info) FROM team") == "text")
            #expect(try String.fetchOne(db, sql: "SELECT info ->> 'motto' FROM team") == "Go Reds")
            #expect(try Team.fetchOne(db)?.info == info)

            // Without the strategy, data is a blob, that JSON functions
            // refuse.
            try BlobTeam(id: "blues", color: "blue", info: info).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(info) FROM team WHERE id = 'blues'") == "blob")
            #expect(try BlobTeam.fetchOne(db, key: "blues")?.info == info)
        }
    }

    @Test func filterOnCodableValue() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try StrictPlayer(id: "1", name: "Arthur", address: Self.paris).insert(db)
            try StrictPlayer(id: "2", name: "Barbara", address: Self.berlin).insert(db)

            // SELECT * FROM player
            // WHERE address = '{"street": "...", "city": "...", "country": "..."}'
            let request = StrictPlayer.filter { $0.address == Self.berlin }
            let players = try request.fetchAll(db)
            #expect(players.map(\.id) == ["2"])
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "player" WHERE "address" = ?"#)
            #expect(statement.arguments == [#"{"city":"Berlin","country":"DE","street":"Unter den Linden"}"#])

            // SQLite compares strings: a stored value with another
            // formatting does not match.
            try db.execute(sql: """
                INSERT INTO player VALUES ('3', 'Craig', '{"street": "Unter den Linden", "city": "Berlin", "country": "DE"}')
                """)
            #expect(try request.fetchAll(db).map(\.id) == ["2"])
        }
    }

    // MARK: The README's JSON columns

    @Test func readmeJSONColumns() throws {
        let trace = StatementTrace()
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try dbQueue.write { db throws in
            try db.create(table: "achiever") { t in
                t.column("name", .text)
                t.column("score", .integer)
                t.column("achievements", .jsonText)
            }
            _ = trace.take()

            // INSERT INTO player (name, score, achievements)
            // VALUES (
            //   'Arthur',
            //   100,
            //   '[{"color":"gold","name":"Use Codable Records"}]')
            let achievement = Achievement(name: "Use Codable Records", color: .gold)
            let player = AchievementPlayer(name: "Arthur", score: 100, achievements: [achievement])
            try player.insert(db)
            #expect(trace.take() == [#"INSERT INTO "achiever" ("name", "score", "achievements") VALUES (?, ?, ?)"#])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM achiever")
            #expect(row == ["name": "Arthur", "score": 100, "achievements": #"[{"color":"gold","name":"Use Codable Records"}]"#])
            #expect(try AchievementPlayer.fetchOne(db)?.achievements == [achievement])
        }
    }

    @Test func defaultJSONFormat() throws {
        // By default, Data values are handled with the `.base64` strategy,
        // Date with the `.millisecondsSince1970` strategy, and non
        // conforming floats with the `.throw` strategy.
        struct Payload: Codable, Equatable {
            var date: Date
            var bytes: Data
            var ratio: Double
        }
        struct Item: Codable, FetchableRecord, PersistableRecord, Equatable {
            var payload: Payload
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "item") { t in t.column("payload", .jsonText) }
            let item = Item(payload: Payload(date: Date(timeIntervalSince1970: 1), bytes: Data([1, 2, 3]), ratio: 0.5))
            try item.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT payload FROM item") == #"{"bytes":"AQID","date":1000,"ratio":0.5}"#)
            #expect(try Item.fetchOne(db) == item)

            let invalid = Item(payload: Payload(date: Date(), bytes: Data(), ratio: .nan))
            #expect(throws: (any Error).self) { try invalid.insert(db) }
            #expect(try Item.fetchCount(db) == 1)
        }
    }

    @Test func customJSONFormat() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "event") { t in
                t.primaryKey("id", .integer)
                t.column("payload", .jsonText)
            }
            let event = Event(id: 1, payload: Event.Payload(date: Date(timeIntervalSince1970: 0), bytes: Data([255])))
            try event.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT payload FROM event") == #"{"bytes":"\/w==","date":"1970-01-01T00:00:00Z"}"#)
            #expect(try Event.fetchOne(db) == event)
        }
    }

    // MARK: Manipulate JSON values at the database level

    @Test func jsonSubcomponentsOperators() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try StrictPlayer(id: "1", name: "Arthur", address: Self.paris).insert(db)
            let address = JSONColumn("address")

            // ->> gives SQL values, -> gives JSON.
            #expect(try String.fetchOne(db, StrictPlayer.select(address["city"])) == "Paris")
            #expect(try String.fetchOne(db, StrictPlayer.select(address["$.city"])) == "Paris")
            #expect(try String.fetchOne(db, StrictPlayer.select(address.jsonRepresentation(atPath: "city"))) == #""Paris""#)

            #expect(try String.fetchOne(db, StrictPlayer.select(Database.jsonExtract(address, atPath: "$.country"))) == "FR")
            #expect(try String.fetchOne(
                db, StrictPlayer.select(Database.jsonExtract(address, atPaths: ["$.country", "$.city"]))) == #"["FR","Paris"]"#)
            #expect(try String.fetchOne(db, StrictPlayer.select(Database.jsonType(address))) == "object")
            #expect(try String.fetchOne(db, StrictPlayer.select(Database.jsonType(address, atPath: "$.city"))) == "text")

            let request = StrictPlayer.select(Database.jsonExtract(address, atPath: "$.country"))
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT JSON_EXTRACT("address", ?) FROM "player""#)
            #expect(statement.arguments == ["$.country"])
        }
    }

    @Test func jsonArrayLength() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let length: SQLRequest<Int> = "SELECT \(Database.jsonArrayLength("[1,2,3,4]"))"
            #expect(try length.fetchOne(db) == 4)
            let nested: SQLRequest<Int> = "SELECT \(Database.jsonArrayLength(#"{"a":[1,2]}"#, atPath: "$.a"))"
            #expect(try nested.fetchOne(db) == 2)
        }
    }

    @Test func buildJSONValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            func value(_ expression: SQLExpression) throws -> String? {
                let request: SQLRequest<String> = "SELECT \(expression)"
                return try request.fetchOne(db)
            }
            #expect(try value(Database.json(#" { "a": [ 1 ] } "#)) == #"{"a":[1]}"#)
            #expect(try value(Database.jsonArray([1, 2, 3])) == "[1,2,3]")
            #expect(try value(Database.jsonArray([1, "foo"] as [any SQLExpressible])) == #"[1,"foo"]"#)
            // A string is embedded as a string, and JSON is embedded as JSON.
            #expect(try value(Database.jsonArray(["[1]"])) == #"["[1]"]"#)
            #expect(try value(Database.jsonArray([Database.json("[1]")])) == "[[1]]")
            #expect(try value(Database.jsonArray(["[1]".databaseValue.asJSON])) == "[[1]]")
            #expect(try value(Database.jsonObject(["a": 1, "b": "c"] as KeyValuePairs<String, any SQLExpressible>))
                == #"{"a":1,"b":"c"}"#)
            #expect(try value(Database.jsonObject(["a": Database.jsonArray([1, 2])] as [String: any SQLExpressible]))
                == #"{"a":[1,2]}"#)
            // Literals as the symbol documentation writes them.
            #expect(try value(Database.jsonArray([1, 2, "3", 4.0])) == #"[1,2,"3",4.0]"#)
            #expect(try value(Database.jsonObject(["c": #"{"e":5}"#])) == #"{"c":"{\"e\":5}"}"#)
            #expect(try value(Database.jsonObject(["c": Database.jsonObject(["e": 5])])) == #"{"c":{"e":5}}"#)
            #expect(try value(Database.jsonObject(["c": Database.json(#"{"e":5}"#)])) == #"{"c":{"e":5}}"#)
            #expect(try value(Database.jsonQuote("foo")) == #""foo""#)
            #expect(try value(Database.jsonQuote(Database.json("[1]"))) == "[1]")
        }
    }

    @Test func aggregateJSONValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try StrictPlayer(id: "1", name: "Arthur", address: Self.paris).insert(db)
            try StrictPlayer(id: "2", name: "Barbara", address: Self.berlin).insert(db)
            let name = Column("name")
            let address = JSONColumn("address")

            let names = StrictPlayer.select(Database.jsonGroupArray(name)).asRequest(of: String.self)
            #expect(try names.fetchOne(db) == #"["Arthur","Barbara"]"#)
            let filtered = StrictPlayer
                .select(Database.jsonGroupArray(name, filter: address["country"] == "DE"))
                .asRequest(of: String.self)
            #expect(try filtered.fetchOne(db) == #"["Barbara"]"#)
            // JSON columns are embedded as JSON.
            let cities = StrictPlayer
                .select(Database.jsonGroupArray(address.jsonRepresentation(atPath: "city")))
                .asRequest(of: String.self)
            #expect(try cities.fetchOne(db) == #"["Paris","Berlin"]"#)
            let addresses = StrictPlayer.select(Database.jsonGroupArray(address)).asRequest(of: String.self)
            #expect(try addresses.fetchOne(db)?.hasPrefix(#"[{"city":"Paris""#) == true)

            let byName = StrictPlayer
                .select(Database.jsonGroupObject(key: name, value: address["city"]))
                .asRequest(of: String.self)
            #expect(try byName.fetchOne(db) == #"{"Arthur":"Paris","Barbara":"Berlin"}"#)
        }
    }

    @Test func modifyJSONValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            func value(_ expression: SQLExpression) throws -> String? {
                let request: SQLRequest<String> = "SELECT \(expression)"
                return try request.fetchOne(db)
            }
            let object = #"{"a":1,"b":2}"#
            #expect(try value(Database.jsonInsert(object, ["$.a": 10, "$.c": 3])) == #"{"a":1,"b":2,"c":3}"#)
            #expect(try value(Database.jsonReplace(object, ["$.a": 10, "$.c": 3])) == #"{"a":10,"b":2}"#)
            #expect(try value(Database.jsonSet(object, ["$.a": 10, "$.c": 3])) == #"{"a":10,"b":2,"c":3}"#)
            #expect(try value(Database.jsonSet(object, ["$.c": Database.jsonArray([1])])) == #"{"a":1,"b":2,"c":[1]}"#)
            #expect(try value(Database.jsonPatch(object, with: #"{"b":null,"d":4}"#)) == #"{"a":1,"d":4}"#)
            #expect(try value(Database.jsonRemove(object, atPath: "$.a")) == #"{"b":2}"#)
            #expect(try value(Database.jsonRemove(object, atPaths: ["$.a", "$.b"])) == "{}")
        }
    }

    @Test func validateJSONValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let valid: SQLRequest<Bool> = "SELECT \(Database.jsonIsValid(#"{"a":1}"#))"
            #expect(try valid.fetchOne(db) == true)
            let invalid: SQLRequest<Bool> = "SELECT \(Database.jsonIsValid("{"))"
            #expect(try invalid.fetchOne(db) == false)
        }
    }

    @Test func jsonColumnsUpdatedWithJSONFunctions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            try StrictPlayer(id: "1", name: "Arthur", address: Self.paris).insert(db)
            let address = JSONColumn("address")
            try StrictPlayer.updateAll(db, address.set(to: Database.jsonSet(address, ["$.city": "Lyon"])))
            #expect(try StrictPlayer.fetchOne(db)?.address.city == "Lyon")
        }
    }
}
