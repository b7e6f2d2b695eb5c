import Dispatch

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

    /// Values are delivered off any database connection, in order: what
    /// async sequences of values use.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue, scheduling: .task) { ... }
    /// ```
    public static let task = ValueObservationScheduler(kind: .background)

    /// The current value is delivered before `start` returns, on the
    /// calling thread; the next ones on a background queue.
    public static let immediate = ValueObservationScheduler(kind: .immediate)

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
