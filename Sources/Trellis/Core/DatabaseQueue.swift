import Foundation

/// A database connection that serializes accesses to an SQLite database.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
///
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try dbQueue.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// A `DatabaseQueue` can be used from any thread and any task: accesses run
/// one after the other on a serial dispatch queue. `write` wraps its
/// statements in a transaction that rolls back on error; `read` forbids
/// writes. The connection closes when the queue is deallocated.
public final class DatabaseQueue: DatabaseWriter {
    let writer: SerializedDatabase

    /// The path of the database.
    public let path: String

    /// The configuration of the connection.
    public var configuration: Configuration { writer.configuration }

    /// Opens a database file, creating it unless the configuration is
    /// read-only.
    ///
    /// - Throws: A ``DatabaseError`` if the file cannot be opened or is not a
    ///   database, or if `prepareDatabase` or a setting of the configuration
    ///   fails.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        writer = try SerializedDatabase(
            path: path, configuration: configuration,
            label: configuration.label ?? "Trellis.DatabaseQueue", isWriter: true)
    }

    /// Opens a private in-memory database.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue()
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if `prepareDatabase` or a setting of the
    ///   configuration fails.
    public convenience init(configuration: Configuration = Configuration()) throws {
        try self.init(path: ":memory:", configuration: configuration)
    }

    /// Opens a named in-memory database, shared by all the queues of the
    /// process that use the same name while one of them is open.
    ///
    /// ```swift
    /// let dbQueue1 = try DatabaseQueue(named: "myDatabase")
    /// let dbQueue2 = try DatabaseQueue(named: "myDatabase") // same database
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if `prepareDatabase` or a setting of the
    ///   configuration fails.
    public convenience init(named name: String, configuration: Configuration = Configuration()) throws {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        try self.init(path: "file:\(encoded)?mode=memory&cache=shared", configuration: configuration)
    }

    // MARK: - Reading

    /// Runs `value` with the connection, in a read-only transaction.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync { db in
            try db.readOnly { try value(db) }
        }
    }

    /// The asynchronous version of `read(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async { db in
            try db.readOnly { try value(db) }
        }
    }

    /// Runs `value` with the connection, outside of any transaction.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncAccess({ db in db.readOnly(delivering: value) }, failure: { value(.failure($0)) })
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncAccess({ db in value(.success(db)) }, failure: { value(.failure($0)) })
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.asyncAccess({ db in
            updates(db)
            try? db.checkNoTransactionLeftOpen()
        }, failure: { _ in })
    }

    /// Runs `value` with the connection, reusing the access that runs on this
    /// thread, if any.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(value)
    }

    /// Runs `updates` with the connection, reusing the access that runs on this
    /// thread, if any.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(updates)
    }

    /// The asynchronous version of `unsafeRead(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async(value)
    }

    // MARK: - Writing

    /// Runs `updates` with the connection, outside of any transaction.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync { db in
            let result = try updates(db)
            try db.checkNoTransactionLeftOpen()
            return result
        }
    }

    /// The asynchronous version of `writeWithoutTransaction(_:)`.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async { db in
            let result = try updates(db)
            try db.checkNoTransactionLeftOpen()
            return result
        }
    }

    /// Runs `updates` with the connection, outside of any transaction: a queue
    /// runs one access at a time.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(updates)
    }

    /// The asynchronous version of `barrierWriteWithoutTransaction(_:)`.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction(updates)
    }

    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncAccess({ db in
            updates(.success(db))
            try? db.checkNoTransactionLeftOpen()
        }, failure: { updates(.failure($0)) })
    }

    /// Runs `updates` with the connection, with no transaction and no
    /// check: the caller manages transactions.
    ///
    /// ```swift
    /// try dbQueue.inDatabase { db in
    ///     try db.execute(sql: "BEGIN")
    ///     try db.execute(sql: "COMMIT")
    /// }
    /// ```
    ///
    /// A closure that does not throw needs no `try`: it runs through the
    /// non-throwing overload below. A call from an access of the
    /// connection throws instead of deadlocking.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func inDatabase<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync(updates)
    }

    /// Runs `updates`, which does not throw, with the connection, with no
    /// transaction and no check: the form of ``inDatabase(_:)`` that needs
    /// no `try`, as a `rethrows` method would.
    ///
    /// ```swift
    /// let changes = dbQueue.inDatabase { db in db.totalChangesCount }
    /// ```
    ///
    /// Such a closure can not be told of an error, so it always runs: in a
    /// call from an access of the connection, it runs in that access (as
    /// ``unsafeReentrantWrite(_:)`` does), and on a closed connection it
    /// gets the closed connection, whose statements throw.
    public func inDatabase<T>(_ updates: (Database) -> T) -> T {
        writer.syncWithoutErrors(updates)
    }

    /// Runs `updates` in a transaction, which commits or rolls back as the
    /// closure says, and rolls back when it throws.
    ///
    /// ```swift
    /// try dbQueue.inTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
    ///     return .commit
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writer.sync { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// Closes the connection. Later accesses throw a ``DatabaseError``.
    ///
    /// - Throws: A ``DatabaseError`` if it is called from an access of the
    ///   connection, or with `SQLITE_BUSY` if statements kept past their access
    ///   were still alive.
    public func close() throws {
        try writer.close()
    }

    public func interrupt() {
        writer.interrupt()
    }
}
