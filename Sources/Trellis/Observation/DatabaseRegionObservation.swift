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
    /// example); the observation then ends. It also receives the error of
    /// an `onChange` that keeps writing in the region (each of its commits
    /// calls `onChange` again): after 100 nested calls, the observation
    /// ends, where the recursion would overflow the stack.
    public func start(
        in writer: some DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void) -> AnyDatabaseCancellable
    {
        let observer = RegionObserver(writer: writer, onError: onError, onChange: onChange)
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
    private let onError: @Sendable (any Error) -> Void
    /// The number of `onChange` calls in progress, nested in the commits
    /// of their own writes.
    private var nestedChangeCount = 0
    private static let maximumNestedChangeCount = 100
    private let lock = NSLock()
    private var isCancelled = false
    private weak var writer: (any DatabaseWriter)?

    init(writer: any DatabaseWriter, onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Database) -> Void) {
        self.writer = writer
        self.onError = onError
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
        // The region may know its rows: a change of another row of its
        // tables does not count.
        guard region.isModified(by: event) else { return }
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
            notifyChange(db)
        }
    }

    func databaseDidCommit(_ db: Database) {
        guard isChanged else { return }
        isChanged = false
        notifyChange(db)
    }

    private func notifyChange(_ db: Database) {
        guard !cancelled else { return }
        guard nestedChangeCount < Self.maximumNestedChangeCount else {
            cancel()
            onError(DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "DatabaseRegionObservation: onChange wrote in the observed region \(Self.maximumNestedChangeCount) times in a row; the observation ended"))
            return
        }
        nestedChangeCount += 1
        defer { nestedChangeCount -= 1 }
        onChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        isChanged = false
    }
}
