import Foundation
import Testing
import TrellisObjects  // alone: the query interface and DatabaseQueue of Trellis come with it

// Snippets of the ObjectBox Swift documentation (getting started, Box,
// queries, relations, transactions, Store), written against TrellisObjects.
// Where ObjectBox's code generator writes `Person.name`, the entity declares
// its `Property` values itself.

private class DocPerson: Entity {
    static var entityName: String { "Person" }
    var id: Id = 0
    var firstName = ""
    var lastName = ""
    var age = 0
    var nickname: String?

    init() {}

    init(firstName: String, lastName: String, age: Int, nickname: String? = nil) {
        self.firstName = firstName
        self.lastName = lastName
        self.age = age
        self.nickname = nickname
    }
}

extension DocPerson {
    static let id = Property<DocPerson, Id>("id")
    static let firstName = Property<DocPerson, String>("firstName")
    static let lastName = Property<DocPerson, String>("lastName")
    static let age = Property<DocPerson, Int>("age")
    static let nickname = Property<DocPerson, String?>("nickname")
}

// The leading-dot form of the docs (`.name == "Steve"`).
extension Property where E == DocPerson, V == String {
    fileprivate static var firstName: Property { Property("firstName") }
}

private func people() throws -> (Store, Box<DocPerson>) {
    let store = try Store()
    let box = store.box(for: DocPerson.self)
    try box.put([
        DocPerson(firstName: "Steve", lastName: "Jobs", age: 56),
        DocPerson(firstName: "Stephen", lastName: "Hawking", age: 76, nickname: "Prof"),
        DocPerson(firstName: "Andrea", lastName: "Pirlo", age: 44),
        DocPerson(firstName: "andrea", lastName: "Bocelli", age: 65, nickname: "Tenor"),
        DocPerson(firstName: "Santa", lastName: "Claus", age: 1700),
        DocPerson(firstName: "Bob", lastName: "claus", age: 15),
    ])
    return (store, box)
}

@Suite struct ObjectBoxGettingStartedDocsTests {
    @Test func putWritesTheIdBackAndUpdatesOnceStored() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obx-\(UUID().uuidString)").path
        let store = try Store(directoryPath: folder)
        #expect(store.directoryPath == folder)
        let personBox = store.box(for: DocPerson.self)
        let person = DocPerson(firstName: "Joe", lastName: "Green", age: 30)
        #expect(person.id == 0)
        let id = try personBox.put(person)
        #expect(id == person.id && id != 0)
        person.age = 31
        try personBox.put(person)                       // an update, not a second object
        #expect(try personBox.count() == 1)
        #expect(try personBox.get(id)?.age == 31)
        #expect(try personBox.all().map(\.firstName) == ["Joe"])
        let rows = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT firstName, age FROM Person") }
        #expect(rows.count == 1 && rows[0]["age"] == 31)

        #expect(try personBox.removeAll() == 1)
        #expect(try personBox.isEmpty())
        try store.closeAndDeleteAllFiles()
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(throws: (any Error).self) { try personBox.count() }
    }

    @Test func boxCountLimitContainsAndRemoveByIds() throws {
        let (_, box) = try people()
        #expect(try box.count() == 6)
        #expect(try box.count(limit: 4) == 4)
        #expect(try box.count(limit: 100) == 6)
        let ids = try box.all().map(\.id)
        #expect(try box.contains(ids[0], ids[1]))
        #expect(try box.contains(ids))
        #expect(try !box.contains([ids[0], 999]))
        #expect(try box.remove([ids[0], ids[1], 999]) == 2)
        #expect(try box.remove(ids[2], ids[3]) == 2)
        #expect(try box.count() == 2)
        #expect(try !box.contains(ids[0]))
    }

    @Test func anInMemoryStoreKeepsNoFile() throws {
        let store = try Store(directoryPath: Store.inMemoryPrefix + "scratch")
        try store.box(for: DocPerson.self).put(DocPerson(firstName: "Ann", lastName: "", age: 1))
        #expect(try store.box(for: DocPerson.self).count() == 1)
        #expect(!FileManager.default.fileExists(atPath: Store.inMemoryPrefix + "scratch"))
    }
}

@Suite struct ObjectBoxQueryDocsTests {
    @Test func aConditionOnAPropertyThenBuildAndFind() throws {
        let (_, personBox) = try people()
        let query: Query<DocPerson> = try personBox.query {
            DocPerson.firstName.startsWith("Andrea")
        }.build()
        let allAndreas: [DocPerson] = try query.find()
        #expect(allAndreas.map(\.lastName) == ["Pirlo"])   // case sensitive by default
        let anyCase = try personBox.query { DocPerson.firstName.startsWith("andrea", caseSensitive: false) }.find()
        #expect(anyCase.map(\.lastName) == ["Pirlo", "Bocelli"])
    }

