import Foundation
import Testing
import Trellis
import TrellisSQLite

// GRDB's docc extension article on `DatabaseValueConvertible` ("A type that
// can convert itself into and out of a database value"): each sample, with
// the values and errors GRDB 7 gives (checked with GRDB itself).

private struct EvenInteger: Hashable {
    let value: Int // Guaranteed even

    init?(_ value: Int) {
        guard value.isMultiple(of: 2) else {
            return nil // Not an even number
        }
        self.value = value
    }
}

extension EvenInteger: DatabaseValueConvertible {
    var databaseValue: DatabaseValue {
        value.databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let value = Int.fromDatabaseValue(dbValue) else {
            return nil // Not an integer
        }
        return EvenInteger(value) // Nil if not even
    }
}

extension EvenInteger: StatementColumnConvertible {
    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let int64 = sqlite3_column_int64(sqliteStatement, index)
        guard let value = Int(exactly: int64) else {
            return nil // Does not fit Int (probably a 32-bit architecture)
        }
        self.init(value) // Nil if not even
    }
}

private enum Grape: String {
    case chardonnay, merlot, riesling
}

// Encodes and decodes `Grape` as a string in the database:
extension Grape: DatabaseValueConvertible { }

private struct Color: Codable, Equatable {
    var red: Double
    var green: Double
    var blue: Double
}

// Encodes and decodes `Color` as a JSON object in the database:
extension Color: DatabaseValueConvertible { }

private struct Stamp: Codable, Equatable, DatabaseValueConvertible {
    var date: Date
    var data: Data
}

/// A Codable value with its own JSON format.
private struct Version: Codable, Equatable, DatabaseValueConvertible {
    var majorVersion: Int

    static func databaseJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    static func databaseJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

// "Adding support for the Tagged library": a stand-in for Tagged, whose
// values are RawRepresentable (the real library is not a dependency here;
// with it, the conformances are declared `@retroactive`).
private struct Tagged<Tag, RawValue>: RawRepresentable, Hashable where RawValue: Hashable {
    var rawValue: RawValue
    init(rawValue: RawValue) { self.rawValue = rawValue }
}

extension Tagged: Codable where RawValue: Codable {
    init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(RawValue.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

// Add database support to Tagged values
extension Tagged: SQLExpressible where RawValue: SQLExpressible { }
extension Tagged: StatementBinding where RawValue: StatementBinding { }
extension Tagged: StatementColumnConvertible where RawValue: StatementColumnConvertible { }
extension Tagged: DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    // Thanks to Tagged, Player.ID can not be mismatched with Team.ID or
    // Award.ID, even though they all wrap strings.
    typealias ID = Tagged<Player, String>
    var id: ID
    var name: String
    var score: Int
}

private struct Wine: Codable, FetchableRecord, PersistableRecord {
    var grape: Grape?
    var even: EvenInteger?
}

extension Grape: Codable { }
extension EvenInteger: Codable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Int.self)
        guard let even = EvenInteger(value) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(value) is odd")
        }
        self = even
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

@Suite struct DatabaseValueConvertibleDocTests {
    // MARK: Conforming to the DatabaseValueConvertible Protocol

    @Test func customValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            #expect(try EvenInteger.fetchAll(db, sql: "SELECT 2 UNION ALL SELECT 4") == [EvenInteger(2)!, EvenInteger(4)!])
            #expect(try EvenInteger.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try EvenInteger?.fetchAll(db, sql: "SELECT 2 UNION ALL SELECT NULL") == [EvenInteger(2), nil])
            #expect(try Int.fetchOne(db, sql: "SELECT ?", arguments: [EvenInteger(8)]) == 8)

