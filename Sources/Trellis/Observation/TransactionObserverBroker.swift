import TrellisSQLite

/// Dispatches the reports of SQLite's hooks to the transaction observers
/// of one connection.
///
/// Changes made inside a savepoint wait in a buffer until the savepoint is
/// released into the transaction, and are dropped when it is rolled back:
/// observers only hear of changes that may still be committed. Each
/// buffered change remembers the observers that wanted it when it was
/// made, and reaches those still registered (and not paused) when it is
/// delivered.
final class TransactionObserverBroker: TransactionHookHandler {
    private struct Registration {
        weak var weakObserver: (any TransactionObserver)?
        var strongObserver: (any TransactionObserver)?
        let identity: ObjectIdentifier
        let extent: Database.TransactionObservationExtent
        /// Set by `stopObservingDatabaseChangesUntilNextTransaction()`.
        var isPaused = false

        var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }
    }

    /// A change made in a savepoint, and the observers that want it.
    private struct BufferedChange {
        let event: DatabaseEvent
        let observers: [ObjectIdentifier]
    }

    /// The observers that want one kind of change made by the statement
    /// that runs: by position in `registrations`, and by identity.
    private struct Interest {
        let wants: [Bool]
        let identities: [ObjectIdentifier]
    }

    private struct InterestKey: Hashable {
        let operation: CInt
        let tableName: String
    }

    private var registrations: [Registration] = []

    /// The answers of `observes(eventsOfKind:)` for the statement that
    /// runs, by operation and table.
    private var interests: [InterestKey: Interest] = [:]
    private weak var interestsStatement: Statement?

    /// The changes of each open savepoint, outermost first, parallel to
    /// the connection's `savepointNames`. It may be shorter when observers
    /// came after some savepoints began: the missing buffers are empty.
    private var savepointBuffers: [[BufferedChange]] = []

    /// Whether no observer is left.
    var isEmpty: Bool {
        !registrations.contains { $0.observer != nil }
    }

    func add(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
        let identity = ObjectIdentifier(observer)
        registrations.removeAll { $0.identity == identity || $0.observer == nil }
        switch extent {
        case .observerLifetime:
            registrations.append(Registration(weakObserver: observer, strongObserver: nil, identity: identity, extent: extent))
        case .nextTransaction, .databaseLifetime:
            registrations.append(Registration(weakObserver: nil, strongObserver: observer, identity: identity, extent: extent))
        }
        interests.removeAll()
    }

    func remove(_ observer: some TransactionObserver) {
        let identity = ObjectIdentifier(observer)
        registrations.removeAll { $0.identity == identity }
        interests.removeAll()
    }

    // MARK: - Changes

    func rowDidChange(_ db: Database, operation: CInt, databaseName: String, tableName: String, rowID: Int64) {
        let interest = self.interest(db, operation: operation, tableName: tableName)
        let event = DatabaseEvent(
            kind: eventKind(operation), databaseName: databaseName, tableName: tableName, rowID: rowID)
        let depth = db.savepointNames.count
        if depth == 0 {
            for index in registrations.indices where interest.wants[index] {
                notify(registrationAt: index, of: event)
            }
        } else if !interest.identities.isEmpty {
            if savepointBuffers.count > depth { savepointBuffers.removeSubrange(depth...) }
            while savepointBuffers.count < depth { savepointBuffers.append([]) }
            savepointBuffers[depth - 1].append(BufferedChange(event: event, observers: interest.identities))
        }
    }

    /// The observers that want a kind of change of the statement that
    /// runs, asked once per statement.
    private func interest(_ db: Database, operation: CInt, tableName: String) -> Interest {
        let statement = db.executingStatement
        if statement !== interestsStatement {
            interests.removeAll(keepingCapacity: true)
            interestsStatement = statement
        }
        let key = InterestKey(operation: operation, tableName: tableName)
        if let known = interests[key], known.wants.count == registrations.count {
            return known
        }
        let kind = eventKind(operation: operation, tableName: tableName, statement: statement)
        let wants = registrations.map { $0.observer?.observes(eventsOfKind: kind) ?? false }
        let identities = registrations.indices.filter { wants[$0] }.map { registrations[$0].identity }
        let interest = Interest(wants: wants, identities: identities)
        interests[key] = interest
        return interest
    }

    /// Calls `databaseDidChange(with:)` unless the observer is gone or
    /// paused, and pauses it when it asks.
    private func notify(registrationAt index: Int, of event: DatabaseEvent) {
        guard !registrations[index].isPaused, let observer = registrations[index].observer else { return }
        observer.databaseDidChange(with: event)
        if TransactionObserverPauses.take(registrations[index].identity) {
            registrations[index].isPaused = true
        }
    }

    /// Tells the buffered changes to the observers that wanted them and
    /// are still registered.
    private func deliver(_ changes: some Sequence<BufferedChange>) {
        for change in changes {
            for identity in change.observers {
                guard let index = registrations.firstIndex(where: { $0.identity == identity }) else { continue }
                notify(registrationAt: index, of: change.event)
            }
        }
    }

    /// Calls `databaseDidChange()` on the observers that observe a kind of
    /// event on a table of `tables` (whose columns are given), asked in the
    /// order GRDB asks: deletions, insertions, updates of all columns. All
    /// observers, for the full database. GRDB does not wait for savepoints
    /// to be released to tell these.
    func notifyChanges(inTables tables: [(name: String, columns: Set<String>)]?) {
        for index in registrations.indices where !registrations[index].isPaused {
            guard let observer = registrations[index].observer else { continue }
            let observes: Bool
            if let tables {
                observes = tables.contains { table in
                    observer.observes(eventsOfKind: .delete(tableName: table.name))
                        || observer.observes(eventsOfKind: .insert(tableName: table.name))
                        || observer.observes(eventsOfKind: .update(tableName: table.name, columnNames: table.columns))
                }
            } else {
                observes = true
            }
            guard observes else { continue }
            observer.databaseDidChange()
            if TransactionObserverPauses.take(registrations[index].identity) {
                registrations[index].isPaused = true
            }
        }
    }

    // MARK: - Savepoints

    func savepointsWillRelease(_ db: Database, fromDepth depth: Int) {
        guard depth < savepointBuffers.count else { return }
        let released = Array(savepointBuffers[depth...].joined())
        savepointBuffers.removeSubrange(depth...)
        if depth == 0 {
            // Into the transaction: the changes may now be committed.
            deliver(released)
        } else {
            while savepointBuffers.count < depth { savepointBuffers.append([]) }
            savepointBuffers[depth - 1].append(contentsOf: released)
        }
    }

    func savepointWillRollBack(_ db: Database, toDepth depth: Int) {
        guard depth < savepointBuffers.count else { return }
        savepointBuffers.removeSubrange(depth...)
    }

    // MARK: - Transactions

    func transactionWillCommit(_ db: Database) throws {
        // A commit releases the savepoints that are still open.
        if !savepointBuffers.isEmpty {
            let changes = Array(savepointBuffers.joined())
            savepointBuffers.removeAll()
            deliver(changes)
        }
        for registration in registrations {
            try registration.observer?.databaseWillCommit()
        }
    }

    func transactionDidCommit(_ db: Database) {
        let current = registrations
        endTransaction(db)
        for registration in current {
            registration.observer?.databaseDidCommit(db)
        }
    }

    func transactionDidRollback(_ db: Database) {
        let current = registrations
        endTransaction(db)
        for registration in current {
            registration.observer?.databaseDidRollback(db)
        }
    }

    /// Forgets the observers of one transaction, the deallocated ones, and
    /// the changes of savepoints.
    private func endTransaction(_ db: Database) {
        savepointBuffers.removeAll()
        for index in registrations.indices { registrations[index].isPaused = false }
        let count = registrations.count
        registrations.removeAll { $0.extent == .nextTransaction || $0.observer == nil }
        if registrations.count != count { interests.removeAll() }
        if registrations.isEmpty { db.transactionHookHandler = nil }
    }

    // MARK: - Event kinds

    private func eventKind(_ operation: CInt) -> DatabaseEvent.Kind {
        switch operation {
        case SQLITE_INSERT: return .insert
        case SQLITE_DELETE: return .delete
        default: return .update
        }
    }

    private func eventKind(operation: CInt, tableName: String, statement: Statement?) -> DatabaseEventKind {
        switch operation {
        case SQLITE_INSERT: return .insert(tableName: tableName)
        case SQLITE_DELETE: return .delete(tableName: tableName)
        default:
            let columns = statement?.region.updatedColumns[tableName.lowercased()] ?? []
            return .update(tableName: tableName, columnNames: columns)
        }
    }
}