    @Test func logicalOperatorsAndParentheses() throws {
        let (_, personBox) = try people()
        let maybeSteveJobs = try personBox.query {
            DocPerson.firstName.startsWith("Ste") && DocPerson.lastName.startsWith("Jo")
        }.build().find()
        #expect(maybeSteveJobs.map(\.firstName) == ["Steve"])

        let oldClauses = try personBox.query {
            (DocPerson.firstName.contains("Santa") || DocPerson.age > 100)
                && DocPerson.lastName.isEqual(to: "Claus", caseSensitive: true)
        }.build().find()
        #expect(oldClauses.map(\.firstName) == ["Santa"])
        let anyClaus = try personBox.query { DocPerson.lastName.isEqual(to: "claus", caseSensitiveCompare: false) }.find()
        #expect(anyClaus.map(\.firstName) == ["Santa", "Bob"])
        // && binds tighter than ||
        let mixed = try personBox.query {
            DocPerson.firstName == "Bob" || DocPerson.age > 70 && DocPerson.lastName == "Hawking"
        }.find()
        #expect(mixed.map(\.firstName) == ["Stephen", "Bob"])
    }

    @Test func operatorsOfTheDocs() throws {
        let (_, personBox) = try people()
        let names = { (query: Query<DocPerson>) in try query.find().map(\.firstName) }
        #expect(try names(personBox.query { DocPerson.firstName == "Steve" }) == ["Steve"])
        #expect(try names(personBox.query { DocPerson.firstName != "Steve" }).count == 5)
        #expect(try names(personBox.query { DocPerson.age < 45 }) == ["Andrea", "Bob"])
        #expect(try names(personBox.query { DocPerson.age >= 65 }) == ["Stephen", "andrea", "Santa"])
        #expect(try names(personBox.query { DocPerson.age ∉ (10..<18) }).count == 5)        // no teens at the disco
        #expect(try names(personBox.query { DocPerson.age ∈ (10..<18) }) == ["Bob"])
        #expect(try names(personBox.query { DocPerson.age ∈ 44...56 }) == ["Steve", "Andrea"])
        #expect(try names(personBox.query { DocPerson.firstName ∈ ["Bob", "Santa", "Nobody"] }) == ["Santa", "Bob"])
        #expect(try names(personBox.query { DocPerson.firstName ∉ ["Bob", "Santa"] }).count == 4)
        #expect(try names(personBox.query { DocPerson.age.isBetween(50, and: 70) }) == ["Steve", "andrea"])
        #expect(try names(personBox.query { DocPerson.nickname.isNil() }).count == 4)
        #expect(try names(personBox.query { DocPerson.nickname.isNotNil() }) == ["Stephen", "andrea"])
        #expect(try names(personBox.query { DocPerson.nickname == nil }).count == 4)
        #expect(try names(personBox.query { DocPerson.nickname == "Prof" }) == ["Stephen"])
        #expect(try names(personBox.query { DocPerson.lastName.endsWith("laus") }) == ["Santa", "Bob"])
        #expect(try names(personBox.query { DocPerson.lastName.endsWith("LAUS", caseSensitive: false) }) == ["Santa", "Bob"])
        #expect(try names(personBox.query { DocPerson.lastName.contains("CELL", caseSensitive: false) }) == ["andrea"])
        #expect(try names(personBox.query { .firstName == "Steve" }) == ["Steve"])      // leading-dot form
        #expect(try names(personBox.query { DocPerson.age > 60 && QueryCondition(Column("lastName").like("c%")) }) == ["Santa"])
    }

    @Test func patternCharactersInStringConditionsMatchThemselves() throws {
        let store = try Store()
        let box = store.box(for: DocPerson.self)
        for name in ["50% off", "500 off", "a*b", "axxb", "a_b", "[x]"] {
            try box.put(DocPerson(firstName: name, lastName: "", age: 0))
        }
        let names = { (query: Query<DocPerson>) in try query.find().map(\.firstName) }
        #expect(try names(box.query { DocPerson.firstName.contains("0%") }) == ["50% off"])
        #expect(try names(box.query { DocPerson.firstName.contains("0%", caseSensitive: false) }) == ["50% off"])
        #expect(try names(box.query { DocPerson.firstName.startsWith("a*") }) == ["a*b"])
        #expect(try names(box.query { DocPerson.firstName.startsWith("A_", caseSensitive: false) }) == ["a_b"])
        #expect(try names(box.query { DocPerson.firstName.endsWith("x]") }) == ["[x]"])
    }

    @Test func findUniqueFirstOffsetLimitIdsCountAndRemove() throws {
        let (store, personBox) = try people()
        #expect(try personBox.query { DocPerson.firstName == "Santa" }.build().findUnique()?.lastName == "Claus")
        #expect(try personBox.query { DocPerson.firstName == "Nobody" }.build().findUnique() == nil)
        #expect {
            try personBox.query { DocPerson.age > 50 }.build().findUnique()
        } throws: { error in
            guard case ObjectBoxError.nonUniqueResult = error else { return false }
            return true
        }

        let byAge = personBox.query().ordered(by: DocPerson.age)
        #expect(try byAge.findFirst()?.firstName == "Bob")
        #expect(try byAge.find(offset: 1, limit: 2).map(\.firstName) == ["Andrea", "Steve"])
        #expect(try byAge.find(offset: 4).map(\.firstName) == ["Stephen", "Santa"])
        #expect(try byAge.find(limit: 1).map(\.firstName) == ["Bob"])
        let ids = try byAge.findIds()
        #expect(ids.count == 6)
        #expect(try byAge.findIds(offset: 1, limit: 2) == Array(ids[1...2]))

