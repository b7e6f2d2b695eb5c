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

/// Whether a connection is suspended, set by the notifications of
/// ``Database/suspendNotification`` from any thread, read by the
/// connection before each statement.
final class DatabaseSuspension: @unchecked Sendable {
    /// Whether the notifications last said suspended, for the connections
    /// opened meanwhile, such as the readers that a pool opens on demand.
    private static let applicationState = ApplicationSuspensionState()

    private let lock = NSLock()
    private var suspended: Bool
    /// The connection to interrupt, until it closes.
    private var connection: SQLiteConnection?
    private var observers: [any NSObjectProtocol] = []

    init(connection: SQLiteConnection) {
        self.connection = connection
        suspended = Self.applicationState.isSuspended
        let center = NotificationCenter.default
        observers = [
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { [weak self] _ in
                self?.suspend()
            },
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { [weak self] _ in
                self?.resume()
            },
        ]
    }

    var isSuspended: Bool { lock.withLock { suspended } }

    func suspend() {
        lock.withLock {
            suspended = true
            // Thread-safe while the connection is open, which the lock
            // guarantees; without a running statement, it does nothing.
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    func resume() {
        lock.withLock { suspended = false }
    }

    /// Stops observing, before the connection closes.
    func close() {
        lock.withLock { connection = nil }
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers = []
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

/// Whether the application is suspended, as the last notification said.
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
