import Foundation
import PropertyBased
import Testing
import Trellis
import TrellisObjects

/// The column names of the entity under test: each case of the property
/// gives its own.
private enum ColumnNames {
    @TaskLocal static var current = ["text", "number"]
}

/// A coding key of any name.
private struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// An entity whose table name holds every kind of quote and some of
/// Unicode, and whose properties are encoded under the names of the case.
private struct QuotedEntity: Entity {
    static let entityName = "quoted \"entity\" `with` [all] 'quotes'; naïve é\u{301} 😀"
    static var indexedProperties: [String] { [ColumnNames.current[1]] }
    static var uniqueProperties: [String] { [ColumnNames.current[0]] }

    var id: Id = 0
    var text: String
    var number: Int

    init(text: String, number: Int) {
        self.text = text
        self.number = number
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NamedKey.self)
        id = try container.decode(Id.self, forKey: NamedKey("id"))
        text = try container.decode(String.self, forKey: NamedKey(ColumnNames.current[0]))
        number = try container.decode(Int.self, forKey: NamedKey(ColumnNames.current[1]))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedKey.self)
        try container.encode(id, forKey: NamedKey("id"))
        try container.encode(text, forKey: NamedKey(ColumnNames.current[0]))
        try container.encode(number, forKey: NamedKey(ColumnNames.current[1]))
    }
}

/// Property and entity names with quotes, spaces and any Unicode go through
/// the object store unchanged: put, get, count and remove by name.
@Suite struct EntityQuotedNamePropertyTests {
    static let specialCharacters: [String] = [
        "\"", "'", "`", "[", "]", " ", ";", "-", "(", ")", ",", ".", "\\", "?", "\"\u{301}", "é", "É", "ß", "😀", "\n",
    ]

    static func name(from numbers: [Int]) -> String {
        var name = ""
        for number in numbers {
            switch number % 3 {
            case 0: name.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "a") + UInt8(number / 3 % 26)))
            case 1: name += specialCharacters[number / 3 % specialCharacters.count]
            default: name.unicodeScalars.append(Unicode.Scalar(UInt32(number / 3 % 0x10FFFF) + 1) ?? "?")
            }
        }
        return name
    }

    /// Whether SQLite tells the two names apart, and neither is `id`.
    static func areDistinctAndFree(_ names: [String]) -> Bool {
        let folded = names.map { $0.utf8.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 } }
        return folded[0] != folded[1] && !folded.contains(Array("id".utf8))
    }

    @Test func objectsRoundTripUnderAnyPropertyName() async throws {
        let columnNames = Gen.int(in: 0...Int(Int32.max)).array(of: 1...8).map(Self.name(from:)).array(of: 2...2)
            .filter(Self.areDistinctAndFree)
        await propertyCheck(count: 150, input: columnNames) { names in
            ColumnNames.$current.withValue(names) {
                do {
                    let store = try Store()
                    let box = store.box(for: QuotedEntity.self)
                    var first = QuotedEntity(text: "first", number: 1)
                    var second = QuotedEntity(text: "second", number: 2)
                    _ = try box.put(&first)
                    _ = try box.put(&second)
                    #expect(try box.get(first.id)?.text == "first")
                    #expect(try box.all().map(\.number) == [1, 2])
                    #expect(try box.count() == 2)
                    // The unique index of the first property holds.
                    var copy = QuotedEntity(text: "first", number: 3)
                    #expect(throws: (any Error).self) { _ = try box.put(&copy) }
                    #expect(try box.count() == 2)
                    #expect(try box.remove(first.id))
                    #expect(try box.all().map(\.text) == ["second"])
                    let columns = try store.queue.read { db in try db.columns(in: QuotedEntity.entityName).map(\.name) }
                    #expect(columns == ["id"] + names)
                    try store.close()
                } catch {
                    Issue.record("\(names.map { String(reflecting: $0) }): \(error)")
                }
            }
        }
    }
}
