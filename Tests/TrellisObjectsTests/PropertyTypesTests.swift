import Foundation
import Testing
import Trellis
import TrellisObjects

private struct Dimensions: Codable, Equatable {
    var width: Int
    var height: Int
}

private final class Shelf: Entity {
    var id: Id = 0
    var label = ""
}

private final class Item: Entity {
    var id: Id = 0
    var name = ""
    var addedAt: Date?
    var serial: UUID?
    var dimensions: Dimensions?
    var tags: [String] = []
    var shelf: ToOne<Shelf> = nil
    var weight: Double = 0
}

/// An entity whose encoding visits a property only when it is set: the
/// store must not mix up the properties of objects that differ.
private final class Note: Entity {
    var id: Id = 0
    var text = ""
    var color: String?
    var link: URL?
    var shelf: ToOne<Shelf> = nil

    init() {}

    enum CodingKeys: String, CodingKey {
        case id, text, color, link, shelf
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Id.self, forKey: .id)
        text = try container.decode(String.self, forKey: .text)
        color = try container.decodeIfPresent(String.self, forKey: .color)
        link = try container.decodeIfPresent(URL.self, forKey: .link)
        shelf = try container.decode(ToOne<Shelf>.self, forKey: .shelf)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        if let color { try container.encode(color, forKey: .color) }
        try container.encode(link, forKey: .link)
        try container.encode(shelf, forKey: .shelf)
    }
}

@Suite struct PropertyTypesTests {
    @Test func optionalValuesJSONAndRelationsKeepTheirColumnsFromObjectToObject() throws {
        let store = try Store()
        let shelf = Shelf()
        shelf.label = "A"
        try store.box(for: Shelf.self).put(shelf)

        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let serial = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let full = Item()
        full.name = "full"
        full.addedAt = date
        full.serial = serial
        full.dimensions = Dimensions(width: 3, height: 4)
        full.tags = ["x", "y"]
        full.shelf.target = shelf
        full.weight = 1.5
        let empty = Item()
        empty.name = "empty"
        let again = Item()
        again.name = "again"
        again.dimensions = Dimensions(width: 5, height: 6)
        again.shelf.targetId = shelf.id

        let box = store.box(for: Item.self)
        try box.put([full, empty, again])

        let items = try box.all()
        #expect(items.map(\.name) == ["full", "empty", "again"])
        #expect(items[0].addedAt == date)
        #expect(items[0].serial == serial)
        #expect(items[0].dimensions == Dimensions(width: 3, height: 4))
        #expect(items[0].tags == ["x", "y"])
        #expect(items[0].shelf.target?.label == "A")
        #expect(items[0].weight == 1.5)
        #expect(items[1].addedAt == nil && items[1].serial == nil && items[1].dimensions == nil)
        #expect(items[1].tags.isEmpty && items[1].shelf.targetId == nil)
        #expect(items[2].dimensions == Dimensions(width: 5, height: 6))
        #expect(items[2].addedAt == nil)
        #expect(items[2].shelf.targetId == shelf.id)

        let rows = try store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, dimensions, tags, shelfId FROM Item ORDER BY id")
        }
        #expect(rows[0]["dimensions"] as String? == #"{"height":4,"width":3}"#)
        #expect(rows[0]["tags"] as String? == #"["x","y"]"#)
        #expect(rows[1]["dimensions"] as DatabaseValue? == .null)
        #expect(rows[1]["shelfId"] as DatabaseValue? == .null)
        #expect(rows[2]["shelfId"] as Int64? == Int64(shelf.id))
    }

    @Test func aConformanceThatSkipsPropertiesReadsBackWhatItWrote() throws {
        let store = try Store()
        let shelf = Shelf()
        shelf.label = "B"
        try store.box(for: Shelf.self).put(shelf)

        let box = store.box(for: Note.self)
        let colored = Note()
        colored.text = "colored"
        colored.color = "red"
        colored.link = URL(string: "https://example.com/a")
        colored.shelf.target = shelf
        let plain = Note()
        plain.text = "plain"
        plain.shelf.target = shelf
        let linked = Note()
        linked.text = "linked"
        linked.link = URL(string: "https://example.com/b")
        try box.put([colored, plain, linked])

        let notes = try box.all()
        #expect(notes.map(\.text) == ["colored", "plain", "linked"])
        #expect(notes.map(\.color) == ["red", nil, nil])
        #expect(notes.map(\.link?.absoluteString) == ["https://example.com/a", nil, "https://example.com/b"])
        #expect(notes.map(\.shelf.targetId) == [shelf.id, shelf.id, nil])
        #expect(try box.get(plain.id)?.shelf.target?.label == "B")
    }
}
