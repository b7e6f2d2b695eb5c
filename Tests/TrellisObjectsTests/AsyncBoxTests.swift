import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Parcel: Entity {
    var id: Id = 0
    var label = ""
    init() {}
    init(_ label: String) { self.label = label }
}

@Suite struct AsyncBoxTests {
    @Test func anAsyncPutGivesTheIdAtOnceAndWritesLater() throws {
        let store = try Store()
        let box = store.box(for: Parcel.self)
        let first = Parcel("first")
        let id = try box.async.put(first)
        #expect(id != 0 && first.id == id)
        let second = Parcel("second")
        try box.async.put(second)
        #expect(second.id == id + 1)
        store.awaitAsyncCompleted()
        #expect(try box.all().map(\.label) == ["first", "second"])
        #expect(try box.get(id)?.label == "first")
        // A put that does not wait skips the ids given to async puts.
        let third = Parcel("third")
        try box.async.put(third)
        let fourth = Parcel("fourth")
        try box.put(fourth)
        #expect(fourth.id == third.id + 1)
        store.awaitAsyncSubmitted()
        #expect(try box.all().map(\.label) == ["first", "second", "third", "fourth"])
    }

    @Test func asyncRemovesAndUpdatesRunInOrder() throws {
        let store = try Store()
        let box = store.box(for: Parcel.self)
        let parcels = [Parcel("a"), Parcel("b"), Parcel("c")]
        let ids = try box.async.put(parcels)
        #expect(ids == parcels.map(\.id))
        parcels[1].label = "b2"
        try box.async.put(parcels[1])
        try box.async.remove(parcels[0])
        try box.async.remove([ids[2]])
        store.awaitAsyncCompleted()
        #expect(try box.all().map(\.label) == ["b2"])
        let asyncBox = AsyncBox(box: box)
        try asyncBox.remove(ids[1])
        store.awaitAsyncCompleted()
        #expect(try box.isEmpty())
    }
}