            // A nil from fromDatabaseValue is a decoding error (GRDB: could
            // not decode Optional<EvenInteger> from database value 3 - ...).
            let odd = try #require(throws: (any Error).self) {
                try EvenInteger.fetchOne(db, sql: "SELECT 3")
            }
            #expect("\(odd)".contains("could not decode"))
            #expect("\(odd)".contains("EvenInteger"))
            #expect("\(odd)".contains("from database value 3"))
            // The StatementColumnConvertible conformance below reads
            // integers straight from SQLite, which reads 'a' as 0: GRDB
            // returns [EvenInteger(0)] too.
            #expect(try EvenInteger.fetchAll(db, sql: "SELECT 'a'") == [EvenInteger(0)!])
            let text = try #require(throws: (any Error).self) {
                try Grape.fetchAll(db, sql: "SELECT 'a'")
            }
            #expect("\(text)".contains(#"could not decode Grape from database value "a""#))

            let row = try #require(try Row.fetchOne(db, sql: "SELECT 3 AS n"))
            let rowError = try #require(throws: (any Error).self) {
                let _: EvenInteger = try row.decode(atIndex: 0)
            }
            #expect("\(rowError)".contains("could not decode EvenInteger from database value 3"))
        }
    }

    @Test func optionalConformanceIsAutomatic() throws {
        #expect(EvenInteger?.fromDatabaseValue(.null) == .some(nil))
        #expect(EvenInteger?.fromDatabaseValue(2.databaseValue) == .some(EvenInteger(2)))
        #expect(EvenInteger?.fromDatabaseValue(3.databaseValue) == nil)
        #expect(EvenInteger.fromMissingColumn() == nil)
        #expect(EvenInteger?.fromMissingColumn() == .some(nil))
    }

    // MARK: Built-in RawRepresentable support

    @Test func rawRepresentableValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "wine") { t in
                t.column("grape", .text)
                t.column("even", .integer)
            }
            try Wine(grape: .merlot, even: EvenInteger(2)).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT grape FROM wine") == "merlot")
            #expect(try Grape.fetchOne(db, sql: "SELECT grape FROM wine") == .merlot)
            #expect(try Wine.filter(Column("grape") == Grape.merlot).fetchCount(db) == 1)
            #expect(Grape.fromDatabaseValue("malbec".databaseValue) == nil)
            #expect(throws: (any Error).self) { try Grape.fetchOne(db, sql: "SELECT 'malbec'") }
        }
    }

    // MARK: Built-in Codable support

    @Test func codableValues() throws {
        #expect(Color(red: 1, green: 0.5, blue: 0).databaseValue == #"{"blue":0,"green":0.5,"red":1}"#.databaseValue)
        #expect(Color.fromDatabaseValue(#"{"red":1,"green":0,"blue":0}"#.databaseValue) == Color(red: 1, green: 0, blue: 0))
        #expect(Color.fromDatabaseValue("nope".databaseValue) == nil)
        // `Data` values with the `.base64` strategy, `Date` with `.millisecondsSince1970`.
        #expect(Stamp(date: Date(timeIntervalSince1970: 1), data: Data([1, 2])).databaseValue == #"{"data":"AQI=","date":1000}"#.databaseValue)
        #expect(Stamp.fromDatabaseValue(#"{"data":"AQI=","date":1000}"#.databaseValue) == Stamp(date: Date(timeIntervalSince1970: 1), data: Data([1, 2])))
        // Non conforming floats with the `.throw` strategy: GRDB stops the
        // process; Trellis's value is NULL (a non-throwing property).
        #expect(Color(red: .nan, green: 0, blue: 0).databaseValue.isNull)

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            #expect(try Color.fetchOne(db, sql: "SELECT ?", arguments: [Color(red: 0, green: 1, blue: 0)]) == Color(red: 0, green: 1, blue: 0))
            let error = try #require(throws: (any Error).self) {
                try Color.fetchOne(db, sql: "SELECT 'nope'")
            }
            #expect("\(error)".contains(#"from database value "nope""#))
        }
    }

    @Test func customJSONFormat() throws {
        #expect(Version(majorVersion: 7).databaseValue == #"{"major_version":7}"#.databaseValue)
        #expect(Version.fromDatabaseValue(#"{"major_version":6}"#.databaseValue) == Version(majorVersion: 6))
    }

    // MARK: Adding support for the Tagged library

    @Test func taggedValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: Player.ID(rawValue: "arthur"), name: "Arthur", score: 100).insert(db)

            let id: Player.ID = Player.ID(rawValue: "arthur")
            let player = try Player.find(db, id: id)
            #expect(player.name == "Arthur")
            #expect(try Player.ID.fetchAll(db, sql: "SELECT id FROM player") == [id])
            #expect(try Player.filter(Column("id") == id).fetchCount(db) == 1)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [id]) == "Arthur")
        }
    }

    // MARK: Optimized Values

    @Test func statementColumnConvertibleValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            #expect(try EvenInteger.fetchAll(db, sql: "SELECT 2 UNION ALL SELECT 4") == [EvenInteger(2)!, EvenInteger(4)!])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 6 AS n"))
            #expect(row["n"] == EvenInteger(6))
            #expect(throws: (any Error).self) { try EvenInteger.fetchAll(db, sql: "SELECT 3") }
            let cursor = try EvenInteger.fetchCursor(db, sql: "SELECT 2 UNION ALL SELECT 5")
            #expect(try cursor.next() == EvenInteger(2))
            #expect(throws: (any Error).self) { try cursor.next() }
        }
    }
}
