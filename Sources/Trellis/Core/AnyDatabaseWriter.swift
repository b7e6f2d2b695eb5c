/// A type-erased ``DatabaseWriter``: it forwards every access to the writer
/// it wraps.
///
/// ```swift
/// let writer = AnyDatabaseWriter(dbQueue)
/// try writer.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// ```
public final class AnyDatabaseWriter: DatabaseWriter {
    /// The wrapped writer.
    let base: any DatabaseWriter

    /// Wraps `base`.
    public init(_ base: some DatabaseWriter) {
        self.base = (base as? AnyDatabaseWriter)?.base ?? base
    }

    public var configuration: Configuration { base.configuration }

    /// Runs `value` with a read-only connection of the wrapped writer.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try base.read(value)
    }

    /// The asynchronous version of `read(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    /// Runs `value` with a connection of the wrapped writer, without the
    /// isolation of `read(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeRead(value)
    }

    /// The asynchronous version of `unsafeRead(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    /// Runs `value` with a connection of the wrapped writer, reusing the access
    /// that runs on this thread, if any.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncRead(value)
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }

    /// Closes the wrapped writer. Later accesses throw.
    ///
    /// - Throws: A ``DatabaseError`` if it is called from an access of the
    ///   connection, or with `SQLITE_BUSY` if statements kept past their access
    ///   were still alive.
    public func close() throws {
        try base.close()
    }

    public func interrupt() {
        base.interrupt()
    }

    /// Runs `updates` with the writer connection, outside of any transaction.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.writeWithoutTransaction(updates)
    }

    /// The asynchronous version of `writeWithoutTransaction(_:)`.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.writeWithoutTransaction(updates)
    }

    /// Runs `updates` with the writer connection when no read runs.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.barrierWriteWithoutTransaction(updates)
    }

    /// The asynchronous version of `barrierWriteWithoutTransaction(_:)`.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.barrierWriteWithoutTransaction(updates)
    }

    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncBarrierWriteWithoutTransaction(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        base.asyncWriteWithoutTransaction(updates)
    }

    /// Runs `updates` with the writer connection, reusing the access that runs
    /// on this thread, if any.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantWrite(updates)
    }
}
