import Testing
import Trellis
import TrellisObjects

// The relations of seed 004 and of ObjectBox's documentation, with entities
// of the `@Entity` macro: backlinks named in comments as ObjectBox's
// generator reads them.

@Entity
private final class Customer {
    var id: Id = 0
    var name = ""

    /// Annotation with Source's property name is required; Order is "Source", Customer is "Target"
    // sourcery: backlink = "customer"
    var orders: ToMany<Order, Customer> = nil
}

@Entity
private final class Order {
    var id: Id = 0
    var summary = ""
    var customer: ToOne<Customer> = nil
    var courier: ToOne<Customer> = nil
}

@Entity
private final class Pupil {
    var id: Id = 0
    var name = ""
    var teachers: ToMany<Tutor> = nil
}

@Entity
private final class Tutor {
    var id: Id = 0
    var name = ""
    var pupils: ToMany<Pupil> = nil   // objectbox: backlink = "teachers"
}

/// An entity whose `init()` gives every object the same relation: a read
/// must not attach that shared relation to the row of one object.
@Entity
private final class Parcel {
    nonisolated(unsafe) static let sharedNoSender: ToOne<Customer> = nil
    var id: Id = 0
    var label = ""
    var sender: ToOne<Customer>

    init() {
        sender = Self.sharedNoSender
    }
}

/// An entity whose `init()` sets its relation: the relation read replaces it.
@Entity
private final class Letter {
    var id: Id = 0
    var sender: ToOne<Customer> = ToOne(targetId: 999)
}

@Suite struct EntityMacroRelationsTests {
    @Test func eachObjectReadGetsARelationOfItsOwn() throws {
        let store = try Store()
        let customers = store.box(for: Customer.self)
        let sally = Customer()
        sally.name = "Sally"
        let bob = Customer()
        bob.name = "Bob"
        try customers.put([sally, bob])
        let parcels = store.box(for: Parcel.self)
        for (label, sender) in [("a", sally), ("b", bob)] {
            let parcel = Parcel()
            parcel.label = label
            parcel.sender = ToOne(sender)
            try parcels.put(parcel)
        }

        let read = try parcels.all()
        #expect(read.map(\.sender.target?.name) == ["Sally", "Bob"])
        #expect(read[0].sender !== read[1].sender)
        // The relation that every new object shares still points nowhere.
        #expect(Parcel.sharedNoSender.targetId == nil)
        #expect(Parcel().sender.targetId == nil)
        let one = try #require(try parcels.get(read[1].id))
        #expect(one.sender.target?.name == "Bob")
        #expect(Parcel.sharedNoSender.targetId == nil)
    }

    @Test func aRelationThatInitSetIsReplacedByTheStoredOne() throws {
        let store = try Store()
        let customers = store.box(for: Customer.self)
        let sally = Customer()
        sally.name = "Sally"
        try customers.put(sally)
        let letters = store.box(for: Letter.self)
        let withSender = Letter()
        withSender.sender.target = sally
        let withoutSender = Letter()
        withoutSender.sender.targetId = nil
        try letters.put([withSender, withoutSender])

        let read = try letters.all()
        #expect(read.map(\.sender.targetId) == [sally.id, nil])
        #expect(read[0].sender.target?.name == "Sally")
    }

    @Test func backlinksNamedInCommentsListTheOrdersOfACustomer() throws {
        #expect(Customer.backlinks == ["orders": "customer"])
        let store = try Store()
        let customerBox = store.box(for: Customer.self)
        let orderBox = store.box(for: Order.self)
        let customer = Customer()
        customer.name = "Sally"
        let courier = Customer()
        courier.name = "Quick"
        try customerBox.put([customer, courier])
        for summary in ["Shoes", "Hat", "Scarf"] {
            let order = Order()
            order.summary = summary
            order.customer.target = customer
            order.courier.target = courier
            try orderBox.put(order)
        }
        // Two ToOne properties point to Customer: the backlink tells which.
        let loaded = try #require(try customerBox.get(customer.id))
        #expect(loaded.orders.map(\.summary) == ["Shoes", "Hat", "Scarf"])
        #expect(try customerBox.get(courier.id)?.orders.isEmpty == true)

        let withShoes = try customerBox.query().link(Customer.orders) { Order.summary == "Shoes" }.build().find()
        #expect(withShoes.map(\.name) == ["Sally"])
        let ofSally = try orderBox.query().link(Order.customer) { Customer.name == "Sally" }.build().find()
        #expect(ofSally.count == 3)

        let orders = Array(loaded.orders)
        orders.forEach { $0.customer = nil }
        try orderBox.put(orders)
        #expect(try customerBox.get(customer.id)?.orders.isEmpty == true)
    }

    @Test func appendingToABacklinkPutsAndLinksTheOrders() throws {
        let store = try Store()
        let customer = Customer()
        let tea = Order()
        tea.summary = "tea"
        customer.orders.append(tea)
        try store.box(for: Customer.self).put(customer)
        #expect(tea.id != 0)
        #expect(try store.box(for: Order.self).get(tea.id)?.customer.targetId == customer.id)
    }

    @Test func aManyToManyRelationReadsBackwardsThroughItsBacklink() throws {
        let store = try Store()
        let ann = Pupil()
        ann.name = "Ann"
        let smith = Tutor()
        smith.name = "Smith"
        let jones = Tutor()
        jones.name = "Jones"
        ann.teachers.append(contentsOf: [smith, jones])
        try store.box(for: Pupil.self).put(ann)
        #expect(Tutor.backlinks == ["pupils": "teachers"])
        let loaded = try #require(try store.box(for: Tutor.self).get(jones.id))
        #expect(loaded.pupils.map(\.name) == ["Ann"])
        let loadedAnn = try #require(try store.box(for: Pupil.self).get(ann.id))
        #expect(loadedAnn.teachers.map(\.name) == ["Smith", "Jones"])
    }
}
