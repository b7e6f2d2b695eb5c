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
/// Values are delivered in order: on the main actor by default, as in
/// GRDB, or where a scheduler says. The observation tracks the tables that
/// its last fetch read: a write access that commits changes to one of
/// them, or to the schema, triggers a new fetch; writes to other tables do
/// not. As GRDB documents, the new value is fetched right after the
/// commit, on the writer connection and the thread that wrote, before the
/// write returns: each write gives its own value (the commits of one
/// `writeWithoutTransaction` access give one). Only an observation of
/// explicit regions (``tracking(regions:fetch:)``) on a ``DatabasePool``
/// fetches on a reader, concurrently with the next writes, and may then
/// coalesce them. A fetch may deliver a value equal to the previous one:
/// use ``removeDuplicates()`` to skip those.
public struct ValueObservation<Value: Sendable>: Sendable {
    /// Makes the fetcher of one run of the observation: each run has its
    /// own state (the last value, for `removeDuplicates()`).
    let makeFetcher: @Sendable () -> ValueFetcher<Value>

    /// The functions of ``handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``.
    var events = ValueObservationEvents()

    /// Whether values are fetched with the writer connection, in a write
    /// transaction, so that the fetch can write (in a temporary table, for
    /// example). Default false: values are fetched in a read-only access.
    ///
    /// ```swift
    /// var observation = ValueObservation.tracking { db in
    ///     try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS cache(value)")
    ///     return try Player.fetchCount(db)
    /// }
    /// observation.requiresWriteAccess = true
    /// ```
    public var requiresWriteAccess = false

    init(makeFetcher: @escaping @Sendable () -> ValueFetcher<Value>,
         events: ValueObservationEvents = ValueObservationEvents(), requiresWriteAccess: Bool = false)
    {
        self.makeFetcher = makeFetcher
        self.events = events
        self.requiresWriteAccess = requiresWriteAccess
    }

    /// An observation of the value that `fetch` returns.
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value> {
        ValueObservation(makeFetcher: { ValueFetcher { db in try fetch(db) } })
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
    /// // The player with id 1, when its score changes
    /// let observation = ValueObservation.tracking(
    ///     region: Player.select(Column("score")).filter(id: 1),
    ///     fetch: { db in try Player.fetchOne(db, id: 1) })
    /// ```
    public static func tracking(
        region: any DatabaseRegionConvertible & Sendable...,
        fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value>
    {
        tracking(regions: region, fetch: fetch)
    }

    /// An observation of the value that `fetch` returns, fetched again
    /// after each change to the given regions, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(regions: [Player.all(), Team.all()]) { db in
    ///     try Player.fetchCount(db) + Team.fetchCount(db)
    /// }
    /// ```
    public static func tracking(
        regions: [any DatabaseRegionConvertible & Sendable],
        fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value>
    {
        ValueObservation(makeFetcher: {
            ValueFetcher(region: { db in
                try regions.reduce(DatabaseRegion()) { try $0.union($1.databaseRegion(db)) }
            }) { db in try fetch(db) }
        })
    }

    /// Starts the observation: `onChange` receives the current value, then
    /// the value after each change; `onError` receives the first error,
    /// which ends the observation.
    ///
    /// As in GRDB, values are delivered on the main actor, asynchronously;
    /// with `scheduling: .immediate`, the current value is fetched and
    /// delivered before this method returns.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue) { error in
    ///     // Handle error (on the main actor)
    /// } onChange: { (players: [Player]) in
    ///     print("Fresh players", players)
    /// }
    /// ```
    ///
    /// Off the main actor, name a scheduler: `.async(onQueue:)`, or
    /// `.background`.
    @preconcurrency @MainActor
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor (any Error) -> Void,
        onChange: @escaping @MainActor (Value) -> Void) -> AnyDatabaseCancellable
    {
        start(
            in: reader, scheduling: scheduler.scheduler,
            onError: { error in MainActor.assumeIsolated { onError(error) } },
            onChange: { value in MainActor.assumeIsolated { onChange(value) } })
    }

    /// Starts the observation, delivering values where `scheduler` says:
    /// `onChange` receives the current value, then the value after each
    /// change; `onError` receives the first error, which ends the
    /// observation.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: myQueue)) { error in
    ///     // Handle error
    /// } onChange: { (players: [Player]) in
    ///     print("Fresh players", players)
    /// }
    /// ```
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable
    {
        let observer = ValueObserver(
            reader: reader, fetcher: makeFetcher(), events: events, requiresWriteAccess: requiresWriteAccess,
            scheduler: scheduler, onError: onError, onChange: onChange)
        observer.start()
        return AnyDatabaseCancellable { observer.cancel() }
    }

    /// The observed values, as an asynchronous sequence, which ends with
    /// the first error.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue) {
    ///     print("Fresh players", players)
    /// }
    /// ```
    public func values(
        in reader: any DatabaseReader,
        scheduling scheduler: ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Value>.BufferingPolicy = .unbounded) -> AsyncValueObservation<Value>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }

    /// The observation of the values that `transform` makes of the
    /// observed values, computed off the database connection.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .map { players in players.map(\.name) }
    /// ```
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) throws -> T) -> ValueObservation<T> {
        let makeFetcher = self.makeFetcher
        return ValueObservation<T>(makeFetcher: {
            let fetcher = makeFetcher()
            return ValueFetcher(region: fetcher.region, receivedValueEvents: fetcher.receivedValueEvents) { db in
                try fetcher.next(db).map(transform)
            }
        }, events: events, requiresWriteAccess: requiresWriteAccess)
    }

    /// The observation, without the values that `isDuplicate` says are
    /// equal to the value delivered before them.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .removeDuplicates { $0.map(\.id) == $1.map(\.id) }
    /// ```
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> ValueObservation<Value> {
        let makeFetcher = self.makeFetcher
        return ValueObservation(makeFetcher: {
            let fetcher = makeFetcher()
            var lastValue: Value?
            return ValueFetcher(region: fetcher.region, receivedValueEvents: fetcher.receivedValueEvents) { db in
                guard let value = try fetcher.next(db) else { return nil }
                if let lastValue, isDuplicate(lastValue, value) { return nil }
                lastValue = value
                return value
            }
        }, events: events, requiresWriteAccess: requiresWriteAccess)
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
        removeDuplicates(by: ==)
    }
}

/// The fetches of one run of an observation: `next` returns the value to
/// deliver, or nil for none (a duplicate).
final class ValueFetcher<Value>: @unchecked Sendable {
    // Called by one observer, one fetch at a time.
    let next: (Database) throws -> Value?

    /// The region to observe, when it is not what `next` reads.
    let region: ((Database) throws -> DatabaseRegion)?

    /// The `didReceiveValue` events of a fetch, called once the observer
    /// told the region it tracks. Shared by the fetchers that wrap each
    /// other.
    let receivedValueEvents: ReceivedValueEvents

    init(region: ((Database) throws -> DatabaseRegion)? = nil,
         receivedValueEvents: ReceivedValueEvents = ReceivedValueEvents(),
         _ next: @escaping (Database) throws -> Value?)
    {
        self.region = region
        self.receivedValueEvents = receivedValueEvents
        self.next = next
    }
}

/// The events that a fetch leaves for its observer to call.
final class ReceivedValueEvents: @unchecked Sendable {
    // Touched by one observer, on its queue.
    private var events: [() -> Void] = []

    func append(_ event: @escaping () -> Void) {
        events.append(event)
    }

    func flush() {
        let current = events
        events = []
        for event in current { event() }
    }
}
