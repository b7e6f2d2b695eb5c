import TrellisSQLite

extension Database {
    /// How a WAL checkpoint waits for readers and writers: see
    /// [sqlite3_wal_checkpoint_v2](https://www.sqlite.org/c3ref/wal_checkpoint_v2.html).
    public enum CheckpointMode: CInt, Sendable {
        /// Checkpoints what it can without waiting.
        case passive = 0
        /// Waits for writers, then checkpoints the whole log.
        case full = 1
        /// As `full`, then waits for readers so that the next writer
        /// restarts the log from its beginning.
        case restart = 2
        /// As `restart`, and truncates the log file to zero bytes.
        case truncate = 3
    }

    /// Copies the content of the write-ahead log into the database file.
    /// A database that is not in WAL mode has nothing to checkpoint: both
    /// counts are then -1, as SQLite reports them.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.checkpoint(.truncate)
    /// }
    /// ```
    ///
    /// - returns: the number of frames in the log, and of those copied to
    ///   the database file.
    ///
    /// - Throws: A ``DatabaseError`` if the connection is closed, or if SQLite
    ///   fails (`SQLITE_BUSY` when a `.restart` or `.truncate` checkpoint
    ///   cannot get the locks it needs).
    @discardableResult
    public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main")
        throws -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        let connection = try openConnection()
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(connection, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
        guard code == SQLITE_OK else { throw makeError(code: code) }
        return (Int(walFrameCount), Int(checkpointedFrameCount))
    }
}
