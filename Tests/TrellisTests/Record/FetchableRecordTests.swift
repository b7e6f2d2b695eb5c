import Foundation
import Testing
import Trellis

/// A record with a hand-written `init(row:)`, as in GRDB's
/// "FetchableRecord Protocol" chapter.
private struct Place: FetchableRecord, TableRecord, Hashable {
    var id: Int64?
    var title: String
    var latitude: Double
    var longitude: Double

    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
    }

    init(id: Int64?, title: String, latitude: Double, longitude: Double) {
        self.id = id
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
    }

    init(row: Row) {
        id = row[Columns.id]
        title = row[Columns.title]
        latitude = row[Columns.latitude]
        longitude = row[Columns.longitude]
    }
}

/// A record that gets `init(row:)` from Decodable.
private struct Player: Decodable, FetchableRecord, TableRecord, Hashable {
    var id: Int64
    var name: String
    var score: Int
}

/// A record whose `init(row:)` validates the row.
private struct Positive: FetchableRecord {
    struct Negative: Error, Equatable { let value: Int }
    var value: Int
    init(row: Row) throws {
        value = row["value"]
        if value < 0 { throw Negative(value: value) }
    }
}

@Suite struct FetchableRecordTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE place (id INTEGER PRIMARY KEY, title TEXT NOT NULL, latitude DOUBLE NOT NULL, longitude DOUBLE NOT NULL);
                INSERT INTO place VALUES (1, 'Paris', 48.85341, 2.3488);
                INSERT INTO place VALUES (2, 'London', 51.50853, -0.12574);
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                INSERT INTO player VALUES (1, 'Arthur', 100);
                INSERT INTO player VALUES (2, 'Barbara', 300);
                INSERT INTO player VALUES (3, 'Craig', 200);
                """)
        }
        return dbQueue
    }

    @Test func handWrittenInitDecodesRowsFetchedBySQL() throws {
        let dbQueue = try makeDatabase()
        let places = try dbQueue.read { (db: Database) throws in
            try Place.fetchAll(db, sql: "SELECT * FROM place ORDER BY id")
        }
        #expect(places == [
            Place(id: 1, title: "Paris", latitude: 48.85341, longitude: 2.3488),
            Place(id: 2, title: "London", latitude: 51.50853, longitude: -0.12574),
        ])
    }

    @Test func decodableRecordsNeedNoInit() throws {
        let dbQueue = try makeDatabase()
        let players = try dbQueue.read { (db: Database) throws in
            try Player.fetchAll(db, sql: "SELECT * FROM player WHERE score > ? ORDER BY score", arguments: [150])
        }
        #expect(players.map(\.name) == ["Craig", "Barbara"])
    }

    @Test func fetchOneReturnsTheFirstRowOrNil() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let first = try Player.fetchOne(db, sql: "SELECT * FROM player ORDER BY score DESC")
            #expect(first?.name == "Barbara")
            let none = try Player.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [42])
            #expect(none == nil)
        }
    }

    @Test func fetchCursorIteratesRecordsLazily() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let cursor = try Player.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
            var names: [String] = []
            while let player = try cursor.next() {
                names.append(player.name)
            }
            #expect(names == ["Arthur", "Barbara", "Craig"])
            #expect(try cursor.next() == nil)

            let total = try Place.fetchCursor(db, sql: "SELECT * FROM place").reduce(0) { $0 + $1.latitude }
            #expect(total > 100)
        }
    }

    @Test func fetchSetRemovesDuplicates() throws {
        let dbQueue = try makeDatabase()
        let players = try dbQueue.read { (db: Database) throws in
            try Player.fetchSet(db, sql: "SELECT * FROM player UNION ALL SELECT * FROM player")
        }
        #expect(players.count == 3)
        #expect(Set(players.map(\.id)) == [1, 2, 3])
    }

    @Test func recordsFetchFromPreparedStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE score >= ? ORDER BY id")
            #expect(try Player.fetchAll(statement, arguments: [200]).map(\.id) == [2, 3])
            #expect(try Player.fetchOne(statement, arguments: [250])?.id == 2)
            #expect(try Player.fetchSet(statement, arguments: [0]).count == 3)
            let cursor = try Player.fetchCursor(statement, arguments: [1000])
            #expect(try cursor.next() == nil)
        }
    }

    @Test func recordsFetchFromRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let sqlRequest = SQLRequest<Player>(sql: "SELECT * FROM player WHERE name = ?", arguments: ["Craig"])
            #expect(try sqlRequest.fetchOne(db)?.score == 200)
            #expect(try Player.fetchAll(db, sqlRequest).map(\.id) == [3])

            let request = Player.filter(Column("score") > 150).order(Column("id"))
            #expect(try request.fetchAll(db).map(\.id) == [2, 3])
            #expect(try request.fetchOne(db)?.id == 2)
            #expect(try request.fetchSet(db).count == 2)
            #expect(try request.fetchCursor(db).map(\.name).toArray() == ["Barbara", "Craig"])
            #expect(try Player.fetchOne(db, request)?.id == 2)
            #expect(try Player.fetchSet(db, request).map(\.id).sorted() == [2, 3])
        }
    }

    @Test func tableRecordsFetchTheirWholeTable() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.fetchAll(db).count == 3)
            #expect(try Player.fetchSet(db).count == 3)
            #expect(try Player.fetchCursor(db).toArray().count == 3)
            #expect(try Player.fetchOne(db) != nil)
            #expect(try Place.fetchAll(db).map(\.title).sorted() == ["London", "Paris"])
        }
    }

    @Test func anErrorThrownByInitRowStopsTheFetchAndLeavesTheConnectionUsable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(throws: Positive.Negative(value: -2)) {
                try Positive.fetchAll(db, sql: "SELECT 1 AS value UNION ALL SELECT -2 UNION ALL SELECT 3")
            }
            #expect(try Positive.fetchAll(db, sql: "SELECT 1 AS value UNION ALL SELECT 3").map(\.value) == [1, 3])
        }
    }

    @Test func aRowKeptFromInitRowMustBeCopied() throws {
        struct Keeper: FetchableRecord {
            var row: Row
            init(row: Row) { self.row = row.copy() }
        }
        let dbQueue = try makeDatabase()
        let keepers = try dbQueue.read { (db: Database) throws in
            try Keeper.fetchAll(db, sql: "SELECT id, name FROM player ORDER BY id")
        }
        #expect(keepers.map { $0.row["name"] as String } == ["Arthur", "Barbara", "Craig"])
    }

    @Test func missingColumnsInHandWrittenRecordsAreReportedByTheFetch() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let error = #expect(throws: RowDecodingError.self) {
                try Place.fetchAll(db, sql: "SELECT id, title FROM place")
            }
            #expect(error?.description.contains("latitude") == true)
            #expect(try Place.fetchAll(db, sql: "SELECT * FROM place").count == 2)
        }
    }

    @Test func anEnumValueThatIsNoCaseIsReportedByTheFetch() throws {
        // The subscripts of a hand-written init(row:) can not throw: they
        // return a stand-in value (here the first case) and the fetch
        // throws, where GRDB stops the process.
        enum Color: String, DatabaseValueConvertible { case red, blue }
        enum Level: Int, DatabaseValueConvertible { case low = 1, high = 2 }
        struct Paint: FetchableRecord {
            var color: Color
            var level: Level
            init(row: Row) {
                color = row["color"]
                level = row["level"]
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE paint(color TEXT, level INTEGER);
                INSERT INTO paint VALUES ('blue', 2), ('green', 2), ('red', 3)
                """)
            let colorError = #expect(throws: RowDecodingError.self) {
                try Paint.fetchAll(db, sql: "SELECT * FROM paint ORDER BY rowid")
            }
            #expect(colorError?.description.contains(#""green""#) == true)
            #expect(colorError?.description.contains("Color") == true)
            let levelError = #expect(throws: RowDecodingError.self) {
                try Paint.fetchOne(db, sql: "SELECT * FROM paint WHERE color = 'red'")
            }
            #expect(levelError?.description.contains("Level") == true)
            let paint = try Paint.fetchOne(db, sql: "SELECT * FROM paint WHERE color = 'blue'")
            #expect(paint?.color == .blue && paint?.level == .high)
        }
    }


    @Test func aValidatedValueThatDoesNotConvertIsReportedByTheFetch() throws {
        // Not Decodable, holds a string, refuses empty and short text: the
        // stand-in is a well-formed address.
        struct Email: DatabaseValueConvertible {
            var address: String
            var databaseValue: DatabaseValue { address.databaseValue }
            static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Email? {
                guard let address = String.fromDatabaseValue(dbValue), address.contains("@") else { return nil }
                return Email(address: address)
            }
        }
        struct Contact: FetchableRecord {
            var email: Email
            init(row: Row) { email = row["email"] }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let error = #expect(throws: RowDecodingError.self) { try Contact.fetchAll(db, sql: "SELECT 'Arthur' AS email") }
            #expect(error?.description.contains(#""Arthur""#) == true)
            #expect(try Contact.fetchOne(db, sql: "SELECT 'arthur@example.com' AS email")?.email.address == "arthur@example.com")
        }
    }

    @Test func aCustomValueThatDoesNotConvertIsReportedByTheFetch() throws {
        // A type that holds a string and refuses every basic value: the
        // subscript's stand-in comes from its Decodable conformance.
        struct Email: DatabaseValueConvertible, Codable, Equatable {
            var address: String
            var tags: [String]
            var databaseValue: DatabaseValue { address.databaseValue }
            static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Email? {
                guard let address = String.fromDatabaseValue(dbValue), address.contains("@"), address.count > 3 else { return nil }
                return Email(address: address, tags: [])
            }
        }
        struct Contact: FetchableRecord {
            var email: Email
            init(row: Row) { email = row["email"] }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE contact(email TEXT); INSERT INTO contact VALUES ('arthur@example.com'), ('nobody')")
            let error = #expect(throws: RowDecodingError.self) {
                try Contact.fetchAll(db, sql: "SELECT * FROM contact ORDER BY rowid")
            }
            #expect(error?.description.contains(#""nobody""#) == true)
            let contact = try Contact.fetchOne(db, sql: "SELECT * FROM contact ORDER BY rowid")
            #expect(contact?.email == Email(address: "arthur@example.com", tags: []))
        }
    }

}
