import Foundation
import Testing
import Trellis
import TrellisObjects

/// As newer ObjectBox documentation declares entities: the macro reads and
/// writes the typed id.
@Entity
private class Teacher: Entity {
    var id: EntityId<Teacher> = 0
    var name: String = ""
    var mentor: ToOne<Teacher> = nil
    required init() {}
}

/// An id under another name, named for the store.
@Entity
private final class Thing {
    static let idPropertyName = "thisIsMyId"   // objectbox: id
    var label = ""
    var thisIsMyId: UInt64 = 0
}

/// An id under another name, found as ObjectBox's generator finds it: the
/// only property of the id type.
@Entity
private final class Gadget {
    var gadgetId: UInt64 = 0
    var name = ""
}

/// A signed id, named for the store.
@Entity
private final class Signed {
    static let idPropertyName = "key"
    var key: Int64 = 0
    var name = ""
}

/// An id under another name without the macro: `id` forwards to it.
private final class Forwarded: Entity {
    static let idPropertyName = "key"
    var key: UInt64 = 0
    var name = ""
    var id: Id {
        get { key }
        set { key = newValue }
    }
}

/// An id of another type without the macro, and no `var id: Id`.
private final class Untyped: Entity {
    var code: EntityId<Untyped> = 0
    var name = ""
}

/// No id property at all.
private final class Idless: Entity {
    var name = ""
    var count = 0
}

@Suite struct EntityIdTests {
    @Test func anEntityIdIsTheIdOfOneEntityType() throws {
        let store = try Store()
        let box = store.box(for: Teacher.self)
        let teacher = Teacher()
        teacher.name = "Ms Frizzle"
        #expect(teacher.id.value == 0)
        let id: Id = try box.put(teacher)
        #expect(teacher.id.value == id && id != 0)
        #expect(teacher.id == EntityId<Teacher>(id))
        #expect("\(teacher.id)" == "\(id)")
        #expect(try box.get(teacher.id)?.name == "Ms Frizzle")
        #expect(try box.get(id)?.id == teacher.id)
        #expect(try box.contains(teacher.id))
        #expect(try box.query { Teacher.id == teacher.id }.find().map(\.name) == ["Ms Frizzle"])
        let typedIds: [EntityId<Teacher>] = try box.query().build().findIds()
        #expect(typedIds == [teacher.id])
        let untypedIds = try box.query().build().findIds()
        #expect(untypedIds == [id])
        let stored = try store.queue.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM Teacher WHERE name = 'Ms Frizzle'") }
        #expect(stored == Int64(id))

        let pupil = Teacher()
        pupil.name = "Arnold"
        pupil.mentor.target = teacher
        try box.put(pupil)
        #expect(try box.get(pupil.id)?.mentor.target?.name == "Ms Frizzle")
        #expect(try box.remove(teacher.id))
        #expect(try !box.contains(teacher.id))
    }

    @Test func anIdIsAnIdBaseWithItsValue() {
        let id: Id = 42
        #expect(id.value == 42)
        #expect(EntityId<Teacher>(id).value == id.value)
    }

    @Test func anIdPropertyNamedByTheEntity() throws {
        let store = try Store()
        let box = store.box(for: Thing.self)
        let thing = Thing()
        thing.label = "first"
        try box.put(thing)
        #expect(thing.thisIsMyId != 0)
        #expect(thing.id == thing.thisIsMyId)
        let second = Thing()
        second.label = "second"
        try box.put(second)
        #expect(second.thisIsMyId == thing.thisIsMyId + 1)
        // The column is `id`, the primary key of the table.
        let columns = try store.queue.read { db in try db.columns(in: "Thing").map(\.name) }
        #expect(columns.sorted() == ["id", "label"])
        #expect(try box.get(second.thisIsMyId)?.label == "second")
        #expect(try box.get(second.thisIsMyId)?.thisIsMyId == second.thisIsMyId)
        #expect(try box.query { Thing.thisIsMyId > thing.thisIsMyId }.find().map(\.label) == ["second"])
        #expect(try box.query().ordered(by: Thing.thisIsMyId, flags: .descending).find().map(\.label) == ["second", "first"])
        second.label = "changed"
        try box.put(second)   // an update, not a new object
        #expect(try box.count() == 2)
        #expect(try box.query { Thing.label == "changed" }.findIds() == [second.thisIsMyId])
    }

    @Test func theOnlyIdTypedPropertyIsTheId() throws {
        let store = try Store()
        let box = store.box(for: Gadget.self)
        let gadget = Gadget()
        gadget.name = "lamp"
        try box.put(gadget)
        #expect(gadget.gadgetId != 0)
        #expect(try box.get(gadget.gadgetId)?.name == "lamp")
    }

    @Test func aSignedIdProperty() throws {
        let store = try Store()
        let box = store.box(for: Signed.self)
        let signed = Signed()
        signed.name = "a"
        try box.put(signed)
        #expect(signed.key > 0)
        #expect(try box.get(Id(signed.key))?.key == signed.key)
    }

    @Test func aCodableEntityWhoseIdForwardsToAnotherProperty() throws {
        let store = try Store()
        let box = store.box(for: Forwarded.self)
        let first = Forwarded()
        first.name = "first"
        try box.put(first)
        #expect(first.key != 0)
        let columns = try store.queue.read { db in try db.columns(in: "Forwarded").map(\.name) }
        #expect(columns.sorted() == ["id", "name"])
        #expect(try box.get(first.key)?.key == first.key)
        first.name = "changed"
        try box.put(first)   // an update, not a new object
        #expect(try box.all().map(\.name) == ["changed"])
    }

    @Test func aCodableEntityWithoutIdCanNotBePut() throws {
        let store = try Store()
        let expected = "has no id property that the store can write: declare `var id: Id = 0`; "
            + "for an id of another type or name (EntityId, idPropertyName), add @Entity to the type or declare `var id: Id { get set }` that forwards to it"
        #expect {
            try store.box(for: Idless.self).put(Idless())
        } throws: { error in
            "\(error)" == "Idless " + expected
        }
        #expect(try store.box(for: Idless.self).count() == 0)   // rolled back
        #expect {
            try store.box(for: Untyped.self).put(Untyped())
        } throws: { error in
            "\(error)" == "Untyped " + expected
        }
        #expect(try store.box(for: Untyped.self).count() == 0)
    }
}
