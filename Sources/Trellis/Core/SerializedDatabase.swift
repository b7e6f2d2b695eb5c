import Dispatch

/// A database connection that runs every access on its own serial dispatch
/// queue, so that accesses never overlap.
final class SerializedDatabase: @unchecked Sendable {
    // The connection is only touched on `queue`: that is what makes this
    // type safe to share.
    private let db: Database
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    init(path: String, configuration: Configuration, label: String, checksSchemaVersion: Bool = false) throws {
        db = try Database(path: path, configuration: configuration, label: label)
        db.checksSchemaVersion = checksSchemaVersion
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    var configuration: Configuration { db.configuration }

    var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    /// Runs `block` on the queue and waits for its result. A call from an
    /// access of the same connection throws instead of deadlocking.
    func sync<T>(_ block: (Database) throws -> T) throws -> T {
        guard !isOnQueue else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Database methods are not reentrant: use the Database value given to the enclosing closure.")
        }
        return try queue.sync {
            _ = try db.openConnection()
            db.willStartAccess()
            defer { db.didEndAccess() }
            return try block(db)
        }
    }

    /// Runs `block` on the queue: this method is for code already on it.
    func reentrantSync<T>(_ block: (Database) throws -> T) throws -> T {
        if isOnQueue { return try block(db) }
        return try sync(block)
    }

    /// Runs `block` on the queue without blocking the caller's thread.
    func async<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    _ = try self.db.openConnection()
                    self.db.willStartAccess()
                    defer { self.db.didEndAccess() }
                    return try block(self.db)
                })
            }
        }
    }

    func close() {
        queue.sync { db.close() }
    }
}
