import Trellis

// The puts of ObjectBox's "Put with structs": a struct is a value, which
// the store can not reach once it is passed, so these methods hand the id
// back: in the caller's variable (`inout`), as a return value, or in a
// copy. They take class objects too, which get their ids as with the put
// of objects.
extension Box {
    /// Stores an entity, inserting it when its id is 0, and writes the id
    /// of a new one into it. Targets of its relations that are not stored
    /// yet are put first, in the same transaction.
    ///
    /// ```swift
    /// struct Author: Entity {
    ///     var id: Id
    ///     var name: String
    /// }
    /// var author = Author(id: 0, name: "Nnedi Okorafor")
    /// try authorBox.put(&author)          // author.id is set
    /// author.name = "Nnedi"
    /// try authorBox.put(&author)          // updates the stored author
    /// ```
    ///
    /// With `mode: .insert`, the put throws when an entity with the id
    /// exists already; with `mode: .update`, when none does. When the put
    /// throws, `entity` is unchanged. A struct put inside
    /// `store.runInTransaction { ... }` keeps its new id when the
    /// transaction rolls back later (a class object gets 0 back); put it
    /// again to store it under that id.
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func put(_ entity: inout T, mode: PutMode = .put) throws -> Id {
        var written = entity
        let identity = identity(of: written)
        try writeTable { db in
            if mode != .put { try check(written, mode, db) }
            let context = PutContext()
            try write(&written, identity: identity, db: db, context: context)
            try context.finish()
        }
        entity = written
        return written.id
    }

    /// Stores entities in one transaction, writes the ids of new ones into
    /// the array, and returns their ids. With a `mode` other than `.put`,
    /// nothing is stored when one entity fails its check; when the put
    /// throws, the array is unchanged.
    ///
    /// ```swift
    /// var authors = [Author(id: 0, name: "Ann"), Author(id: 0, name: "Bob")]
    /// try authorBox.put(&authors)         // both have their ids
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func put(_ entities: inout [T], mode: PutMode = .put) throws -> [Id] {
        var written = entities
        try writeTable { db in
            if mode != .put {
                for entity in written { try check(entity, mode, db) }
            }
            let context = PutContext()
            for index in written.indices {
                let identity = identity(of: written[index])
                try write(&written[index], identity: identity, db: db, context: context)
            }
            try context.finish()
        }
        entities = written
        return written.map { $0.id }
    }

    /// Stores an entity and returns its id, without changing the struct
    /// passed: give the id to the struct before its next put, or it is
    /// stored again as a new entity.
    ///
    /// ```swift
    /// author.id = try authorBox.putAndReturnID(author)
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func putAndReturnID(_ entity: T, mode: PutMode = .put) throws -> Id {
        var copy = entity
        return try put(&copy, mode: mode)
    }

    /// Stores entities in one transaction and returns their ids, without
    /// changing the structs passed.
    ///
    /// ```swift
    /// let ids = try authorBox.putAndReturnIDs([ann, bob])
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func putAndReturnIDs(_ entities: [T], mode: PutMode = .put) throws -> [Id] {
        var copies = entities
        return try put(&copies, mode: mode)
    }

    /// Stores an entity and returns a copy of it with its id: use the copy
    /// from then on, since a put of the original would store a second
    /// entity.
    ///
    /// ```swift
    /// let author = Author(id: 0, name: "Nnedi Okorafor")
    /// let stored = try authorBox.put(struct: author)   // stored.id != 0
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    public func put(struct entity: T, mode: PutMode = .put) throws -> T {
        var copy = entity
        try put(&copy, mode: mode)
        return copy
    }

    /// Stores an entity and returns its id: a struct passed here is a copy,
    /// which keeps its id 0 (see ``putAndReturnID(_:mode:)``; for a class,
    /// the put of objects applies and gives the object its id).
    ///
    /// ```swift
    /// let id = try authorBox.put(author)   // author.id is unchanged
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func put(_ entity: T, mode: PutMode = .put) throws -> Id {
        try putAndReturnID(entity, mode: mode)
    }

    /// Stores entities in one transaction and returns their ids, without
    /// changing the structs passed (see ``putAndReturnIDs(_:mode:)``).
    ///
    /// ```swift
    /// let ids = try authorBox.put([ann, bob])
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func put(_ entities: [T], mode: PutMode = .put) throws -> [Id] {
        try putAndReturnIDs(entities, mode: mode)
    }

    /// The object of `entity` when the entity type is a class, which a put
    /// tracks; nil for a struct.
    func identity(of entity: T) -> AnyObject? {
        state.isClass ? entity as AnyObject : nil
    }
}
