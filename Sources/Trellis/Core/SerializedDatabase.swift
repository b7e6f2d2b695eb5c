import Dispatch
import Foundation
import TrellisSQLite

/// A database connection that runs every access on its own serial dispatch
/// queue, so that accesses never overlap.
final class SerializedDatabase: @unchecked Sendable {
    // The connection is only touched on `queue`: that is what makes this
    // type safe to share.
    private let db: Database
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    // Guarded by `connectionLock`: the connection that `interrupt()` reaches
    // from any thread, until it closes.
    private let connectionLock = NSLock()
    private var interruptibleConnection: SQLiteConnection?

    // Guarded by `observersLock`: the functions called after each access
    // that changed the database (value observations).
    private let observersLock = NSLock()
    private var changeObservers: [Int: @Sendable (DatabaseChanges) -> Void] = [:]
    private var nextObserverId = 0

    /// Opens a connection whose accesses run on a queue of the
    /// configuration's quality of service and target queue: the writer's
    /// when `isWriter`, else the readers'.
    init(path: String, configuration: Configuration, label: String, isWriter: Bool, checksSchemaVersion: Bool = false) throws {
        db = try Database(path: path, configuration: configuration, label: label)
        db.checksSchemaVersion = checksSchemaVersion
        interruptibleConnection = db.sqliteConnection
        if isWriter {
            queue = DispatchQueue(
                label: label, qos: configuration.writeQoS,
                target: configuration.writeTargetQueue ?? configuration.targetQueue)
        } else {
            queue = DispatchQueue(label: label, qos: configuration.readQoS, target: configuration.targetQueue)
        }
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    var configuration: Configuration { db.configuration }

    var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    /// Whether the caller runs in an access of this connection that is
    /// inside a transaction.
    var isInsideTransactionOnQueue: Bool {
        isOnQueue && db.isInsideTransaction
    }

    /// Runs `block` on the queue and waits for its result. A call from an
    /// access of the same connection throws instead of deadlocking.
    func sync<T>(_ block: (Database) throws -> T) throws -> T {
        guard !isOnQueue else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Database methods are not reentrant: use the Database value given to the enclosing closure.")
        }
        return try queue.sync { try access(block) }
    }

    /// Runs `block` on the queue: this method is for code already on it.
    func reentrantSync<T>(_ block: (Database) throws -> T) throws -> T {
        if isOnQueue { return try block(db) }
        return try sync(block)
    }

    /// Runs `block` on the queue without blocking the caller's thread.
    ///
    /// When the task is cancelled, a transaction that `block` runs rolls
    /// back instead of committing, and the access throws
    /// `CancellationError`.
    func async<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let cancellation = AccessCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result {
                        try self.access { db in
                            db.accessCancellation = cancellation
                            defer { db.accessCancellation = nil }
                            try cancellation.check()
                            let result = try block(db)
                            try cancellation.check()
                            return result
                        }
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Runs `block` on the queue, later: the completion-handler accesses
    /// (`asyncRead`, `asyncWrite`...). `failure` receives the error of a
    /// connection that can not be used (closed, for example).
    func asyncAccess(
        _ block: @escaping @Sendable (Database) -> Void,
        failure: @escaping @Sendable (any Error) -> Void)
    {
        queue.async {
            do {
                try self.access(block)
            } catch {
                failure(error)
            }
        }
    }

    /// One access, on the queue: the connection's bookkeeping around
    /// `block`, then the change observers are told what it changed.
    private func access<T>(_ block: (Database) throws -> T) throws -> T {
        _ = try db.openConnection()
        // Written tables are only recorded for observers to read.
        db.willStartAccess(recordingWrittenTables: hasChangeObservers)
        let changes = db.totalChangesCount
        defer {
            db.didEndAccess()
            notifyChangeObservers(changesCountAtStart: changes)
        }
        return try block(db)
    }

    /// Registers a function called, off the queue, after each access that
    /// changed the database. Returns a token for `removeChangeObserver`.
    func addChangeObserver(_ observer: @escaping @Sendable (DatabaseChanges) -> Void) -> Int {
        observersLock.lock()
        defer { observersLock.unlock() }
        nextObserverId += 1
        changeObservers[nextObserverId] = observer
        return nextObserverId
    }

    func removeChangeObserver(_ token: Int) {
        observersLock.lock()
        defer { observersLock.unlock() }
        changeObservers[token] = nil
    }

    private var hasChangeObservers: Bool {
        observersLock.lock()
        defer { observersLock.unlock() }
        return !changeObservers.isEmpty
    }

    /// Tells the change observers what the access changed, if anything.
    private func notifyChangeObservers(changesCountAtStart: Int) {
        let rowsChanged = db.totalChangesCount != changesCountAtStart
        guard rowsChanged || db.accessChanges.schemaChanged || db.accessChanges.isNotified else { return }
        observersLock.lock()
        let observers = Array(changeObservers.values)
        observersLock.unlock()
        guard !observers.isEmpty else { return }
        var accessChanges = db.accessChanges
        // Rows changed through the raw handle, or while no observer asked
        // for the written tables: any value may have changed.
        if rowsChanged && accessChanges.tables.isEmpty { accessChanges.tablesAreUnknown = true }
        let changes = accessChanges
        for observer in observers {
            DispatchQueue.global().async { observer(changes) }
        }
    }

    func close() {
        connectionLock.lock()
        interruptibleConnection = nil
        connectionLock.unlock()
        queue.sync { db.close() }
    }

    /// Makes the running statement of the connection, if any, stop at its
    /// earliest opportunity with `SQLITE_INTERRUPT`. Any thread may call it.
    func interrupt() {
        connectionLock.lock()
        defer { connectionLock.unlock() }
        if let interruptibleConnection { sqlite3_interrupt(interruptibleConnection) }
    }
}
