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
    public convenience init(named name: String, configuration: Configuration = Configuration()) throws {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        try self.init(path: "file:\(encoded)?mode=memory&cache=shared", configuration: configuration)
    }

    // MARK: - Reading

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync { db in
            try db.readOnly { try value(db) }
        }
    }

    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async { db in
            try db.readOnly { try value(db) }
        }
    }

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

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(value)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(updates)
    }

    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async(value)
    }

    // MARK: - Writing

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync { db in
            let result = try updates(db)
            try db.checkNoTransactionLeftOpen()
            return result
        }
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async { db in
            let result = try updates(db)
            try db.checkNoTransactionLeftOpen()
            return result
        }
    }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(updates)
    }

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
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writer.sync { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// Closes the connection. Later accesses throw a ``DatabaseError``.
    public func close() throws {
        try writer.close()
    }

    public func interrupt() {
        writer.interrupt()
    }
}
