import Dispatch
import Foundation
import Trellis

/// A subscription to the changes of a box or a query: see
/// ``Box/subscribe(dispatchQueue:flags:resultHandler:)`` and
/// ``Query/subscribe(dispatchQueue:flags:resultHandler:)``.
///
/// Keep the observer for as long as you want notifications: they stop
/// when it is released, or when you call ``unsubscribe()``. Subscribe
/// outside of `runInTransaction`: a subscription made inside one is
/// refused, and never notifies.
///
/// ```swift
/// let observer = personBox.subscribe(dispatchQueue: queue) { people, error in
///     if let error { print(error); return }
///     print("\(people.count) people")
/// }
/// // Later:
/// observer.unsubscribe()
/// ```
public final class Observer: @unchecked Sendable {
    // `cancellable` is guarded by `lock`: unsubscribe may run on any thread.
    private let lock = NSLock()
    private var cancellable: AnyDatabaseCancellable?

    /// When the handler of a subscription is called.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Call the handler once right away, with the current objects.
        public static let sendInitial = Flags(rawValue: 1)
        /// Do not call the handler after changes (with `sendInitial`: call
        /// it once only).
        public static let dontSubscribe = Flags(rawValue: 2)
    }

    init() {}

    deinit {
        cancellable?.cancel()
    }

    /// Stops the notifications. A notification already on its way to the
    /// dispatch queue may still arrive.
    public func unsubscribe() {
        lock.lock()
        let cancellable = self.cancellable
        self.cancellable = nil
        lock.unlock()
        cancellable?.cancel()
    }

    /// Starts calling `notify` on `queue` after each transaction that
    /// changes the table of `Entity`, and first if `flags` say so.
    static func observing(
        table: String, in store: Store, on queue: DispatchQueue, flags: Flags,
        onError: @escaping (ObjectBoxError) -> Void = { _ in }, notify: @escaping () -> Void) -> Observer
    {
        let observer = Observer()
        let notification = UncheckedNotification(notify: notify)
        let failure = UncheckedFailure(report: onError)
        if flags.contains(.sendInitial) {
            queue.async { notification.notify() }
        }
        guard !flags.contains(.dontSubscribe) else { return observer }
        let observation = DatabaseRegionObservation(tracking: DatabaseRegion(tables: [table]))
        let cancellable = observation.start(in: store.queue) { error in
            // The region of a table is known without reading the schema:
            // only a subscription inside a database access fails.
            let error = ObjectBoxError.observing(error)
            queue.async { failure.report(error) }
        } onChange: { _ in
            // Called on the writer's queue, inside its access: the handler
            // reads the objects once the queue runs it, after the commit.
            queue.async { notification.notify() }
        }
        observer.lock.lock()
        observer.cancellable = cancellable
        observer.lock.unlock()
        return observer
    }
}

/// The notification of a subscription, handed to its dispatch queue: it
/// reads the objects there, with the box or query that it captures, which
/// only that queue uses.
private struct UncheckedNotification: @unchecked Sendable {
    let notify: () -> Void
}

/// The report of a subscription that could not start, handed to its
/// dispatch queue.
private struct UncheckedFailure: @unchecked Sendable {
    let report: (ObjectBoxError) -> Void
}

extension Box {
    /// Calls `resultHandler` on `dispatchQueue` with all the objects of
    /// the box after each transaction that changes them, and once right
    /// away unless `flags` leave out ``Observer/Flags/sendInitial``.
    ///
    /// ```swift
    /// let observer = personBox.subscribe(dispatchQueue: queue) { people, error in
    ///     print(people.count)
    /// }
    /// ```
    ///
    /// On Linux, the main queue runs only in a process that runs it
    /// (`dispatchMain()`): servers and tools pass a queue of their own.
    public func subscribe(
        dispatchQueue: DispatchQueue = .main, flags: Observer.Flags = [.sendInitial],
        resultHandler: @escaping ([T], ObjectBoxError?) -> Void) -> Observer
    {
        Observer.observing(
            table: T.entityTableName, in: store, on: dispatchQueue, flags: flags, onError: { resultHandler([], $0) }
        ) { [self] in
            do {
                resultHandler(try all(), nil)
            } catch {
                resultHandler([], ObjectBoxError.observing(error))
            }
        }
    }

    /// Calls `changeHandler` on `dispatchQueue` after each transaction that
    /// changes the objects of the box (and once right away with
    /// ``Observer/Flags/sendInitial``).
    ///
    /// ```swift
    /// let observer = personBox.subscribe(dispatchQueue: queue, flags: []) { print("changed") }
    /// ```
    public func subscribe(
        dispatchQueue: DispatchQueue = .main, flags: Observer.Flags = [],
        changeHandler: @escaping () -> Void) -> Observer
    {
        Observer.observing(table: T.entityTableName, in: store, on: dispatchQueue, flags: flags, notify: changeHandler)
    }
}

extension Query {
    /// Calls `resultHandler` on `dispatchQueue` with the objects that match
    /// the query after each transaction that changes the objects of its
    /// box, and once right away unless `flags` leave out
    /// ``Observer/Flags/sendInitial``.
    ///
    /// ```swift
    /// let adults = try personBox.query { Person.age >= 18 }.build()
    /// let observer = adults.subscribe(dispatchQueue: queue) { people, error in
    ///     print(people.map(\.name))
    /// }
    /// ```
    public func subscribe(
        dispatchQueue: DispatchQueue = .main, flags: Observer.Flags = [.sendInitial],
        resultHandler: @escaping ([T], ObjectBoxError?) -> Void) -> Observer
    {
        Observer.observing(
            table: T.entityTableName, in: box.store, on: dispatchQueue, flags: flags, onError: { resultHandler([], $0) }
        ) { [self] in
            do {
                resultHandler(try find(), nil)
            } catch {
                resultHandler([], ObjectBoxError.observing(error))
            }
        }
    }

    /// Calls `changeHandler` on `dispatchQueue` after each transaction that
    /// changes the objects of the query's box (and once right away with
    /// ``Observer/Flags/sendInitial``).
    public func subscribe(
        dispatchQueue: DispatchQueue = .main, flags: Observer.Flags = [],
        changeHandler: @escaping () -> Void) -> Observer
    {
        Observer.observing(table: T.entityTableName, in: box.store, on: dispatchQueue, flags: flags, notify: changeHandler)
    }
}
