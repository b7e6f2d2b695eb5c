import Foundation

/// A started observation, which stops when it is cancelled.
///
/// ```swift
/// let cancellable: any DatabaseCancellable = observation.start(in: dbQueue) { _ in } onChange: { _ in }
/// cancellable.cancel()
/// ```
public protocol DatabaseCancellable: Sendable {
    /// Stops the observation.
    func cancel()
}

/// Stops an observation when it is cancelled or deallocated.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue) { error in
///     // Handle error
/// } onChange: { value in
///     print("Fresh value", value)
/// }
/// cancellable.cancel()
/// ```
public final class AnyDatabaseCancellable: DatabaseCancellable, @unchecked Sendable {
    // Guarded by `lock`.
    private var cancelAction: (@Sendable () -> Void)?
    private let lock = NSLock()

    /// A cancellable that runs `cancel` once.
    public init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = cancel
    }

    /// A cancellable that cancels `cancellable`.
    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init { cancellable.cancel() }
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
