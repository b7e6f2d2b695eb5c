@_spi(Reflection) import Swift
import Foundation

extension Entity {
    /// The name of the id property: `"id"` by default. The counterpart of
    /// ObjectBox's `// objectbox: id` annotation, for an entity whose id
    /// has another name.
    public static var idPropertyName: String { "id" }

    /// The id of an entity whose id property is not `var id: Id`: an
    /// `EntityId<Self>`, a `UInt64` or an `Int64` named ``idPropertyName``,
    /// or, as ObjectBox's generator does, the only `Id` or `EntityId`
    /// property of an entity that has no `id`. (A class entity reads and
    /// writes it in the object.)
    ///
    /// ```swift
    /// struct Thing: Entity {
    ///     static let idPropertyName = "thisIsMyId"   // objectbox: id
    ///     var thisIsMyId: UInt64 = 0
    /// }
    /// var thing = Thing()
    /// try thingBox.put(&thing)
    /// print(thing.thisIsMyId, thing.id)          // the same id
    /// ```
    ///
    /// An entity that declares `var id: Id` does not use this: its own
    /// property is its id. An entity with no such property reads 0 here,
    /// and a put of it throws.
    public var id: Id {
        get {
            guard let field = EntityIdFields.shared.field(of: Self.self).field else { return 0 }
            return withUnsafeBytes(of: self) { $0.load(fromByteOffset: field.offset, as: Id.self) }
        }
        set {
            guard let field = EntityIdFields.shared.field(of: Self.self).field else { return }
            withUnsafeMutableBytes(of: &self) { $0.storeBytes(of: newValue, toByteOffset: field.offset, as: Id.self) }
        }
    }

    /// The coding key of the id property when it is not `id`: its column is
    /// `id` all the same, so that relations and queries find it.
    static var renamedIdKey: String? {
        if let bound = Self.self as? any EntityBinding.Type { return bound.boundRenamedIdKey }
        return EntityIdFields.shared.field(of: Self.self).field?.renamedKey
    }
}

extension Entity where Self: AnyObject {
    /// The id of a class entity whose id property is not `var id: Id`:
    /// read and written in the object, as for a struct in the value (see
    /// the `id` of every ``Entity``).
    ///
    /// ```swift
    /// class Teacher: Entity {
    ///     var id: EntityId<Teacher> = 0
    /// }
    /// let teacher = Teacher()
    /// try teacherBox.put(teacher)
    /// print(teacher.id.value)
    /// ```
    public var id: Id {
        get {
            guard let field = EntityIdFields.shared.field(of: Self.self).field else { return 0 }
            return UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()).load(fromByteOffset: field.offset, as: Id.self)
        }
        set {
            guard let field = EntityIdFields.shared.field(of: Self.self).field else { return }
            UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque()).storeBytes(of: newValue, toByteOffset: field.offset, as: Id.self)
        }
    }
}

/// The stored id property of an entity type, found once per type.
struct EntityIdField {
    /// The offset of the property in the objects (a class) or the values
    /// (a struct).
    let offset: Int
    /// The name of the property, when it is not `id`.
    let renamedKey: String?
}

/// The id properties of the entity types, or why a type has none.
final class EntityIdFields: @unchecked Sendable {
    // Guarded by `lock`.
    static let shared = EntityIdFields()
    private let lock = NSLock()
    private var fields: [ObjectIdentifier: (field: EntityIdField?, problem: String?)] = [:]

    func field(of type: any Entity.Type) -> (field: EntityIdField?, problem: String?) {
        let key = ObjectIdentifier(type)
        lock.lock()
        if let known = fields[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        // Found outside the lock: `idPropertyName` is the entity's code.
        let found = Self.find(in: type)
        lock.lock()
        defer { lock.unlock() }
        fields[key] = found
        return found
    }

    /// The id property of `type`: the stored property named
    /// `idPropertyName`, else, when that is the default `id`, the only
    /// stored `Id` or `EntityId` property, as ObjectBox's generator picks.
    ///
    /// Only the layout of the stored properties tells where an object or a
    /// value keeps them: Swift has no key path from a property name. The
    /// properties that qualify are all one 64-bit integer, which the store
    /// reads and writes in place.
    private static func find(in type: any Entity.Type) -> (field: EntityIdField?, problem: String?) {
        var stored: [(name: String, offset: Int, type: Any.Type)] = []
        // `.classType` for a class, which the standard library declares as
        // a mutable static that strict concurrency refuses to read.
        let options = _EachFieldOptions(rawValue: type is AnyObject.Type ? 1 : 0)
        let listed = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
            stored.append((String(cString: name), offset, fieldType))
            return true
        }
        let entity = type.entityName
        guard listed else {
            return (nil, "the store could not list the stored properties of \(entity) to find its id")
        }
        func isId(_ fieldType: Any.Type) -> Bool {
            fieldType == UInt64.self || fieldType == Int64.self || fieldType is any AnyEntityId.Type
        }
        let name = type.idPropertyName
        var candidate = stored.first { $0.name == name }
        if candidate == nil && name == "id" {
            let ids = stored.filter { isId($0.type) }
            if ids.count == 1 { candidate = ids[0] }
        }
        guard let candidate else {
            return (nil, "\(entity) has no id property: declare `var id: Id = 0`, or name its id property in `static let idPropertyName`")
        }
        guard isId(candidate.type) else {
            return (nil, "the id property \(candidate.name) of \(entity) is a \(candidate.type): use Id, EntityId<\(entity)>, UInt64 or Int64")
        }
        return (EntityIdField(offset: candidate.offset, renamedKey: candidate.name == "id" ? nil : candidate.name), nil)
    }
}
