import Foundation
import Testing
import Trellis

// Codable DatabaseValueConvertible types that encode a single value are
// stored as that value, not as JSON text, so that a database reads the
// same with GRDB and Trellis.

private struct Name: Codable, Hashable, DatabaseValueConvertible {
    var rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
    init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

private struct Score: Codable, Hashable, DatabaseValueConvertible {
    var value: Int
    init(_ value: Int) { self.value = value }
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A generic wrapper, as Codable single-value wrappers often are.
private struct Wrapper<Value: Codable & Hashable>: Codable, Hashable, DatabaseValueConvertible {
    var value: Value
    init(_ value: Value) { self.value = value }
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Value.self)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A single-value wrapper that is no DatabaseValueConvertible itself.
private struct Inner: Codable, Hashable {
    var text: String
    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }
    init(text: String) { self.text = text }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A keyed value: JSON text.
private struct Address: Codable, Hashable, DatabaseValueConvertible {
    var city: String
}

private struct Member: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: Name
    var score: Score
    var nickname: Name?
    var address: Address
    var tags: Wrapper<[String]>
}

@Suite struct SingleValueCodableConvertibleTests {
    /// The storage class and the value of `value` bound in a statement.
    private func typeAndValue(_ db: Database, _ value: some DatabaseValueConvertible) throws -> [DatabaseValue] {
        let row = try #require(try Row.fetchOne(db, sql: "SELECT typeof(?) AS type, ? AS value", arguments: [value, value]))
        return [row["type"], row["value"]]
    }

    @Test func aStringWrapperIsStoredAsText() throws {
        #expect(Name("foo").databaseValue == "foo".databaseValue)
        #expect(Name.fromDatabaseValue("foo".databaseValue) == Name("foo"))
        // The JSON text of earlier versions is a string with quotes, as
        // GRDB reads it.
        #expect(Name.fromDatabaseValue(#""foo""#.databaseValue) == Name(#""foo""#))
        #expect(Name.fromDatabaseValue(Data([0xFF]).databaseValue) == nil)
        #expect(Name.fromDatabaseValue(.null) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try typeAndValue(db, Name("foo")) == ["text", "foo"])
            #expect(try Name.fetchOne(db, sql: "SELECT 'bar'") == Name("bar"))
            #expect(try Name?.fetchOne(db, sql: "SELECT NULL") == .some(nil))
        }
    }

    @Test func primitivesKeepTheirStorageClass() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try typeAndValue(db, Score(12)) == ["integer", 12.databaseValue])
            #expect(try typeAndValue(db, Wrapper(1.5)) == ["real", 1.5.databaseValue])
            #expect(try typeAndValue(db, Wrapper(true)) == ["integer", 1.databaseValue])
            #expect(try typeAndValue(db, Wrapper(Data([1, 2, 3]))) == ["blob", Data([1, 2, 3]).databaseValue])
            #expect(try typeAndValue(db, Wrapper<Int?>(nil)) == ["null", .null])
            #expect(try Score.fetchOne(db, sql: "SELECT 12") == Score(12))
            #expect(try Wrapper<Double>.fetchOne(db, sql: "SELECT 1.5") == Wrapper(1.5))
            #expect(try Wrapper<Data>.fetchOne(db, sql: "SELECT x'010203'") == Wrapper(Data([1, 2, 3])))
        }
        #expect(Score.fromDatabaseValue("abc".databaseValue) == nil)
    }

    @Test func datesUUIDsAndURLsUseTheirDatabaseFormat() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(Wrapper(date).databaseValue == "2023-11-14 22:13:20.250".databaseValue)
        #expect(Wrapper(uuid).databaseValue == uuid.databaseValue)
        #expect(Wrapper(url).databaseValue == "https://example.com/a?b=c".databaseValue)
        #expect(Wrapper<Date>.fromDatabaseValue(Wrapper(date).databaseValue) == Wrapper(date))
        #expect(Wrapper<UUID>.fromDatabaseValue(Wrapper(uuid).databaseValue) == Wrapper(uuid))
        #expect(Wrapper<URL>.fromDatabaseValue(Wrapper(url).databaseValue) == Wrapper(url))
        // What other apps write reads too.
        #expect(Wrapper<Date>.fromDatabaseValue("2023-11-14 22:13:20.250".databaseValue) == Wrapper(date))
        #expect(Wrapper<UUID>.fromDatabaseValue(uuid.uuidString.lowercased().databaseValue) == Wrapper(uuid))
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try typeAndValue(db, Wrapper(uuid)) == ["blob", uuid.databaseValue])
            #expect(try Wrapper<Date>.fetchOne(db, sql: "SELECT '2023-11-14 22:13:20.250'") == Wrapper(date))
        }
    }

    @Test func aWrapperOfASingleValueWrapperIsStoredAsThePrimitive() throws {
        let value = Wrapper(Inner(text: "foo"))
        #expect(value.databaseValue == "foo".databaseValue)
        #expect(Wrapper<Inner>.fromDatabaseValue("foo".databaseValue) == value)
    }

    @Test func keyedAndUnkeyedValuesStayJSON() throws {
        #expect(Address(city: "Paris").databaseValue == #"{"city":"Paris"}"#.databaseValue)
        #expect(Address.fromDatabaseValue(#"{"city":"Paris"}"#.databaseValue) == Address(city: "Paris"))
        // An array inside a single value container is JSON too.
        #expect(Wrapper(["a", "b"]).databaseValue == #"["a","b"]"#.databaseValue)
        #expect(Wrapper<[String]>.fromDatabaseValue(#"["a","b"]"#.databaseValue) == Wrapper(["a", "b"]))
        #expect(Address.fromDatabaseValue("Paris".databaseValue) == nil)
    }

    @Test func recordColumnsStoreThePrimitive() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE member(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL,
                  nickname TEXT, address TEXT NOT NULL, tags TEXT NOT NULL)
                """)
            let member = Member(
                id: 1, name: Name("Arthur"), score: Score(100), nickname: nil,
                address: Address(city: "Paris"), tags: Wrapper(["a"]))
            try member.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT name, typeof(name) AS nameType, score, typeof(score) AS scoreType, nickname, address, tags
                FROM member
                """))
            #expect(row["name"] as String == "Arthur")
            #expect(row["nameType"] as String == "text")
            #expect(row["score"] as Int == 100)
            #expect(row["scoreType"] as String == "integer")
            #expect(row["nickname"] as DatabaseValue == .null)
            #expect(row["address"] as String == #"{"city":"Paris"}"#)
            #expect(row["tags"] as String == #"["a"]"#)
            #expect(try Member.fetchOne(db) == member)
            #expect(try Member.filter(Column("name") == Name("Arthur")).fetchCount(db) == 1)

            // A row written as GRDB writes it.
            try db.execute(sql: """
                INSERT INTO member VALUES (2, 'Barbara', 200, 'Babs', '{"city":"Rome"}', '[]')
                """)
            let barbara = try #require(try Member.fetchOne(db, key: 2))
            #expect(barbara.name == Name("Barbara"))
            #expect(barbara.score == Score(200))
            #expect(barbara.nickname == Name("Babs"))
            #expect(barbara.address == Address(city: "Rome"))
        }
    }

    @Test func aValueThatDoesNotConvertFailsTheFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE member(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score, nickname TEXT,
                  address TEXT NOT NULL, tags TEXT NOT NULL);
                INSERT INTO member VALUES (1, 'Arthur', 'many', NULL, '{"city":"Paris"}', '[]')
                """)
            #expect(throws: (any Error).self) { try Member.fetchAll(db) }
        }
    }
}
