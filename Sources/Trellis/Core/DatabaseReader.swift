/// A type that reads a database: ``DatabaseQueue`` and ``DatabasePool``.
///
/// Write application code against `any DatabaseReader` or
/// `any DatabaseWriter`, so that it works with every kind of connection:
///
/// ```swift
/// struct PlayerRepository {
///     let reader: any DatabaseReader
///     func count() throws -> Int {
///         try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
///     }
/// }
/// ```
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the connections.
    var configuration: Configuration { get }

    /// Runs `value` with a connection that can not write, and returns its
    /// result.
    ///
    /// - Throws: what `value` throws; a ``DatabaseError`` when the
    ///   connection is closed, when the call comes from inside another
    ///   access of the same connection (`Database methods are not
    ///   reentrant`), or when SQLite can not start the read; the
    ///   ``RowDecodingError`` of a row subscript that failed in `value`
    ///   and that no fetch threw.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` with a connection that can not write, without blocking
    /// the caller's thread.
    ///
    /// - Throws: the errors of the synchronous `read(_:)`, and
    ///   `CancellationError` when the task is cancelled: the statements of
    ///   the read that come after the cancellation throw it.
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` with a connection, without the guarantees of `read`:
    /// no read-only enforcement, no isolation.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// The asynchronous version of `unsafeRead(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` with the connection of the access that runs on this
    /// thread, if any, and else as `unsafeRead(_:)` does: for code
    /// that can not pass the `Database` it was given.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     try dbQueue.unsafeReentrantRead { db in ... } // the same connection
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` later, with a connection that can not write, inside a
    /// read transaction; `value` receives an error when the database can
    /// not be read. The completion-handler form of `read(_:)`.
    ///
    /// ```swift
    /// dbQueue.asyncRead { dbResult in
    ///     guard let db = try? dbResult.get() else { return }
    ///     let count = try? Player.fetchCount(db)
    /// }
    /// ```
    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Runs `value` later with a connection, without the guarantees of
    /// `asyncRead`.
    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Closes the connections. Later accesses throw.
    ///
    /// - Throws: A ``DatabaseError`` if it is called from an access of the
    ///   connection, or with `SQLITE_BUSY` if statements kept past their access
    ///   were still alive.
    func close() throws

    /// Makes the statements that run now stop at their earliest
    /// opportunity: they throw a ``DatabaseError`` with the code
    /// `SQLITE_INTERRUPT`, and the transaction they were in rolls back.
    /// Any thread may call it; statements started later are not affected.
    ///
    /// ```swift
    /// let reading = Task { try await dbQueue.read { db in try Row.fetchAll(db, sql: longQuery) } }
    /// dbQueue.interrupt() // `reading` throws SQLITE_INTERRUPT
    /// ```
    func interrupt()
}

/// A type that writes a database: ``DatabaseQueue`` and ``DatabasePool``.
///
/// ```swift
/// func addPlayer(_ writer: any DatabaseWriter) throws {
///     try writer.write { db in
///         try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     }
/// }
/// ```
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` outside of any transaction.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// The asynchronous version of `writeWithoutTransaction(_:)`.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` when no other access runs.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// The asynchronous version of `barrierWriteWithoutTransaction(_:)`.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` later, outside of any transaction, in the order of
    /// the calls. Nothing runs when the connection is closed.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// Runs `updates` later, outside of any transaction, in the order of
    /// the calls; `updates` receives an error when the database can not be
    /// written (closed, for example).
    ///
    /// ```swift
    /// dbQueue.asyncBarrierWriteWithoutTransaction { dbResult in
    ///     guard let db = try? dbResult.get() else { return }
    ///     try? db.execute(sql: "VACUUM")
    /// }
    /// ```
    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Runs `updates` with the writer connection, reusing the access that
    /// runs on this thread, if any, outside of any transaction it did not
    /// open.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try dbQueue.unsafeReentrantWrite { db in ... } // inside the same transaction
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T
}

extension DatabaseWriter {
    /// Runs `updates` in a transaction, which commits when the closure
    /// returns and rolls back when it throws.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.execute(sql: "UPDATE player SET score = score + 1")
    /// }
    /// ```
    ///
    /// - Throws: what `updates` throws, after the rollback; a
    ///   ``DatabaseError`` when the connection is closed, when the call
    ///   comes from inside another access of the same connection, or when
    ///   SQLite can not begin or commit the transaction (`SQLITE_BUSY`,
    ///   `SQLITE_FULL`, a deferred foreign key violation); the
    ///   ``RowDecodingError`` of a row subscript that failed in `updates`
    ///   and that no fetch threw, after the rollback.
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.inWriteTransaction { try updates(db) }
        }
    }

    /// The asynchronous version of `write(_:)`.
    ///
    /// ```swift
    /// let count = try await dbQueue.write { db in
    ///     try db.execute(sql: "DELETE FROM player")
    ///     return db.changesCount
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            try db.inWriteTransaction { try updates(db) }
        }
    }
}

extension DatabaseWriter {
    /// Runs `updates` later in a transaction, then `completion` with the
    /// connection and the result: the completion-handler form of
    /// `write(_:)`. Writes run in the order of the calls.
    ///
    /// ```swift
    /// dbQueue.asyncWrite({ db in
    ///     try Player(name: "Arthur").insert(db)
    /// }, completion: { db, result in
    ///     if case .failure(let error) = result { print(error) }
    /// })
    /// ```
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void)
    {
        asyncWriteWithoutTransaction { db in
            let result = Result { try db.inWriteTransaction { try updates(db) } }
            completion(db, result)
        }
    }
}

extension Database {
    /// Runs `value` inside a read-only transaction, or gives it the error
    /// that prevented the transaction: the body of `asyncRead`.
    func readOnly(delivering value: (Result<Database, any Error>) -> Void) {
        var delivered = false
        do {
            try readOnly {
                delivered = true
                value(.success(self))
            }
        } catch {
            if !delivered { value(.failure(error)) }
        }
    }

    /// Runs `updates` in a transaction of the configured kind, and returns
    /// its result.
    func inWriteTransaction<T>(_ updates: () throws -> T) throws -> T {
        var result: T?
        try inTransaction(defaultTransactionKind) {
            result = try updates()
            return .commit
        }
        guard let result else {
            throw DatabaseError.misuse("Transaction completed without a result")
        }
        return result
    }

    /// Rolls back a transaction that the caller left open, unless the
    /// configuration allows it.
    func checkNoTransactionLeftOpen() throws {
        guard isInsideTransaction, !configuration.allowsUnsafeTransactions else { return }
        try? rollbackIfNeeded()
        throw DatabaseError.misuse("A transaction was left opened at the end of a database access. It was rolled back.")
    }
}
