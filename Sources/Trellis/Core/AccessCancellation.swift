import Foundation

/// The cancellation of the task that awaits an asynchronous database
/// access. The task sets it from any thread; the access reads it on the
/// connection's queue: a transaction about to commit rolls back instead,
/// and the access throws `CancellationError`.
final class AccessCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var _isCancelled = false

    var isCancelled: Bool { lock.withLock { _isCancelled } }

    func cancel() {
        lock.withLock { _isCancelled = true }
    }

    /// Throws `CancellationError` when the task was cancelled.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