        let teens = try personBox.query { DocPerson.age < 18 }.build()
        #expect(try teens.count() == 1)
        #expect(try teens.remove() == 1)
        #expect(try teens.count() == 0)
        let left = try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Person") }
        #expect(left == 5)
    }

    @Test func orderedByFlags() throws {
        let (_, personBox) = try people()
        let ascending = try personBox.query { DocPerson.age < 100 }.ordered(by: DocPerson.firstName).build().find()
        #expect(ascending.map(\.firstName) == ["Andrea", "andrea", "Bob", "Stephen", "Steve"])  // case ignored, then by id
        let descending = try personBox.query { DocPerson.age < 100 }
            .ordered(by: DocPerson.firstName, flags: [.descending, .caseSensitive]).build().find()
        #expect(descending.map(\.firstName) == ["andrea", "Steve", "Stephen", "Bob", "Andrea"])
        let nilsFirst = try personBox.query().ordered(by: DocPerson.nickname).ordered(by: DocPerson.age).find()
        #expect(nilsFirst.map(\.firstName) == ["Bob", "Andrea", "Steve", "Santa", "Stephen", "andrea"])
        let nilsLast = try personBox.query().ordered(by: DocPerson.nickname, flags: [.nullsLast]).ordered(by: DocPerson.age).find()
        #expect(nilsLast.map(\.firstName) == ["Stephen", "andrea", "Bob", "Andrea", "Steve", "Santa"])
        let descendingNilsFirst = try personBox.query().ordered(by: DocPerson.nickname, flags: .descending).ordered(by: DocPerson.age).find()
        #expect(descendingNilsFirst.map(\.firstName) == ["Bob", "Andrea", "Steve", "Santa", "andrea", "Stephen"])
    }

    @Test func parametersChangeAReusedQuery() throws {
        let (_, personBox) = try people()
        let query = try personBox.query { DocPerson.age > 60 }.build()
        #expect(try query.count() == 3)
        query.setParameter(DocPerson.age, to: 18)
        #expect(try query.count() == 5)

        let between = try personBox.query { DocPerson.age.isBetween(40, and: 50) }.build()
        #expect(try between.find().map(\.firstName) == ["Andrea"])
        between.setParameters(DocPerson.age, to: 50, 70)
        #expect(try between.find().map(\.firstName) == ["Steve", "andrea"])

        let named = try personBox.query {
            "AgeRestriction" .= DocPerson.age > 18 && DocPerson.firstName.startsWith("St")
        }.build()
        #expect(try named.count() == 2)
        named.setParameter("AgeRestriction", to: 60)
        #expect(try named.find().map(\.firstName) == ["Stephen"])

        let names = try personBox.query { DocPerson.firstName ∈ ["Bob"] }.build()
        names.setParameters(DocPerson.firstName, to: ["Steve", "Santa"])
        #expect(try names.find().map(\.firstName) == ["Steve", "Santa"])

        let wrong = try personBox.query { DocPerson.age > 60 }.build()
        wrong.setParameter(DocPerson.lastName, to: "Jobs")
        #expect(throws: ObjectBoxError.self) { try wrong.find() }
    }

    @Test func propertyQueries() throws {
        let (_, personBox) = try people()
        let ages = try personBox.query { DocPerson.age < 100 }.build().property(DocPerson.age)
        #expect(try ages.max() == 76)
        #expect(try ages.min() == 15)
        #expect(try ages.sum() == 56 + 76 + 44 + 65 + 15)
        #expect(try ages.average() == Double(56 + 76 + 44 + 65 + 15) / 5)
        #expect(try ages.count() == 5)
        #expect(try ages.find() == [56, 76, 44, 65, 15])
        let lastNames = personBox.query().property(DocPerson.lastName)
        #expect(try lastNames.distinct().count() == 6)
        let nicknames = personBox.query().property(DocPerson.nickname)
        #expect(try nicknames.find() == ["Prof", "Tenor"])                   // nil values are left out
        #expect(try nicknames.count() == 2)
        #expect(try personBox.query { DocPerson.firstName == "Bob" }.property(DocPerson.age).findUnique() == 15)
        #expect {
            try ages.findUnique()
        } throws: { error in
            guard case ObjectBoxError.nonUniqueResult = error else { return false }
            return true
        }
        let none = personBox.query { DocPerson.age > 5000 }.property(DocPerson.age)
        #expect(try none.max() == 0)                                         // numbers read 0, as in ObjectBox
        #expect(try none.sum() == 0)
        // ObjectBox's typed accessors.
        #expect(try nicknames.findStrings() == ["Prof", "Tenor"])
        #expect(try nicknames.findString() == "Prof")
        #expect(try personBox.query { DocPerson.firstName == "Bob" }.property(DocPerson.lastName).findUniqueString() != nil)
        #expect(try ages.findInt64s() == [56, 76, 44, 65, 15])
        #expect(try ages.findDoubles() == [56, 76, 44, 65, 15])
        #expect(try ages.sumInt() == 256)
        #expect(try ages.averageInt() == 51)
        #expect(try none.findUniqueDouble() == nil)
        let casedStore = try Store()
        let cased = casedStore.box(for: DocPerson.self)
        try cased.put([DocPerson(firstName: "a", lastName: "Smith", age: 1), DocPerson(firstName: "b", lastName: "smith", age: 2)])
        #expect(try cased.query().property(DocPerson.lastName).distinct(caseSensitiveCompare: false).findStrings().count == 1)
        #expect(try cased.query().property(DocPerson.lastName).distinct(caseSensitiveCompare: true).findStrings().count == 2)
    }

    @Test func queriesOfATypeNeverPutFindNothing() throws {
        let store = try Store()
        let box = store.box(for: DocPerson.self)
        let query = try box.query { DocPerson.age > 1 }.build()
        #expect(try query.find().isEmpty)
        #expect(try query.findUnique() == nil)
        #expect(try query.count() == 0)
        #expect(try query.property(DocPerson.age).max() == 0)
        #expect(try query.property(DocPerson.lastName).max() == nil)
        #expect(try box.count(limit: 3) == 0)
        #expect(try !box.contains([1]))
    }
}

