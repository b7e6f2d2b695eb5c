import Foundation
import Testing
import Trellis
import TrellisObjects

// The examples of the TrellisObjects guide (TrellisObjects.docc), compiled and run.

private class Person: Entity {
    var id: Id = 0
    var name = ""
    var spouse: ToOne<Person> = nil
}

extension Person {
    static let name = Property<Person, String>("name")
}

private struct Author: Entity {
    var id: Id
    var name: String
    var age: Int
}

@Suite struct GuideObjectsExamplesTests {
    @Test func objectsExample() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("people-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try Store(directoryPath: folder)
        let personBox = store.box(for: Person.self)
        let amanda = Person()
        amanda.name = "Amanda"
        let bob = Person()
        bob.name = "Bob"
        amanda.spouse.target = bob
        try personBox.put(amanda)                 // puts bob first, then amanda
        let people = try personBox.query { Column("name").like("A%") }.find()
        #expect(people.map(\.name) == ["Amanda"])
        #expect(people.first?.spouse.target?.name == "Bob")
        #expect(bob.id != 0)
        let andreas = try personBox.query { Person.name.startsWith("Andrea") }.build().find()
        #expect(andreas.isEmpty)
        let amandas = try personBox.query { Person.name.startsWith("Am") }.build().find()
        #expect(amandas.map(\.name) == ["Amanda"])
    }

    @Test func structExample() throws {
        let store = try Store()
        let authorBox = store.box(for: Author.self)
        var author = Author(id: 0, name: "Nnedi Okorafor", age: 45)
        try authorBox.put(&author)                          // author.id is set; arrays too: put(&authors)
        #expect(author.id != 0)
        let id = try authorBox.putAndReturnID(author)       // the id, author unchanged
        #expect(id == author.id)
        let stored = try authorBox.put(struct: author)      // a copy with its id
        #expect(stored.id == author.id)
        let older = try authorBox.query { Column("age") > 40 }.find()   // [Author] values
        #expect(older.map(\.name) == ["Nnedi Okorafor"])
        #expect(try authorBox.count() == 1)
    }
}
