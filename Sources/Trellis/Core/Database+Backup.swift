import TrellisSQLite

/// How far a backup has gone, as reported to the `progress` callback of
/// ``Database/backup(to:pagesPerStep:progress:)``.
public struct DatabaseBackupProgress: Sendable, Hashable {
    /// The pages of the source database that are still to copy.
    public let remainingPageCount: Int

    /// The pages of the source database.
    public let totalPageCount: Int

    /// The pages already copied.
    public var completedPageCount: Int { totalPageCount - remainingPageCount }

    /// Whether the backup is complete: the last report of a backup.
    public let isCompleted: Bool
}

extension Database {
    /// Copies the whole database into `destination`, whose content it
    /// replaces (SQLite's online backup).
    ///
    /// ```swift
    /// try source.read { sourceDb in
    ///     try destination.barrierWriteWithoutTransaction { destinationDb in
    ///         try sourceDb.backup(to: destinationDb)
    ///     }
    /// }
    /// ```
    ///
    /// The source connection must not be in a write transaction: back up
    /// from a read, or from `writeWithoutTransaction`, not from `write`,
    /// where SQLite refuses to copy (`SQLITE_BUSY`).
    ///
    /// - parameter destination: the connection that receives the copy.
    /// - parameter pagesPerStep: the number of pages copied at each step; by
    ///   default (or any negative number), all pages in one step. Zero, which
    ///   would copy nothing, is an error.
    /// - parameter progress: called after each step, including the last. An
    ///   error it throws before the backup is complete aborts the backup and
    ///   is rethrown; after the last step, it is ignored.
    ///
    /// - Throws: A ``DatabaseError`` if `pagesPerStep` is 0, if either
    ///   connection is closed or busy, if the source connection is in a
    ///   write transaction, or if SQLite fails; the error thrown by
    ///   `progress` before the last step.
    public func backup(
        to destination: Database, pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        guard pagesPerStep != 0 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a backup can not copy 0 pages per step")
        }
        let sourceConnection = try openConnection()
        // SQLite refuses to copy from a connection that is writing, with a
        // bare "database is locked": say why.
        if sqlite3_txn_state(sourceConnection, "main") == SQLITE_TXN_WRITE {
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "the source of a backup can not be in a write transaction: back up from read or writeWithoutTransaction")
        }
        let destinationConnection = try destination.openConnection()
        guard let backup = sqlite3_backup_init(destinationConnection, "main", sourceConnection, "main") else {
            throw destination.makeError(code: sqlite3_errcode(destinationConnection))
        }
        // The destination's schema is the source's once pages are copied.
        defer { destination.clearSchemaDerivedCaches() }
        var isFinished = false
        defer { if !isFinished { sqlite3_backup_finish(backup) } }
        while true {
            let code = sqlite3_backup_step(backup, pagesPerStep)
            // SQLITE_BUSY comes after the destination's busy handler gave
            // up: an error, as any other code.
            guard code == SQLITE_OK || code == SQLITE_DONE else {
                isFinished = true
                sqlite3_backup_finish(backup)
                throw destination.makeError(code: code)
            }
            let isCompleted = code == SQLITE_DONE
            let report = DatabaseBackupProgress(
                remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                totalPageCount: Int(sqlite3_backup_pagecount(backup)),
                isCompleted: isCompleted)
            if isCompleted {
                try? progress?(report)
                break
            }
            try progress?(report)
        }
        isFinished = true
        let code = sqlite3_backup_finish(backup)
        if code != SQLITE_OK {
            throw destination.makeError(code: code)
        }
    }
}

extension DatabaseReader {
    /// Copies the whole database into `writer`, whose content it replaces.
    ///
    /// ```swift
    /// let source = try DatabaseQueue(path: "/path/to/app.sqlite")
    /// let copy = try DatabaseQueue(path: "/path/to/backup.sqlite")
    /// try source.backup(to: copy)
    /// ```
    ///
    /// See ``Database/backup(to:pagesPerStep:progress:)`` for the
    /// parameters.
    ///
    /// - Throws: A ``DatabaseError`` if `pagesPerStep` is 0, if the writer is
    ///   closed, or if SQLite fails; the error thrown by `progress` before the
    ///   last step.
    public func backup(
        to writer: some DatabaseWriter, pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        try read { source in
            try writer.barrierWriteWithoutTransaction { destination in
                try source.backup(to: destination, pagesPerStep: pagesPerStep, progress: progress)
            }
        }
    }
}