// MARK: - Relations

private final class DocCustomer: Entity {
    static var entityName: String { "Customer" }
    static let backlinks = ["orders": "customer"]
    var id: Id = 0
    var name = ""
    var orders: ToMany<DocOrder> = nil
}

private final class DocOrder: Entity {
    static var entityName: String { "Order" }
    var id: Id = 0
    var item = ""
    var customer: ToOne<DocCustomer> = nil
}

extension DocOrder {
    static let customerId = Property<DocOrder, Id>("customerId")
    static let customer = Property<DocOrder, ToOne<DocCustomer>>("customer")
}

@Suite struct ObjectBoxRelationDocsTests {
    @Test func theListsOfAJustPutObjectReachTheStore() throws {
        let store = try Store()
        let customers = store.box(for: DocCustomer.self)
        let orders = store.box(for: DocOrder.self)
        let customer = DocCustomer()
        customer.name = "Ann"
        try customers.put(customer)
        // Changed on the same instance, and applied without putting it again.
        let first = DocOrder()
        first.item = "tea"
        customer.orders.append(first)
        try customer.orders.applyToDb()
        #expect(try orders.get(first.id)?.customer.targetId == customer.id)
        // An order put on its own shows in the backlink once it is reset.
        let second = DocOrder()
        second.customer = ToOne(customer)
        try orders.put(second)
        customer.orders.reset()
        #expect(customer.orders.map(\.id).sorted() == [first.id, second.id])
        // Reloads: the order read through its ToOne sees a rename stored elsewhere.
        let loaded = try #require(try orders.get(second.id))
        #expect(loaded.customer.target?.name == "Ann")
        let renamed = try #require(try customers.get(customer.id))
        renamed.name = "Anne"
        try customers.put(renamed)
        #expect(loaded.customer.target?.name == "Ann")   // cached
        loaded.customer.reset()
        #expect(loaded.customer.target?.name == "Anne")
        try customer.orders.resolveFromDb()
        #expect(customer.orders.count == 2)
        #expect(try customers.removeAll() == UInt64(1))
    }

    @Test func queriesTraverseToOneRelations() throws {
        let store = try Store()
        let orders = store.box(for: DocOrder.self)
        for (item, name) in [("tea", "Sally Sparrow"), ("cake", "Ann"), ("jam", "Sally Sparrow"), ("salt", nil)] as [(String, String?)] {
            let order = DocOrder()
            order.item = item
            if let name {
                let customer = DocCustomer()
                customer.name = name
                order.customer.target = customer
            }
            try orders.put(order)
        }
        let customerName = Property<DocCustomer, String>("name")
        let sallys = try orders.query { DocOrder.customerId > 0 }
            .link(DocOrder.customer) { customerName == "Sally Sparrow" }
            .build()
        #expect(try sallys.find().map(\.item) == ["tea", "jam"])
        #expect(try sallys.count() == 2)
        let notAnn = try orders.query().link(DocOrder.customer, conditions: { customerName != "Ann" }).build()
        #expect(try notAnn.find().map(\.item) == ["tea", "jam"])
    }

