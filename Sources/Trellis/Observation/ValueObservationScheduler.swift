import Dispatch

/// Where a ``ValueObservation`` delivers its values, off the main actor.
/// (``ValueObservationMainActorScheduler`` delivers them on the main
/// actor, the default of `start(in:onError:onChange:)`.)
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: myQueue)) { error in
///     // Called asynchronously on myQueue
/// } onChange: { value in
///     // Called asynchronously on myQueue
/// }
/// ```
public struct ValueObservationScheduler: Sendable {
    enum Kind: Sendable {
        case background
        /// The current value before `start` returns, on the calling
        /// thread; the next ones on `later`.
        case immediate(later: DispatchQueue)
        case queue(DispatchQueue)
    }

    let kind: Kind

    /// Values are delivered on a background queue of the observation.
    public static let background = ValueObservationScheduler(kind: .background)

    /// Values are delivered off any database connection, in order: what
    /// async sequences of values use.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue, scheduling: .task) { ... }
    /// ```
    public static let task = ValueObservationScheduler(kind: .background)

    /// Values are delivered on `queue`, in order: make it a serial queue.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: myQueue)) { error in
    ///     // Called asynchronously on myQueue
    /// } onChange: { value in
    ///     // Called asynchronously on myQueue
    /// }
    /// ```
    public static func async(onQueue queue: DispatchQueue) -> ValueObservationScheduler {
        ValueObservationScheduler(kind: .queue(queue))
    }
}

/// Where a ``ValueObservation`` delivers its values on the main actor.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
///     // Called on the main actor
/// } onChange: { value in
///     // Called on the main actor; the first value before `start` returns.
/// }
/// ```
///
/// On Linux, the main actor runs on the main dispatch queue: a program
/// that observes on the main actor keeps its main thread free to run it
/// (`dispatchMain()`, a run loop, or an `async` main).
public struct ValueObservationMainActorScheduler: Sendable {
    let scheduler: ValueObservationScheduler

    /// Values are delivered asynchronously on the main actor, in order:
    /// the default.
    public static let mainActor = ValueObservationMainActorScheduler(
        scheduler: ValueObservationScheduler(kind: .queue(.main)))

    /// The current value is delivered before `start` returns; the next ones
    /// asynchronously on the main actor.
    public static let immediate = ValueObservationMainActorScheduler(
        scheduler: ValueObservationScheduler(kind: .immediate(later: .main)))
}
