import TrellisSQLite

extension Database {
    /// The kind of an SQLite transaction.
    ///
    /// See <https://www.sqlite.org/lang_transaction.html>.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Whether a transaction or savepoint commits or rolls back.
    public enum TransactionCompletion: Sendable {
        case commit
        case rollback
    }

    /// Runs `operations` in a transaction, which commits or rolls back as
    /// the closure says, and rolls back when it throws.
    ///
    /// ```swift
    /// try dbQueue.writeWithoutTransaction { db in
    ///     try db.inTransaction {
    ///         try db.execute(sql: "INSERT ...")
    ///         return .commit
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `operations`, after the rollback; a
    ///   ``DatabaseError`` if a transaction is already open or SQLite fails to
    ///   begin, commit or roll back.
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion) throws
    {
        try beginTransaction(kind)
        let completion: TransactionCompletion
        do {
            transactionBodyDepth += 1
            defer { transactionBodyDepth -= 1 }
            completion = try operations()
        } catch {
            try? rollbackIfNeeded()
            throw error
        }
        switch completion {
        case .commit:
            // The operations ended the transaction (a COMMIT or ROLLBACK of
            // their own, or SQLite after some errors): as GRDB does, the
            // transaction counts as aborted.
            guard isInsideTransaction else {
                throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted")
            }
            do {
                // A cancelled task does not commit what it wrote, nor does
                // an access that read a row value that failed to decode.
                try accessCancellation?.check()
                try throwUnreportedDecodingError()
                try commit()
            } catch {
                try? rollbackIfNeeded()
                throw error
            }
        case .rollback:
            try rollbackIfNeeded()
        }
    }

    /// Runs `operations` in a savepoint, which can be nested in a
    /// transaction or in another savepoint. Outside of a transaction it
    /// opens one.
    ///
    /// ```swift
    /// try db.inSavepoint {
    ///     try db.execute(sql: "INSERT ...")
    ///     return .rollback // undoes the insert only
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `operations`, after the rollback to the
    ///   savepoint; a ``DatabaseError`` if SQLite fails.
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        guard isInsideTransaction else {
            try inTransaction(nil, operations)
            return
        }
        try execute(.savepoint)
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            if isInsideTransaction {
                try? execute(.rollbackToSavepoint)
                try? execute(.releaseSavepoint)
            }
            throw error
        }
        switch completion {
        case .commit:
            try execute(.releaseSavepoint)
        case .rollback:
            if isInsideTransaction {
                try execute(.rollbackToSavepoint)
                try execute(.releaseSavepoint)
            }
        }
    }

    /// Begins a transaction of the given kind, or else of the
    /// configuration's default kind: IMMEDIATE, or DEFERRED on a read-only
    /// connection, unless the configuration says otherwise.
    ///
    /// - Throws: A ``DatabaseError`` if a transaction is already open or SQLite
    ///   fails.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        switch kind ?? defaultTransactionKind {
        case .deferred: try execute(.beginDeferred)
        case .immediate:
            try execute(.beginImmediate)
            noticeChangesElsewhereAtWriteLock()
        case .exclusive:
            try execute(.beginExclusive)
            noticeChangesElsewhereAtWriteLock()
        }
    }

    /// The kind of the transactions that begin without one.
    var defaultTransactionKind: TransactionKind {
        configuration.defaultTransactionKind ?? (configuration.readonly ? .deferred : .immediate)
    }

    /// Commits the current transaction.
    ///
    /// - Throws: A ``DatabaseError`` if no transaction is open, or if SQLite
    ///   fails (a deferred foreign key violation, `SQLITE_BUSY`).
    public func commit() throws {
        try execute(.commit)
    }

    /// Rolls back the current transaction.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails.
    public func rollback() throws {
        try rollbackIfNeeded()
    }

    /// SQLite may already have rolled back after some errors: rolling back
    /// again would fail.
    func rollbackIfNeeded() throws {
        if isInsideTransaction {
            try execute(.rollback)
        }
    }

    /// Whether writes are forbidden: in a read access, in ``readOnly(_:)``,
    /// on a connection opened with ``Configuration/readonly``, and on the
    /// reader connections of a ``DatabasePool``, even in
    /// `unsafeRead`.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     db.isReadOnly // true
    /// }
    /// try dbQueue.write { db in
    ///     db.isReadOnly // false
    /// }
    /// ```
    public var isReadOnly: Bool {
        isReadOnlyAccess || isQueryOnly || configuration.readonly
    }

    /// Runs `operations` with writes forbidden, in a deferred transaction
    /// so that all its statements read the same snapshot under a single
    /// read lock; a write inside throws `SQLITE_READONLY`.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     let count = try db.readOnly { try Player.fetchCount(db) }
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `operations`; a ``DatabaseError`` if
    ///   `operations` writes, or if SQLite fails.
    public func readOnly<T>(_ operations: () throws -> T) throws -> T {
        if isReadOnlyAccess { return try operations() }
        let opensTransaction = !isInsideTransaction
        if opensTransaction {
            try execute(.beginDeferred)
        }
        isReadOnlyAccess = true
        defer { isReadOnlyAccess = false }
        let result: T
        do {
            result = try operations()
        } catch {
            if opensTransaction { try? rollbackIfNeeded() }
            throw error
        }
        if opensTransaction {
            try execute(.commit)
        }
        return result
    }
}

/// The statements that begin and end transactions and savepoints. Each
/// connection prepares them once: every transaction runs two of them, and
/// finding them in the statement cache would hash their SQL each time.
enum TransactionStatement: Int, CaseIterable {
    case beginDeferred, beginImmediate, beginExclusive, commit, rollback
    case savepoint, releaseSavepoint, rollbackToSavepoint

    var sql: String {
        switch self {
        case .beginDeferred: "BEGIN DEFERRED TRANSACTION"
        case .beginImmediate: "BEGIN IMMEDIATE TRANSACTION"
        case .beginExclusive: "BEGIN EXCLUSIVE TRANSACTION"
        case .commit: "COMMIT TRANSACTION"
        case .rollback: "ROLLBACK TRANSACTION"
        case .savepoint: "SAVEPOINT trellis"
        case .releaseSavepoint: "RELEASE SAVEPOINT trellis"
        case .rollbackToSavepoint: "ROLLBACK TRANSACTION TO SAVEPOINT trellis"
        }
    }
}

extension Database {
    /// Runs a statement that begins or ends a transaction or a savepoint.
    func execute(_ transactionStatement: TransactionStatement) throws {
        if let statement = transactionStatements[transactionStatement.rawValue] {
            try statement.execute()
        } else {
            let statement = try makeStatement(sql: transactionStatement.sql)
            transactionStatements[transactionStatement.rawValue] = statement
            try statement.execute()
        }
    }
}
