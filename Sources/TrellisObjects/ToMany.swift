import Trellis

/// A to-many relation: the objects of type `S` related to the object that
/// owns the property.
///
/// As a backlink, it lists the objects whose `ToOne` property points to
/// the owner:
///
/// ```swift
/// class Customer: Entity {
///     var id: Id = 0
///     var orders: ToMany<Order> = nil   // the orders whose `customer` is this one
/// }
/// class Order: Entity {
///     var id: Id = 0
///     var customer: ToOne<Customer> = nil
/// }
/// ```
///
/// When `S` has no `ToOne` property to the owner's type, the relation is a
/// standalone many-to-many one, stored in a join table, and readable from
/// the other end with a backlink `ToMany` named in ``Entity/backlinks``:
///
/// ```swift
/// class Student: Entity {
///     var id: Id = 0
///     var teachers: ToMany<Teacher> = nil          // stored in a join table
/// }
/// class Teacher: Entity {
///     static let backlinks = ["students": "teachers"]
///     var id: Id = 0
///     var students: ToMany<Student> = nil          // the same links, read backwards
/// }
/// ```
///
/// The owner's type is not needed, as in ObjectBox's documentation: a
/// relation learns it when its owner is read or put. Older ObjectBox code
/// names it as a second type parameter, `ToMany<Order, Customer>`, which
/// compiles too (the optional parameter is a type parameter pack).
///
/// Changes made here (`append`, `remove`, `replace`) are written when the
/// owner is put. The objects load lazily on first access; collection access
/// can not throw, so a database error while loading reads as an empty
/// relation: call ``resolve()`` to get the error instead.
///
/// As in ObjectBox, changes can also be written without putting the owner,
/// with ``applyToDb()``:
///
/// ```swift
/// customer.orders.append(newOrder)
/// try customer.orders.applyToDb()
/// ```
///
/// The related type is a class, as the target of a ``ToOne`` is; the owner
/// may be a struct, whose copies share the relation.
// No key path literal in the code of this type (`map(\.id)`): the Swift
// 6.3 runtime stops the process when it instantiates one in the context of
// a type with a parameter pack ("could not demangle keypath type").
public final class ToMany<S: Entity & AnyObject, each Owner>: ExpressibleByNilLiteral, Codable, RandomAccessCollection, RangeReplaceableCollection {
    /// Where the relation is stored, once its owner is.
    var link: StoreLink?
    var ownerId: Id = 0
    var propertyName: String?
    /// The type of the owner, once it was read or put.
    var ownerType: (any Entity.Type)?

    private var loaded: [S]?
    /// Whether the collection was changed since it was loaded.
    private(set) var isModified = false

    /// An empty relation.
    public init(nilLiteral: ()) {}

    /// An empty relation.
    public init() {}

    /// A relation to the given objects, stored when the owner is put.
    public init(_ objects: [S]) {
        loaded = objects
        isModified = true
    }

    /// A relation read from the database: the objects load from `store`.
    @usableFromInline
    init(link: StoreLink, ownerType: any Entity.Type, ownerId: Id, propertyName: String) {
        self.link = link
        self.ownerType = ownerType
        self.ownerId = ownerId
        self.propertyName = propertyName
    }

    /// How errors name the relation: `Customer.orders`, or `ToMany<Order>`
    /// before its owner is known.
    private var relationName: String {
        guard let ownerType, let propertyName else { return "ToMany<\(S.entityName)>" }
        return "\(ownerType.entityName).\(propertyName)"
    }

    /// The related objects; throws when the database can not be read.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store was
    ///   released or closed, or if a row cannot be decoded; a `DatabaseError`
    ///   if SQLite fails.
    @discardableResult
    public func resolve() throws -> [S] {
        if let loaded { return loaded }
        let objects = try getUncachedFromDb()
        loaded = objects
        return objects
    }

    /// The error of the last load that a collection access could not
    /// throw: the access read no object, and the next put of the owner (or
    /// ``applyToDb()``) throws this error instead of writing a list built
    /// on a failed read. ``resolve()`` throws its own error.
    ///
    /// ```swift
    /// let count = customer.orders.count      // 0 when the load failed
    /// if let error = customer.orders.loadError { print(error) }
    /// ```
    public private(set) var loadError: (any Error)?

    /// The related objects, for the collection accesses, which can not
    /// throw: a failed load reads as no object and is kept in `loadError`.
    private var objects: [S] {
        do {
            return try resolve()
        } catch {
            loadError = error
            return []
        }
    }

    /// Whether the related objects were read from the database (or set).
    public var resolved: Bool { loaded != nil }

    /// Whether the relation has changes that neither ``applyToDb()`` nor a
    /// put of the owner wrote yet.
    public var hasPendingDbChanges: Bool { isModified }

