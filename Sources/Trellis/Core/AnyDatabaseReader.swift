/// A type-erased ``DatabaseReader``: it forwards every access to the reader
/// it wraps.
///
/// ```swift
/// let reader = AnyDatabaseReader(dbPool)
/// let count = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
/// ```
///
/// It gives a read-only view of a writer to code that must not write:
/// value observations started with it run as on the wrapped reader.
public final class AnyDatabaseReader: DatabaseReader {
    /// The wrapped reader.
    let base: any DatabaseReader

    /// Wraps `base`.
    public init(_ base: some DatabaseReader) {
        self.base = unwrappedDatabaseReader(base)
    }

    public var configuration: Configuration { base.configuration }

    /// Runs `value` with a read-only connection of the wrapped reader.
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

    /// Runs `value` with a connection of the wrapped reader, without the
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

    /// Runs `value` with a connection of the wrapped reader, reusing the access
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

    /// Closes the wrapped reader. Later accesses throw.
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
}

/// The reader that `reader` wraps, if it is a type-erased one, so that the
/// code that depends on the kind of connection (value observations) sees it.
func unwrappedDatabaseReader(_ reader: any DatabaseReader) -> any DatabaseReader {
    if let reader = reader as? AnyDatabaseReader { return reader.base }
    if let writer = reader as? AnyDatabaseWriter { return writer.base }
    return reader
}
