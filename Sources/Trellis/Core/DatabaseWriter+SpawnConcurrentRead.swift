extension DatabaseWriter {
    /// Schedules a read that sees the database as the writer left it: call
    /// it from a write access, outside of any transaction. A
    /// ``DatabasePool`` runs the read concurrently with the writes that
    /// follow (see ``DatabasePool/asyncConcurrentRead(_:)``); a
    /// ``DatabaseQueue`` runs it immediately, before `spawnConcurrentRead`
    /// returns.
    ///
    /// ```swift
    /// try writer.writeWithoutTransaction { db in
    ///     try Player.deleteAll(db)
    ///     writer.spawnConcurrentRead { dbResult in
    ///         do {
    ///             let db = try dbResult.get()
    ///             let count = try Player.fetchCount(db) // Guaranteed to be zero
    ///         } catch {
    ///             // Handle error
    ///         }
    ///     }
    ///     try Player(name: "Arthur").insert(db)
    /// }
    /// ```
    ///
    /// `value` gets a ``DatabaseError`` with `SQLITE_MISUSE` when it is not
    /// called from a write access of this writer outside of a transaction
    /// (GRDB stops the program).
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        if let erased = self as? AnyDatabaseWriter {
            erased.base.spawnConcurrentRead(value)
        } else if let pool = self as? DatabasePool {
            pool.asyncConcurrentRead(value)
        } else if let queue = self as? DatabaseQueue {
            queue.spawnImmediateRead(value)
        } else {
            value(.failure(DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "spawnConcurrentRead is not supported by \(type(of: self))")))
        }
    }
}

extension DatabaseQueue {
    /// The read of `spawnConcurrentRead`: now, on the connection of the
    /// current write access.
    func spawnImmediateRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        guard writer.isAccessingOnCurrentThread, !writer.isInsideTransactionOnCurrentThread else {
            value(.failure(DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "spawnConcurrentRead must be called from a write access, outside of any transaction")))
            return
        }
        do {
            try writer.reentrantSync { db in db.readOnly(delivering: value) }
        } catch {
            value(.failure(error))
        }
    }
}
