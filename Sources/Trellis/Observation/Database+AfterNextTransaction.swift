extension Database {
    /// Calls `onCommit` after the next transaction commits, or `onRollback`
    /// after it rolls back: the place to act on what a transaction made
    /// permanent, such as deleting a file once its row is gone.
    ///
    /// ```swift
    /// struct PictureFile: PersistableRecord {
    ///     var path: String
    ///
    ///     func willDelete(_ db: Database) {
    ///         db.afterNextTransaction { _ in
    ///             try? FileManager.default.removeItem(atPath: path)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Called inside a transaction, "next" is the current one. The closures
    /// run on the connection's queue, with the connection, after the
    /// statement that ended the transaction.
    public func afterNextTransaction(
        onCommit: @escaping (Database) -> Void,
        onRollback: @escaping (Database) -> Void = { _ in })
    {
        add(transactionObserver: TransactionCompletionObserver(onCommit: onCommit, onRollback: onRollback),
            extent: .nextTransaction)
    }
}

/// The observer of `afterNextTransaction`: it watches no change, only how
/// the transaction ends.
private final class TransactionCompletionObserver: TransactionObserver {
    let onCommit: (Database) -> Void
    let onRollback: (Database) -> Void

    init(onCommit: @escaping (Database) -> Void, onRollback: @escaping (Database) -> Void) {
        self.onCommit = onCommit
        self.onRollback = onRollback
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { onCommit(db) }
    func databaseDidRollback(_ db: Database) { onRollback(db) }
}
