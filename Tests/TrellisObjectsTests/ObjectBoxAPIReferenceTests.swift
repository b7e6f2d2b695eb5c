import Dispatch
import Foundation
import Testing
import Trellis
import TrellisObjects

// Entities of the API reference samples: each suite of this file builds
// its own store.

private final class RefPerson: Entity {
    var id: Id = 0
    var name = ""
    var age = 0
    var nickname: String?
    var rating: Double?
    var serial: UInt64 = 0

    init() {}

    init(name: String, age: Int, nickname: String? = nil, rating: Double? = nil, serial: UInt64 = 0) {
        self.name = name
        self.age = age
        self.nickname = nickname
        self.rating = rating
        self.serial = serial
    }
}

extension RefPerson {
    static let name = Property<RefPerson, String>("name")
    static let age = Property<RefPerson, Int>("age")
    static let nickname = Property<RefPerson, String?>("nickname")
    static let rating = Property<RefPerson, Double?>("rating")
    static let serial = Property<RefPerson, UInt64>("serial")
}

private final class RefCustomer: Entity {
    var id: Id = 0
    var name = ""
    var orders: ToMany<RefOrder> = nil
}

private final class RefOrder: Entity {
    var id: Id = 0
    var item = ""
    var customer: ToOne<RefCustomer> = nil
}

private func people() throws -> Box<RefPerson> {
    let box = try Store().box(for: RefPerson.self)
    try box.put([
        RefPerson(name: "Ann", age: 30, nickname: "Annie", rating: 4.5, serial: 2),
        RefPerson(name: "Bob", age: 15, rating: 3, serial: UInt64.max),
        RefPerson(name: "Cid", age: 52, nickname: "Cee", serial: 1),
    ])
    return box
}

@Suite struct ObjectBoxPropertyQueryReferenceTests {
    @Test func numberAggregatesAreNotOptional() throws {
        let box = try people()
        let ages = try box.query().build().property(RefPerson.age)
        let maxAge: Int = try ages.max()
        let minAge: Int = try ages.min()
        let total: Int64 = try ages.sum()
        #expect((maxAge, minAge, total) == (52, 15, 97))
        let none = try box.query { RefPerson.age > 100 }.build().property(RefPerson.age)
        #expect(try (none.max(), none.min(), none.sum()) == (0, 0, 0))
        // Strings keep an optional maximum: no value is not an empty string.
        #expect(try box.query().build().property(RefPerson.name).max() == "Cid")
        #expect(try none.count() == 0)
    }

    @Test func anOptionalPropertyQueriesItsValues() throws {
        let box = try people()
        let nicknames: PropertyQuery<RefPerson, String> = try box.query().build().property(RefPerson.nickname)
        #expect(try nicknames.find() == ["Annie", "Cee"])
        #expect(try nicknames.with(nullString: "none").find() == ["Annie", "none", "Cee"])
        let ratings = try box.query().build().property(RefPerson.rating)
        let sum: Double = try ratings.sum()
        #expect(sum == 7.5)
        #expect(try ratings.max() == 4.5)
        #expect(try ratings.with(nullValue: 0).find() == [4.5, 3, 0])
        #expect(try ratings.average() == 3.75)
    }

    @Test func setParametersWithAnd() throws {
        let box = try people()
        let query = try box.query { RefPerson.age.isBetween(0, and: 99) }.build()
        #expect(try query.count() == 3)
        query.setParameters(RefPerson.age, to: 10, and: 18)
        #expect(try query.find().map(\.name) == ["Bob"])
    }

