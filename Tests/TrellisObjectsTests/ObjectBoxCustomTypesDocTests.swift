import Foundation
import Testing
import TrellisObjects

// ObjectBox Swift's guide "Enums and Custom Types": enums that are not
// `Codable`, stored as their raw values under `// objectbox: convert`, a
// default for missing or unknown values, queries on the raw values, and
// converters to another stored type.

/// As the guide declares it: a raw value type, and nothing else.
private enum TestEnum: Int {
    case unknown = 0
    case first = 100
    case second = 200
    case third = 300
}

private enum Mood: String {
    case happy, grumpy
}

@Entity
private class EnumEntity: Entity {
    var id: Id = 0
    // objectbox: convert = { "default": ".unknown" }
    var custom: TestEnum
    // objectbox: convert = { "dbType": "String" }
    var mood: Mood?
    var note = ""

    required init() {
        custom = .unknown
    }

    init(custom: TestEnum, mood: Mood? = nil) {
        self.custom = custom
        self.mood = mood
    }
}

private enum Role: Int {
    case unknown = 0, author = 1, admin = 2
}

/// A converter of the guide's form: a static `convert` each way.
private enum RoleConverter {
    static func convert(_ role: Role) -> Int { role.rawValue }
    static func convert(_ value: Int?) -> Role { value.flatMap(Role.init(rawValue:)) ?? .unknown }
}

@Entity
private struct User {
    var id: Id = 0
    var name = ""
    // objectbox: convert = { "dbType": "Int", "converter": "RoleConverter" }
    var role: Role = .unknown
}

/// A converted property without a default: an unknown value is an error.
@Entity
private final class Strict {
    var id: Id = 0
    // objectbox: convert
    var custom: TestEnum = .first
}

@Suite struct ObjectBoxCustomTypesDocTests {
    @Test func enumsAreStoredAsRawValuesAndQueriedWithThem() throws {
        let store = try Store()
        let box = store.box(for: EnumEntity.self)
        try box.put([EnumEntity(custom: .first, mood: .happy), EnumEntity(custom: .second, mood: .grumpy), EnumEntity(custom: .third)])

        // As the guide writes it: the condition compares raw values.
        #expect(try box.query { EnumEntity.custom == TestEnum.second.rawValue }.build().find().map(\.custom) == [.second])
        #expect(try box.query { EnumEntity.custom > TestEnum.first.rawValue }.build().find().map(\.custom) == [.second, .third])
        #expect(try box.query { EnumEntity.mood == Mood.grumpy.rawValue }.build().count() == 1)
        #expect(try box.query { EnumEntity.mood.isNil() }.build().find().map(\.custom) == [.third])
        #expect(try box.all().map(\.mood) == [.happy, .grumpy, nil])

        let stored = try store.queue.read { db in
            try String.fetchAll(db, sql: "SELECT quote(custom) || ' ' || quote(mood) FROM EnumEntity ORDER BY id")
        }
        #expect(stored == ["100 'happy'", "200 'grumpy'", "300 NULL"])
    }

    @Test func aMissingOrUnknownValueReadsAsTheDefault() throws {
        let store = try Store()
        let box = store.box(for: EnumEntity.self)
        try box.put([EnumEntity(custom: .first, mood: .happy), EnumEntity(custom: .second, mood: .grumpy)])
        // A case of a later version of the app, and a value stored before
        // the property existed.
        try store.queue.write { db in
            try db.execute(sql: "UPDATE EnumEntity SET custom = 400, mood = 'sleepy' WHERE id = 1")
            try db.execute(sql: "UPDATE EnumEntity SET custom = NULL, mood = NULL WHERE id = 2")
        }
        let objects = try box.all()
        #expect(objects.map(\.custom) == [.unknown, .unknown])
        #expect(objects.map(\.mood) == [nil, nil])   // an optional without a default reads nil
    }

    @Test func anUnknownValueWithoutADefaultThrows() throws {
        let store = try Store()
        let box = store.box(for: Strict.self)
        let strict = Strict()
        strict.custom = .third
        try box.put(strict)
        #expect(try box.get(strict.id)?.custom == .third)
        try store.queue.write { db in try db.execute(sql: "UPDATE Strict SET custom = 42") }
        #expect {
            try box.all()
        } throws: { error in
            guard case ObjectBoxError.illegalState(let message) = error else { return false }
            return message.contains("42") && message.contains("default")
        }
    }

    @Test func aConverterStoresAnotherType() throws {
        let store = try Store()
        let box = store.box(for: User.self)
        var ann = User(name: "Ann", role: .admin)
        var bob = User(name: "Bob", role: .author)
        try box.put(&ann)
        try box.put(&bob)
        #expect(try box.query { User.role == Role.admin.rawValue }.build().find().map(\.name) == ["Ann"])
        #expect(try box.get(bob.id)?.role == .author)
        try store.queue.write { db in try db.execute(sql: "UPDATE User SET role = 9 WHERE id = ?", arguments: [bob.id]) }
        #expect(try box.get(bob.id)?.role == .unknown)   // the converter's choice
    }

    @Test func entitiesWithConvertedPropertiesAreCodable() throws {
        // The macro writes their Codable conformance, with the stored values.
        let entity = EnumEntity(custom: .second, mood: .happy)
        entity.note = "hello"
        let json = try JSONEncoder().encode(entity)
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(object?["custom"] as? Int == 200)
        #expect(object?["mood"] as? String == "happy")
        let decoded = try JSONDecoder().decode(EnumEntity.self, from: json)
        #expect(decoded.custom == .second && decoded.mood == .happy && decoded.note == "hello")
        let unknown = try JSONDecoder().decode(EnumEntity.self, from: Data(#"{"id": 0, "custom": 7, "note": ""}"#.utf8))
        #expect(unknown.custom == .unknown && unknown.mood == nil)

        let user = try JSONDecoder().decode(User.self, from: JSONEncoder().encode(User(id: 3, name: "Ann", role: .admin)))
        #expect(user.id == 3 && user.role == .admin)
    }
}
