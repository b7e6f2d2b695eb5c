import Dispatch
import Foundation
import TrellisSQLite

/// A database connection whose accesses never overlap, and run in the
/// order they were asked for.
///
/// Asynchronous accesses run on a serial dispatch queue. A synchronous
/// access runs on the caller's thread: it goes through the queue only when
/// asynchronous accesses are waiting there, behind them, or when the queue
/// has a target queue (`Configuration.targetQueue`). Otherwise it just
/// takes the access lock, which costs a fraction of a `DispatchQueue.sync`
/// (its generic wrapper, block and bookkeeping): a single-row read and write
/// cycle makes two accesses, so that cost shows next to raw SQLite.
final class SerializedDatabase: @unchecked Sendable {
    // The connection is only touched under `accessLock`: that is what makes
    // this type safe to share.
    private let db: Database
    private let queue: DispatchQueue
    private let accessLock = NSLock()

    // Guarded by `pendingLock`: the asynchronous accesses enqueued on
    // `queue` that have not ended yet. A synchronous access reads it while
    // it holds `accessLock`; enqueuing never waits for a running access.
    private let pendingLock = NSLock()
    private var pendingAsyncAccesses = 0

    /// Whether synchronous accesses run on the queue, always.
    private let synchronousAccessesUseQueue: Bool

    // Guarded by `connectionLock`: the connection that `interrupt()` reaches
    // from any thread, until it closes.
    private let connectionLock = NSLock()
    private var interruptibleConnection: SQLiteConnection?

    // Guarded by `observersLock`: the functions called after each access
    // that changed the database (value observations), by token, in the
    // order they were added.
    private let observersLock = NSLock()
    private var changeObservers: [(token: Int, observer: ChangeObserver)] = []
    private var nextObserverId = 0

    /// Opens a connection whose accesses run on a queue of the
    /// configuration's quality of service and target queue: the writer's
    /// when `isWriter`, else the readers'.
    init(path: String, configuration: Configuration, label: String, isWriter: Bool, checksSchemaVersion: Bool = false) throws {
        db = try Database(path: path, configuration: configuration, label: label)
        db.isOutsideAccess = true
        db.checksSchemaVersion = checksSchemaVersion
        interruptibleConnection = db.sqliteConnection
        let targetQueue = isWriter ? configuration.writeTargetQueue ?? configuration.targetQueue : configuration.targetQueue
        queue = DispatchQueue(label: label, qos: isWriter ? configuration.writeQoS : configuration.readQoS, target: targetQueue)
        // A target queue serializes the accesses with the other work of
        // that queue: synchronous accesses must go through it too.
        synchronousAccessesUseQueue = targetQueue != nil
        if let targetQueue {
            // Connections that share a target queue share its marker.
            targetMarker = Self.targetMarkerLock.withLock {
                if let marker = targetQueue.getSpecific(key: Self.targetMarkerKey) { return marker }
                let marker = TargetQueueMarker()
                targetQueue.setSpecific(key: Self.targetMarkerKey, value: marker)
                return marker
            }
        } else {
            targetMarker = nil
        }
    }

    /// Marks the target queues of connections, so that a synchronous
    /// access knows when its caller already runs on its target queue.
    final class TargetQueueMarker: Sendable {}
    private static let targetMarkerKey = DispatchSpecificKey<TargetQueueMarker>()
    private static let targetMarkerLock = NSLock()
    private let targetMarker: TargetQueueMarker?

    /// Whether the caller runs on the target queue of the connection.
    private var isOnTargetQueue: Bool {
        guard let targetMarker else { return false }
        return DispatchQueue.getSpecific(key: Self.targetMarkerKey) === targetMarker
    }

    deinit {
        // The cached statements of the connection keep it alive: closing
        // drops them.
        db.close()
    }

    var configuration: Configuration { db.configuration }

    /// Whether the caller runs in an access of this connection.
    var isAccessingOnCurrentThread: Bool {
        CurrentAccess.connection == identity
    }

    /// Whether the caller runs in an access of this connection, or in an
    /// access nested in one (a write made from a read of a pool).
    var isAccessingOnCurrentThreadAtAnyDepth: Bool {
        CurrentAccess.includes(identity)
    }