    @Test func unsignedOrderPutsTheLargestUnsignedValuesLast() throws {
        let box = try people()
        let ascending = try box.query().ordered(by: RefPerson.serial, flags: [.unsigned]).build()
        #expect(try ascending.find().map(\.name) == ["Cid", "Ann", "Bob"])
        let flags: [OrderFlags] = [.descending, .unsigned]
        let descending = try box.query().ordered(by: RefPerson.serial, flags: flags).build()
        #expect(try descending.find().map(\.name) == ["Bob", "Ann", "Cid"])
        // Without the flag, SQLite's signed order puts UInt64.max first.
        #expect(try box.query().ordered(by: RefPerson.serial).build().find().map(\.name) == ["Bob", "Cid", "Ann"])
    }

    @Test func unsignedValuesKeepTheirWholeRange() throws {
        let box = try people()
        #expect(try box.get(2)?.serial == UInt64.max)
        #expect(try box.query { RefPerson.serial == UInt64.max }.build().find().map(\.name) == ["Bob"])
        #expect(try box.query { RefPerson.serial != 1 }.build().property(RefPerson.serial).find() == [2, UInt64.max])
        let query = try box.query { RefPerson.serial == 0 }.build()
        query.setParameter(RefPerson.serial, to: UInt64.max - 1)
        #expect(try query.count() == 0)
        query.setParameter(RefPerson.serial, to: UInt64.max)
        #expect(try query.count() == 1)
    }
}

@Suite struct ObjectBoxBoxReferenceTests {
    @Test func visitStopsWhenTheVisitorSaysSo() throws {
        let box = try people()
        var visited: [String] = []
        try box.visit { person in
            visited.append(person.name)
            return person.name != "Bob"
        }
        #expect(visited == ["Ann", "Bob"])
        var all: [String] = []
        try box.forEach { all.append($0.name) }
        #expect(all == ["Ann", "Bob", "Cid"])
    }

    @Test func idsReadAsDictionariesAndVisits() throws {
        let box = try people()
        var names: [String] = []
        try box.for([3, 99, 1]) { person in names.append(person?.name ?? "-") }
        #expect(names == ["Cid", "-", "Ann"])
        let dictionary: [Id: RefPerson] = try box.getAsDictionary([1, 2, 99])
        #expect(dictionary.mapValues(\.name) == [1: "Ann", 2: "Bob"])
        #expect(try box.get([3, 2, 1], maxCount: 2).map(\.name) == ["Cid", "Bob"])
        #expect(try box.allContiguous().map(\.name) == ["Ann", "Bob", "Cid"])
        #expect(try box.query { RefPerson.age > 20 }.build().findContiguous().map(\.name) == ["Ann", "Cid"])
        let ids = try box.putAndReturnIDs([RefPerson(name: "Dee", age: 1)])
        #expect(ids == [4])
        #expect(try box.get(4)?.name == "Dee")
    }
}

@Suite struct ObjectBoxToManyReferenceTests {
    @Test func uncachedReadsLeaveTheLoadedObjectsAndChanges() throws {
        let store = try Store()
        let customers = store.box(for: RefCustomer.self)
        let customer = RefCustomer()
        #expect(!customer.orders.canInteractWithDb)
        let first = RefOrder()
        first.item = "tea"
        customer.orders.append(first)
        try customers.put(customer)
        #expect(customer.orders.canInteractWithDb)

        let pending = RefOrder()
        pending.item = "cake"
        customer.orders.append(pending)
        #expect(try customer.orders.getUncachedFromDb().map(\.item) == ["tea"])
        #expect(try customer.orders.getUncachedIdsFromDb() == [first.id])
        // The pending order is still there, and is written by a put.
        #expect(customer.orders.map(\.item) == ["tea", "cake"])
        #expect(customer.orders.hasPendingDbChanges)
        try customers.put(customer)
        #expect(try customer.orders.getUncachedFromDb().map(\.item).sorted() == ["cake", "tea"])
    }
}

/// What the handlers of a subscription received, from their queue.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [[String]] = []
    let semaphore = DispatchSemaphore(value: 0)

    func record(_ value: [String]) {
        lock.lock()
        values.append(value)
        lock.unlock()
        semaphore.signal()
    }

    var all: [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    func waitForOne() -> Bool {
        semaphore.wait(timeout: .now() + 10) == .success
    }
}

