import Foundation
import Testing
import Trellis
import TrellisObjects

// Entities of the `@Entity` macro: the same samples as the Codable
// entities, read and written by the binding the macro generates.

@Entity
private final class Person {
    var id: Id = 0
    var name = ""
    var age = 0
    var score = 0.0
    var active = true
    var spouse: ToOne<Person> = nil
}

/// A type that says `: Entity` already, with a typed id, and a class that
/// is not final.
@Entity
private class Teacher: Entity {
    var id: EntityId<Teacher> = 0
    var name: String = ""
    var mentor: ToOne<Teacher> = nil
    required init() {}
}

@Entity
private struct Author {
    var id: Id
    var name: String
    var nickname: String?
}

/// A struct with a typed id, which owns a relation to a class, declared
/// as a final class that says `: Entity`.
@Entity
private struct Review {
    var id: EntityId<Review> = 0
    var stars = 0
    var reviewer: ToOne<Reviewer> = nil
}

@Entity
private final class Reviewer: Entity {
    var id: Id = 0
    var name = ""
}

/// An id of another name, marked as ObjectBox marks it.
@Entity
private final class Thing {
    var label = ""
    // objectbox: id
    var thisIsMyId: UInt64 = 0
}

/// A signed id, named for the store.
@Entity
private final class Signed {
    static let idPropertyName = "key"
    var key: Int64 = 0
    var name = ""
}

private enum Mood: String, Codable {
    case calm, cheerful
}

private struct Address: Codable, Equatable {
    var street: String
    var city: String
}

/// Property types beyond the columns that SQLite reads straight.
@Entity
private final class Sample {
    var id: Id = 0
    var born: Date = Date(timeIntervalSince1970: 0)
    var uuid: UUID?
    var mood: Mood = .calm
    var otherMood: Mood?
    var bytes: [UInt8] = []
    var address: Address?
    var serial: UInt64 = 0
    var optionalCount: Int?
    var ratio: Float = 0
}

/// ObjectBox's annotations in comments.
@Entity
private final class Member {
    var id: Id = 0
    var email = ""  // objectbox: unique
    // objectbox: index
    var city = ""
    // objectbox: name = "full_name"
    var name = ""
    // objectbox: transient
    var cache = "not stored"
}

@Suite struct EntityMacroTests {
    @Test func putGetQueryAndRemoveAnEntityOfTheMacro() throws {
        let store = try Store()
        let box = store.box(for: Person.self)
        let amanda = Person()
        amanda.name = "Amanda"
        amanda.age = 31
        amanda.score = 4.5
        let bob = Person()
        bob.name = "Bob"
        bob.age = 29
        bob.active = false
        amanda.spouse.target = bob
        try box.put(amanda)
        #expect(amanda.id != 0 && bob.id != 0)

        let loaded = try #require(try box.get(amanda.id))
        #expect(loaded.name == "Amanda" && loaded.age == 31 && loaded.score == 4.5 && loaded.active)
        #expect(loaded.spouse.target?.name == "Bob")
        #expect(try box.get(bob.id)?.active == false)

        #expect(try box.query { Person.name == "Amanda" }.build().find().map(\.id) == [amanda.id])
        #expect(try box.query { Person.age < 30 && Person.active == false }.build().find().map(\.name) == ["Bob"])
        #expect(try box.query().ordered(by: Person.age).build().find().map(\.name) == ["Bob", "Amanda"])
        #expect(try box.query { Person.spouse == bob }.build().find().map(\.name) == ["Amanda"])
        #expect(try box.query { Person.spouse.isNil() }.build().find().map(\.name) == ["Bob"])
        #expect(try box.query { Person.id == amanda.id }.build().findUnique()?.name == "Amanda")
        #expect(try box.query().link(Person.spouse) { Person.name == "Bob" }.build().find().map(\.name) == ["Amanda"])

        #expect(try box.remove(amanda))
        #expect(amanda.id == 0)
        #expect(try box.all().map(\.name) == ["Bob"])
    }

    @Test func aTypedIdIsReadAndWrittenByTheBinding() throws {
        let store = try Store()
        let box = store.box(for: Teacher.self)
        let teacher = Teacher()
        teacher.name = "Ms Frizzle"
        let mentor = Teacher()
        mentor.name = "Mr Ratburn"
        teacher.mentor.target = mentor
        let id = try box.put(teacher)
        #expect(teacher.id.value == id && id != 0)
        #expect(teacher.entityId == id)
        let loaded = try #require(try box.get(teacher.id))
        #expect(loaded.id == teacher.id)
        #expect(loaded.mentor.target?.name == "Mr Ratburn")
        #expect(try box.query { Teacher.name == "Mr Ratburn" }.build().findIds() == [mentor.id.value])
    }

