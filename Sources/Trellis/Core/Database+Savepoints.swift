/// A statement that begins a transaction, or begins, releases or rolls
/// back a savepoint, as the authorizer reports it when the statement is
/// prepared. SQLite's hooks do not see savepoints: the connection follows
/// them from the statements it runs.
enum TransactionControl: Sendable, Equatable {
    /// `BEGIN [DEFERRED | IMMEDIATE | EXCLUSIVE] [TRANSACTION]`
    case beginTransaction
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
    func willExecute(_ control: TransactionControl) {
        switch control {
        case .beginTransaction:
            // BEGIN inside a transaction fails.
            guard !isInsideTransaction else { return }
            currentTransactionDate = nil
            if !savepointNames.isEmpty { savepointNames.removeAll() }
        case .beginSavepoint(let name):
            if !isInsideTransaction {
                // The savepoint begins a transaction; the names of a
                // transaction that ended without hooks to tell are stale.
                currentTransactionDate = nil
                savepointNames.removeAll()
            }
            savepointNames.append(name)
        case .releaseSavepoint(let name):
            guard let depth = depthOfSavepoint(named: name) else { return }
            savepointNames.removeSubrange(depth...)
            transactionHookHandler?.savepointsWillRelease(self, fromDepth: depth)
        case .rollbackToSavepoint(let name):
            guard let depth = depthOfSavepoint(named: name) else { return }
            // The savepoint stays open, empty.
            savepointNames.removeSubrange((depth + 1)...)
            transactionHookHandler?.savepointWillRollBack(self, toDepth: depth)
        }
    }

    /// The position in the stack of the innermost open savepoint named
    /// `name` (compared as SQLite does, ignoring ASCII case), or nil when
    /// SQLite will refuse the name.
    private func depthOfSavepoint(named name: String) -> Int? {
        guard isInsideTransaction else { return nil }
        return savepointNames.lastIndex { $0.isEqualIgnoringASCIICase(name) }
    }
}