@Suite struct ObjectBoxObserverTests {
    @Test func aBoxSubscriptionReadsTheObjectsAfterEachCommit() throws {
        let store = try Store()
        let box = store.box(for: RefPerson.self)
        try box.put(RefPerson(name: "Ann", age: 1))
        let queue = DispatchQueue(label: "observer")
        let received = Received()
        let observer = box.subscribe(dispatchQueue: queue) { (people: [RefPerson], error: ObjectBoxError?) in
            received.record(people.map(\.name) + (error.map { ["\($0)"] } ?? []))
        }
        #expect(received.waitForOne())                                  // sendInitial
        try box.put(RefPerson(name: "Bob", age: 2))
        #expect(received.waitForOne())
        // Another entity's table does not notify.
        try store.box(for: RefCustomer.self).put(RefCustomer())
        observer.unsubscribe()
        try box.put(RefPerson(name: "Cid", age: 3))
        queue.sync {}
        #expect(received.all == [["Ann"], ["Ann", "Bob"]])
    }

    @Test func aQuerySubscriptionAndItsFlags() throws {
        let store = try Store()
        let box = store.box(for: RefPerson.self)
        let adults = try box.query { RefPerson.age >= 18 }.build()
        let queue = DispatchQueue(label: "observer")
        let received = Received()
        let observer = adults.subscribe(dispatchQueue: queue) { people, _ in received.record(people.map(\.name)) }
        let changes = Received()
        let changeObserver = adults.subscribe(dispatchQueue: queue, flags: []) { changes.record([]) }
        let once = Received()
        let onceObserver = box.subscribe(dispatchQueue: queue, flags: [.sendInitial, .dontSubscribe]) { _, _ in once.record([]) }
        #expect(received.waitForOne())
        try box.put([RefPerson(name: "Kid", age: 9), RefPerson(name: "Ann", age: 30)])
        #expect(received.waitForOne())
        queue.sync {}
        #expect(received.all == [[], ["Ann"]])
        #expect(changes.all.count == 1)                                  // no initial call, one commit
        #expect(once.all.count == 1)
        observer.unsubscribe()
        changeObserver.unsubscribe()
        onceObserver.unsubscribe()
    }
}

@Suite struct ObjectBoxQueryParameterReferenceTests {
    @Test func aliasedListsAndToleratedEquality() throws {
        let box = try people()
        let names = try box.query { "names" .= RefPerson.name ∈ ["Bob"] }.build()
        #expect(try names.find().map(\.name) == ["Bob"])
        names.setParameters("names", to: ["Ann", "Cid"])
        #expect(try names.find().map(\.name) == ["Ann", "Cid"])

        let rating = Property<RefPerson, Double>("rating")
        let near = try box.query { rating.isEqual(to: 4.45, tolerance: 0.1) }.build()
        #expect(try near.find().map(\.name) == ["Ann"])
        near.setParameter(rating, toEqual: 3.2, tolerance: 0.5)
        #expect(try near.find().map(\.name) == ["Bob"])
        near.setParameter(rating, toEqual: 3.2, tolerance: 0.1)
        #expect(try near.find().isEmpty)
    }
}

@Suite struct ObjectBoxObserverMisuseTests {
    @Test func aSubscriptionInsideATransactionReportsAnError() throws {
        let store = try Store()
        let box = store.box(for: RefPerson.self)
        let queue = DispatchQueue(label: "observer")
        let received = Received()
        var observer: Observer?
        try store.runInTransaction {
            observer = box.subscribe(dispatchQueue: queue, flags: []) { people, error in
                received.record(people.map(\.name) + (error.map { _ in ["error"] } ?? []))
            }
        }
        #expect(received.waitForOne())
        #expect(received.all == [["error"]])
        observer?.unsubscribe()
    }
}
