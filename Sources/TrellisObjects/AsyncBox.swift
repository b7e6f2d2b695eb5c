import Dispatch
import Foundation
import Trellis

/// Puts and removes objects on a background queue, without waiting for
/// the write: see ``Box/async``. As in ObjectBox, errors of the writes are
/// not reported; ``Store/awaitAsyncCompleted()`` waits for them to run.
///
/// ```swift
/// let id = try personBox.async.put(person)   // person.id is set now
/// try personBox.async.remove(otherPerson)
/// personBox.store.awaitAsyncCompleted()      // both have run
/// ```
///
/// A new object gets its id at once: the store reserves it in a short
/// write, and puts the object later under that id. Do not change an
/// object until its put ran.
public final class AsyncBox<T: Entity>: @unchecked Sendable {
    // Holds no mutable state: the box and its store serialize the work.
    /// The box that the operations run on.
    public let box: Box<T>

    /// An async box over `box`. ObjectBox's `enqueueTimeout` has no
    /// counterpart: the queue of a store has no bound, so an operation is
    /// queued at once.
    ///
    /// ```swift
    /// let asyncBox = AsyncBox(box: personBox)
    /// ```
    public init(box: Box<T>) {
        self.box = box
    }

    /// Queues the put of `object`, and returns its id: a new object is
    /// given one at once.
    ///
    /// ```swift
    /// let id = try personBox.async.put(person)
    /// ```
    ///
    /// A struct passed here is a copy, put under the id returned: give it
    /// the id (`author.id = try authorBox.async.put(author)`) so that its
    /// next put updates it.
    ///
    /// - Throws: For a new object, the errors of reserving its id:
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed, a
    ///   `DatabaseError` if SQLite fails. The put itself runs later, and its
    ///   errors are not reported.
    @discardableResult
    public func put(_ object: T, mode: PutMode = .put) throws -> Id {
        // For a class, the copy refers to the object, which gets the id.
        var entity = object
        if entity.id == 0 {
            entity.id = try box.reserveId(for: entity)
        }
        let box = self.box
        let queued = entity
        enqueue { _ = try? box.putAndReturnID(queued, mode: mode) }
        return entity.id
    }

    /// Queues the puts of `objects`, and returns their ids.
    ///
    /// - Throws: For a new object, the errors of reserving its id:
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed, a
    ///   `DatabaseError` if SQLite fails. The put itself runs later, and its
    ///   errors are not reported.
    @discardableResult
    public func put(_ objects: [T], mode: PutMode = .put) throws -> [Id] {
        try objects.map { try put($0, mode: mode) }
    }

    /// Queues the removal of the object with the given id.
    ///
    /// - Throws: Never: the removal runs later, and its errors are not
    ///   reported.
    public func remove(_ id: Id) throws {
        let box = self.box
        enqueue { _ = try? box.remove(id) }
    }

    /// Runs `work` on the async queue of the store. The work holds objects,
    /// which their callers leave alone until it ran.
    private func enqueue(_ work: @escaping () -> Void) {
        let pending = UncheckedSendable(work)
        box.store.asyncQueue.async { pending.value() }
    }

    /// Queues the removal of `object`.
    ///
    /// - Throws: Never: the removal runs later, and its errors are not
    ///   reported.
    public func remove(_ object: T) throws {
        try remove(object.id)
    }

    /// Queues the removal of the objects with the given ids.
    ///
    /// - Throws: Never: the removal runs later, and its errors are not
    ///   reported.
    public func remove(_ ids: [Id]) throws {
        for id in ids { try remove(id) }
    }
}

extension Box {
    /// The box, to put and remove objects without waiting for the writes.
    ///
    /// ```swift
    /// try personBox.async.put(person)
    /// ```
    public var async: AsyncBox<T> {
        AsyncBox(box: self)
    }

    /// Reserves the id of a new object: the next id of the table, which
    /// later inserts skip.
    func reserveId(for object: T) throws -> Id {
        try writeTable { db in
            let encoder = try EntityEncoder.encode(object, coding: coding)
            try table.prepare(db, for: encoder)   // the table, if this is its first object
            // SQLite's AUTOINCREMENT counter of the table.
            let sequence = Table("sqlite_sequence").filter(Column("name") == tableName)
            let counter = try sequence.select(Column("seq"), as: Int64.self).fetchOne(db) ?? 0
            let largest = try Table(tableName).select(Trellis.max(Column("id")), as: Int64.self).fetchOne(db) ?? 0
            let reserved = Swift.max(counter, largest) + 1
            try sequence.deleteAll(db)
            try Table("sqlite_sequence").insert(db, values: ["name": tableName, "seq": reserved])
            return Id(bitPattern: reserved)
        }
    }
}

extension Store {
    /// Waits until the operations queued on async boxes ran. Call it from
    /// another queue than the store's own async queue.
    ///
    /// ```swift
    /// try personBox.async.put(person)
    /// store.awaitAsyncCompleted()
    /// ```
    @discardableResult
    public func awaitAsyncCompleted() -> Bool {
        asyncQueue.sync {}
        return true
    }

    /// Waits until the operations queued on async boxes so far ran (the
    /// queue runs them in order, so this is ``awaitAsyncCompleted()``).
    @discardableResult
    public func awaitAsyncSubmitted() -> Bool {
        awaitAsyncCompleted()
    }
}

/// A value handed to the async queue of a store; see ``AsyncBox``, whose
/// callers do not touch it until the queued write ran.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
