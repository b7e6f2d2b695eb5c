import TrellisSQLite

/// A statement that begins a transaction, or begins, releases or rolls
/// back a savepoint, as the authorizer reports it when the statement is
/// prepared. SQLite's hooks do not see savepoints: the connection follows
/// them from the statements it runs.
enum TransactionControl: Sendable, Equatable {
    /// `BEGIN [DEFERRED | IMMEDIATE | EXCLUSIVE] [TRANSACTION]`
    case beginTransaction
    /// `COMMIT [TRANSACTION]`, `END [TRANSACTION]`
    case commitTransaction
    /// `ROLLBACK [TRANSACTION]` (SQLite's rollback hook tells of it)
    case rollbackTransaction
    /// `SAVEPOINT name`
    case beginSavepoint(String)
    /// `RELEASE [SAVEPOINT] name`
    case releaseSavepoint(String)
    /// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] name`
    case rollbackToSavepoint(String)
}

extension Database {
    /// Called before a statement that controls transactions or savepoints
    /// runs: updates the stack of open savepoints, and tells the
    /// transaction observers which savepoints are released or rolled back.
    ///
    /// The stack changes before the statement runs: a `RELEASE` or
    /// `ROLLBACK TO` of an unknown name fails in SQLite and changes nothing
    /// here either, and a `SAVEPOINT` does not fail but on exhausted memory.
    ///
    /// A commit of a transaction that wrote nothing is told to the
    /// transaction observers here, since SQLite's commit hook does not run
    /// for it.
    func willExecute(_ control: TransactionControl) throws {
        switch control {
        case .beginTransaction:
            // BEGIN inside a transaction fails.
            guard !isInsideTransaction else { return }
            trackChanges(of: control, savepointDepth: nil)
            currentTransactionDate = nil
            transactionBeganWithSavepoint = false
            if !savepointNames.isEmpty { savepointNames.removeAll() }
        case .commitTransaction:
            trackChanges(of: control, savepointDepth: nil)
            try willCommitTransaction()
        case .rollbackTransaction:
            trackChanges(of: control, savepointDepth: nil)
        case .beginSavepoint(let name):
            trackChanges(of: control, savepointDepth: nil)
            if !isInsideTransaction {
                // The savepoint begins a transaction; the names of a
                // transaction that ended without hooks to tell are stale.
                currentTransactionDate = nil
                transactionBeganWithSavepoint = true
                savepointNames.removeAll()
            }
            savepointNames.append(name)
        case .releaseSavepoint(let name):
            guard let depth = depthOfSavepoint(named: name) else { return }
            trackChanges(of: control, savepointDepth: depth)
            if depth == 0 && transactionBeganWithSavepoint {
                // The release commits.
                try willCommitTransaction()
            }
            savepointNames.removeSubrange(depth...)
            transactionHookHandler?.savepointsWillRelease(self, fromDepth: depth)
        case .rollbackToSavepoint(let name):
            guard let depth = depthOfSavepoint(named: name) else { return }
            trackChanges(of: control, savepointDepth: depth)
            // The savepoint stays open, empty.
            savepointNames.removeSubrange((depth + 1)...)
            transactionHookHandler?.savepointWillRollBack(self, toDepth: depth)
        }
    }

    /// Tells the transaction observers that a transaction that wrote
    /// nothing is about to commit: as in GRDB, they hear of every commit,
    /// but SQLite's commit hook only runs after writes. An observer that
    /// refuses the commit rolls the transaction back, and its error is
    /// thrown.
    private func willCommitTransaction() throws {
        // The transactions that read accesses open for themselves are not
        // the caller's: GRDB's reads of a queue open none.
        guard let handler = transactionHookHandler, isInsideTransaction, !isReadOnlyAccess,
              let connection = sqliteConnection, sqlite3_txn_state(connection, nil) != SQLITE_TXN_WRITE
        else { return }
        do {
            try handler.transactionWillCommit(self)
        } catch {
            try? execute(.rollback)
            notifyTransactionEnd()
            throw error
        }
        pendingTransactionEnd = .commit
    }

    /// The position in the stack of the innermost open savepoint named
    /// `name` (compared as SQLite does, ignoring ASCII case), or nil when
    /// SQLite will refuse the name.
    private func depthOfSavepoint(named name: String) -> Int? {
        guard isInsideTransaction else { return nil }
        return savepointNames.lastIndex { $0.isEqualIgnoringASCIICase(name) }
    }
}
