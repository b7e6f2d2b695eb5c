import Dispatch

/// Where and when a ``ValueObservation`` delivers its values and errors.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: myQueue)) { error in
///     // Called asynchronously on myQueue
/// } onChange: { value in
///     // Called asynchronously on myQueue
/// }
///
/// for try await value in observation.values(in: dbQueue, scheduling: .task) { ... }
/// ```
///
/// The built-in schedulers are ``async(onQueue:)`` and ``task``; on the
/// main actor, ``ValueObservationMainActorScheduler/mainActor`` (the
/// default) and ``ValueObservationScheduler/immediate``. A
/// scheduler of your own runs the actions it is given in the order it
/// receives them.
public protocol ValueObservationScheduler: Sendable {
    /// Whether the initial value is fetched and delivered before `start`
    /// returns, on the thread that starts the observation.
    ///
    /// ```swift
    /// struct MyScheduler: ValueObservationScheduler {
    ///     func immediateInitialValue() -> Bool { false }
    ///     func schedule(_ action: @escaping @Sendable () -> Void) { myQueue.async(execute: action) }
    /// }
    /// ```
    func immediateInitialValue() -> Bool

    /// Runs `action`, which delivers a value or an error, after the
    /// actions scheduled before it.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// A ``ValueObservationScheduler`` that delivers on the main actor: the
/// schedulers of `start(in:scheduling:onError:onChange:)` whose callbacks
/// are isolated to the main actor.
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
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {}

/// The scheduler of ``ValueObservationScheduler/async(onQueue:)``: values
/// are delivered asynchronously on a dispatch queue.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    let queue: DispatchQueue

    /// Delivers on `queue`, in order: make it a serial queue.
    ///
    /// ```swift
    /// let scheduler = AsyncValueObservationScheduler(queue: myQueue)
    /// ```
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Values are delivered asynchronously on `queue`, in order: make it a
    /// serial queue.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: myQueue)) { error in
    ///     // Called asynchronously on myQueue
    /// } onChange: { value in
    ///     // Called asynchronously on myQueue
    /// }
    /// ```
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

/// The scheduler of ``ValueObservationScheduler/task``: values are
/// delivered asynchronously, in order, off the database connections and
/// off the main actor.
public struct TaskValueObservationScheduler: ValueObservationScheduler {
    // Each scheduler has its serial queue: the values of one observation
    // keep their order, and a slow observation does not delay the others.
    private let queue: DispatchQueue

    /// A scheduler with its own delivery order.
    ///
    /// ```swift
    /// let scheduler = TaskValueObservationScheduler()
    /// ```
    public init() {
        queue = DispatchQueue(label: "Trellis.ValueObservation.task")
    }

    /// A scheduler with its own delivery order, whose deliveries run with
    /// the quality of service closest to `priority`.
    init(priority: TaskPriority) {
        let qos: DispatchQoS
        switch priority {
        case .high, .userInitiated: qos = .userInitiated
        case .low, .utility: qos = .utility
        case .background: qos = .background
        default: qos = .default
        }
        queue = DispatchQueue(label: "Trellis.ValueObservation.task", qos: qos)
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// Values are delivered asynchronously, in order, off the main actor:
    /// what async sequences of values use.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue, scheduling: .task) { ... }
    /// ```
    public static var task: TaskValueObservationScheduler {
        TaskValueObservationScheduler()
    }

    /// Values are delivered asynchronously, in order, off the main actor,
    /// with the given priority.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .task(priority: .background)) { error in
    ///     // handle error
    /// } onChange: { players in
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}

/// The scheduler of ``ValueObservationScheduler/immediate``: the
/// initial value is delivered before `start` returns, the next ones
/// asynchronously on the main actor.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    /// The immediate scheduler.
    ///
    /// ```swift
    /// let scheduler = ImmediateValueObservationScheduler()
    /// ```
    public init() {}

    public func immediateInitialValue() -> Bool { true }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// The initial value is fetched and delivered before `start` returns,
    /// on the current thread; the next ones asynchronously on the main
    /// actor. Start the observation on the main actor.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
    ///     // Called on the main actor
    /// } onChange: { value in
    ///     print("Fresh value", value)
    /// }
    /// // <- Here "Fresh value" has already been printed.
    /// ```
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

/// The scheduler of ``ValueObservationMainActorScheduler/mainActor``: all
/// values are delivered asynchronously on the main actor.
public struct DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    /// The main actor scheduler.
    ///
    /// ```swift
    /// let scheduler = DelayedMainActorValueObservationScheduler()
    /// ```
    public init() {}

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: action)
    }
}

extension ValueObservationMainActorScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Values are delivered asynchronously on the main actor, in order:
    /// the default of `start(in:onError:onChange:)`.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .mainActor) { error in
    ///     // Called on the main actor
    /// } onChange: { value in
    ///     // Called on the main actor
    /// }
    /// ```
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}
