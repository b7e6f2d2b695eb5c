import Foundation
import TrellisSQLite

extension Database {
    /// Post it when the application is about to be suspended: the
    /// databases whose configuration has
    /// ``Configuration/observesSuspensionNotifications`` stop acquiring
    /// locks, so that the system does not end the application for holding
    /// one while suspended (`0xDEAD10CC` on iOS).
    ///
    /// ```swift
    /// NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    /// ```
    ///
    /// A running statement is interrupted, and the statements that follow
    /// throw `SQLITE_INTERRUPT` ("Database is suspended") until
    /// ``resumeNotification``; only those that end a transaction run, so
    /// that its locks are released.
    public static let suspendNotification = Notification.Name("Trellis.Database.suspendNotification")

    /// Post it to resume the databases that ``suspendNotification`` suspended.
    ///
    /// ```swift
    /// NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
    /// ```
    public static let resumeNotification = Notification.Name("Trellis.Database.resumeNotification")
}

/// The suspension of one connection: whether the application is
/// suspended, as ``Database/suspendNotification`` and
/// ``Database/resumeNotification`` last said (read before each statement),
/// and the interruption of the statement that runs when it gets suspended.
final class DatabaseSuspension: @unchecked Sendable {
    /// Created before the first connection observes: NotificationCenter
    /// calls observers in the order they were added, so the state is
    /// suspended before any connection is interrupted.
    private static let applicationState = ApplicationSuspensionState()

    private let lock = NSLock()
    /// The connection to interrupt, until it closes.
    private var connection: SQLiteConnection?
    private var observer: (any NSObjectProtocol)?

    init(connection: SQLiteConnection) {
        self.connection = connection
        _ = Self.applicationState
        observer = NotificationCenter.default.addObserver(
            forName: Database.suspendNotification, object: nil, queue: nil
        ) { [weak self] _ in
            self?.interrupt()
        }
    }

    var isSuspended: Bool { Self.applicationState.isSuspended }

    private func interrupt() {
        lock.withLock {
            // Thread-safe while the connection is open, which the lock
            // guarantees; without a running statement, it does nothing.
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    /// Stops observing, before the connection closes.
    func close() {
        lock.withLock { connection = nil }
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
    }
}

extension Statement {
    /// Whether a suspended connection still runs the statement: it undoes
    /// or ends a transaction, and so releases locks rather than acquiring
    /// them.
    var endsSuspendedTransaction: Bool {
        if region.rollsBack { return true }
        if case .releaseSavepoint = region.transactionControl { return true }
        return false
    }
}

/// Whether the application is suspended, as the last notification said:
/// connections opened meanwhile (the readers that a pool opens on demand)
/// are suspended from the start.
private final class ApplicationSuspensionState: @unchecked Sendable {
    private let lock = NSLock()
    private var suspended = false
    private var observers: [any NSObjectProtocol] = []

    init() {
        let center = NotificationCenter.default
        // Observed for the life of the process, as the state they keep.
        observers = [
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { [weak self] _ in
                self?.set(true)
            },
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { [weak self] _ in
                self?.set(false)
            },
        ]
    }

    var isSuspended: Bool { lock.withLock { suspended } }

    private func set(_ value: Bool) {
        lock.withLock { suspended = value }
    }
}
