import Trellis

/// A to-one relation to another object: stored as the target's id in a
/// foreign key column of the owner's table (`spouseId` for `spouse`).
///
/// ```swift
/// class Person: Entity {
///     var id: Id = 0
///     var spouse: ToOne<Person> = nil
/// }
///
/// amanda.spouse.target = bob
/// try personBox.put(amanda)
///
/// // Each of these removes the relation, once amanda is put:
/// amanda.spouse.target = nil
/// amanda.spouse.targetId = nil
/// amanda.spouse = nil
/// ```
///
/// The target loads lazily, on first access, and is then cached. A target
/// id whose row is gone reads as a nil target, and the id is kept. The
/// `target` property can not throw: a database error while loading reads as
/// nil, is kept in ``loadError``, and is thrown by the next put of the
/// owner. Call ``resolve()`` to get the error at once.
///
/// Relations do not keep their store open: loading a relation after the
/// store was released is an error (nil from `target`).
///
/// The target type is a class: a relation puts a new target and reads the
/// id the store gave it, which a struct copy would not keep. The owner may
/// be a struct; copies of it share the relation.
public final class ToOne<T: Entity & AnyObject>: ExpressibleByNilLiteral, Codable {
    // The state is read and written by the short methods of the relation,
    // none of which gives it out for a long access: exclusivity is not
    // checked at run time, where a check would cost more than the read of
    // the relation's column.
    @exclusivity(unchecked) private var storedTargetId: Id?
    @exclusivity(unchecked) private var loadedTarget: T?
    @exclusivity(unchecked) private var isLoaded: Bool
    /// The store that loads the target, once the relation is stored.
    @exclusivity(unchecked) var link: StoreLink?

    /// No relation.
    public init(nilLiteral: ()) {
        storedTargetId = nil
        isLoaded = true
    }

    /// A relation to `target`.
    public init(target: T?) {
        loadedTarget = target
        storedTargetId = target.map { $0.id == 0 ? nil : $0.id } ?? nil
        isLoaded = true
    }

    /// A relation to `target`: `ToOne(customer)`.
    public convenience init(_ target: T?) {
        self.init(target: target)
    }

    /// A relation to the object with the given id.
    public init(targetId: Id?) {
        storedTargetId = targetId == 0 ? nil : targetId
        isLoaded = targetId == nil
    }

    /// A relation read from the database: the target loads from `store`.
    @usableFromInline
    init(targetId: Id?, link: StoreLink) {
        storedTargetId = targetId == 0 ? nil : targetId
        isLoaded = storedTargetId == nil
        self.link = link
    }

    /// Whether the relation is as `nil` made it: no target, no store, no
    /// error.
    @usableFromInline var isUnset: Bool {
        storedTargetId == nil && loadedTarget == nil && link == nil && loadError == nil
    }

    /// Makes a relation that ``isUnset`` the relation read from the
    /// database: its target loads from `link`.
    @usableFromInline func attach(targetId: Id?, link: StoreLink) {
        storedTargetId = targetId == 0 ? nil : targetId
        isLoaded = storedTargetId == nil
        self.link = link
    }

    /// The related object, loaded on first access. Setting it sets the
    /// relation; put the owner to store it.
    public var target: T? {
        get {
            do {
                return try resolve()
            } catch {
                loadError = error
                return nil
            }
        }
        set {
            loadedTarget = newValue
            storedTargetId = newValue.map { $0.id == 0 ? nil : $0.id } ?? nil
            isLoaded = true
        }
    }

    /// The id of the related object. Setting it sets the relation; put the
    /// owner to store it.
    public var targetId: Id? {
        get {
            if let loadedTarget, loadedTarget.id != 0 { return loadedTarget.id }
            return storedTargetId
        }
        set {
            storedTargetId = newValue == 0 ? nil : newValue
            loadedTarget = nil
            isLoaded = storedTargetId == nil
        }
    }

    /// Whether the relation points to an object.
    public var hasValue: Bool { targetId != nil || loadedTarget != nil }