    @Test func aStructEntityOfTheMacroGetsItsIdFromThePut() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var author = Author(id: 0, name: "Nnedi Okorafor", nickname: nil)
        try box.put(&author)
        #expect(author.id != 0)
        var other = Author(id: 0, name: "Ann Leckie", nickname: "Ann")
        try box.put(&other)
        #expect(try box.get(author.id)?.name == "Nnedi Okorafor")
        #expect(try box.get(author.id)?.nickname == nil)
        #expect(try box.get(other.id)?.nickname == "Ann")
        #expect(try box.query { Author.nickname.isNotNil() }.build().find().map(\.id) == [other.id])
        #expect(try box.remove(author.id))
        #expect(try box.count() == 1)
    }

    @Test func aStructWithATypedIdOwnsARelation() throws {
        let store = try Store()
        let box = store.box(for: Review.self)
        let reviewer = Reviewer()
        reviewer.name = "Roger"
        var review = Review(stars: 4)
        review.reviewer.target = reviewer
        try box.put(&review)
        #expect(review.id.value != 0 && review.id.value == review.entityId)
        #expect(reviewer.id != 0)
        let loaded = try #require(try box.get(review.id))
        #expect(loaded.id == review.id && loaded.stars == 4)
        #expect(loaded.reviewer.target?.name == "Roger")
        #expect(try box.query { Review.reviewer == reviewer }.build().find().map(\.stars) == [4])
        #expect(try box.remove(review.id))
        #expect(try box.isEmpty())
    }

    @Test func anIdOfAnotherNameIsStoredAsTheIdColumn() throws {
        let store = try Store()
        let things = store.box(for: Thing.self)
        let thing = Thing()
        thing.label = "spoon"
        try things.put(thing)
        #expect(thing.thisIsMyId != 0 && thing.id == thing.thisIsMyId)
        #expect(Thing.idPropertyName == "thisIsMyId")
        #expect(try things.query { Thing.thisIsMyId == thing.thisIsMyId }.build().find().map(\.label) == ["spoon"])

        let signed = store.box(for: Signed.self)
        let first = Signed()
        first.name = "first"
        try signed.put(first)
        #expect(first.key > 0 && first.id == UInt64(first.key))
        #expect(try signed.get(first.id)?.name == "first")
        let columns = try store.queue.read { db in try db.columns(in: "Thing").map(\.name) }
        #expect(columns.contains("id") && !columns.contains("thisIsMyId"))
    }

    @Test func otherPropertyTypesAreStoredAsWithCodable() throws {
        let store = try Store()
        let box = store.box(for: Sample.self)
        let sample = Sample()
        sample.born = Date(timeIntervalSince1970: 1_000_000)
        sample.uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        sample.mood = .cheerful
        sample.bytes = [1, 2, 255]
        sample.address = Address(street: "Main Street", city: "Springfield")
        sample.serial = UInt64.max - 1
        sample.optionalCount = 7
        sample.ratio = 0.25
        try box.put(sample)
        let empty = Sample()
        try box.put(empty)

        let loaded = try #require(try box.get(sample.id))
        #expect(loaded.born == sample.born)
        #expect(loaded.uuid == sample.uuid)
        #expect(loaded.mood == .cheerful && loaded.otherMood == nil)
        #expect(loaded.bytes == [1, 2, 255])
        #expect(loaded.address == sample.address)
        #expect(loaded.serial == UInt64.max - 1)
        #expect(loaded.optionalCount == 7)
        #expect(loaded.ratio == 0.25)
        let loadedEmpty = try #require(try box.get(empty.id))
        #expect(loadedEmpty.uuid == nil && loadedEmpty.address == nil && loadedEmpty.optionalCount == nil)

        let stored = try store.queue.read { db in
            try Row.fetchOne(db, sql: "SELECT mood, typeof(bytes) AS bytesType, address, serial FROM Sample WHERE id = ?", arguments: [sample.id])
        }
        let row = try #require(stored)
        #expect(row["mood"] as String? == "cheerful")
        #expect(row["bytesType"] as String? == "blob")
        #expect((row["address"] as String?)?.contains("Springfield") == true)
        #expect(row["serial"] as Int64? == Int64(bitPattern: UInt64.max - 1))
        #expect(try box.query { Sample.serial == UInt64.max - 1 }.build().count() == 1)
    }

    @Test func missingColumnsReadAsZeroValuesAsWithCodable() throws {
        let store = try Store()
        try store.queue.write { db in
            try db.execute(sql: "CREATE TABLE Person (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)")
            try db.execute(sql: "INSERT INTO Person (name) VALUES (NULL), ('Old')")
        }
        let people = try store.box(for: Person.self).all()
        #expect(people.map(\.name) == ["", "Old"])
        #expect(people.map(\.age) == [0, 0])
        #expect(people.allSatisfy { $0.active == false && $0.score == 0 && !$0.spouse.hasValue })
    }

    @Test func annotationsInCommentsNameIndexAndLeaveOutProperties() throws {
        let store = try Store()
        let box = store.box(for: Member.self)
        let ann = Member()
        ann.email = "ann@example.com"
        ann.city = "Oslo"
        ann.name = "Ann"
        ann.cache = "changed"
        try box.put(ann)
        let columns = try store.queue.read { db in try db.columns(in: "Member").map(\.name) }
        #expect(columns == ["id", "email", "city", "full_name"])
        let loaded = try #require(try box.get(ann.id))
        #expect(loaded.name == "Ann" && loaded.cache == "not stored")
        #expect(try box.query { Member.name == "Ann" }.build().count() == 1)
        #expect(Member.indexedProperties == ["city"] && Member.uniqueProperties == ["email"])

        let copy = Member()
        copy.email = "ann@example.com"
        #expect(throws: ObjectBoxError.self) { try box.put(copy) }
        let indexes = try store.queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Member' ORDER BY name")
        }
        #expect(indexes.contains("index_Member_on_city") && indexes.contains("unique_Member_on_email"))
    }
}
