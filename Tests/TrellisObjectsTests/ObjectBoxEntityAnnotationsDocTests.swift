import Testing
import TrellisObjects

// ObjectBox Swift's guide "Entity Annotations": a transient property that
// `init()` sets, and an id that the app assigns.

// objectbox: entity
@Entity
private final class User {
    var id: Id = 0
    var name: String
    // objectbox: transient
    private var tempUsageCount: Int // not persisted

    init() {
        name = ""
        tempUsageCount = 0
    }

    func use() { tempUsageCount += 1 }
    var usageCount: Int { tempUsageCount }
}

@Entity
private final class Device {
    // objectbox: id = { "assignable": true }
    var serial: UInt64 = 0
    var label = ""
}

@Suite struct ObjectBoxEntityAnnotationsDocTests {
    @Test func aTransientPropertyWithoutADefaultKeepsWhatInitGives() throws {
        let store = try Store()
        let box = store.box(for: User.self)
        let user = User()
        user.name = "Ann"
        user.use()
        user.use()
        try box.put(user)
        #expect(user.usageCount == 2)
        let loaded = try #require(try box.get(user.id))
        #expect(loaded.name == "Ann" && loaded.usageCount == 0)
        let columns = try store.queue.read { db in try db.columns(in: "User").map(\.name) }
        #expect(columns.sorted() == ["id", "name"])
    }

    @Test func anAssignableIdIsKeptAndAnotherObjectWithItOverwritesIt() throws {
        let store = try Store()
        let box = store.box(for: Device.self)
        let first = Device()
        first.serial = 500
        first.label = "first"
        try box.put(first)
        #expect(first.serial == 500)
        #expect(try box.get(500)?.label == "first")
        let second = Device()
        second.serial = 500
        second.label = "second"
        try box.put(second)
        #expect(try box.count() == 1)
        #expect(try box.get(500)?.label == "second")
    }
}