    private var identity: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Whether the caller runs in an access of this connection that is
    /// inside a transaction.
    var isInsideTransactionOnCurrentThread: Bool {
        isAccessingOnCurrentThread && db.isInsideTransaction
    }

    /// Runs `block` after the accesses asked for before, and waits for its
    /// result. A call from an access of the same connection throws instead
    /// of deadlocking.
    func sync<T>(_ block: (Database) throws -> T) throws -> T {
        // At any depth: a write of a pool nested in one of its reads must
        // not wait for that read's connection.
        guard !isAccessingOnCurrentThreadAtAnyDepth else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Database methods are not reentrant: use the Database value given to the enclosing closure.")
        }
        if synchronousAccessesUseQueue {
            // A caller that already runs on the target queue (in an access
            // of another connection that shares it, or in its own work)
            // would wait for itself there.
            if CurrentAccess.connection != nil || isOnTargetQueue {
                return try lockedAccess(block)
            }
            return try queue.sync { try lockedAccess(block) }
        }
        accessLock.lock()
        if pendingLock.withLock({ pendingAsyncAccesses == 0 }) {
            defer { accessLock.unlock() }
            return try access(block)
        }
        accessLock.unlock()
        return try queue.sync { try lockedAccess(block) }
    }

    /// Runs `block`, which can not be told of an error, as ``sync(_:)``
    /// does. Where `sync` would throw, it runs all the same: in the caller's
    /// access of this connection when there is one, and with the closed
    /// connection, whose statements throw, when it is closed.
    func syncWithoutErrors<T>(_ block: (Database) -> T) -> T {
        if isAccessingOnCurrentThreadAtAnyDepth { return block(db) }
        do {
            return try sync { db in
                // Such a closure can not be told of the failure of a row
                // accessor either.
                defer { db.unreportedDecodingErrors.removeAll() }
                return block(db)
            }
        } catch {
            // `sync` throws only before `block` runs, when the connection
            // is closed.
            return accessLock.withLock { block(db) }
        }
    }

    /// Runs `block` in the caller's access of this connection, if any, or
    /// else as ``sync(_:)`` does.
    func reentrantSync<T>(_ block: (Database) throws -> T) throws -> T {
        if isAccessingOnCurrentThread { return try block(db) }
        return try sync(block)
    }

    /// Runs `block` on the queue without blocking the caller's thread.
    ///
    /// When the task is cancelled, the statement that runs is interrupted, a
    /// transaction that `block` runs rolls back instead of committing, and
    /// the access throws `CancellationError`.
    func async<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let cancellation = AccessCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enqueue {
                    continuation.resume(with: Result {
                        try self.lockedAccess { db in
                            db.accessCancellation = cancellation
                            defer { db.accessCancellation = nil }
                            return try cancellation.run(interrupt: { self.interrupt() }) {
                                try block(db)
                            }
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
        enqueue {
            do {
                // The closure has received the connection, and can not be
                // told of the failure of a row accessor.
                try self.lockedAccess(reportsDecodingErrors: false, block)
            } catch {
                failure(error)
            }
        }
    }

    /// Runs `work` on the queue, as a pending asynchronous access.
    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        pendingLock.withLock { pendingAsyncAccesses += 1 }
        queue.async {
            work()
            self.pendingLock.withLock { self.pendingAsyncAccesses -= 1 }
        }
    }

    private func lockedAccess<T>(reportsDecodingErrors: Bool = true, _ block: (Database) throws -> T) throws -> T {
        accessLock.lock()
        defer { accessLock.unlock() }
        return try access(reportsDecodingErrors: reportsDecodingErrors, block)
    }

    /// One access, under the access lock, known as this thread's current
    /// access while it runs.
    private func access<T>(reportsDecodingErrors: Bool = true, _ block: (Database) throws -> T) throws -> T {
        try CurrentAccess.run(as: identity, database: db) {
            try bookkeptAccess(reportsDecodingErrors: reportsDecodingErrors, block)
        }
    }

    /// The connection's bookkeeping around `block`, then the change
    /// observers are told what it changed. When `reportsDecodingErrors`,
    /// the access throws the failure of a non-throwing row accessor that
    /// no fetch threw.
    private func bookkeptAccess<T>(reportsDecodingErrors: Bool, _ block: (Database) throws -> T) throws -> T {
        // Until the very end: the change observers run in the access.
        db.isOutsideAccess = false
        defer { db.isOutsideAccess = true }
        _ = try db.openConnection()
        // Written tables are only recorded for observers to read.
        db.willStartAccess(recordingWrittenTables: hasChangeObservers)
        // The changes of a transaction left open by a previous access are
        // committed, if ever, in this one.
        let changes = db.totalChangesCount - db.uncommittedChangesCount
        defer {
            notifyChangeObservers(changesCountAtStart: changes)
            db.didEndAccess()
        }
        let result = try block(db)
        if reportsDecodingErrors { try db.throwUnreportedDecodingError() }
        return result
    }

    /// What a change observer is called with: the changes of an access,
    /// and the connection, still in that access.
    typealias ChangeObserver = @Sendable (DatabaseChanges, Database) -> Void

    /// Registers a function called at the end of each access that changed
    /// the database, on the thread of the access and before any other
    /// access begins: an observer may read the state that the access
    /// committed. Returns a token for `removeChangeObserver`.
    func addChangeObserver(_ observer: @escaping ChangeObserver) -> Int {
        observersLock.lock()
        defer { observersLock.unlock() }
        nextObserverId += 1
        changeObservers.append((nextObserverId, observer))
        return nextObserverId
    }

    func removeChangeObserver(_ token: Int) {
        observersLock.lock()
        defer { observersLock.unlock() }
        changeObservers.removeAll { $0.token == token }
    }

    private var hasChangeObservers: Bool {
        observersLock.lock()
        defer { observersLock.unlock() }
        return !changeObservers.isEmpty
    }

    /// Tells the change observers what the access changed, if anything.
    private func notifyChangeObservers(changesCountAtStart: Int) {
        // Rolled back rows do not count: the database is as it was. Nor do
        // those of a transaction that the access leaves open.
        let committedChangesCount = db.totalChangesCount - db.uncommittedChangesCount
        let rowsChanged = committedChangesCount - changesCountAtStart - db.accessChanges.discardedChangesCount > 0
        guard rowsChanged || db.accessChanges.schemaChanged || db.accessChanges.isNotified else { return }
        observersLock.lock()
        let observers = changeObservers.map(\.observer)
        observersLock.unlock()
        guard !observers.isEmpty else { return }
        var accessChanges = db.accessChanges
        // Rows changed through the raw handle, or while no observer asked
        // for the written tables: any value may have changed.
        if rowsChanged && accessChanges.tables.isEmpty { accessChanges.tablesAreUnknown = true }
        let changes = accessChanges
        for observer in observers {
            observer(changes, db)
        }
    }

    /// Closes the connection, after the accesses asked for before. A call
    /// from an access of this connection throws instead of deadlocking.
    /// Statements kept past their access make it throw `SQLITE_BUSY`
    /// after it closed the connection for Trellis (see
    /// ``Database/closeReportingUnfinalizedStatements()``).
    func close() throws {
        try checkCallerIsOutsideAccess(of: "close()")
        connectionLock.lock()
        interruptibleConnection = nil
        connectionLock.unlock()
        try queue.sync { try accessLock.withLock { try db.closeReportingUnfinalizedStatements() } }
    }

    /// Throws when the caller runs in an access of this connection, where
    /// `operation`, which waits for the connection, would wait forever.
    func checkCallerIsOutsideAccess(of operation: String) throws {
        if isAccessingOnCurrentThread {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(operation) can not be called from an access of the connection it waits for")
        }
    }

    /// Makes the running statement of the connection, if any, stop at its
    /// earliest opportunity with `SQLITE_INTERRUPT`. Any thread may call it.
    func interrupt() {
        connectionLock.lock()
        defer { connectionLock.unlock() }
        if let interruptibleConnection { sqlite3_interrupt(interruptibleConnection) }
    }
}
