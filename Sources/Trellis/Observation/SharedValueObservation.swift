import Dispatch
import Foundation

/// How long a ``SharedValueObservation`` keeps observing the database.
public enum SharedValueObservationExtent: Sendable {
    /// Until the shared observation is deallocated, once started.
    case observationLifetime
    /// While it has subscribers: it stops after the last one cancels, and
    /// starts again with the next one.
    case whileObserved
}

extension ValueObservation {
    /// An observation that its subscribers share: a change triggers one
    /// fetch, whose value all of them receive. A new subscriber receives
    /// the last value at once.
    ///
    /// As in GRDB, values are delivered asynchronously on the main
    /// dispatch queue, unless `scheduler` says otherwise.
    ///
    /// ```swift
    /// let sharedObservation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .shared(in: dbQueue)
    ///
    /// let cancellable = sharedObservation.start { error in
    ///     // Handle error
    /// } onChange: { players in
    ///     print("Fresh players", players)
    /// }
    ///
    /// let taskObservation = observation.shared(in: dbQueue, scheduling: .task)
    /// for try await players in taskObservation.values() { ... }
    /// ```
    public func shared(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved) -> SharedValueObservation<Reducer.Value>
    {
        let observation = self
        return SharedValueObservation(scheduler: scheduler, extent: extent) { onError, onChange in
            observation.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// A ``ValueObservation`` shared by several subscribers: see
/// ``ValueObservation/shared(in:scheduling:extent:)``.
///
/// ```swift
/// let sharedObservation = ValueObservation
///     .tracking { db in try Player.fetchAll(db) }
///     .shared(in: dbQueue)
/// ```
public final class SharedValueObservation<Value: Sendable>: @unchecked Sendable {
    /// A subscriber; `hasReceivedValue` is guarded by the lock of the
    /// observation.
    private final class Subscriber: @unchecked Sendable {
        let onError: @Sendable (any Error) -> Void
        let onChange: @Sendable (Value) -> Void
        /// Whether a fresh value reached the subscriber: the last value,
        /// replayed when it subscribed, is then stale.
        var hasReceivedValue = false

        init(onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void) {
            self.onError = onError
            self.onChange = onChange
        }
    }

    // Guarded by `lock`. Values and errors reach subscribers through the
    // scheduler, in order.
    private let startObservation: @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable
    private let scheduler: any ValueObservationScheduler
    private let extent: SharedValueObservationExtent
    private let lock = NSLock()
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriberId = 0
    private var lastValue: Value?
    private var cancellable: AnyDatabaseCancellable?

    init(scheduler: any ValueObservationScheduler, extent: SharedValueObservationExtent,
         startObservation: @escaping @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable)
    {
        self.scheduler = scheduler
        self.extent = extent
        self.startObservation = startObservation
    }

    deinit {
        cancellable?.cancel()
    }

    /// Subscribes: `onChange` receives the last value, if any, then the
    /// fresh values; `onError` receives the error that ends the
    /// observation (the next subscriber starts it again).
    ///
    /// ```swift
    /// let cancellable = sharedObservation.start { error in
    ///     // Handle error
    /// } onChange: { players in
    ///     print("Fresh players", players)
    /// }
    /// ```
    public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable
    {
        let subscriber = Subscriber(onError: onError, onChange: onChange)
        lock.lock()
        nextSubscriberId += 1
        let id = nextSubscriberId
        subscribers[id] = subscriber
        let replayed = lastValue
        let startsObservation = cancellable == nil
        lock.unlock()

        if let replayed {
            let replay: @Sendable () -> Void = { [weak self] in self?.replay(replayed, to: subscriber, id: id) }
            if scheduler.immediateInitialValue() {
                replay()
            } else {
                scheduler.schedule(replay)
            }
        }
        if startsObservation {
            observe()
        }
        return AnyDatabaseCancellable { [weak self] in self?.unsubscribe(id) }
    }

    /// The values of the shared observation, as an asynchronous sequence.
    ///
    /// ```swift
    /// for try await players in sharedObservation.values() {
    ///     print("Fresh players", players)
    /// }
    /// ```
    public func values(
        bufferingPolicy: AsyncValueObservation<Value>.BufferingPolicy = .unbounded) -> AsyncValueObservation<Value>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { [self] onError, onChange in
            start(onError: onError, onChange: onChange)
        }
    }

    private func observe() {
        // The cancellable is set first, before any value can arrive.
        let placeholder = AnyDatabaseCancellable {}
        lock.lock()
        cancellable = placeholder
        lock.unlock()
        let started = startObservation({ [weak self] error in
            self?.fail(error)
        }, { [weak self] value in
            self?.deliver(value)
        })
        lock.lock()
        if cancellable === placeholder {
            cancellable = started
            lock.unlock()
        } else {
            // Stopped meanwhile.
            lock.unlock()
            started.cancel()
        }
    }

    /// Gives the last value to a new subscriber, unless a fresher value
    /// reached it first, or it has unsubscribed.
    private func replay(_ value: Value, to subscriber: Subscriber, id: Int) {
        lock.lock()
        let isStale = subscriber.hasReceivedValue || subscribers[id] !== subscriber
        subscriber.hasReceivedValue = true
        lock.unlock()
        if !isStale { subscriber.onChange(value) }
    }

    private func deliver(_ value: Value) {
        lock.lock()
        lastValue = value
        let current = subscribers.sorted { $0.key < $1.key }.map(\.value)
        for subscriber in current { subscriber.hasReceivedValue = true }
        lock.unlock()
        for subscriber in current { subscriber.onChange(value) }
    }

    private func fail(_ error: any Error) {
        lock.lock()
        let current = subscribers.sorted { $0.key < $1.key }.map(\.value)
        subscribers = [:]
        lastValue = nil
        cancellable = nil
        lock.unlock()
        for subscriber in current { subscriber.onError(error) }
    }

    private func unsubscribe(_ id: Int) {
        lock.lock()
        subscribers[id] = nil
        var stopped: AnyDatabaseCancellable?
        if subscribers.isEmpty && extent == .whileObserved {
            stopped = cancellable
            cancellable = nil
            lastValue = nil
        }
        lock.unlock()
        stopped?.cancel()
    }
}
