import Dispatch
import Foundation
import Trellis

/// What observation callbacks receive, awaited in order, each wait with a
/// timeout: a test fails instead of hanging when a value never comes.
final class ObservationInbox<Value: Sendable>: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var description: String { "no value arrived in time" }
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var received: [Result<Value, any Error>] = []
    private var waiters: [(id: Int, continuation: CheckedContinuation<Result<Value, any Error>?, Never>)] = []
    private var nextWaiterId = 0

    init() {}

    func receive(_ result: Result<Value, any Error>) {
        lock.lock()
        if waiters.isEmpty {
            received.append(result)
            lock.unlock()
        } else {
            let waiter = waiters.removeFirst()
            lock.unlock()
            waiter.continuation.resume(returning: result)
        }
    }

    func receive(_ value: Value) {
        receive(.success(value))
    }

    /// The next value or error, in the order they came; nil when nothing
    /// came before the timeout.
    func next(timeout: TimeInterval = 10) async -> Result<Value, any Error>? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if !received.isEmpty {
                let result = received.removeFirst()
                lock.unlock()
                continuation.resume(returning: result)
                return
            }
            nextWaiterId += 1
            let id = nextWaiterId
            waiters.append((id, continuation))
            lock.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                lock.lock()
                guard let index = waiters.firstIndex(where: { $0.id == id }) else {
                    lock.unlock()
                    return
                }
                let waiter = waiters.remove(at: index)
                lock.unlock()
                waiter.continuation.resume(returning: nil)
            }
        }
    }

    /// The next value; throws the received error, or ``Timeout``.
    func nextValue(timeout: TimeInterval = 10) async throws -> Value {
        guard let result = await next(timeout: timeout) else { throw Timeout() }
        return try result.get()
    }

    /// The next error; throws ``Timeout`` when none comes, and returns nil
    /// when a value comes instead.
    func nextError(timeout: TimeInterval = 10) async throws -> (any Error)? {
        guard let result = await next(timeout: timeout) else { throw Timeout() }
        if case .failure(let error) = result { return error }
        return nil
    }

    /// What was received and not awaited yet, without waiting.
    func pending() -> [Result<Value, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        let results = received
        received = []
        return results
    }
}

/// A thread-safe list, for the events of an observation.
final class ObservationLog<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    init() {}

    func append(_ element: Element) {
        lock.lock()
        elements.append(element)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return elements
    }
}

/// Whether the current code runs on the main dispatch queue, where the main
/// actor runs (on Linux, not always on the main thread).
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
