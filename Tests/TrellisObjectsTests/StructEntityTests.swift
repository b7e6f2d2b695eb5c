import Foundation
import Testing
import Trellis
import TrellisObjects

// ObjectBox's getting-started guide, "Put with structs".
private struct Author: Entity {
    static let uniqueProperties = ["name"]
    var id: Id // Do not initialize the ID to 0 for structs.
    var name: String
    var age: Int
}

extension Author {
    static let name = Property<Author, String>("name")
    static let age = Property<Author, Int>("age")
}

/// A class, put through the methods for structs.
private final class Reader: Entity {
    var id: Id = 0
    var name = ""
    var favorite: ToOne<Reader> = nil
}

private final class Customer: Entity {
    var id: Id = 0
    var name = ""
}

/// A struct that owns a to-one relation to a class.
private struct Order: Entity {
    var id: Id = 0
    var summary = ""
    var customer: ToOne<Customer> = nil
}

private final class Song: Entity {
    var id: Id = 0
    var title = ""
}

/// A struct that owns a many-to-many relation to a class.
private struct Playlist: Entity {
    var id: Id = 0
    var name = ""
    var songs: ToMany<Song> = nil
}

/// An id under another name, which `id` forwards to.
private struct Thing: Entity {
    static let idPropertyName = "thingId"
    var label = ""
    var thingId: UInt64 = 0
    var id: Id {
        get { thingId }
        set { thingId = newValue }
    }
}

/// A typed id, which the macro reads and writes.
@Entity
private struct Badge {
    var id: EntityId<Badge> = 0
    var title = ""
}

/// No id property at all.
private struct Idless: Entity {
    var name = ""
}

@Suite struct StructEntityTests {
    @Test func theGettingStartedSampleGivesStructsTheirIds() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var author = Author(id: 0, name: "Nnedi Okorafor", age: 45)
        let id = try box.put(&author)
        #expect(id != 0)
        #expect(author.id == id)

        var second = Author(id: 0, name: "N. K. Jemisin", age: 52)
        let secondId = try box.putAndReturnID(second)
        #expect(second.id == 0)                        // the struct passed is unchanged
        second.id = secondId
        #expect(secondId != id)

        let third = try box.put(struct: Author(id: 0, name: "Octavia Butler", age: 58))
        #expect(third.id != 0 && third.id != secondId)

