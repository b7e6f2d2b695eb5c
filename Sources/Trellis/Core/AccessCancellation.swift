import Foundation

/// The cancellation of the task that awaits an asynchronous database
/// access. The task sets it from any thread; the access reads it on the
/// connection's queue: a transaction about to commit rolls back instead,
/// and the access throws `CancellationError`.
final class AccessCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var _isCancelled = false
    /// What interrupts the access while it runs: set when the access
    /// starts, cleared when it ends, so that a cancellation never
    /// interrupts the statements of another access of the connection.
    private var interruptRunningAccess: (@Sendable () -> Void)?

    var isCancelled: Bool { lock.withLock { _isCancelled } }

    /// Cancels the access, and interrupts its running statement, if any.
    func cancel() {
        lock.withLock {
            _isCancelled = true
            interruptRunningAccess?()
        }
    }

    /// Runs `body`, the access, which the cancellation interrupts with
    /// `interrupt`; an interruption caused by the cancellation throws
    /// `CancellationError`.
    func run<T>(interrupt: @escaping @Sendable () -> Void, _ body: () throws -> T) throws -> T {
        lock.withLock { interruptRunningAccess = interrupt }
        defer { lock.withLock { interruptRunningAccess = nil } }
        do {
            try check()
            let result = try body()
            try check()
            return result
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && isCancelled {
            throw CancellationError()
        }
    }

    /// Throws `CancellationError` when the task was cancelled.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