    /// The error of the last load that ``target`` could not throw: the
    /// target read nil, and the next put of the owner throws this error.
    /// ``resolve()`` throws its own error.
    ///
    /// ```swift
    /// if amanda.spouse.target == nil, let error = amanda.spouse.loadError { print(error) }
    /// ```
    @exclusivity(unchecked) public private(set) var loadError: (any Error)?

    /// The related object, loaded on first access; throws when the database
    /// can not be read.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store was
    ///   released or closed, or if the target's row cannot be decoded; a
    ///   `DatabaseError` if SQLite fails.
    public func resolve() throws -> T? {
        if isLoaded { return loadedTarget }
        guard let storedTargetId, let link else { return loadedTarget }
        let store = try link.storeToLoad("this ToOne<\(T.entityName)>")
        loadedTarget = try store.box(for: T.self).get(storedTargetId)
        isLoaded = true
        return loadedTarget
    }

    /// Forgets the loaded target of a stored relation: the next access
    /// loads it again, with the changes other code stored since.
    public func reset() {
        guard link != nil, let loadedTarget, loadedTarget.id != 0 else { return }
        storedTargetId = loadedTarget.id
        self.loadedTarget = nil
        isLoaded = false
    }

    /// The target object, if it is set and not stored yet.
    var unsavedTarget: T? {
        guard let loadedTarget, loadedTarget.id == 0 else { return nil }
        return loadedTarget
    }

    // MARK: Codable

    /// Decodes the target id. (A store's decoder gives the relation its
    /// target id and the store that loads it.)
    ///
    /// - Throws: A `DecodingError` if the decoder holds neither nil nor an
    ///   unsigned integer.
    public init(from decoder: any Decoder) throws {
        if let entityDecoder = exactCast(decoder, to: EntityDecoder.self), case .toOne(let targetId)? = entityDecoder.pendingRelation {
            entityDecoder.pendingRelation = nil
            storedTargetId = targetId == 0 ? nil : targetId
            isLoaded = storedTargetId == nil
            link = entityDecoder.link
            return
        }
        let container = try decoder.singleValueContainer()
        storedTargetId = container.decodeNil() ? nil : try container.decode(Id.self)
        isLoaded = storedTargetId == nil
    }

    /// Encodes the target id. (A store's encoder takes the relation
    /// itself.)
    ///
    /// - Throws: The error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        if let entityEncoder = exactCast(encoder, to: EntityEncoder.self) {
            entityEncoder.receivedToOne = self
            return
        }
        var container = encoder.singleValueContainer()
        if let targetId { try container.encode(targetId) } else { try container.encodeNil() }
    }
}

/// The type-erased facets of `ToOne` that the store needs.
protocol AnyToOne: AnyObject {
    static var targetTableName: String { get }
    var targetId: Id? { get set }
    /// Links the relation to the store of its owner, which put it.
    func attach(to link: StoreLink)
    /// Puts a target that is not stored yet. Returns false when the target
    /// is being put already (a cycle): the owner is then put again once
    /// the target has its id.
    func putUnsavedTarget(_ db: Database, store: Store, context: PutContext) throws -> Bool
    /// Whether the target is set and not stored yet.
    var hasUnsavedTarget: Bool { get }
    /// Whether a load that ``ToOne/target`` could not throw failed.
    var hasLoadError: Bool { get }
    /// The error of a load that ``ToOne/target`` could not throw, which the
    /// relation then forgets.
    func takeLoadError() -> (any Error)?
}

extension ToOne: AnyToOne {
    static var targetTableName: String { T.entityTableName }

    func attach(to link: StoreLink) {
        // Usually linked already: comparing costs no retain, unlike the
        // assignment.
        if self.link !== link { self.link = link }
    }

    var hasUnsavedTarget: Bool { unsavedTarget != nil }

    var hasLoadError: Bool { loadError != nil }

    func takeLoadError() -> (any Error)? {
        guard let error = loadError else { return nil }
        loadError = nil
        return error
    }

    func putUnsavedTarget(_ db: Database, store: Store, context: PutContext) throws -> Bool {
        guard let target = unsavedTarget else { return true }
        if context.isPutting(target) { return false }
        try store.box(for: T.self).put(target, db: db, context: context)
        storedTargetId = target.id
        return true
    }
}
