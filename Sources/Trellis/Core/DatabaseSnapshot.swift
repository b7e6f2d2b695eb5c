/// A read-only connection that keeps seeing the database as it was when
/// the snapshot was made, whatever the writer of its pool writes later.
///
/// You get a snapshot from a ``DatabasePool``:
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshot()
/// try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
/// // The snapshot still sees the players.
/// let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
/// ```
///
/// The snapshot holds a read transaction open for its whole life: the WAL
/// file can not be checkpointed past it, so do not keep snapshots longer
/// than needed. Its accesses run one after the other; its connection
/// closes when the snapshot is deallocated or ``close()`` is called.
/// Writes throw an `SQLITE_READONLY` error.
public final class DatabaseSnapshot: DatabaseSnapshotReader {
    private let connection: SerializedDatabase

    /// The path of the database.
    public let path: String

    /// The configuration of the connection: read-only.
    public var configuration: Configuration { connection.configuration }

    /// Opens a read-only connection and begins the transaction that keeps
    /// its view of the database. The pool calls it from its writer's
    /// queue, outside of any transaction: the snapshot sees every write
    /// that ended before.
    init(path: String, configuration: Configuration, label: String) throws {
        self.path = path
        var configuration = configuration
        configuration.readonly = true
        configuration.journalMode = .default
        connection = try SerializedDatabase(path: path, configuration: configuration, label: label, isWriter: false)
        try connection.sync { db in
            try db.beginTransaction(.deferred)
            // A deferred transaction starts reading at its first read.
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
        }
    }

    // MARK: - Reading

    /// Runs `value` with the snapshot's connection, which sees the database as
    /// it was when the snapshot was made.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try connection.sync { db in try db.readOnly { try value(db) } }
    }

    /// The asynchronous version of `read(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async { db in try db.readOnly { try value(db) } }
    }

    /// Runs `value` with the snapshot's connection, as `read(_:)` does.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try connection.sync(value)
    }

    /// The asynchronous version of `unsafeRead(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async(value)
    }

    /// Runs `value` with the snapshot's connection, reusing the access that
    /// runs on this thread, if any.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try connection.reentrantSync(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        connection.asyncAccess({ db in db.readOnly(delivering: value) }, failure: { value(.failure($0)) })
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        connection.asyncAccess({ db in value(.success(db)) }, failure: { value(.failure($0)) })
    }

    /// Closes the connection, which ends the snapshot. Later accesses
    /// throw.
    ///
    /// - Throws: A ``DatabaseError`` if it is called from an access of the
    ///   connection, or with `SQLITE_BUSY` if statements kept past their access
    ///   were still alive.
    public func close() throws {
        try connection.close()
    }

    public func interrupt() {
        connection.interrupt()
    }
}

extension DatabasePool {
    /// Makes a snapshot that sees the database as it is now, after the
    /// writes that already ended, and keeps seeing it so.
    ///
    /// ```swift
    /// let snapshot = try dbPool.makeSnapshot()
    /// let players = try snapshot.read { db in try Player.fetchAll(db) }
    /// ```
    ///
    /// Call it outside of a transaction: from a write access inside one,
    /// it throws (GRDB stops the program), since the snapshot could not
    /// see what the transaction has not committed yet.
    ///
    /// - Throws: A ``DatabaseError`` if called from inside a transaction of the
    ///   writer, if the pool is closed, or if the snapshot's connection cannot
    ///   be opened.
    public func makeSnapshot() throws -> DatabaseSnapshot {
        let label = nextSnapshotLabel()
        if writer.isAccessingOnCurrentThread {
            guard !writer.isInsideTransactionOnCurrentThread else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "makeSnapshot() must not be called from inside a transaction.")
            }
            return try DatabaseSnapshot(path: path, configuration: readerConfiguration, label: label)
        }
        return try writer.sync { _ in
            try DatabaseSnapshot(path: path, configuration: readerConfiguration, label: label)
        }
    }
}

/// A reader whose accesses all see the same, unchanging state of the
/// database, as GRDB's protocol of that name: a ``DatabaseSnapshot`` or a
/// ``DatabaseSnapshotPool``.
///
/// ```swift
/// func report(from reader: some DatabaseSnapshotReader) throws -> Int {
///     // Two reads, one state: the counts agree.
///     let players = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
///     let scores = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(score) FROM player") ?? 0 }
///     return players - scores
/// }
/// ```
public protocol DatabaseSnapshotReader: DatabaseReader {}

extension DatabaseSnapshotReader {
    /// Runs `value` and returns its result; called from another access of
    /// the snapshot on this thread, it reuses that access. The content a
    /// snapshot sees does not change, so that this is safe where
    /// `unsafeReentrantRead` on other readers is not.
    ///
    /// ```swift
    /// let count = try snapshot.reentrantRead { db in
    ///     try Player.fetchCount(db)
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   snapshot is closed or SQLite fails.
    public func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try unsafeReentrantRead(value)
    }
}
