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
    let fetch: @Sendable (Database) throws -> Value
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?

    /// An observation of the value that `fetch` returns.
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value> {
        ValueObservation(fetch: fetch, isDuplicate: nil)
    }

    /// Starts the observation: `onChange` receives the current value, then
    /// the value after each change; `onError` receives the first error,
    /// which ends the observation.
    public func start(
        in reader: any DatabaseReader,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable
    {
        let observer = ValueObserver(reader: reader, fetch: fetch, isDuplicate: isDuplicate, onError: onError, onChange: onChange)
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
        ValueObservation(fetch: fetch, isDuplicate: { $0 == $1 })
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
    // `token`, `isCancelled` and `readTables` are guarded by `lock`; fetches
    // and deliveries run on `queue`, which alone touches `lastValue`.
    private let reader: any DatabaseReader
    private let fetch: @Sendable (Database) throws -> Value
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Value) -> Void
    private let queue = DispatchQueue(label: "Trellis.ValueObservation")
    private let lock = NSLock()
    private var token: Int?
    private var isCancelled = false
    /// The tables read by the last fetch; nil until the first fetch.
    private var readTables: Set<String>?
    private var lastValue: Value?

    init(reader: any DatabaseReader, fetch: @escaping @Sendable (Database) throws -> Value,
         isDuplicate: (@Sendable (Value, Value) -> Bool)?,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void)
    {
        self.reader = reader
        self.fetch = fetch
        self.isDuplicate = isDuplicate
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
        refresh()
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
        let isImpacted = readTables.map { changes.impacts(readTables: $0) } ?? true
        lock.unlock()
        if isImpacted { refresh() }
    }

    private func refresh() {
        queue.async { [self] in
            guard !cancelled else { return }
            do {
                let (value, tables) = try reader.read { db in try db.recordingReadTables { try fetch(db) } }
                lock.lock()
                readTables = tables
                lock.unlock()
                if let isDuplicate, let lastValue, isDuplicate(lastValue, value) { return }
                lastValue = value
                if !cancelled { onChange(value) }
            } catch {
                if !cancelled {
                    cancel()
                    onError(error)
                }
            }
        }
    }
}
