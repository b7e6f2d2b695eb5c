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
/// coalesce them. On a ``DatabaseQueue``, the first fetch is queued on the
/// connection when the observation starts: a write made after `start`
/// runs after it, and gives a value of its own. A fetch may deliver a
/// value equal to the previous one: use ``removeDuplicates()`` to skip
/// those.
public struct ValueObservation<Reducer: ValueReducer>: Sendable {
    /// Makes the reducer of one run of the observation: each run has its
    /// own state (the last value, for `removeDuplicates()`).
    let makeReducer: @Sendable () -> Reducer

    /// The region to observe, when it is not what the fetch reads.
    let trackedRegion: (@Sendable (Database) throws -> DatabaseRegion)?

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

    init(makeReducer: @escaping @Sendable () -> Reducer,
         trackedRegion: (@Sendable (Database) throws -> DatabaseRegion)? = nil,
         events: ValueObservationEvents = ValueObservationEvents(), requiresWriteAccess: Bool = false)
    {
        self.makeReducer = makeReducer
        self.trackedRegion = trackedRegion
        self.events = events
        self.requiresWriteAccess = requiresWriteAccess
    }

    /// This observation, with another reducer made of its own.
    func mapReducer<R: ValueReducer>(_ transform: @escaping @Sendable (Reducer) -> R) -> ValueObservation<R> {
        let makeReducer = self.makeReducer
        return ValueObservation<R>(
            makeReducer: { transform(makeReducer()) }, trackedRegion: trackedRegion,
            events: events, requiresWriteAccess: requiresWriteAccess)
    }
}

extension ValueObservation where Reducer == ValueReducers.Auto {
    /// An observation of the value that `fetch` returns.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try Player.fetchAll(db)
    /// }
    /// // The same observation, using shorthand notation:
    /// let observation = ValueObservation.tracking(Player.fetchAll)
    /// ```
    public static func tracking<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<ValueReducers.Fetch<Value>>
    {
        ValueObservation<ValueReducers.Fetch<Value>>(makeReducer: { ValueReducers.Fetch(fetch: fetch) })
    }

    /// An observation of the value that `fetch` returns, which reads the
    /// same tables on each fetch. Trellis tracks the tables of each fetch
    /// anyway: this is ``tracking(_:)``, for code written for GRDB.
    ///
    /// ```swift
    /// let observation = ValueObservation.trackingConstantRegion(Player.fetchCount)
    /// ```
    public static func trackingConstantRegion<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<ValueReducers.Fetch<Value>>
    {
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
    public static func tracking<Value>(
        region: any DatabaseRegionConvertible & Sendable,
        _ otherRegions: any DatabaseRegionConvertible & Sendable...,
        fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<ValueReducers.Fetch<Value>>
    {
        tracking(regions: [region] + otherRegions, fetch: fetch)
    }

    /// An observation of the value that `fetch` returns, fetched again
    /// after each change to the given regions, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(regions: [Player.all(), Team.all()]) { db in
    ///     try Player.fetchCount(db) + Team.fetchCount(db)
    /// }
    /// ```
    public static func tracking<Value>(
        regions: [any DatabaseRegionConvertible & Sendable],
        fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<ValueReducers.Fetch<Value>>
    {
        ValueObservation<ValueReducers.Fetch<Value>>(
            makeReducer: { ValueReducers.Fetch(fetch: fetch) },
            trackedRegion: { db in
                try regions.reduce(DatabaseRegion()) { try $0.union($1.databaseRegion(db)) }
            })
    }
}

extension ValueObservation {
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
    /// `.task`.
    @preconcurrency @MainActor
    public func start(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor (any Error) -> Void,
        onChange: @escaping @MainActor (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        observe(
            in: reader, scheduling: scheduler,
            onError: { error in onMainActor { onError(error) } },
            onChange: { value in onMainActor { onChange(value) } })
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
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        observe(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
    }

    private func observe(
        in reader: any DatabaseReader,
        scheduling scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        let observer = ValueObserver(
            reader: reader, reducer: makeReducer(), trackedRegion: trackedRegion, events: events,
            requiresWriteAccess: requiresWriteAccess, scheduler: scheduler, onError: onError, onChange: onChange)
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
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded)
        -> AsyncValueObservation<Reducer.Value>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }

    /// The observation of the values that `transform` makes of the
    /// observed values.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .map { players in players.map(\.name) }
    /// ```
    public func map<T: Sendable>(
        _ transform: @escaping @Sendable (Reducer.Value) throws -> T) -> ValueObservation<ValueReducers.Map<Reducer, T>>
    {
        mapReducer { ValueReducers.Map(base: $0, transform: transform) }
    }

    /// The observation, without the values that `isDuplicate` says are
    /// equal to the value delivered before them.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .removeDuplicates { $0.map(\.id) == $1.map(\.id) }
    /// ```
    public func removeDuplicates(
        by isDuplicate: @escaping @Sendable (Reducer.Value, Reducer.Value) -> Bool)
        -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>>
    {
        mapReducer { ValueReducers.RemoveDuplicates(base: $0, isDuplicate: isDuplicate) }
    }
}

extension ValueObservation where Reducer.Value: Equatable {
    /// The observation, without the values equal to the value delivered
    /// before them.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchCount(db) }
    ///     .removeDuplicates()
    /// ```
    public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        removeDuplicates(by: ==)
    }
}

/// Runs `action` on the main actor: right away from the main thread or
/// the main queue, where main actor schedulers deliver, and later from
/// elsewhere (a scheduler of the application that would deliver off the
/// main actor).
private func onMainActor(_ action: @escaping @MainActor @Sendable () -> Void) {
    if Thread.isMainThread || MainQueueIdentity.shared.isCurrent {
        MainActor.assumeIsolated { action() }
    } else {
        DispatchQueue.main.async { MainActor.assumeIsolated { action() } }
    }
}

/// Tells whether the current code runs on the main dispatch queue, which
/// runs the main actor: on Linux, once the main thread has handed the main
/// queue to `dispatchMain()`, the queue runs on another thread.
private final class MainQueueIdentity: @unchecked Sendable {
    static let shared = MainQueueIdentity()
    // Set once, before any read.
    private let key = DispatchSpecificKey<Bool>()

    private init() {
        DispatchQueue.main.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