    @Test func objectBoxSpellingsOfCommonCalls() throws {
        let store = try Store()
        let people = store.box(for: DocPerson.self)
        let amanda = DocPerson(firstName: "Amanda", lastName: "Lovelace", age: 36)
        let bob = DocPerson(firstName: "Bob", lastName: "Babbage", age: 40)
        let carol = DocPerson(firstName: "Carol", lastName: "Lamarr", age: 30)
        // A closure that returns nothing, as ObjectBox's samples write it.
        try store.runInTransaction {
            try people.put(amanda, bob, carol)
        }
        #expect(try people.count() == 3)
        let (prefixed, suffixed) = try store.runInReadOnlyTransaction {
            (try people.query { DocPerson.firstName.hasPrefix("Am") }.build().count(),
             try people.query { DocPerson.lastName.hasSuffix("age") }.build().find().map(\.firstName))
        }
        #expect(prefixed == 1)
        #expect(suffixed == ["Bob"])
        #expect(try people.remove(amanda, bob) == 2)
        #expect(try people.all().map(\.firstName) == ["Carol"])
        #expect {
            try store.runInReadOnlyTransaction { try people.put(DocPerson()) }
        } throws: { error in
            if case ObjectBoxError.cannotWriteWhileReading = error { return true }
            return false
        }
        #expect(try people.count() == 1)
    }

    @Test func aToOnePutsANewTargetButOnlyLinksAStoredOne() throws {
        let store = try Store()
        let customer = DocCustomer()
        customer.name = "Ann"
        let order = DocOrder()
        order.customer.target = customer
        let orderId = try store.box(for: DocOrder.self).put(order)     // puts order and customer
        #expect(try store.box(for: DocCustomer.self).count() == 1)
        #expect(try store.box(for: DocOrder.self).count() == 1)

        customer.name = "Changed"
        let second = DocOrder()
        second.customer.target = customer
        try store.box(for: DocOrder.self).put(second)
        #expect(try store.box(for: DocCustomer.self).get(customer.id)?.name == "Ann")   // not put again
        let orderBox = store.box(for: DocOrder.self)
        let ordersOfAnn = try orderBox.query { DocOrder.customer == customer }.find()
        #expect(ordersOfAnn.map(\.id) == [orderId, second.id])
        #expect(try orderBox.query { DocOrder.customer == customer.id }.count() == 2)
        #expect(try orderBox.query { DocOrder.customerId == customer.id }.count() == 2)
        #expect(try orderBox.query { DocOrder.customer ∈ [customer.id, 999] }.count() == 2)
        let orphan = DocOrder()
        try orderBox.put(orphan)
        #expect(try orderBox.query { DocOrder.customer.isNil() }.findIds() == [orphan.id])
        #expect(try orderBox.query { DocOrder.customer.isNotNil() }.count() == 2)
        #expect(try orderBox.query { DocOrder.customer != customer }.findIds() == [orphan.id])
        #expect(try orderBox.query().ordered(by: DocOrder.customer, flags: .descending).findIds() == [orphan.id, orderId, second.id])
        let byCustomer = try orderBox.query { DocOrder.customer == customer }.build()
        byCustomer.setParameter(DocOrder.customer, to: 999)
        #expect(try byCustomer.count() == 0)
        byCustomer.setParameter(DocOrder.customer, to: customer.id)
        #expect(try byCustomer.count() == 2)
    }

    @Test func toManyIsARangeReplaceableCollectionWrittenWithApplyToDb() throws {
        let store = try Store()
        let customerBox = store.box(for: DocCustomer.self)
        let customer = DocCustomer()
        customer.name = "Ann"
        try customerBox.put(customer)
        #expect(throws: ObjectBoxError.self) {
            let unsaved = DocCustomer()
            unsaved.orders.append(DocOrder())
            try unsaved.orders.applyToDb()
        }

        let loaded = try #require(try customerBox.get(customer.id))
        #expect(!loaded.orders.resolved)
        let first = DocOrder()
        first.item = "tea"
        let second = DocOrder()
        second.item = "cake"
        loaded.orders.append(contentsOf: [first, second])
        loaded.orders.insert(DocOrder(), at: 0)
        #expect(loaded.orders.hasPendingDbChanges)
        try loaded.orders.applyToDb()
        #expect(!loaded.orders.hasPendingDbChanges)
        #expect(first.id != 0 && second.id != 0)
        #expect(try store.box(for: DocOrder.self).count() == 3)
        #expect(try customerBox.get(customer.id)?.orders.count == 3)

        loaded.orders.removeAll { $0.item.isEmpty }
        try loaded.orders.applyToDb()
        let reloaded = try #require(try customerBox.get(customer.id))
        #expect(reloaded.orders.map(\.item) == ["tea", "cake"])
        #expect(Array(reloaded.orders).count == 2)
        #expect(try store.box(for: DocOrder.self).count() == 3)   // unlinked, not removed

        // Relations removed from the ToOne end instead.
        let orders = Array(reloaded.orders)
        orders.forEach { order in order.customer = nil }
        try store.box(for: DocOrder.self).put(orders)
        reloaded.orders.reset()
        #expect(reloaded.orders.isEmpty)
    }
}

// MARK: - Transactions

@Suite struct ObjectBoxTransactionDocsTests {
    @Test func aWriteTransactionCommitsAllOrNothing() throws {
        let (store, personBox) = try people()
        let count = try store.runInTransaction { () -> Int in
            try personBox.put(DocPerson(firstName: "New", lastName: "", age: 1))
            try personBox.query { DocPerson.age > 1000 }.remove()
            return try personBox.count()
        }
        #expect(count == 6)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.runInTransaction {
                try personBox.removeAll()
                throw Abort()
            }
        }
        #expect(try personBox.count() == 6)
    }

    @Test func aReadOnlyTransactionCanNotWrite() throws {
        let (_, personBox) = try people()
        let store = personBox.store
        let names = try store.runInReadOnlyTransaction {
            try personBox.query { DocPerson.age > 70 }.property(DocPerson.firstName).find()
        }
        #expect(names == ["Stephen", "Santa"])
        #expect(throws: (any Error).self) {
            try store.runInReadOnlyTransaction {
                try personBox.put(DocPerson(firstName: "Intruder", lastName: "", age: 1))
            }
        }
        #expect(try personBox.count() == 6)
        #expect(try personBox.query { DocPerson.firstName == "Intruder" }.count() == 0)
    }
}

// MARK: - Entities

private final class DocGadget: Entity {
    var id: Id = 0
    var name = ""
    var tiny: Int8 = 0
    var small: UInt16 = 0
    var medium: Int32 = 0
    var ratio: Float = 0
    var bytes: [UInt8] = []
    var maybeBytes: [UInt8]?
    /// Transient, as `// objectbox: transient`: left out of the coding keys.
    var cache = "not stored"

