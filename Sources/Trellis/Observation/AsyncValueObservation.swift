/// The asynchronous sequence of the values of a ``ValueObservation``: the
/// observation starts when the sequence is iterated, and stops when the
/// iteration ends.
///
/// ```swift
/// for try await players in observation.values(in: dbQueue) {
///     print("Fresh players", players)
/// }
/// ```
public struct AsyncValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    /// How many values are kept for an iteration that is slower than the
    /// database.
    public typealias BufferingPolicy = AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy

    private let bufferingPolicy: BufferingPolicy
    private let start: @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable

    init(
        bufferingPolicy: BufferingPolicy,
        start: @escaping @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable)
    {
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<Value, any Error>.AsyncIterator {
        let stream = AsyncThrowingStream(Value.self, bufferingPolicy: bufferingPolicy) { continuation in
            let cancellable = start({ error in
                continuation.finish(throwing: error)
            }, { value in
                continuation.yield(value)
            })
            continuation.onTermination = { _ in cancellable.cancel() }
        }
        return stream.makeAsyncIterator()
    }
}
