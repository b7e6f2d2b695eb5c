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

@Suite struct EntityMacroRelationsTests {
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
