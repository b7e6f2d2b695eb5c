import Dispatch
import Foundation

/// Fetches and delivers the values of one run of a ``ValueObservation``,
/// in order.
///
/// As GRDB documents, a fresh value is fetched right after each access
/// that committed changes to the observed region, on the writer
/// connection, before any other write can begin: each committed state of
/// the region gives a value (several commits made in one access give one).
/// An observation of explicit regions on a ``DatabasePool`` fetches on a
/// reader instead, concurrently with the next writes, and may then
/// coalesce changes.
final class ValueObserver<Reducer: ValueReducer>: @unchecked Sendable {
    typealias Value = Reducer.Value
    // `token`, `isCancelled` and `observedRegion` are guarded by `lock`.
    // `fetchLock` serializes the fetches, which alone touch `reducer` and
    // `trackedRegion`, and the scheduling of their deliveries: it is taken
    // inside a database access, never while waiting for one.
    private let reader: any DatabaseReader
    private var reducer: Reducer
    /// The region to observe, when it is not what the fetch reads.
    private let explicitRegion: ((Database) throws -> DatabaseRegion)?
    private let events: ValueObservationEvents
    private let requiresWriteAccess: Bool
    private let scheduler: any ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Value) -> Void
    /// Runs the fetches made off the writer.
    private let queue = DispatchQueue(label: "Trellis.ValueObservation")
    private let lock = NSLock()
    private let fetchLock = NSLock()
    private var token: Int?
    private var isCancelled = false
    /// The region of the last fetch; nil until the first fetch.
    private var observedRegion: DatabaseRegion?
    /// The region last told to `willTrackRegion`.
    private var trackedRegion: DatabaseRegion?

    init(reader: any DatabaseReader, reducer: Reducer, trackedRegion: ((Database) throws -> DatabaseRegion)?,
         events: ValueObservationEvents, requiresWriteAccess: Bool, scheduler: any ValueObservationScheduler,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void)
    {
        self.reader = unwrappedDatabaseReader(reader)
        self.reducer = reducer
        self.explicitRegion = trackedRegion
        self.events = events
        self.requiresWriteAccess = requiresWriteAccess
        self.scheduler = scheduler
        self.onError = onError
        self.onChange = onChange
    }

    private var writer: SerializedDatabase? {
        (reader as? DatabaseQueue)?.writer ?? (reader as? DatabasePool)?.writer
    }

    /// Whether the reader reads through the writer connection: the first
    /// fetch then sees every change committed before it.
    private var readsThroughWriter: Bool { reader is DatabaseQueue }

    /// Whether the fetches that follow changes run on a reader of a pool,
    /// concurrently with writes: only for explicit regions, which do not
    /// depend on what the fetch reads.
    private var fetchesConcurrently: Bool {
        reader is DatabasePool && explicitRegion != nil && !requiresWriteAccess
    }

    func start() {
        events.willStart?()
        let token = writer?.addChangeObserver { [weak self] changes, db in self?.databaseDidChange(changes, in: db) }
        lock.lock()
        self.token = token
        lock.unlock()
        if scheduler.immediateInitialValue() {
            // The first value (or error) is delivered before `start`
            // returns, on the calling thread, even when the access runs
            // on the connection's queue.
            var deliveries: [@Sendable () -> Void] = []
            fetchFromReader { deliveries.append($0) }
            for delivery in deliveries { delivery() }
        } else if readsThroughWriter, let writer {
            // Queued on the connection, as GRDB does: the accesses asked
            // for after `start` run after the first fetch, and each one
            // that changes the region gives a value of its own.
            writer.asyncAccess({ [self] db in fetchOnWriter(db) }, failure: { [self] error in fail(error, schedule) })
        } else {
            queue.async { [self] in fetchFromReader(schedule) }
        }
    }

    func cancel() {
        if stop() { events.didCancel?() }
    }

    /// Stops observing the writer; false when the observation had stopped
    /// already.
    private func stop() -> Bool {
        lock.lock()
        let wasCancelled = isCancelled
        isCancelled = true
        let token = self.token
        self.token = nil
        lock.unlock()
        if let token { writer?.removeChangeObserver(token) }
        return !wasCancelled
    }

    private var cancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isCancelled
    }

    /// Called at the end of each access of the writer that changed the
    /// database, inside that access.
    private func databaseDidChange(_ changes: DatabaseChanges, in db: Database) {
        lock.lock()
        let region = observedRegion
        lock.unlock()
        guard !cancelled else { return }
        if let region {
            // A fetch with write access may change the schema (a temporary
            // table): like GRDB, it then ignores schema changes, lest it
            // fetch forever.
            let isImpacted = requiresWriteAccess ? region.isImpacted(byRowsOf: changes) : region.isImpacted(by: changes)
            guard isImpacted else { return }
            events.databaseDidChange?()
        } else if readsThroughWriter {
            // The first fetch has not run yet: it will see this change.
            return
        }
        // Before the first fetch of a pool, any change may matter: the
        // fetch runs again, but no change of the region is told.
        if fetchesConcurrently {
            queue.async { [self] in fetchFromReader(schedule) }
        } else {
            fetchOnWriter(db)
        }
    }

    /// The first fetch, and those of concurrent observations.
    private func fetchFromReader(_ schedule: (@escaping @Sendable () -> Void) -> Void) {
        do {
            if requiresWriteAccess, let writer = reader as? any DatabaseWriter {
                try writer.write { db in try fetchAndSchedule(db, schedule) }
            } else {
                try reader.read { db in try fetchAndSchedule(db, schedule) }
            }
        } catch {
            fail(error, schedule)
        }
    }

    /// A fetch that follows changes, in the writer's access that made
    /// them, or the first fetch of a ``DatabaseQueue``, in an access of
    /// its own.
    private func fetchOnWriter(_ db: Database) {
        do {
            if requiresWriteAccess {
                try db.inSavepoint {
                    try fetchAndSchedule(db, schedule)
                    return .commit
                }
            } else {
                try db.readOnly { try fetchAndSchedule(db, schedule) }
            }
        } catch {
            fail(error, schedule)
        }
    }

    /// Fetches the value, and schedules its delivery. Runs inside an
    /// access of `db`.
    private func fetchAndSchedule(_ db: Database, _ schedule: (@escaping @Sendable () -> Void) -> Void) throws {
        fetchLock.lock()
        defer { fetchLock.unlock() }
        guard !cancelled else { return }
        events.willFetch?()
        let ((fetched, columns), registered) = try ObservedAccesses.recording(db) {
            try db.recordingReadColumns { try reducer._fetch(db) }
        }
        let region = try explicitRegion?(db) ?? DatabaseRegion(tables: columns).union(registered)
        lock.lock()
        observedRegion = region
        lock.unlock()
        if region != trackedRegion {
            trackedRegion = region
            events.willTrackRegion?(region)
        }
        // The region is told before the value, which the reducers (map,
        // removeDuplicates, handleEvents) make from what was fetched.
        guard let value = try reducer._value(fetched) else { return }
        schedule { [self] in
            if !cancelled { onChange(value) }
        }
    }

    /// Stops the observation, and delivers its error.
    private func fail(_ error: any Error, _ schedule: (@escaping @Sendable () -> Void) -> Void) {
        guard stop() else { return }
        events.didFail?(error)
        schedule { [onError] in onError(error) }
    }

    /// Delivers on the scheduler, in order.
    private func schedule(_ delivery: @escaping @Sendable () -> Void) {
        scheduler.schedule(delivery)
    }
}
