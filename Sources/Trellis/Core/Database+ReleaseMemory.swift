import TrellisSQLite

extension Database {
    /// Frees the memory that the connection can do without: SQLite's page
    /// cache, and the prepared statements that Trellis keeps for reuse
    /// (they are prepared again when next needed).
    ///
    /// ```swift
    /// try dbQueue.writeWithoutTransaction { db in
    ///     db.releaseMemory()
    /// }
    /// ```
    ///
    /// Memory-pressure notifications are an Apple platform feature: on
    /// Linux, call it when your application sees fit.
    public func releaseMemory() {
        guard let connection = sqliteConnection else { return }
        sqlite3_db_release_memory(connection)
        clearStatementCaches()
    }
}

extension DatabaseQueue {
    /// Frees the memory that the connection can do without (see
    /// ``Database/releaseMemory()``), once the current access, if any, is
    /// done.
    ///
    /// ```swift
    /// dbQueue.releaseMemory()
    /// ```
    public func releaseMemory() {
        // Only a closed connection fails, and it holds no memory.
        try? writer.reentrantSync { db in db.releaseMemory() }
    }
}

extension DatabasePool {
    /// Frees the memory that the writer and the readers can do without
    /// (see ``Database/releaseMemory()``). Each connection is released once
    /// its current access is done: a long read delays the reads that
    /// would use its connection meanwhile. ``releaseMemoryEventually()``
    /// does not wait.
    ///
    /// ```swift
    /// dbPool.releaseMemory()
    /// ```
    public func releaseMemory() {
        for connection in connections {
            try? connection.reentrantSync { db in db.releaseMemory() }
        }
    }

    /// Frees the memory that the connections can do without, without
    /// blocking the current thread: each connection does it after the
    /// accesses it has to run.
    ///
    /// ```swift
    /// dbPool.releaseMemoryEventually()
    /// ```
    public func releaseMemoryEventually() {
        for connection in connections {
            connection.asyncAccess({ db in db.releaseMemory() }, failure: { _ in })
        }
    }
}
