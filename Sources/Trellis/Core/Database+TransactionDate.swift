import Foundation

extension Database {
    /// The date of the current transaction, from the configuration's
    /// ``Configuration/transactionClock``: it does not change until the
    /// transaction ends, so that all records saved by a transaction get
    /// the same timestamp. Outside of a transaction, it is the current date
    /// of the clock.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     player.modificationDate = try db.transactionDate
    ///     try player.update(db)
    /// }
    /// ```
    ///
    /// The clock is asked when the transaction reads the date for the first
    /// time, and its errors are thrown.
    ///
    /// - Throws: The error of the configuration's
    ///   ``Configuration/transactionClock``.
    public var transactionDate: Date {
        get throws {
            guard isInsideTransaction else {
                return try configuration.transactionClock.now(self)
            }
            if let date = currentTransactionDate { return date }
            let date = try configuration.transactionClock.now(self)
            currentTransactionDate = date
            return date
        }
    }
}