    enum CodingKeys: String, CodingKey {
        case id, name, tiny, small, medium, ratio, bytes, maybeBytes
    }
}

extension DocGadget {
    static let tiny = Property<DocGadget, Int8>("tiny")
    static let ratio = Property<DocGadget, Float>("ratio")
}

@Suite struct ObjectBoxEntityDocsTests {
    @Test func numbersAreNumbersBytesAreBlobsAndTransientPropertiesAreNotStored() throws {
        let store = try Store()
        let box = store.box(for: DocGadget.self)
        for value in [2, 10, 100] as [Int8] {
            let gadget = DocGadget()
            gadget.name = "g\(value)"
            gadget.tiny = value
            gadget.small = UInt16(value) * 300
            gadget.medium = -Int32(value)
            gadget.ratio = Float(value) / 4
            gadget.bytes = [0, value.magnitude, 255]
            gadget.cache = "changed"
            try box.put(gadget)
        }
        // Numeric comparison (as text, "10" < "2").
        #expect(try box.query { DocGadget.tiny > 5 }.find().map(\.name) == ["g10", "g100"])
        #expect(try box.query { DocGadget.ratio < 3 }.find().map(\.name) == ["g2", "g10"])
        let loaded = try #require(try box.query { DocGadget.tiny == 100 }.findFirst())
        #expect(loaded.small == 30000 && loaded.medium == -100 && loaded.ratio == 25)
        #expect(loaded.bytes == [0, 100, 255])
        #expect(loaded.maybeBytes == nil)
        #expect(loaded.cache == "not stored")
        let (types, columns) = try store.queue.read { db in
            (try String.fetchAll(db, sql: "SELECT typeof(tiny) || ' ' || typeof(small) || ' ' || typeof(ratio) || ' ' || typeof(bytes) FROM DocGadget"),
             try db.columns(in: "DocGadget").map(\.name))
        }
        #expect(types == Array(repeating: "integer integer real blob", count: 3))
        #expect(!columns.contains("cache"))

        loaded.maybeBytes = [7]
        try box.put(loaded)
        #expect(try box.get(loaded.id)?.maybeBytes == [7])
    }
}

// MARK: - Put modes, enums, custom types, names, indexes

private enum TestEnum: Int, Codable {
    case unknown = 0
    case first = 100
    case second = 200
    case third = 300
}

private enum Mood: String, Codable {
    case happy, grumpy
}

/// A custom type with a column of its own, as ObjectBox's
/// `// objectbox: convert` makes: here, by conforming to
/// `DatabaseValueConvertible`.
private struct Temperature: Codable, DatabaseValueConvertible {
    var celsius: Double
    var databaseValue: DatabaseValue { celsius.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Temperature? {
        Double.fromDatabaseValue(dbValue).map(Temperature.init)
    }
}

private final class EnumEntity: Entity {
    static let uniqueProperties = ["email"]
    static let indexedProperties = ["first_name"]
    var id: Id = 0
    var custom: TestEnum = .unknown
    var mood: Mood?
    var firstName = ""
    var email: String?
    var temperature = Temperature(celsius: 0)
    var born = Date(timeIntervalSince1970: 0)

    enum CodingKeys: String, CodingKey {
        case id, custom, mood, email, temperature, born
        case firstName = "first_name"    // as `// objectbox: name = "first_name"`
    }
}

extension EnumEntity {
    static let custom = Property<EnumEntity, Int>("custom")
    static let mood = Property<EnumEntity, String?>("mood")
    static let firstName = Property<EnumEntity, String>("first_name")
    static let temperature = Property<EnumEntity, Double>("temperature")
    static let born = Property<EnumEntity, Date>("born")
}

private final class Misindexed: Entity {
    static let indexedProperties = ["nmae"]
    var id: Id = 0
    var name = ""
}

@Suite struct ObjectBoxMoreDocsTests {
    @Test func putModesInsertAndUpdate() throws {
        let store = try Store()
        let box = store.box(for: DocPerson.self)
        let person = DocPerson(firstName: "Ann", lastName: "", age: 30)
        #expect(throws: ObjectBoxError.self) { try box.put(person, mode: .update) }    // not stored yet
        #expect(try box.count() == 0)
        try box.put(person, mode: .insert)
        #expect(person.id != 0)
        person.age = 31
        #expect(throws: ObjectBoxError.self) { try box.put(person, mode: .insert) }    // exists already
        #expect(try box.get(person.id)?.age == 30)
        try box.put(person, mode: .update)
        #expect(try box.get(person.id)?.age == 31)
        let ghost = DocPerson(firstName: "Ghost", lastName: "", age: 1)
        ghost.id = 999
        let newcomer = DocPerson(firstName: "New", lastName: "", age: 2)
        #expect(throws: ObjectBoxError.self) { try box.put([newcomer, ghost], mode: .update) }
        #expect(try box.count() == 1)                                                     // nothing of the batch
        try box.put(ghost, mode: .insert)                                                 // an assigned id
        #expect(try box.get(999)?.firstName == "Ghost")
    }

