import Foundation
import Testing
import Trellis
import TrellisObjects

// `ToMany<Order>` with one type parameter, as ObjectBox's docs write it: the
// relation learns the type of its owner when the owner is read or put.

private final class Shop: Entity {
    var id: Id = 0
    var name = ""
    var orders: ToMany<Purchase> = nil   // objectbox: backlink = "shop"
}

private final class Purchase: Entity {
    var id: Id = 0
    var item = ""
    var shop: ToOne<Shop> = nil
}

private final class Pupil: Entity {
    var id: Id = 0
    var name = ""
    var teachers: ToMany<Tutor> = nil
}

private final class Tutor: Entity {
    static let backlinks = ["pupils": "teachers"]   // objectbox: backlink = "teachers"
    var id: Id = 0
    var name = ""
    var pupils: ToMany<Pupil> = nil
}

@Suite struct ToManyTests {
    @Test func aBacklinkListsTheObjectsThatPointToItsOwner() throws {
        let store = try Store()
        let shop = Shop()
        shop.name = "Corner"
        let tea = Purchase()
        tea.item = "tea"
        let jam = Purchase()
        jam.item = "jam"
        shop.orders.append(contentsOf: [tea, jam])
        try store.box(for: Shop.self).put(shop)   // puts the orders and links them
        #expect(tea.id != 0 && jam.id != 0)
        #expect(try store.box(for: Purchase.self).get(jam.id)?.shop.targetId == shop.id)
        let loaded = try #require(try store.box(for: Shop.self).get(shop.id))
        #expect(loaded.orders.map(\.item) == ["tea", "jam"])
        let stored = try store.queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Purchase WHERE shopId = ?", arguments: [shop.id])
        }
        #expect(stored == 2)
    }

    @Test func aStandaloneManyToManyIsReadableFromBothEnds() throws {
        let store = try Store()
        let ann = Pupil()
        ann.name = "Ann"
        let bob = Pupil()
        bob.name = "Bob"
        let frizzle = Tutor()
        frizzle.name = "Frizzle"
        let keating = Tutor()
        keating.name = "Keating"
        ann.teachers.replace([frizzle, keating])
        bob.teachers.append(keating)
        try store.box(for: Pupil.self).put([ann, bob])
        let joinRows = try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Pupil_teachers") }
        #expect(joinRows == 3)
        let reloadedAnn = try #require(try store.box(for: Pupil.self).get(ann.id))
        #expect(reloadedAnn.teachers.map(\.name) == ["Frizzle", "Keating"])
        let reloadedKeating = try #require(try store.box(for: Tutor.self).get(keating.id))
        #expect(reloadedKeating.pupils.map(\.name) == ["Ann", "Bob"])
    }

    @Test func applyToDbWritesTheChangesOfAnOwnerJustPut() throws {
        let store = try Store()
        let ann = Pupil()
        ann.name = "Ann"
        try store.box(for: Pupil.self).put(ann)
        let frizzle = Tutor()
        frizzle.name = "Frizzle"
        ann.teachers.append(frizzle)   // the same instance, not read again
        #expect(ann.teachers.hasPendingDbChanges)
        try ann.teachers.applyToDb()
        #expect(!ann.teachers.hasPendingDbChanges)
        #expect(frizzle.id != 0)
        #expect(try ann.teachers.getUncachedIdsFromDb() == [frizzle.id])
        #expect(try store.box(for: Tutor.self).get(frizzle.id)?.pupils.map(\.name) == ["Ann"])
    }

    @Test func applyToDbOnAnOwnerNotStoredYetNamesTheRelation() throws {
        let shop = Shop()
        shop.orders.append(Purchase())
        #expect {
            try shop.orders.applyToDb()
        } throws: { error in
            "\(error)" == "applyToDb: the owner of this ToMany<Purchase> is not stored yet; put the owner instead"
        }
    }
}
