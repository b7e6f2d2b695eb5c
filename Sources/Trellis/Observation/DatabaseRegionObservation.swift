import Foundation

/// Calls a function after each transaction that changed a region of the
/// database, on the writer connection, right after the commit.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Player.all())
/// let cancellable = observation.start(in: dbQueue) { error in
///     // Handle error
/// } onChange: { (db: Database) in
///     print("Players were changed")
/// }
/// ```
///
/// Unlike ``ValueObservation``, it fetches nothing: `onChange` receives the
/// connection, and may read from it before any other write happens.
public struct DatabaseRegionObservation: Sendable {
    private let regions: [any DatabaseRegionConvertible & Sendable]

    /// Observes the union of the regions.
    public init(tracking regions: any DatabaseRegionConvertible & Sendable...) {
        self.regions = regions
    }

    /// Observes the union of the regions.
    public init(tracking regions: [any DatabaseRegionConvertible & Sendable]) {
        self.regions = regions
    }

    /// Starts the observation. `onError` receives the error that keeps
    /// the region from being known (a request on a missing table, for
    /// example); the observation then ends.
    public func start(
        in writer: some DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void) -> AnyDatabaseCancellable
    {
        let observer = RegionObserver(writer: writer, onChange: onChange)
        do {
            try writer.writeWithoutTransaction { db in
                observer.region = try regions.reduce(DatabaseRegion()) { try $0.union($1.databaseRegion(db)) }
                db.add(transactionObserver: observer, extent: .observerLifetime)
            }
        } catch {
            onError(error)
            return AnyDatabaseCancellable {}
        }
        // The database holds the observer weakly: the cancellable keeps it.
        return AnyDatabaseCancellable { observer.cancel() }
    }
}

/// The transaction observer of a ``DatabaseRegionObservation``.
private final class RegionObserver: TransactionObserver, @unchecked Sendable {
    // Used on the writer connection's queue, but for `isCancelled`, which
    // `lock` guards.
    var region = DatabaseRegion()
    private var isChanged = false
    private let onChange: @Sendable (Database) -> Void
    private let lock = NSLock()
    private var isCancelled = false
    private weak var writer: (any DatabaseWriter)?

    init(writer: any DatabaseWriter, onChange: @escaping @Sendable (Database) -> Void) {
        self.writer = writer
        self.onChange = onChange
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        lock.unlock()
    }

    private var cancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isCancelled
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        isChanged = true
        // The first change decides: the next rows of the transaction need
        // not be reported.
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidChange() {
        isChanged = true
        // Changes notified with `notifyChanges(in:)` may happen in a
        // transaction that writes nothing, whose end SQLite does not
        // report: the function is then called after the current access.
        writer?.asyncWriteWithoutTransaction { [weak self] db in
            guard let self, isChanged else { return }
            isChanged = false
            if !cancelled { onChange(db) }
        }
    }

    func databaseDidCommit(_ db: Database) {
        guard isChanged else { return }
        isChanged = false
        if !cancelled { onChange(db) }
    }

    func databaseDidRollback(_ db: Database) {
        isChanged = false
    }
}