    @Test func enumsAreStoredAsTheirRawValuesAndQueriedWithThem() throws {
        let store = try Store()
        let box = store.box(for: EnumEntity.self)
        for (custom, mood) in [(TestEnum.first, Mood.happy), (.second, .grumpy), (.third, nil)] as [(TestEnum, Mood?)] {
            let entity = EnumEntity()
            entity.custom = custom
            entity.mood = mood
            try box.put(entity)
        }
        #expect(try box.query { EnumEntity.custom == TestEnum.second.rawValue }.find().map(\.custom) == [.second])
        #expect(try box.query { EnumEntity.custom > TestEnum.first.rawValue }.find().map(\.custom) == [.second, .third])
        #expect(try box.query { EnumEntity.mood == Mood.grumpy.rawValue }.find().map(\.custom) == [.second])
        #expect(try box.all().map(\.mood) == [.happy, .grumpy, nil])
        let types = try store.queue.read { db in
            try String.fetchAll(db, sql: "SELECT typeof(custom) || ' ' || quote(mood) FROM EnumEntity ORDER BY id")
        }
        #expect(types == ["integer 'happy'", "integer 'grumpy'", "integer NULL"])

        // A raw value that no case has is an error, not a crash.
        try store.queue.write { db in try db.execute(sql: "UPDATE EnumEntity SET custom = 42 WHERE custom = 300") }
        #expect(throws: ObjectBoxError.self) { try box.all() }
        // Values stored as JSON by earlier versions still read.
        try store.queue.write { db in
            try db.execute(sql: "UPDATE EnumEntity SET custom = '300', mood = '\"happy\"' WHERE custom = 42")
        }
        #expect(try box.all().map(\.custom) == [.first, .second, .third])
        #expect(try box.all().map(\.mood) == [.happy, .grumpy, .happy])
    }

    @Test func customTypesDatesNamesAndIndexes() throws {
        let store = try Store()
        let box = store.box(for: EnumEntity.self)
        let day: TimeInterval = 86_400
        for (index, name) in ["Ann", "Bob", "Cid"].enumerated() {
            let entity = EnumEntity()
            entity.firstName = name
            entity.email = "\(name.lowercased())@example.com"
            entity.temperature = Temperature(celsius: Double(index) * 10)
            entity.born = Date(timeIntervalSince1970: Double(index) * 1000 * day)
            try box.put(entity)
        }
        #expect(try box.query { EnumEntity.firstName == "Bob" }.findUnique()?.email == "bob@example.com")
        #expect(try box.query { EnumEntity.temperature >= 10 }.find().map(\.firstName) == ["Bob", "Cid"])
        #expect(try box.get(3)?.temperature.celsius == 20)
        let middle = Date(timeIntervalSince1970: 1500 * day)
        #expect(try box.query { EnumEntity.born.isBefore(middle) }.find().map(\.firstName) == ["Ann", "Bob"])
        #expect(try box.query { EnumEntity.born.isAfter(middle) }.find().map(\.firstName) == ["Cid"])
        #expect(try box.query { EnumEntity.born.isBetween(Date(timeIntervalSince1970: 500 * day), and: middle) }.find().map(\.firstName) == ["Bob"])

        let (columns, indexes) = try store.queue.read { db in
            (try db.columns(in: "EnumEntity").map(\.name),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'EnumEntity' ORDER BY name"))
        }
        #expect(columns.contains("first_name") && !columns.contains("firstName"))
        #expect(indexes == ["index_EnumEntity_on_first_name", "unique_EnumEntity_on_email"])

        // unique: a repeated value throws, and the batch stores nothing
        let copy = EnumEntity()
        copy.email = "ann@example.com"
        let fresh = EnumEntity()
        fresh.email = "fresh@example.com"
        #expect {
            try box.put([fresh, copy])
        } throws: { error in
            guard case ObjectBoxError.uniqueViolation(let message) = error else { return false }
            return message.contains("UNIQUE constraint failed")
        }
        #expect(try box.count() == 3)
        #expect(fresh.id == 0)                                             // its insert rolled back
        copy.email = nil
        fresh.email = nil
        try box.put([fresh, copy])                                          // nil values do not count
        #expect(try box.count() == 5)

        #expect(throws: ObjectBoxError.self) { try store.box(for: Misindexed.self).put(Misindexed()) }
    }
}

private final class Optionals: Entity {
    var id: Id = 0
    var text: String?
    var flag: Bool?
    var number: Int?
    var real: Double?
    var small: Int16?
    var big: Int64?
}

@Suite struct ObjectBoxOptionalPropertyTests {
    @Test func rangesOfOptionalPropertiesLeaveNilOut() throws {
        let store = try Store()
        let box = store.box(for: Optionals.self)
        for value in [nil, 5, 10, 15, 20] as [Int?] {
            let object = Optionals()
            object.number = value
            try box.put(object)
        }
        let number = Property<Optionals, Int?>("number")
        #expect(try box.query { number ∈ 10..<18 }.build().find().compactMap(\.number).sorted() == [10, 15])
        #expect(try box.query { number ∈ 5...10 }.build().count() == 2)
        #expect(try box.query { number ∉ 10..<18 }.build().find().map(\.number).sorted { ($0 ?? -1) < ($1 ?? -1) } == [nil, 5, 20])
        #expect(try box.query { number ∉ 5...15 }.build().count() == 2)
    }