    /// Writes the changes of the relation now, without putting the owner:
    /// new related objects are put, and the links are updated. Throws when
    /// the owner is not stored yet (put it instead: that writes the
    /// relation too).
    ///
    /// ```swift
    /// let customer = try customerBox.get(id)!
    /// customer.orders.append(order)
    /// try customer.orders.applyToDb()
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the owner is not
    ///   stored yet, or if the store was released or closed; the errors of a
    ///   put (see `Box.put(_:mode:)`).
    public func applyToDb() throws {
        guard isModified else { return }
        guard let link, let propertyName, let ownerType, ownerId != 0 else {
            throw ObjectBoxError.illegalState(message: "applyToDb: the owner of this \(relationName) is not stored yet; put the owner instead")
        }
        let store = try link.storeToLoad(relationName)
        try store.write { db in
            let context = PutContext()
            try save(db, store: store, ownerType: ownerType, ownerId: ownerId, propertyName: propertyName, context: context)
            try context.finish()
        }
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { objects.count }

    public subscript(position: Int) -> S {
        objects[position]
    }

    // MARK: Changes

    /// Adds an object to the relation.
    public func append(_ object: S) {
        var current = objects
        current.append(object)
        loaded = current
        isModified = true
    }

    /// Adds objects to the relation.
    public func append(contentsOf newObjects: some Sequence<S>) {
        var current = objects
        current.append(contentsOf: newObjects)
        loaded = current
        isModified = true
    }

    /// Removes the object at `index`.
    @discardableResult
    public func remove(at index: Int) -> S {
        var current = objects
        let removed = current.remove(at: index)
        loaded = current
        isModified = true
        return removed
    }

    /// Removes an object from the relation.
    public func remove(_ object: S) {
        loaded = objects.filter { $0 !== object && ($0.id == 0 || $0.id != object.id) }
        isModified = true
    }

    /// Removes the objects that match `shouldBeRemoved` from the relation.
    /// (Unlike the default of `RangeReplaceableCollection`, the relation
    /// stays the same object, attached to its owner.)
    ///
    /// - Throws: The error thrown by `shouldBeRemoved`.
    public func removeAll(where shouldBeRemoved: (S) throws -> Bool) rethrows {
        let kept = try objects.filter { try !shouldBeRemoved($0) }
        loaded = kept
        isModified = true
    }

    /// Removes all objects from the relation.
    public func removeAll() {
        loaded = []
        isModified = true
    }

    /// Replaces the objects in `subrange` (the requirement of
    /// `RangeReplaceableCollection`, from which `insert`, `removeAll(where:)`
    /// and the other methods of arrays come).
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == S {
        var current = objects
        current.replaceSubrange(subrange, with: newElements)
        loaded = current
        isModified = true
    }

    /// Replaces the related objects.
    public func replace(_ newObjects: [S]) {
        loaded = newObjects
        isModified = true
    }

    /// Forgets the loaded objects: the next access reads them again.
    public func reset() {
        loaded = nil
        isModified = false
    }

    /// Reads the related objects from the database again, forgetting the
    /// loaded ones and unapplied changes.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store was
    ///   released or closed, or if a row cannot be decoded; a `DatabaseError`
    ///   if SQLite fails.
    public func resolveFromDb() throws {
        reset()
        try resolve()
    }

    /// The related objects as stored, read again from the database,
    /// without changing the loaded ones or unapplied changes.
    ///
    /// ```swift
    /// let storedOrders = try customer.orders.getUncachedFromDb()
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store was
    ///   released or closed, or if a row cannot be decoded; a `DatabaseError`
    ///   if SQLite fails.
    public func getUncachedFromDb() throws -> [S] {
        guard let link, let propertyName, let ownerType, ownerId != 0 else { return [] }
        let store = try link.storeToLoad(relationName)
        return try store.relatedObjects(S.self, owner: ownerType, ownerId: ownerId, property: propertyName)
    }

    /// The ids of the related objects as stored, read again from the
    /// database.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store was
    ///   released or closed; a `DatabaseError` if SQLite fails.
    public func getUncachedIdsFromDb() throws -> [Id] {
        try getUncachedFromDb().map { $0.id }
    }

    /// Whether the relation can read and write the database: its owner was
    /// read from or put into a store that is still open.
    public var canInteractWithDb: Bool {
        link?.store != nil && ownerId != 0
    }

    // MARK: Codable

    /// A relation is not a column: it decodes empty. (A store's decoder
    /// attaches the relation to its owner.)
    ///
    /// - Throws: Never: a relation decodes empty.
    public init(from decoder: any Decoder) throws {
        guard let entityDecoder = exactCast(decoder, to: EntityDecoder.self), case .toMany(let ownerId, let property)? = entityDecoder.pendingRelation else { return }
        entityDecoder.pendingRelation = nil
        link = entityDecoder.link
        ownerType = entityDecoder.entityType
        self.ownerId = ownerId
        propertyName = property
    }

    /// A relation is not a column: it encodes nothing.
    ///
    /// - Throws: Never: a relation encodes nothing.
    public func encode(to encoder: any Encoder) throws {}
}

/// The type-erased facets of `ToMany` that the store needs.
protocol AnyToMany: AnyObject {
    /// The type of the related objects.
    static var targetType: any Entity.Type { get }
    /// The relation that `value` holds, if it is one of this type.
    static func relation(in value: Any) -> (any AnyToMany)?
    /// Attaches the relation to its stored owner, and writes its changes.
    func save(_ db: Database, store: Store, ownerType: any Entity.Type, ownerId: Id, propertyName: String, context: PutContext) throws
}

extension ToMany: AnyToMany {
    static func relation(in value: Any) -> (any AnyToMany)? {
        value as? ToMany
    }

    static var targetType: any Entity.Type { S.self }

    func save(_ db: Database, store: Store, ownerType: any Entity.Type, ownerId: Id, propertyName: String, context: PutContext) throws {
        if let error = loadError {
            // The changes were made to a list that could not be read:
            // writing it would drop the links it did not read.
            loadError = nil
            loaded = nil
            isModified = false
            throw error
        }
        link = store.link
        self.ownerType = ownerType
        self.ownerId = ownerId
        self.propertyName = propertyName
        guard isModified, let desired = loaded else { return }
        try store.saveRelation(desired, owner: ownerType, ownerId: ownerId, property: propertyName, db: db, context: context)
        isModified = false
    }
}
