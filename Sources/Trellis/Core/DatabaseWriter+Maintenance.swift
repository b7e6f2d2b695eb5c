import TrellisSQLite

extension Database {
    /// Empties the database: its tables, indexes, views and triggers are
    /// gone, and the file shrinks to an empty database. It uses SQLite's
    /// reset (`SQLITE_DBCONFIG_RESET_DATABASE`, then `VACUUM`), so it needs
    /// no list of what to drop, and works whatever the foreign keys.
    ///
    /// Call it outside of any transaction, as ``DatabaseWriter/erase()`` does.
    func eraseContent() throws {
        let connection = try openConnection()
        let code = trellis_sqlite_db_config_int(connection, SQLITE_DBCONFIG_RESET_DATABASE, 1)
        guard code == SQLITE_OK else { throw makeError(code: code) }
        defer { _ = trellis_sqlite_db_config_int(connection, SQLITE_DBCONFIG_RESET_DATABASE, 0) }
        try execute(sql: "VACUUM")
        // What was prepared or learned from the old schema is gone.
        clearStatementCaches()
        clearSchemaDerivedCaches()
    }
}

extension DatabaseWriter {
    /// Erases the content of the database: tables, indexes, views,
    /// triggers and rows. No other access runs meanwhile.
    ///
    /// ```swift
    /// try dbQueue.erase()
    /// try migrator.migrate(dbQueue) // from an empty database
    /// ```
    ///
    /// It throws when a transaction is open (from within
    /// `writeWithoutTransaction`, after a `BEGIN`).
    ///
    /// - Throws: A ``DatabaseError`` if a transaction is open, if the
    ///   connection is closed, or if SQLite fails.
    public func erase() throws {
        try barrierWriteWithoutTransaction { db in try db.eraseContent() }
    }

    /// The asynchronous version of ``erase()``.
    ///
    /// - Throws: A ``DatabaseError`` if a transaction is open, if the
    ///   connection is closed, or if SQLite fails; `CancellationError` if the
    ///   task is cancelled.
    public func erase() async throws {
        try await barrierWriteWithoutTransaction { db in try db.eraseContent() }
    }

    /// Rebuilds the database file, repacking it into the least space
    /// (SQLite's `VACUUM`).
    ///
    /// ```swift
    /// try dbQueue.vacuum()
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if a transaction is open, if the
    ///   connection is closed, or if SQLite fails.
    public func vacuum() throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    /// The asynchronous version of ``vacuum()``.
    ///
    /// - Throws: A ``DatabaseError`` if a transaction is open, if the
    ///   connection is closed, or if SQLite fails; `CancellationError` if the
    ///   task is cancelled.
    public func vacuum() async throws {
        try await writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    /// Writes a compacted copy of the database to a new file
    /// (SQLite's `VACUUM INTO`). The file must not exist.
    ///
    /// ```swift
    /// try dbQueue.vacuum(into: "/path/to/copy.sqlite")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the file already exists or cannot be
    ///   written, if the connection is closed, or if SQLite fails.
    public func vacuum(into filePath: String) throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }

    /// The asynchronous version of ``vacuum(into:)``.
    ///
    /// - Throws: A ``DatabaseError`` if the file already exists or cannot be
    ///   written, if the connection is closed, or if SQLite fails;
    ///   `CancellationError` if the task is cancelled.
    public func vacuum(into filePath: String) async throws {
        try await writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }
}
