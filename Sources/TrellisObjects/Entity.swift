import Foundation
import Trellis

/// The identifier of a stored object: 0 means "not stored yet".
public typealias Id = UInt64

/// An object that a ``Store`` persists: a class or a struct with an `id`,
/// whose stored properties are saved in a table named after the type.
///
/// ```swift
/// class Person: Entity {
///     var id: Id = 0
///     var name = ""
///     var spouse: ToOne<Person> = nil
/// }
///
/// struct Author: Entity {
///     var id: Id          // 0 until the author is stored
///     var name: String
///     var age: Int
/// }
/// ```
///
/// No code generator and no hand-written binding: the properties are read
/// and written through the type's `Codable` conformance, which the
/// compiler synthesizes (with the ``Entity()`` macro, through a binding it
/// generates instead). Supported property types are those Trellis stores
/// in a column (numbers, `Bool`, `String`, `Data`, `Date`, `UUID`...,
/// optional or not), ``ToOne`` and ``ToMany`` relations, and other Codable
/// values, stored as JSON text.
///
/// A store writes the id of a new class object back into it, and its
/// relations load lazily into the object. A struct is a value: the store
/// can not reach the caller's copy, so a struct is put with the methods
/// that hand its id back, as in ObjectBox:
///
/// ```swift
/// let authorBox = store.box(for: Author.self)
/// var author = Author(id: 0, name: "Nnedi Okorafor", age: 45)
/// try authorBox.put(&author)                        // author.id is set
/// let id = try authorBox.putAndReturnID(author)     // the id, author unchanged
/// let stored = try authorBox.put(struct: author)    // a copy with its id
/// ```
///
/// Structs may own ``ToOne`` and ``ToMany`` properties; the targets of
/// relations are classes (`ToOne<Author>` with a struct `Author` does not
/// compile), since a relation writes ids into its targets and tells them
/// apart by identity.
public protocol Entity: Codable {
    /// The identifier: 0 until the object is stored. Declare it as
    /// `var id: Id = 0`; an entity whose id is an `EntityId<Self>`, or has
    /// another name (see ``idPropertyName``), gets it from its id property.
    var id: Id { get set }

    /// The name of the id property, when it is not `id`: the counterpart
    /// of ObjectBox's `// objectbox: id` annotation. Its column is `id`.
    ///
    /// ```swift
    /// class Thing: Entity {
    ///     static let idPropertyName = "thisIsMyId"
    ///     var thisIsMyId: UInt64 = 0
    /// }
    /// ```
    static var idPropertyName: String { get }

    /// The name of the entity, and of its table. Default: the type name.
    ///
    /// Two entity types of one name in different scopes (`Shelf.Note` and
    /// `Desk.Note`) can not share a store by default: the boxes of the
    /// second one met throw an error that asks for a name. Types that give
    /// the same `entityName` share the table on purpose, as two versions of
    /// one entity do.
    ///
    /// ```swift
    /// extension Desk {
    ///     final class Note: Entity {
    ///         static let entityName = "DeskNote"
    ///         var id: Id = 0
    ///     }
    /// }
    /// ```
    static var entityName: String { get }

    /// What happens to an object when the target of one of its `ToOne`
    /// properties is removed, by property name. Default: the relation is
    /// removed (`.nullify`).
    static var deleteRules: [String: DeleteRule] { get }

    /// The name of the `ToOne` property of the source type that each
    /// backlink `ToMany` property follows, by `ToMany` property name.
    /// Needed only when the source has several `ToOne` properties to this
    /// type.
    static var backlinks: [String: String] { get }

    /// The properties that get an index, for faster queries on them: the
    /// counterpart of ObjectBox's `// objectbox: index` annotation. Names
    /// are those of the columns: the property names, or their `CodingKeys`
    /// raw values. (`ToOne` columns always have an index.)
    ///
    /// ```swift
    /// class Person: Entity {
    ///     static let indexedProperties = ["name"]
    ///     var id: Id = 0
    ///     var name = ""
    /// }
    /// ```
    static var indexedProperties: [String] { get }

    /// The properties whose values no two objects share: the counterpart
    /// of ObjectBox's `// objectbox: unique` annotation. A put that would
    /// repeat a value throws a `DatabaseError` (`UNIQUE constraint
    /// failed`), and stores nothing of its objects. Nil values do not
    /// count.
    ///
    /// ```swift
    /// class User: Entity {
    ///     static let uniqueProperties = ["email"]
    ///     var id: Id = 0
    ///     var email = ""
    /// }
    /// ```
    static var uniqueProperties: [String] { get }
}

extension Entity {
    public static var deleteRules: [String: DeleteRule] { [:] }
    public static var backlinks: [String: String] { [:] }
    public static var indexedProperties: [String] { [] }
    public static var uniqueProperties: [String] { [] }
    public static var entityName: String { String(describing: self) }

    /// The table of the entity, named once per type: the default
    /// `entityName` reflects on the type, which costs more than the lookup
    /// of a whole object by id.
    static var entityTableName: String { EntityTableNames.shared.name(of: self) }
}

/// The table names of the entity types, computed once per type.
private final class EntityTableNames: @unchecked Sendable {
    // Guarded by `lock`.
    static let shared = EntityTableNames()
    private let lock = NSLock()
    private var names: [ObjectIdentifier: String] = [:]

    func name(of type: any Entity.Type) -> String {
        let key = ObjectIdentifier(type)
        lock.lock()
        if let name = names[key] {
            lock.unlock()
            return name
        }
        lock.unlock()
        // Computed outside the lock: a custom entityName may use other
        // entity names.
        let name = type.entityName
        lock.lock()
        defer { lock.unlock() }
        names[key] = name
        return name
    }
}

/// How `Box/put(_:mode:)` stores an object.
public enum PutMode: Sendable {
    /// Inserts a new object, or updates the stored one with the same id.
    case put
    /// Succeeds only if no object with the id is stored yet.
    case insert
    /// Succeeds only if an object with the id is stored already.
    case update
}

/// What happens to an object whose `ToOne` target is removed.
public enum DeleteRule: Sendable {
    /// The relation is removed: the `ToOne` reads nil.
    case nullify
    /// The object is removed too.
    case cascade
    /// Removing the target throws while objects point to it.
    case deny

    var foreignKeyAction: Database.ForeignKeyAction {
        switch self {
        case .nullify: return .setNull
        case .cascade: return .cascade
        case .deny: return .restrict
        }
    }
}
