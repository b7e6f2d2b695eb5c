// The box methods that take an id, for the `EntityId` of an entity (any
// `IdBase`): ObjectBox's box takes the id type that the entity declares.
extension Box {
    /// The object with the given id, or nil.
    ///
    /// ```swift
    /// let teacher = try teacherBox.get(EntityId<Teacher>(1))
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a stored row cannot be decoded as an object; a
    ///   `DatabaseError` if SQLite fails.
    public func get<I: IdBase>(_ id: I) throws -> T? {
        try get(id.value)
    }

    /// Whether an object has the given id.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed; a `DatabaseError` if SQLite fails.
    public func contains<I: IdBase>(_ id: I) throws -> Bool {
        try contains(id.value)
    }

    /// Removes the object with the given id; returns whether it existed.
    ///
    /// ```swift
    /// try teacherBox.remove(teacher.id)   // an EntityId<Teacher>
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove<I: IdBase>(_ id: I) throws -> Bool {
        try remove(id.value)
    }
}

extension Query {
    /// The ids of the matching objects as typed ids, as ObjectBox returns
    /// them: `let ids: [EntityId<Person>] = try query.findIds()`.
    /// Without such a type, ``findIds(offset:limit:)`` returns ``Id``s.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func findIds<I: IdBase>(offset: Int = 0, limit: Int = 0) throws -> [I] {
        try findIds(offset: offset, limit: limit).map { I($0) }
    }
}
