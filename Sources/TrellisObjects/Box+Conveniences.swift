import Trellis

// The methods of ObjectBox's Box API reference that compose the core
// methods of a box: visits, dictionaries, contiguous arrays.
extension Box {
    /// Calls `visitor` with each object, by increasing id, until it
    /// returns false. The objects are read in one read transaction.
    ///
    /// ```swift
    /// try personBox.visit { person in
    ///     print(person.name)
    ///     return person.name != "Stop"
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by the closure;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed, or
    ///   if a stored row cannot be decoded as an object; a `DatabaseError` if
    ///   SQLite fails.
    public func visit(writable: Bool = false, visitor: (T) throws -> Bool) throws {
        // `writable` asks ObjectBox for a write transaction; the objects
        // here are read first, so the visitor may write in any case.
        for object in try all() where try !visitor(object) {
            return
        }
    }

    /// Calls `body` with each object, by increasing id.
    ///
    /// ```swift
    /// try personBox.forEach { person in print(person.name) }
    /// ```
    ///
    /// - Throws: The error thrown by the closure;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed, or
    ///   if a stored row cannot be decoded as an object; a `DatabaseError` if
    ///   SQLite fails.
    public func forEach(_ body: (T) throws -> Void) throws {
        for object in try all() {
            try body(object)
        }
    }

    /// Calls `body` with the object of each id, in the order of the ids:
    /// nil for an id that has no object.
    ///
    /// ```swift
    /// try personBox.for([1, 2]) { person in print(person?.name ?? "-") }
    /// ```
    ///
    /// - Throws: The error thrown by the closure;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed, or
    ///   if a stored row cannot be decoded as an object; a `DatabaseError` if
    ///   SQLite fails.
    public func `for`(_ ids: [Id], in body: (T?) throws -> Void) throws {
        let objects = try getAsDictionary(ids)
        for id in ids {
            try body(objects[id])
        }
    }

    /// The objects with the given ids, by id; missing objects are left out.
    ///
    /// ```swift
    /// let people: [Id: Person] = try personBox.getAsDictionary([1, 2])
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a stored row cannot be decoded as an object; a
    ///   `DatabaseError` if SQLite fails.
    public func getAsDictionary(_ ids: [Id]) throws -> [Id: T] {
        Dictionary(try get(ids).map { ($0.id, $0) }) { first, _ in first }
    }

    /// The objects with the given ids, in the order of the ids, up to
    /// `maxCount` objects (0: no limit); missing objects are skipped.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a stored row cannot be decoded as an object; a
    ///   `DatabaseError` if SQLite fails.
    public func get(_ ids: [Id], maxCount: Int) throws -> [T] {
        let objects = try get(ids)
        return maxCount > 0 ? Array(objects.prefix(maxCount)) : objects
    }

    /// All objects, by increasing id, in a contiguous array.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a stored row cannot be decoded as an object; a
    ///   `DatabaseError` if SQLite fails.
    public func allContiguous() throws -> ContiguousArray<T> {
        ContiguousArray(try all())
    }
}

extension Query {
    /// The matching objects, in a contiguous array.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, if a parameter was set for a condition the query does not
    ///   have, or if a row cannot be decoded; a `DatabaseError` if SQLite
    ///   fails.
    public func findContiguous() throws -> ContiguousArray<T> {
        ContiguousArray(try find())
    }
}
