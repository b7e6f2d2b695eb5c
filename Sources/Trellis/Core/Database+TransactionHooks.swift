import Foundation
import TrellisSQLite

/// What SQLite's data change, commit and rollback hooks report to. The
/// Observation layer implements it to serve transaction observers; Core
/// only installs the hooks.
protocol TransactionHookHandler: AnyObject {
    /// A row of a rowid table was inserted, updated or deleted
    /// (`SQLITE_INSERT`, `SQLITE_UPDATE`, `SQLITE_DELETE`).
    func rowDidChange(_ db: Database, operation: CInt, databaseName: String, tableName: String, rowID: Int64)

    /// The savepoints from `depth` (0 for the outermost) to the innermost
    /// are about to be released: their changes now belong to the enclosing
    /// savepoint, or to the transaction when there is none.
    func savepointsWillRelease(_ db: Database, fromDepth depth: Int)

    /// The changes made since the savepoint at `depth` (0 for the
    /// outermost) began are about to be rolled back; the savepoint stays
    /// open, and the inner ones are gone.
    func savepointWillRollBack(_ db: Database, toDepth depth: Int)

    /// The transaction is about to commit; a thrown error rolls it back,
    /// and the statement that committed throws it.
    func transactionWillCommit(_ db: Database) throws

    /// The transaction committed; the statement that committed it is done.
    func transactionDidCommit(_ db: Database)

    /// The transaction rolled back; the statement that ended it is done.
    func transactionDidRollback(_ db: Database)
}

/// How the last transaction ended, until handlers are told.
@usableFromInline
enum TransactionEnd {
    case commit
    case rollback
}

extension Database {
    /// Installs SQLite's hooks when a handler is set, and removes them
    /// when it is not, so that connections without observers pay nothing.
    func installTransactionHooks() {
        guard let connection = sqliteConnection else {
            recordUnsupportedFeature("Transaction observation")
            return
        }
        guard transactionHookHandler != nil else {
            // Hooks go away, possibly while the statement that ended a
            // transaction runs: the statements stay (they only delete
            // rows one by one).
            sqlite3_update_hook(connection, nil, nil)
            sqlite3_commit_hook(connection, nil, nil)
            sqlite3_rollback_hook(connection, nil, nil)
            return
        }
        // The savepoints of a transaction that ended while no hook listened
        // are gone.
        if !isInsideTransaction { savepointNames.removeAll() }
        // Statements prepared before were prepared without the authorizer
        // answer that makes `DELETE FROM t` report each row.
        clearStatementCaches()
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(connection, { context, operation, databaseName, tableName, rowID in
            guard let context, let tableName else { return }
            let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
            // Most changes are in the main database: its name is not copied.
            let name = databaseName.map { strcmp($0, "main") == 0 ? "main" : String(cString: $0) } ?? "main"
            db.transactionHookHandler?.rowDidChange(
                db, operation: operation, databaseName: name, tableName: String(cString: tableName), rowID: rowID)
        }, context)
        sqlite3_commit_hook(connection, { context in
            guard let context else { return 0 }
            let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
            do {
                try db.transactionHookHandler?.transactionWillCommit(db)
            } catch {
                // SQLite rolls back, and the statement fails with
                // SQLITE_CONSTRAINT_COMMITHOOK: it throws this error instead.
                db.commitHookError = error
                return 1
            }
            db.savepointNames.removeAll()
            db.pendingTransactionEnd = .commit
            return 0
        }, context)
        sqlite3_rollback_hook(connection, { context in
            guard let context else { return }
            let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
            db.savepointNames.removeAll()
            db.pendingTransactionEnd = .rollback
        }, context)
    }

    /// Tells the handler how the transaction ended, once the statement
    /// that ended it is done.
    @usableFromInline
    func notifyTransactionEnd() {
        guard let end = pendingTransactionEnd else { return }
        pendingTransactionEnd = nil
        switch end {
        case .commit: transactionHookHandler?.transactionDidCommit(self)
        case .rollback: transactionHookHandler?.transactionDidRollback(self)
        }
    }

    /// The error of a failed step: the error of a transaction observer
    /// that refused a commit, or the connection's error.
    @usableFromInline
    func stepError(code: CInt, statement: Statement) -> any Error {
        let error = makeError(code: code, statement: statement)
        // A statement stays active after SQLITE_BUSY (it could be stepped
        // again) until it is reset: active, it would keep its locks and make
        // the next COMMIT of the connection fail with "SQL statements in
        // progress".
        statement.reset()
        guard let refusal = commitHookError else {
            if code & 0xFF == SQLITE_INTERRUPT { wasInterrupted = true }
            notifyTransactionEnd()
            return error
        }
        commitHookError = nil
        // A refused commit rolls back. After a `RELEASE` that would have
        // committed, SQLite has undone the changes yet still reports an
        // open transaction: it is ended here, as after a `COMMIT`.
        if isInsideTransaction { try? execute(.rollback) }
        notifyTransactionEnd()
        return refusal
    }
}
