import Dispatch
import Foundation

/// Fetches and delivers the values of one run of a ``ValueObservation``,
/// in order.
final class ValueObserver<Value: Sendable>: @unchecked Sendable {
    // `token`, `isCancelled` and `observedRegion` are guarded by `lock`; fetches run on `queue`, one at a time, which
    // alone touches `fetcher` and `trackedRegion`.
    private let reader: any DatabaseReader
    private let fetcher: ValueFetcher<Value>
    private let events: ValueObservationEvents
    private let requiresWriteAccess: Bool
    private let scheduler: ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Value) -> Void
    private let queue = DispatchQueue(label: "Trellis.ValueObservation")
    private let lock = NSLock()
    private var token: Int?
    private var isCancelled = false
    /// The region of the last fetch; nil until the first fetch.
    private var observedRegion: DatabaseRegion?
    /// The region last told to `willTrackRegion`.
    private var trackedRegion: DatabaseRegion?

    init(reader: any DatabaseReader, fetcher: ValueFetcher<Value>, events: ValueObservationEvents,
         requiresWriteAccess: Bool, scheduler: ValueObservationScheduler,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void)
    {
        self.reader = reader
        self.fetcher = fetcher
        self.events = events
        self.requiresWriteAccess = requiresWriteAccess
        self.scheduler = scheduler
        self.onError = onError
        self.onChange = onChange
    }

    private var writer: SerializedDatabase? {
        (reader as? DatabaseQueue)?.writer ?? (reader as? DatabasePool)?.writer
    }

    func start() {
        events.willStart?()
        let token = writer?.addChangeObserver { [weak self] changes in self?.databaseDidChange(changes) }
        lock.lock()
        self.token = token
        lock.unlock()
        if case .immediate = scheduler.kind {
            queue.sync { fetchAndDeliver { $0() } }
        } else {
            refresh()
        }
    }

    func cancel() {
        lock.lock()
        let wasCancelled = isCancelled
        isCancelled = true
        let token = self.token
        self.token = nil
        lock.unlock()
        if let token { writer?.removeChangeObserver(token) }
        if !wasCancelled { events.didCancel?() }
    }

    private var cancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isCancelled
    }

    private func databaseDidChange(_ changes: DatabaseChanges) {
        lock.lock()
        // Before the first fetch, any change may matter. A fetch with
        // write access may change the schema (a temporary table): like
        // GRDB, it then ignores schema changes, lest it fetch forever.
        let hasFetched = observedRegion != nil
        let isImpacted = observedRegion.map { region in
            requiresWriteAccess ? region.isImpacted(byRowsOf: changes) : region.isImpacted(by: changes)
        } ?? true
        lock.unlock()
        guard isImpacted, !cancelled else { return }
        // Before the first fetch, no region is tracked yet: the fetch runs
        // again, but no change of the region is told.
        if hasFetched { events.databaseDidChange?() }
        refresh()
    }

    private func refresh() {
        queue.async { [self] in
            fetchAndDeliver { delivery in
                switch scheduler.kind {
                case .background: delivery()
                case .queue(let queue), .immediate(later: let queue): queue.async(execute: delivery)
                }
            }
        }
    }

    /// Fetches the value, and schedules its delivery (or the error's).
    private func fetchAndDeliver(_ schedule: (@escaping @Sendable () -> Void) -> Void) {
        guard !cancelled else { return }
        do {
            events.willFetch?()
            let fetch = { [self] (db: Database) throws -> (Value?, DatabaseRegion) in
                let ((value, columns), registered) = try ObservedAccesses.recording(db) {
                    try db.recordingReadColumns { try fetcher.next(db) }
                }
                let region = try fetcher.region?(db) ?? DatabaseRegion(tables: columns).union(registered)
                // Known before the access ends, and tells what its changes
                // (a fetch with write access) impact.
                lock.lock()
                observedRegion = region
                lock.unlock()
                return (value, region)
            }
            let (value, region): (Value?, DatabaseRegion)
            if requiresWriteAccess, let writer = reader as? any DatabaseWriter {
                (value, region) = try writer.write(fetch)
            } else {
                (value, region) = try reader.read(fetch)
            }
            if region != trackedRegion {
                trackedRegion = region
                events.willTrackRegion?(region)
            }
            fetcher.receivedValueEvents.flush()
            guard let value else { return }
            schedule { [self] in
                if !cancelled { onChange(value) }
            }
        } catch {
            guard !cancelled else { return }
            lock.lock()
            isCancelled = true
            let token = self.token
            self.token = nil
            lock.unlock()
            if let token { writer?.removeChangeObserver(token) }
            events.didFail?(error)
            schedule { [onError] in onError(error) }
        }
    }
}