        let all = try box.all()
        #expect(all.map(\.name) == ["Nnedi Okorafor", "N. K. Jemisin", "Octavia Butler"])
        #expect(all.map(\.id) == [id, secondId, third.id])
        let fetched = try #require(try box.get(secondId))
        #expect(fetched.name == "N. K. Jemisin" && fetched.age == 52 && fetched.id == secondId)
        #expect(try box.get(Id(999)) == nil)
    }

    @Test func aStructWithItsIdIsUpdatedInPlace() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var author = Author(id: 0, name: "Ursula K. Le Guin", age: 80)
        try box.put(&author)
        let id = author.id
        author.age = 88
        try box.put(&author)
        #expect(author.id == id)
        #expect(try box.count() == 1)
        #expect(try box.get(id)?.age == 88)

        // A put of the original struct, whose id is still 0, stores a second
        // author, as ObjectBox's guide warns.
        let copy = Author(id: 0, name: "Ursula", age: 80)
        let stored = try box.put(struct: copy)
        #expect(copy.id == 0 && stored.id != id)
        let otherId = try box.put(Author(id: 0, name: "Le Guin", age: 80))
        #expect(try box.count() == 3)
        #expect(try box.get(stored.id)?.name == "Ursula")
        #expect(try box.get(otherId)?.name == "Le Guin")
    }

    @Test func arraysOfStructsGetTheirIdsInOneTransaction() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var authors = [Author(id: 0, name: "Ann", age: 30), Author(id: 0, name: "Bob", age: 40)]
        let ids = try box.put(&authors)
        #expect(ids.count == 2 && !ids.contains(0))
        #expect(authors.map(\.id) == ids)

        let more = [Author(id: 0, name: "Cid", age: 50), Author(id: 0, name: "Dee", age: 60)]
        let moreIds = try box.putAndReturnIDs(more)
        #expect(more.map(\.id) == [0, 0])
        let evenMoreIds = try box.put([Author(id: 0, name: "Eve", age: 70)])
        #expect(try box.get(ids + moreIds + evenMoreIds).map(\.name) == ["Ann", "Bob", "Cid", "Dee", "Eve"])

        authors[1].age = 41
        try box.put(&authors)
        #expect(try box.get(authors[1].id)?.age == 41)
        #expect(try box.count() == 5)
    }

    @Test func aFailedPutLeavesTheStructsAndTheStoreUnchanged() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var first = Author(id: 0, name: "Ann", age: 30)
        try box.put(&first)

        // The second author repeats a unique name: nothing of the array is stored.
        var authors = [Author(id: 0, name: "Bob", age: 40), Author(id: 0, name: "Ann", age: 50)]
        #expect(throws: ObjectBoxError.self) { try box.put(&authors) }
        #expect(authors.map(\.id) == [0, 0])
        #expect(try box.all().map(\.name) == ["Ann"])

        var duplicate = Author(id: 0, name: "Ann", age: 1)
        #expect(throws: ObjectBoxError.self) { try box.put(&duplicate) }
        #expect(duplicate.id == 0)
    }

    @Test func putModesCheckStructs() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var author = Author(id: 0, name: "Ann", age: 30)
        let error = #expect(throws: ObjectBoxError.self) { try box.put(&author, mode: .update) }
        #expect(error?.message == "put(mode: .update): this Author is not stored yet (its id is 0)")
        #expect(author.id == 0)
        try box.put(&author, mode: .insert)
        let insertAgain = #expect(throws: ObjectBoxError.self) { try box.put(&author, mode: .insert) }
        #expect(insertAgain?.message == "put(mode: .insert): Author \(author.id) exists already")
        author.age = 31
        try box.put(&author, mode: .update)
        #expect(try box.get(author.id)?.age == 31)
    }

    @Test func structsAreRemovedAndQueried() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var authors = [Author(id: 0, name: "Ann", age: 30), Author(id: 0, name: "Bob", age: 40), Author(id: 0, name: "Cid", age: 50)]
        try box.put(&authors)

        let query = try box.query { Author.age > 35 }.ordered(by: Author.name, flags: .descending).build()
        #expect(try query.find().map(\.name) == ["Cid", "Bob"])
        #expect(try query.findFirst()?.name == "Cid")
        #expect(try query.count() == 2)
        #expect(try box.query { Author.name == "Bob" }.build().findUnique()?.age == 40)
        #expect(try box.query { Column("age") < 35 }.find().map(\.name) == ["Ann"])
        #expect(try box.query().build().property(Author.age).max() == 50)
        #expect(try box.getAsDictionary([authors[0].id])[authors[0].id]?.name == "Ann")

        #expect(try box.remove(authors[0]))
        #expect(authors[0].id != 0)                  // a struct passed is a copy
        #expect(try box.get(authors[0].id) == nil)
        #expect(try box.query { Author.age > 45 }.build().remove() == 1)
        #expect(try box.all().map(\.name) == ["Bob"])
    }

    @Test func classObjectsThroughTheStructMethodsGetTheirIds() throws {
        let store = try Store()
        let box = store.box(for: Reader.self)
        var reader = Reader()
        reader.name = "Ann"
        let original = reader
        try box.put(&reader)
        #expect(reader === original && original.id != 0)

        let bob = Reader()
        let stored = try box.put(struct: bob)
        #expect(stored === bob && bob.id != 0)

        let cid = Reader()
        let cidId = try box.putAndReturnID(cid)
        #expect(cid.id == cidId)

        // A cycle between class objects put through these methods is put once.
        let dee = Reader()
        let eve = Reader()
        dee.favorite.target = eve
        eve.favorite.target = dee
        try box.putAndReturnIDs([dee])
        #expect(try box.count() == 5)
        #expect(try box.get(dee.id)?.favorite.targetId == eve.id)
        #expect(try box.get(eve.id)?.favorite.targetId == dee.id)
    }

    @Test func aRolledBackTransactionResetsClassIdsAndKeepsStructIds() throws {
        let store = try Store()
        let readers = store.box(for: Reader.self)
        let authors = store.box(for: Author.self)
        struct Failure: Error {}
        let reader = Reader()
        var author = Author(id: 0, name: "Ann", age: 30)
        #expect(throws: Failure.self) {
            try store.runInTransaction {
                _ = try readers.put(struct: reader)
                try authors.put(&author)
                throw Failure()
            }
        }
        #expect(reader.id == 0)
        #expect(author.id != 0)                      // documented: a struct keeps its id
        #expect(try authors.count() == 0)
        try authors.put(&author)
        #expect(try authors.get(author.id)?.name == "Ann")
    }

    @Test func aStructOwnsAToOneRelationToAClass() throws {
        let store = try Store()
        let orders = store.box(for: Order.self)
        let ann = Customer()
        ann.name = "Ann"
        var order = Order(summary: "Shoes")
        order.customer.target = ann
        try orders.put(&order)
        #expect(ann.id != 0)                         // the new target was put first
        #expect(order.customer.targetId == ann.id)

        let fetched = try #require(try orders.get(order.id))
        #expect(fetched.customer.target?.name == "Ann")
        let byCustomer = try orders.query().filter(Property<Order, ToOne<Customer>>("customer") == ann).find()
        #expect(byCustomer.map(\.summary) == ["Shoes"])

        var changed = fetched
        changed.customer = nil
        try orders.put(&changed)
        #expect(try orders.get(order.id)?.customer.targetId == nil)
    }

    @Test func aStructOwnsAManyToManyRelationToAClass() throws {
        let store = try Store()
        let playlists = store.box(for: Playlist.self)
        let intro = Song()
        intro.title = "Intro"
        var playlist = Playlist(name: "Morning")
        playlist.songs.append(intro)
        try playlists.put(&playlist)
        #expect(intro.id != 0)

        let fetched = try #require(try playlists.get(playlist.id))
        #expect(fetched.songs.map(\.title) == ["Intro"])
        let outro = Song()
        outro.title = "Outro"
        fetched.songs.append(outro)
        try fetched.songs.applyToDb()
        #expect(try playlists.get(playlist.id)?.songs.map(\.title) == ["Intro", "Outro"])
    }

    @Test func structIdsUnderOtherNamesOrTypes() throws {
        let store = try Store()
        var thing = Thing(label: "lamp")
        try store.box(for: Thing.self).put(&thing)
        #expect(thing.thingId != 0 && thing.id == thing.thingId)
        #expect(try store.box(for: Thing.self).get(thing.thingId)?.label == "lamp")

        var badge = Badge(title: "gold")
        try store.box(for: Badge.self).put(&badge)
        #expect(badge.id.value != 0)
        #expect(try store.box(for: Badge.self).get(badge.id)?.title == "gold")
    }

    @Test func aStructWithoutAnIdThrows() throws {
        let store = try Store()
        var idless = Idless(name: "nobody")
        let error = #expect(throws: ObjectBoxError.self) { try store.box(for: Idless.self).put(&idless) }
        #expect(error?.message.hasPrefix("Idless has no id property that the store can write: declare `var id: Id = 0`") == true)
        #expect(try store.box(for: Idless.self).count() == 0)
    }

    @Test func asyncPutsOfStructsUseTheIdTheyReturn() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        var author = Author(id: 0, name: "Ann", age: 30)
        author.id = try box.async.put(author)
        #expect(author.id != 0)
        store.awaitAsyncCompleted()
        #expect(try box.get(author.id)?.name == "Ann")
        author.age = 31
        try box.async.put(author)
        store.awaitAsyncCompleted()
        #expect(try box.count() == 1)
        #expect(try box.get(author.id)?.age == 31)
    }
}
