import Foundation
import Testing
import Trellis
import TrellisObjects

// `ToMany<Order>` with one type parameter, as ObjectBox's docs write it: the
// relation learns the type of its owner when the owner is read or put. The
// older form that names the owner, `ToMany<Order, Customer>` (see
// RelationsTests), works the same.

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

private final class Market: Entity {
    var id: Id = 0
    var stalls: ToMany<Stall, Market> = nil   // the older form, owner named
}

private final class Stall: Entity {
    var id: Id = 0
    var label = ""
    var market: ToOne<Market> = nil
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

    @Test func theFormThatNamesTheOwnerWorksTheSame() throws {
        let store = try Store()
        let market = Market()
        let stall = Stall()
        stall.label = "fish"
        market.stalls.append(stall)
        try store.box(for: Market.self).put(market)
        #expect(try store.box(for: Stall.self).get(stall.id)?.market.targetId == market.id)
        let loaded = try #require(try store.box(for: Market.self).get(market.id))
        #expect(loaded.stalls.map(\.label) == ["fish"])
        let withFish = try store.box(for: Market.self).query()
            .link(Property<Market, ToMany<Stall, Market>>("stalls")) { Stall.label == "fish" }
            .build().find()
        #expect(withFish.map(\.id) == [market.id])
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

extension Shop {
    static let name = Property<Shop, String>("name")
    static let orders = Property<Shop, ToMany<Purchase>>("orders")
}

extension Purchase {
    static let item = Property<Purchase, String>("item")
}

extension Pupil {
    static let name = Property<Pupil, String>("name")
    static let teachers = Property<Pupil, ToMany<Tutor>>("teachers")
}

extension Tutor {
    static let name = Property<Tutor, String>("name")
    static let pupils = Property<Tutor, ToMany<Pupil>>("pupils")
}

@Suite struct ToManyLinkQueryTests {
    @Test func aQueryLinksThroughABacklink() throws {
        let store = try Store()
        let shops = store.box(for: Shop.self)
        #expect(try shops.query().link(Shop.orders) { Purchase.item == "shoes" }.build().find().isEmpty)
        for (name, items) in [("Corner", ["tea", "shoes"]), ("Market", ["jam"]), ("Mall", ["shoes", "hat"]), ("Empty", [])] {
            let shop = Shop()
            shop.name = name
            for item in items {
                let purchase = Purchase()
                purchase.item = item
                shop.orders.append(purchase)
            }
            try shops.put(shop)
        }
        let withShoes = try shops.query().link(Shop.orders) { Purchase.item == "shoes" }.build()
        #expect(try withShoes.find().map(\.name) == ["Corner", "Mall"])
        #expect(try withShoes.count() == 2)
        let notMall = try shops.query { Shop.name != "Mall" }
            .link(Shop.orders, conditions: { Purchase.item.startsWith("s") || Purchase.item == "jam" })
            .build()
        #expect(try notMall.find().map(\.name) == ["Corner", "Market"])
    }

    @Test func aQueryLinksThroughAManyToManyRelationFromBothEnds() throws {
        let store = try Store()
        let pupils = store.box(for: Pupil.self)
        let tutors = store.box(for: Tutor.self)
        #expect(try pupils.query().link(Pupil.teachers) { Tutor.name == "Frizzle" }.build().count() == 0)
        let frizzle = Tutor()
        frizzle.name = "Frizzle"
        let keating = Tutor()
        keating.name = "Keating"
        let ann = Pupil()
        ann.name = "Ann"
        ann.teachers.replace([frizzle, keating])
        let bob = Pupil()
        bob.name = "Bob"
        bob.teachers.append(keating)
        let cy = Pupil()
        cy.name = "Cy"
        try pupils.put([ann, bob, cy])
        #expect(try pupils.query().link(Pupil.teachers) { Tutor.name == "Frizzle" }.build().find().map(\.name) == ["Ann"])
        #expect(try pupils.query().link(Pupil.teachers) { Tutor.name == "Keating" }.build().find().map(\.name) == ["Ann", "Bob"])
        #expect(try tutors.query().link(Tutor.pupils) { Pupil.name == "Bob" }.build().find().map(\.name) == ["Keating"])
        #expect(try tutors.query().link(Tutor.pupils) { Pupil.name == "Cy" }.build().find().isEmpty)
    }
}

private extension Stall {
    static let label = Property<Stall, String>("label")
}
