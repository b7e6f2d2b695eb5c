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
    /// for try await players in sharedObservation.values() { ... }
    /// ```
    public func shared(
        in reader: any DatabaseReader,
        scheduling scheduler: ValueObservationScheduler = .background,
        extent: SharedValueObservationExtent = .whileObserved) -> SharedValueObservation<Value>
    {
        SharedValueObservation(observation: self, reader: reader, scheduler: scheduler, extent: extent)
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
    private struct Subscriber {
        let onError: @Sendable (any Error) -> Void
        let onChange: @Sendable (Value) -> Void
    }

    // Guarded by `lock`. Values and errors reach subscribers on `queue`,
    // in order, unless the scheduler is another queue.
    private let observation: ValueObservation<Value>
    private let reader: any DatabaseReader
    private let scheduler: ValueObservationScheduler
    private let extent: SharedValueObservationExtent
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "Trellis.SharedValueObservation")
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriberId = 0
    private var lastValue: Value?
    private var cancellable: AnyDatabaseCancellable?

    init(observation: ValueObservation<Value>, reader: any DatabaseReader,
         scheduler: ValueObservationScheduler, extent: SharedValueObservationExtent)
    {
        self.observation = observation
        self.reader = reader
        self.scheduler = scheduler
        self.extent = extent
    }

    deinit {
        cancellable?.cancel()
    }

    private var deliveryQueue: DispatchQueue {
        if case .queue(let queue) = scheduler.kind { return queue }
        return queue
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
        lock.lock()
        nextSubscriberId += 1
        let id = nextSubscriberId
        subscribers[id] = Subscriber(onError: onError, onChange: onChange)
        let replayed = lastValue
        let startsObservation = cancellable == nil
        lock.unlock()

        if let replayed {
            deliveryQueue.async { onChange(replayed) }
        }
        if startsObservation {
            startObservation()
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

    private func startObservation() {
        let observationScheduler = ValueObservationScheduler.async(onQueue: deliveryQueue)
        // The cancellable is set first, before any value can arrive.
        let placeholder = AnyDatabaseCancellable {}
        lock.lock()
        cancellable = placeholder
        lock.unlock()
        let started = observation.start(in: reader, scheduling: observationScheduler) { [weak self] error in
            self?.fail(error)
        } onChange: { [weak self] value in
            self?.deliver(value)
        }
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

    private func deliver(_ value: Value) {
        lock.lock()
        lastValue = value
        let current = Array(subscribers.values)
        lock.unlock()
        for subscriber in current { subscriber.onChange(value) }
    }

    private func fail(_ error: any Error) {
        lock.lock()
        let current = Array(subscribers.values)
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