    @Test func settingAnOptionalPropertyToNilClearsItsColumn() throws {
        let store = try Store()
        let box = store.box(for: Optionals.self)
        let empty = Optionals()
        try box.put(empty)                                   // all nil: the columns exist all the same
        let columns = try store.queue.read { db in try db.columns(in: "Optionals").map(\.name) }
        #expect(Set(columns) == ["id", "text", "flag", "number", "real", "small", "big"])

        let object = Optionals()
        object.text = "x"
        object.flag = true
        object.number = 1
        object.real = 1.5
        object.small = 2
        object.big = 3
        try box.put(object)
        object.text = nil
        object.flag = nil
        object.number = nil
        object.real = nil
        object.small = nil
        object.big = nil
        try box.put(object)
        let nulls = try store.queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Optionals WHERE id = ? AND text IS NULL AND flag IS NULL AND number IS NULL AND real IS NULL AND small IS NULL AND big IS NULL", arguments: [object.id])
        }
        #expect(nulls == 1)
        let loaded = try #require(try box.get(object.id))
        #expect(loaded.text == nil && loaded.flag == nil && loaded.number == nil && loaded.real == nil && loaded.small == nil && loaded.big == nil)
    }
}

private final class Account: Entity {
    static let uniqueProperties = ["email"]
    var id: Id = 0
    var email = ""
}

@Suite struct ObjectBoxRollbackTests {
    private func account(_ email: String) -> Account {
        let account = Account()
        account.email = email
        return account
    }

    @Test func aFailedPutInsideATransactionLeavesNothingAndTheTransactionGoesOn() throws {
        let store = try Store()
        let box = store.box(for: Account.self)
        let first = account("a@x")
        let partial = account("b@x")
        let duplicate = account("a@x")
        let last = account("c@x")
        try store.runInTransaction {
            try box.put(first)
            #expect(throws: ObjectBoxError.self) { try box.put([partial, duplicate]) }
            try box.put(last)
        }
        let stored = try store.queue.read { db in try String.fetchAll(db, sql: "SELECT email FROM Account ORDER BY id") }
        #expect(stored == ["a@x", "c@x"])
        #expect(partial.id == 0 && duplicate.id == 0)
        #expect(first.id != 0 && last.id != 0)
    }

    @Test func objectsOfARolledBackTransactionCanBePutAgainWithoutOverwritingOthers() throws {
        let store = try Store()
        let box = store.box(for: Account.self)
        let early = account("early@x")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.runInTransaction {
                try box.put(early)
                #expect(early.id != 0)
                throw Abort()
            }
        }
        #expect(early.id == 0)                       // the insert rolled back
        let other = account("other@x")
        try box.put(other)
        try box.put(early)                           // inserted again, not over `other`
        #expect(try box.count() == 2)
        #expect(try box.get(other.id)?.email == "other@x")
        #expect(early.id != other.id)
    }
}

private final class Blob: Entity {
    var id: Id = 0
    var data = Data()
}

@Suite struct ObjectBoxStoreOptionTests {
    @Test func maxDbSizeAndFileMode() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obx-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try Store(directoryPath: folder, maxDbSizeInKByte: 64, fileMode: 0o600)
        let box = store.box(for: Blob.self)
        let small = Blob()
        small.data = Data(count: 1000)
        try box.put(small)
        let big = Blob()
        big.data = Data(count: 200 * 1024)
        #expect { try box.put(big) } throws: { error in (error as? DatabaseError)?.resultCode == .SQLITE_FULL }
        #expect(big.id == 0)
        #expect(try box.count() == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + Store.databaseFileName)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try store.close()
    }

    @Test func aResolvedToManyIsCachedUntilReset() throws {
        let store = try Store()
        let customer = DocCustomer()
        let order = DocOrder()
        order.customer.target = customer
        try store.box(for: DocOrder.self).put(order)
        let loaded = try #require(try store.box(for: DocCustomer.self).get(customer.id))
        #expect(loaded.orders.count == 1)
        let another = DocOrder()
        another.customer.targetId = customer.id
        try store.box(for: DocOrder.self).put(another)
        #expect(loaded.orders.count == 1)             // cached, as documented
        loaded.orders.reset()
        #expect(loaded.orders.count == 2)
    }
}

private final class Gauge: Entity {
    var id: Id = 0
    var name = ""
}

/// `Gauge` in a later version of the app, with new properties.
private final class GaugeV2: Entity {
    static var entityName: String { "Gauge" }
    var id: Id = 0
    var name = ""
    var level: Int16 = 7
    var flags: UInt8 = 9
    var count = 3
    var label = "none"
}

@Suite struct ObjectBoxDataModelUpdateTests {
    @Test func propertiesAddedLaterReadAsZeroInOlderObjects() throws {
        let store = try Store()
        let old = Gauge()
        old.name = "old"
        try store.box(for: Gauge.self).put(old)
        // Before any GaugeV2 is put: the table has no column for the new properties.
        let early = try #require(try store.box(for: GaugeV2.self).get(old.id))
        #expect(early.level == 0 && early.flags == 0 && early.count == 0 && early.label == "")
        let new = GaugeV2()
        new.name = "new"
        try store.box(for: GaugeV2.self).put(new)
        // After: the columns exist, and are NULL in the older row.
        let loaded = try store.box(for: GaugeV2.self).all()
        #expect(loaded.map(\.level) == [0, 7])
        #expect(loaded.map(\.flags) == [0, 9])
        #expect(loaded.map(\.count) == [0, 3])
        #expect(loaded.map(\.label) == ["", "none"])
    }
}
