import Dispatch
import Foundation

/// Observes a value fetched from the database: it is fetched when the
/// observation starts, and again after each write that changes the
/// database.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.fetchAll(db)
/// }
///
/// for try await players in observation.values(in: dbQueue) {
///     print("Fresh players", players)
/// }
///
/// let cancellable = observation.start(in: dbQueue) { error in
///     // Handle error
/// } onChange: { players in
///     print("Fresh players", players)
/// }
/// ```
///
/// Values are fetched and delivered on a background queue, in order. The
/// observation tracks the tables that its last fetch read: a write access
/// that changes one of them, or the schema, triggers a new fetch; writes
/// to other tables do not. A fetch may deliver a value equal to the
/// previous one: use ``removeDuplicates()`` to skip those.
public struct ValueObservation<Value: Sendable>: Sendable {
    /// Makes the fetcher of one run of the observation: each run has its
    /// own state (the last value, for `removeDuplicates()`).
    let makeFetcher: @Sendable () -> ValueFetcher<Value>

    /// An observation of the value that `fetch` returns.
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value> {
        ValueObservation { ValueFetcher { db in try fetch(db) } }
    }

    /// An observation of the value that `fetch` returns, which reads the
    /// same tables on each fetch. Trellis tracks the tables of each fetch
    /// anyway: this is ``tracking(_:)``, for code written for GRDB.
    public static func trackingConstantRegion(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value> {
        tracking(fetch)
    }

    /// An observation of the value that `fetch` returns, fetched again
    /// after each change to the given regions, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(region: Player.all(), Team.all()) { db in
    ///     try Player.fetchCount(db) + Team.fetchCount(db)
    /// }
    /// ```
    public static func tracking(
        region: any DatabaseRegionConvertible & Sendable...,
        fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value>
    {
        ValueObservation {
            ValueFetcher(region: { db in
                try region.reduce(DatabaseRegion()) { try $0.union($1.databaseRegion(db)) }
            }) { db in try fetch(db) }
        }
    }

    /// Starts the observation: `onChange` receives the current value, then
    /// the value after each change; `onError` receives the first error,
    /// which ends the observation.
    ///
    /// Values are delivered in order, on a background queue by default.
    /// With `scheduling: .immediate`, the current value is fetched and
    /// delivered before this method returns; with
    /// `scheduling: .async(onQueue: queue)`, values are delivered on `queue`.
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: ValueObservationScheduler = .background,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable
    {
        let observer = ValueObserver(
            reader: reader, fetcher: makeFetcher(), scheduler: scheduler, onError: onError, onChange: onChange)
        observer.start()
        return AnyDatabaseCancellable { observer.cancel() }
    }

    /// The observed values, as an asynchronous sequence.
    public func values(in reader: any DatabaseReader) -> AsyncValueObservation<Value> {
        AsyncValueObservation(stream: AsyncThrowingStream { continuation in
            let cancellable = start(in: reader) { error in
                continuation.finish(throwing: error)
            } onChange: { value in
                continuation.yield(value)
            }
            continuation.onTermination = { _ in cancellable.cancel() }
        })
    }

    /// The observation of the values that `transform` makes of the
    /// observed values.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .map { players in players.map(\.name) }
    /// ```
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) throws -> T) -> ValueObservation<T> {
        let makeFetcher = self.makeFetcher
        return ValueObservation<T> {
            let fetcher = makeFetcher()
            return ValueFetcher(region: fetcher.region) { db in try fetcher.next(db).map(transform) }
        }
    }
}

extension ValueObservation where Value: Equatable {
    /// The observation, without the values equal to the value delivered
    /// before them.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchCount(db) }
    ///     .removeDuplicates()
    /// ```
    public func removeDuplicates() -> ValueObservation<Value> {
        let makeFetcher = self.makeFetcher
        return ValueObservation {
            let fetcher = makeFetcher()
            var lastValue: Value?
            return ValueFetcher(region: fetcher.region) { db in
                guard let value = try fetcher.next(db) else { return nil }
                if let lastValue, lastValue == value { return nil }
                lastValue = value
                return value
            }
        }
    }
}

/// Where a ``ValueObservation`` delivers its values.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
///     // Handle error
/// } onChange: { value in
///     // The first value arrives before `start` returns.
/// }
/// ```
public struct ValueObservationScheduler: Sendable {
    enum Kind: Sendable {
        case background
        case immediate
        case queue(DispatchQueue)
    }

    let kind: Kind

    /// Values are delivered on a background queue of the observation.
    public static let background = ValueObservationScheduler(kind: .background)

