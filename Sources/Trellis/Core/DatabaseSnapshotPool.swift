import TrellisSQLite

/// Reads that all see the same, unchanging state of a WAL database, as
/// GRDB's type of that name.
///
/// ```swift
/// let snapshotPool = try dbPool.makeSnapshotPool()
/// try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
/// // The snapshot pool still sees the players.
/// let count = try snapshotPool.read { db in try Player.fetchCount(db) }
/// ```
///
/// GRDB shares one state between several connections with the
/// `sqlite3_snapshot` functions, which the system SQLite of Linux
/// distributions does not have. Trellis keeps the state in one
/// ``DatabaseSnapshot``: the reads see the same database, one after the
/// other instead of in parallel.
public final class DatabaseSnapshotPool: DatabaseSnapshotReader {
    private let snapshot: DatabaseSnapshot

    /// The path of the database.
    public var path: String { snapshot.path }

    /// The configuration of the connection: read-only.
    public var configuration: Configuration { snapshot.configuration }

    /// Opens a snapshot pool of the WAL database at `path`, which sees the
    /// database as it is now. It throws if the database is not in the WAL
    /// mode, where a snapshot would block writers.
    ///
    /// ```swift
    /// let snapshotPool = try DatabaseSnapshotPool(path: "/path/to/database.sqlite")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the file cannot be opened, or if the
    ///   database is not in the WAL mode.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        let label = (configuration.label ?? "Trellis.DatabaseSnapshotPool")
        let snapshot = try DatabaseSnapshot(path: path, configuration: configuration, label: label)
        let journalMode = try snapshot.unsafeRead { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        guard journalMode?.lowercased() == "wal" else {
            try? snapshot.close()
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "A DatabaseSnapshotPool needs a database in the WAL mode, not \(journalMode ?? "unknown").")
        }
        self.init(snapshot: snapshot)
    }

    /// Opens a snapshot pool that sees the database of `db` as `db` sees
    /// it now, outside of a transaction.
    ///
    /// ```swift
    /// let snapshot = try dbPool.writeWithoutTransaction { db -> DatabaseSnapshotPool in
    ///     try db.inTransaction {
    ///         try Player.deleteAll(db)
    ///         return .commit
    ///     }
    ///     // Create the snapshot after all players have been deleted.
    ///     return try DatabaseSnapshotPool(db)
    /// }
    /// // Later, the snapshot still sees no player.
    /// let count = try snapshot.read { db in try Player.fetchCount(db) }
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection to the database, outside of a transaction.
    ///   - configuration: The configuration of the connection of the
    ///     snapshot; by default, the configuration of `db`.
    /// - Throws: A ``DatabaseError`` with `SQLITE_ERROR` if `db` is inside a
    ///   transaction, if its database is not in the WAL mode or in memory;
    ///   if the snapshot's connection cannot be opened.
    public convenience init(_ db: Database, configuration: Configuration? = nil) throws {
        guard !db.isInsideTransaction else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "A DatabaseSnapshotPool can not be created from inside a transaction.")
        }
        guard let connection = db.sqliteConnection,
              let filename = sqlite3_db_filename(connection, "main"),
              case let path = String(cString: filename), !path.isEmpty
        else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "A DatabaseSnapshotPool needs a database file in the WAL mode.")
        }
        try self.init(path: path, configuration: configuration ?? db.configuration)
    }

    init(snapshot: DatabaseSnapshot) {
        self.snapshot = snapshot
    }

    /// Runs `value` with a connection that sees the database as it was when the
    /// snapshot pool was made.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try snapshot.read(value)
    }

    /// The asynchronous version of `read(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await snapshot.read(value)
    }

    /// Runs `value` as `read(_:)` does.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try snapshot.unsafeRead(value)
    }

    /// The asynchronous version of `unsafeRead(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await snapshot.unsafeRead(value)
    }

    /// Runs `value`, reusing the access that runs on this thread, if any.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try snapshot.unsafeReentrantRead(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        snapshot.asyncRead(value)
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        snapshot.asyncUnsafeRead(value)
    }

    /// Closes the connection. Later accesses throw.
    ///
    /// - Throws: A ``DatabaseError`` if it is called from an access of the
    ///   connection, or with `SQLITE_BUSY` if statements kept past their access
    ///   were still alive.
    public func close() throws {
        try snapshot.close()
    }

    public func interrupt() {
        snapshot.interrupt()
    }
}

extension DatabasePool {
    /// Makes a snapshot pool that sees the database as it is now, after
    /// the writes that already ended, and keeps seeing it so.
    ///
    /// ```swift
    /// let snapshotPool = try dbPool.makeSnapshotPool()
    /// let players = try snapshotPool.read { db in try Player.fetchAll(db) }
    /// ```
    ///
    /// Like ``makeSnapshot()``, it throws from inside a transaction.
    ///
    /// - Throws: A ``DatabaseError`` if called from inside a transaction of the
    ///   writer, if the pool is closed, or if the snapshot's connection cannot
    ///   be opened.
    public func makeSnapshotPool() throws -> DatabaseSnapshotPool {
        try DatabaseSnapshotPool(snapshot: makeSnapshot())
    }
}
