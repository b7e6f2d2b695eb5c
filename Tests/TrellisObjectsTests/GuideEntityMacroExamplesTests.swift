import Testing
import Trellis
import TrellisObjects

// The `@Entity` example of the TrellisObjects guide (TrellisObjects.docc), compiled and run.

private enum Readme {
    @Entity
    final class Person {
        var id: Id = 0
        var name = ""
        var age = 0
        var spouse: ToOne<Person> = nil
    }

    @Entity
    final class Customer {
        var id: Id = 0
        // objectbox: backlink = "customer"
        var orders: ToMany<Order> = nil
    }

    @Entity
    final class Order {
        var id: Id = 0
        var customer: ToOne<Customer> = nil
    }
}

@Suite struct GuideEntityMacroExamplesTests {
    @Test func entityMacroExample() throws {
        typealias Person = Readme.Person
        let store = try Store()
        let personBox = store.box(for: Person.self)
        for (name, age) in [("Bob", 40), ("Amanda", 31), ("Alex", 12), ("Ada", 36)] {
            let person = Person()
            person.name = name
            person.age = age
            try personBox.put(person)
        }
        let amanda = try #require(try personBox.query { Person.name == "Amanda" }.build().findFirst())
        amanda.spouse.target = try personBox.query { Person.name == "Bob" }.build().findFirst()
        try personBox.put(amanda)

        let adults = try personBox.query { Person.age >= 18 && Person.name.startsWith("A") }
            .ordered(by: Person.name)
            .build()
            .find()
        #expect(adults.map(\.name) == ["Ada", "Amanda"])
        let married = try personBox.query { Person.spouse.isNotNil() }.find()
        #expect(married.map(\.name) == ["Amanda"])

        let customer = Readme.Customer()
        let order = Readme.Order()
        customer.orders.append(order)
        try store.box(for: Readme.Customer.self).put(customer)
        #expect(try store.box(for: Readme.Order.self).get(order.id)?.customer.targetId == customer.id)
        #expect(try store.box(for: Readme.Customer.self).get(customer.id)?.orders.count == 1)
    }
}