    /// The current value is delivered before `start` returns, on the
    /// calling thread; the next ones on a background queue.
    public static let immediate = ValueObservationScheduler(kind: .immediate)

    /// Values are delivered on `queue`, in order.
    public static func async(onQueue queue: DispatchQueue) -> ValueObservationScheduler {
        ValueObservationScheduler(kind: .queue(queue))
    }
}

/// The fetches of one run of an observation: `next` returns the value to
/// deliver, or nil for none (a duplicate).
final class ValueFetcher<Value>: @unchecked Sendable {
    // Called by one observer, one fetch at a time.
    let next: (Database) throws -> Value?

    /// The region to observe, when it is not what `next` reads.
    let region: ((Database) throws -> DatabaseRegion)?

    init(region: ((Database) throws -> DatabaseRegion)? = nil, _ next: @escaping (Database) throws -> Value?) {
        self.region = region
        self.next = next
    }
}

/// The asynchronous sequence of the values of a ``ValueObservation``.
public struct AsyncValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    let stream: AsyncThrowingStream<Value, any Error>

    public func makeAsyncIterator() -> AsyncThrowingStream<Value, any Error>.AsyncIterator {
        stream.makeAsyncIterator()
    }
}

/// Stops an observation when it is cancelled or deallocated.
public final class AnyDatabaseCancellable: @unchecked Sendable {
    // Guarded by `lock`.
    private var cancelAction: (@Sendable () -> Void)?
    private let lock = NSLock()

    /// A cancellable that runs `cancel` once.
    public init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = cancel
    }

    deinit {
        cancel()
    }

    /// Stops the observation.
    public func cancel() {
        lock.lock()
        let action = cancelAction
        cancelAction = nil
        lock.unlock()
        action?()
    }
}

/// Fetches and delivers the values of one observation, in order.
private final class ValueObserver<Value: Sendable>: @unchecked Sendable {
    // `token`, `isCancelled` and `observedRegion` are guarded by `lock`; fetches
    // run on `queue`, one at a time, which alone touches `fetcher`.
    private let reader: any DatabaseReader
    private let fetcher: ValueFetcher<Value>
    private let scheduler: ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Value) -> Void
    private let queue = DispatchQueue(label: "Trellis.ValueObservation")
    private let lock = NSLock()
    private var token: Int?
    private var isCancelled = false
    /// The region of the last fetch; nil until the first fetch.
    private var observedRegion: DatabaseRegion?

    init(reader: any DatabaseReader, fetcher: ValueFetcher<Value>, scheduler: ValueObservationScheduler,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void)
    {
        self.reader = reader
        self.fetcher = fetcher
        self.scheduler = scheduler
        self.onError = onError
        self.onChange = onChange
    }

    private var writer: SerializedDatabase? {
        (reader as? DatabaseQueue)?.writer ?? (reader as? DatabasePool)?.writer
    }

    func start() {
        let token = writer?.addChangeObserver { [weak self] changes in self?.databaseDidChange(changes) }
        lock.lock()
        self.token = token
        lock.unlock()
        if case .immediate = scheduler.kind {
            queue.sync { fetchAndDeliver { $0() } }
        } else {
            refresh()
        }
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let token = self.token
        self.token = nil
        lock.unlock()
        if let token { writer?.removeChangeObserver(token) }
    }

    private var cancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isCancelled
    }

    private func databaseDidChange(_ changes: DatabaseChanges) {
        lock.lock()
        // Before the first fetch, any change may matter.
        let isImpacted = observedRegion.map { $0.isImpacted(by: changes) } ?? true
        lock.unlock()
        if isImpacted { refresh() }
    }

    private func refresh() {
        queue.async { [self] in
            fetchAndDeliver { delivery in
                switch scheduler.kind {
                case .background, .immediate: delivery()
                case .queue(let queue): queue.async(execute: delivery)
                }
            }
        }
    }

    /// Fetches the value, and schedules its delivery (or the error's).
    private func fetchAndDeliver(_ schedule: (@escaping @Sendable () -> Void) -> Void) {
        guard !cancelled else { return }
        do {
            let (value, region) = try reader.read { db in
                let (value, tables) = try db.recordingReadTables { try fetcher.next(db) }
                return (value, try fetcher.region?(db) ?? DatabaseRegion(tableNames: tables))
            }
            lock.lock()
            observedRegion = region
            lock.unlock()
            guard let value else { return }
            schedule { [self] in
                if !cancelled { onChange(value) }
            }
        } catch {
            guard !cancelled else { return }
            cancel()
            schedule { [onError] in onError(error) }
        }
    }
}
