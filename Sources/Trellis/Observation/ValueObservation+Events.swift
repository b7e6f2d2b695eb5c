import Foundation

/// The functions that ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``
/// adds to an observation, called by its observer.
struct ValueObservationEvents: Sendable {
    var willStart: (@Sendable () -> Void)?
    var willFetch: (@Sendable () -> Void)?
    var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
    var databaseDidChange: (@Sendable () -> Void)?
    var didFail: (@Sendable (any Error) -> Void)?
    var didCancel: (@Sendable () -> Void)?

    /// These events, then `other`'s.
    func followed(by other: ValueObservationEvents) -> ValueObservationEvents {
        func chain(_ first: (@Sendable () -> Void)?, _ second: (@Sendable () -> Void)?) -> (@Sendable () -> Void)? {
            guard let first else { return second }
            guard let second else { return first }
            return { first(); second() }
        }
        func chain<T>(_ first: (@Sendable (T) -> Void)?, _ second: (@Sendable (T) -> Void)?) -> (@Sendable (T) -> Void)? {
            guard let first else { return second }
            guard let second else { return first }
            return { first($0); second($0) }
        }
        return ValueObservationEvents(
            willStart: chain(willStart, other.willStart),
            willFetch: chain(willFetch, other.willFetch),
            willTrackRegion: chain(willTrackRegion, other.willTrackRegion),
            databaseDidChange: chain(databaseDidChange, other.databaseDidChange),
            didFail: chain(didFail, other.didFail),
            didCancel: chain(didCancel, other.didCancel))
    }
}

extension ValueObservation {
    /// The observation, which calls the given functions when its events
    /// happen: a debugging aid.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .handleEvents(didReceiveValue: { players in print("\(players.count) players") })
    /// ```
    ///
    /// - parameter willStart: the observation starts.
    /// - parameter willFetch: a value is about to be fetched.
    /// - parameter willTrackRegion: the region that the observation
    ///   tracks, when it is known or changes.
    /// - parameter databaseDidChange: a change impacted the tracked region.
    /// - parameter didReceiveValue: a value goes on (after the operators
    ///   placed before this one, such as ``removeDuplicates()``).
    /// - parameter didFail: the observation fails, and stops.
    /// - parameter didCancel: the observation is cancelled.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil) -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        let added = ValueObservationEvents(
            willStart: willStart, willFetch: willFetch, willTrackRegion: willTrackRegion,
            databaseDidChange: databaseDidChange, didFail: didFail, didCancel: didCancel)
        var observation = mapReducer { ValueReducers.Trace(base: $0, didReceiveValue: didReceiveValue) }
        observation.events = events.followed(by: added)
        return observation
    }

    /// The observation, which prints its events, each on a line, to
    /// `stream` (by default the standard output).
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchCount(db) }
    ///     .print("players")
    /// // players: start
    /// // players: fetch
    /// // players: tracked region: player(*)
    /// // players: value: 0
    /// ```
    public func print(
        _ prefix: String = "",
        to stream: (any TextOutputStream)? = nil) -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        let printer = EventPrinter(prefix: prefix, stream: stream)
        return handleEvents(
            willStart: { printer.print("start") },
            willFetch: { printer.print("fetch") },
            willTrackRegion: { printer.print("tracked region: \($0)") },
            databaseDidChange: { printer.print("database did change") },
            didReceiveValue: { printer.print("value: \($0)") },
            didFail: { printer.print("failure: \($0)") },
            didCancel: { printer.print("cancel") })
    }
}

/// Prints the events of ``ValueObservation/print(_:to:)``, one at a time.
private final class EventPrinter: @unchecked Sendable {
    // Guarded by `lock`: events come from several queues.
    private var stream: (any TextOutputStream)?
    private let prefix: String
    private let lock = NSLock()

    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix.isEmpty ? "" : "\(prefix): "
        self.stream = stream
    }

    func print(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        if var output = stream {
            output.write(prefix + message + "\n")
            stream = output
        } else {
            Swift.print(prefix + message)
        }
    }
}
