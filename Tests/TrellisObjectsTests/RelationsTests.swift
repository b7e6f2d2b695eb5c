import Foundation
import Testing
import Trellis
import TrellisObjects

// Relations in an object store: ToOne targets and the backlinks of a
// ToMany, in the samples' own words, with `var id: Id = 0` in Person,
// `try` before `put`, and `orders` for the array.

private class Person: Entity {
    var id: Id = 0
    var name = ""
    var spouse: ToOne<Person> = nil
}

private class Customer: Entity { var id: Id = 0

   /// Annotation with Source's property name is required; Order is "Source", Customer is "Target"
   // sourcery: backlink = "customer"
   var orders: ToMany<Order, Customer> = nil
   // ...
}

private class Order: Entity { var id: Id = 0; var customer: ToOne<Customer> = nil }

@Suite struct RelationsTests {
    private func spouseIds(_ store: Store) throws -> [String: Int64?] {
        try store.queue.read { db in
            var result: [String: Int64?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, spouseId FROM Person") {
                result[row["name"]] = row["spouseId"] as Int64?
            }
            return result
        }
    }

    private func makeCouple() throws -> (Store, Box<Person>, Person, Person) {
        let store = try Store()
        let personBox: Box<Person> = store.box(for: Person.self)
        let amanda = Person()
        amanda.name = "Amanda"
        let bob = Person()
        bob.name = "Bob"

        amanda.spouse.target = bob
        try personBox.put(amanda)
        return (store, personBox, amanda, bob)
    }

    @Test func puttingAnObjectPutsItsNewTargetFirst() throws {
        let (store, personBox, amanda, bob) = try makeCouple()
        #expect(amanda.id != 0)
        #expect(bob.id != 0)
        #expect(try spouseIds(store) == ["Amanda": Int64(bob.id), "Bob": nil])
        let loaded = try #require(try personBox.get(amanda.id))
        #expect(loaded.spouse.targetId == bob.id)
        #expect(loaded.spouse.target?.name == "Bob")
    }

    @Test func settingTargetToNilRemovesTheRelation() throws {
        let (store, personBox, amanda, _) = try makeCouple()
        amanda.spouse.target = nil
        try personBox.put(amanda)
        #expect(try spouseIds(store)["Amanda"] == .some(nil))
    }

    @Test func settingTargetIdToNilRemovesTheRelation() throws {
        let (store, personBox, amanda, _) = try makeCouple()
        amanda.spouse.targetId = nil
        try personBox.put(amanda)
        #expect(try spouseIds(store)["Amanda"] == .some(nil))
    }

    @Test func settingThePropertyToNilRemovesTheRelation() throws {
        let (store, personBox, amanda, _) = try makeCouple()
        amanda.spouse = nil
        try personBox.put(amanda)
        #expect(try spouseIds(store)["Amanda"] == .some(nil))
    }

    @Test func aToOneWithANilTargetRemovesTheRelation() throws {
        let (store, personBox, amanda, _) = try makeCouple()
        amanda.spouse = ToOne<Person>(target: nil)
        try personBox.put(amanda)
        #expect(try spouseIds(store)["Amanda"] == .some(nil))
    }

    @Test func backlinksListTheOrdersOfACustomer() throws {
        let store = try Store()
        let customer = Customer()
        try store.box(for: Customer.self).put(customer)
        let orderBox = store.box(for: Order.self)
        for _ in 0..<3 {
            let order = Order()
            order.customer.target = customer
            try orderBox.put(order)
        }
        let aCustomer = try #require(try store.box(for: Customer.self).get(customer.id))
        #expect(aCustomer.orders.count == 3)

        // You cannot set `aCustomer.orders = nil`, so:
        let orders = Array(aCustomer.orders)
        orders.forEach { order in
            order.customer = nil
        }
        try store.box(for: Order.self).put(orders)

        let customerIds = try store.queue.read { db in
            try Int64?.fetchAll(db, sql: "SELECT customerId FROM \"Order\"")
        }
        #expect(customerIds == [nil, nil, nil])
        let reloaded = try #require(try store.box(for: Customer.self).get(customer.id))
        #expect(reloaded.orders.isEmpty)
    }

    @Test func relationsOfACodableEntityGoThroughOtherCoders() throws {
        // Outside the store, a ToOne is its target id, and a ToMany is empty.
        let (_, _, amanda, bob) = try makeCouple()
        let json = try JSONEncoder().encode(amanda)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"spouse\":\(bob.id)"))
        let decoded = try JSONDecoder().decode(Person.self, from: json)
        #expect(decoded.name == "Amanda")
        #expect(decoded.spouse.targetId == bob.id)

        let single = try JSONDecoder().decode(Person.self, from: Data(#"{"id":5,"name":"Solo","spouse":null}"#.utf8))
        #expect(single.spouse.targetId == nil)
        let customer = try JSONDecoder().decode(Customer.self, from: Data(#"{"id":7,"orders":[]}"#.utf8))
        #expect(customer.id == 7)
    }
}
