import Foundation
import TrellisSQLite

/// An object told about the changes of the database, row by row, and
/// about the end of each transaction.
///
/// ```swift
/// final class PlayerChangeLogger: TransactionObserver {
///     var changedRowIDs: [Int64] = []
///
///     func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///         eventKind.tableName == "player"
///     }
///
///     func databaseDidChange(with event: DatabaseEvent) {
///         changedRowIDs.append(event.rowID)
///     }
///
///     func databaseDidCommit(_ db: Database) {
///         print("Players changed: \(changedRowIDs)")
///         changedRowIDs = []
///     }
///
///     func databaseDidRollback(_ db: Database) {
///         changedRowIDs = []
///     }
/// }
///
/// let logger = PlayerChangeLogger()
/// dbQueue.add(transactionObserver: logger)
/// ```
///
/// Observers are called on the writer connection's queue, in the order
/// they were added. Events come from SQLite's data change hook: changes of
/// `WITHOUT ROWID` tables, and rows that `INSERT OR REPLACE` deletes to
/// resolve a conflict, are not reported.
public protocol TransactionObserver: AnyObject {
    /// Whether the observer wants the events of this kind. It is asked
    /// before the events of a statement are reported, and should not
    /// change its answer.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// A row was inserted, updated or deleted. The event is only valid
    /// during the call: keep a ``DatabaseEvent/copy()``.
    func databaseDidChange(with event: DatabaseEvent)

    /// Changes that SQLite did not report were notified with
    /// ``Database/notifyChanges(in:)``, in a region this observer observes.
    func databaseDidChange()

    /// The transaction is about to commit. Throwing rolls it back, and
    /// the statement that commits throws the error.
    ///
    /// - Throws: Any error, to roll the transaction back: the statement that
    ///   commits throws it.
    func databaseWillCommit() throws

    /// The transaction committed.
    func databaseDidCommit(_ db: Database)

    /// The transaction rolled back.
    func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
    /// Does nothing: the commit goes on.
    ///
    /// - Throws: Never.
    public func databaseWillCommit() throws {}

    /// Does nothing.
    public func databaseDidChange() {}

    /// Stops the calls to ``databaseDidChange(with:)`` and
    /// ``databaseDidChange()`` until the current transaction ends: the
    /// observer has seen enough, and the rows that follow cost nothing.
    ///
    /// ```swift
    /// func databaseDidChange(with event: DatabaseEvent) {
    ///     playerTableWasModified = true
    ///     // It is pointless to keep on tracking further changes:
    ///     stopObservingDatabaseChangesUntilNextTransaction()
    /// }
    /// ```
    ///
    /// Call it from a callback of the observer, on the connection's queue.
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        TransactionObserverPauses.request(for: self)
    }
}

/// The observers that asked to stop observing changes until the end of
/// the transaction, until their connection's broker sees the request,
/// right after the callback that made it.
enum TransactionObserverPauses {
    // Guarded by `lock`: observers of several connections may ask at once.
    nonisolated(unsafe) private static var requests: Set<ObjectIdentifier> = []
    private static let lock = NSLock()

    static func request(for observer: some TransactionObserver) {
        lock.lock()
        requests.insert(ObjectIdentifier(observer))
        lock.unlock()
    }

    /// Whether the observer asked to stop; the request is consumed.
    static func take(_ identity: ObjectIdentifier) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return requests.remove(identity) != nil
    }
}

/// The kind of change a statement makes to a table, as asked to
/// ``TransactionObserver/observes(eventsOfKind:)``.
public enum DatabaseEventKind: Sendable, Hashable {
    /// Rows inserted into the table.
    case insert(tableName: String)
    /// Rows deleted from the table.
    case delete(tableName: String)
    /// Rows of the table updated; the columns are those the statement sets.
    case update(tableName: String, columnNames: Set<String>)

    /// The table of the event.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _): return tableName
        }
    }
}

/// A row inserted, updated or deleted, as told to
/// ``TransactionObserver/databaseDidChange(with:)``.
public struct DatabaseEvent: Sendable {
    /// What happened to the row.
    public enum Kind: Sendable {
        case insert
        case update
        case delete
    }

    /// What happened to the row.
    public let kind: Kind

    /// The database of the row: "main", "temp", or the name of an
    /// attached database.
    ///
    /// ```swift
    /// func databaseDidChange(with event: DatabaseEvent) {
    ///     if event.databaseName == "main" && event.tableName == "player" { ... }
    /// }
    /// ```
    public let databaseName: String

    /// The table of the row.
    public let tableName: String

    /// The rowid of the row.
    public let rowID: Int64

    /// A copy that outlives the call (events are values: the copy is the
    /// event itself).
    public func copy() -> DatabaseEvent { self }
}

extension Database {
    /// How long a transaction observer stays registered.
    public enum TransactionObservationExtent: Sendable {
        /// Until the observer is deallocated: the database holds it weakly.
        case observerLifetime
        /// Until the end of the next transaction (commit or rollback).
        case nextTransaction
        /// As long as the connection: the database holds it strongly.
        case databaseLifetime
    }

    /// Registers a transaction observer.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     db.add(transactionObserver: observer, extent: .nextTransaction)
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
    /// }
    /// ```
    public func add(transactionObserver: some TransactionObserver, extent: TransactionObservationExtent = .observerLifetime) {
        let broker = (transactionHookHandler as? TransactionObserverBroker) ?? TransactionObserverBroker()
        broker.add(transactionObserver, extent: extent)
        transactionHookHandler = broker
    }

    /// Unregisters a transaction observer.
    public func remove(transactionObserver: some TransactionObserver) {
        guard let broker = transactionHookHandler as? TransactionObserverBroker else { return }
        broker.remove(transactionObserver)
        // In a transaction, the broker keeps the changes of savepoints for
        // an observer that comes back: it goes when the transaction ends.
        if broker.isEmpty && !isInsideTransaction { transactionHookHandler = nil }
    }
}

extension DatabaseWriter {
    /// Registers a transaction observer on the writer connection.
    ///
    /// ```swift
    /// dbQueue.add(transactionObserver: observer)
    /// ```
    public func add(
        transactionObserver: some TransactionObserver,
        extent: Database.TransactionObservationExtent = .observerLifetime)
    {
        // Registering does not touch the file: it can not fail but on a
        // closed connection, where there is nothing left to observe.
        try? writeWithoutTransaction { db in db.add(transactionObserver: transactionObserver, extent: extent) }
    }

    /// Unregisters a transaction observer from the writer connection.
    public func remove(transactionObserver: some TransactionObserver) {
        try? writeWithoutTransaction { db in db.remove(transactionObserver: transactionObserver) }
    }
}
