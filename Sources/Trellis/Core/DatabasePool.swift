import Foundation

/// A database connection pool: one writer and several readers on a WAL
/// database, so that reads run concurrently with each other and with the
/// writer.
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/database.sqlite")
/// try dbPool.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try dbPool.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// Each `read` sees a consistent snapshot of the database, the one of the
/// last committed write when it starts. A pool needs a database file: use a
/// ``DatabaseQueue`` for an in-memory database.
public final class DatabasePool: DatabaseWriter, @unchecked Sendable {
    // `readers` and `nextReader` are guarded by `lock`.
    let writer: SerializedDatabase
    private var readers: [SerializedDatabase] = []
    private var nextReader = 0
    private var isClosed = false
    private let lock = NSLock()
    let readerConfiguration: Configuration

    /// The path of the database.
    public let path: String

    /// The configuration of the connections.
    public var configuration: Configuration { writer.configuration }

    /// Opens a pool on a database file, creating it unless the configuration
    /// is read-only, in the WAL journal mode.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        // Each connection of a pool opens the file: in memory, or with a
        // temporary file, each would have a database of its own.
        let lowercased = path.lowercased()
        guard !path.isEmpty, path != ":memory:", !lowercased.hasPrefix("file::memory:"),
              !(lowercased.hasPrefix("file:") && lowercased.contains("mode=memory"))
        else {
            throw DatabaseError(
                resultCode: .SQLITE_CANTOPEN,
                message: "a DatabasePool needs a database file, not \(path.isEmpty ? "an empty path" : path): use a DatabaseQueue in memory")
        }
        self.path = path
        var writerConfiguration = configuration
        if !configuration.readonly {
            writerConfiguration.journalMode = .wal
        }
        if case .immediateError = writerConfiguration.busyMode {
            // Readers and the writer share the file: wait for locks briefly.
            writerConfiguration.busyMode = .timeout(5)
        }
        writer = try SerializedDatabase(
            path: path, configuration: writerConfiguration,
            label: (configuration.label ?? "Trellis.DatabasePool") + ".writer",
            isWriter: true, checksSchemaVersion: true)
        var readerConfiguration = writerConfiguration
        readerConfiguration.journalMode = .default
        // Readers never write, even in `unsafeRead`: writes go through the
        // writer, which serializes them.
        readerConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        // An IMMEDIATE transaction would take the write lock from the writer.
        readerConfiguration.defaultTransactionKind = .deferred
        self.readerConfiguration = readerConfiguration
    }

    /// The writer, then the readers opened so far.
    var connections: [SerializedDatabase] {
        lock.withLock { [writer] + readers }
    }

    /// A reader connection: a new one while there are fewer than
    /// `maximumReaderCount`, then each in turn.
    private func reader() throws -> SerializedDatabase {
        lock.lock()
        defer { lock.unlock() }
        if isClosed {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed: \(path)")
        }
        if readers.count < max(1, readerConfiguration.maximumReaderCount) {
            let reader = try SerializedDatabase(
                path: path, configuration: readerConfiguration,
                label: (readerConfiguration.label ?? "Trellis.DatabasePool") + ".reader\(readers.count + 1)",
                isWriter: false, checksSchemaVersion: true)
            readers.append(reader)
            return reader
        }
        nextReader = (nextReader + 1) % readers.count
        return readers[nextReader]
    }

    // MARK: - Reading

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try reader().sync { db in try db.readOnly { try value(db) } }
    }

    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await reader().async { db in try db.readOnly { try value(db) } }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try reader().sync(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await reader().async(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        do {
            try reader().asyncAccess({ db in db.readOnly(delivering: value) }, failure: { value(.failure($0)) })
        } catch {
            value(.failure(error))
        }
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        do {
            try reader().asyncAccess({ db in value(.success(db)) }, failure: { value(.failure($0)) })
        } catch {
            value(.failure(error))
        }
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.asyncAccess({ db in
            updates(db)
            try? db.checkNoTransactionLeftOpen()
        }, failure: { _ in })
    }

    /// Runs `value` later with a reader, in a read transaction that sees
    /// the database as it is now, while the writer goes on: call it from a
    /// write access, outside of a transaction.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.execute(sql: "INSERT ...")
    ///     dbPool.asyncConcurrentRead { dbResult in
    ///         // Sees the insert, and nothing written after it.
    ///     }
    ///     try db.execute(sql: "DELETE ...")
    /// }
    /// ```
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        guard writer.isAccessingOnCurrentThread, !writer.isInsideTransactionOnCurrentThread else {
            value(.failure(DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "asyncConcurrentRead must be called from a write access, outside of any transaction")))
            return
        }
        if lock.withLock({ readers.contains(where: \.isAccessingOnCurrentThreadAtAnyDepth) }) {
            // The read that this write is nested in may hold the reader the
            // snapshot would wait for, forever.
            value(.failure(DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "asyncConcurrentRead can not be called from a write nested in a read of the same pool")))
            return
        }
        let reader: SerializedDatabase
        do {
            reader = try self.reader()
        } catch {
            value(.failure(error))
            return
        }
        // The writer waits until the reader holds its snapshot.
        let snapshotTaken = DispatchSemaphore(value: 0)
        reader.asyncAccess({ db in
            var isWaiting = true
            func release() {
                if isWaiting { isWaiting = false; snapshotTaken.signal() }
            }
            db.readOnly { result in
                if case .success(let db) = result {
                    // The first read opens the snapshot.
                    _ = try? Int.fetchOne(db, sql: "SELECT 1 FROM sqlite_master LIMIT 1")
                }
                release()
                value(result)
            }
            release()
        }, failure: { error in
            snapshotTaken.signal()
            value(.failure(error))
        })
        snapshotTaken.wait()
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        let current = lock.withLock { readers.first(where: \.isAccessingOnCurrentThread) } ?? (writer.isAccessingOnCurrentThread ? writer : nil)
        if let current { return try current.reentrantSync(value) }
        return try reader().sync(value)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(updates)
    }

    // MARK: - Writing

    /// Runs `updates` in a transaction of the writer, which commits or
    /// rolls back as the closure says, and rolls back when it throws.
    ///
    /// ```swift
    /// try dbPool.writeInTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
    ///     return .commit
    /// }
    /// ```
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writeWithoutTransaction { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

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

    /// Runs `updates` when no read runs: each reader is taken in turn
    /// while the writer runs.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        lock.lock()
        let readers = self.readers
        lock.unlock()
        return try Self.holding(readers[...]) {
            try writeWithoutTransaction(updates)
        }
    }

    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction(updates)
    }

    /// Runs `body` inside an access of each reader, so that none reads.
    private static func holding<T>(_ readers: ArraySlice<SerializedDatabase>, _ body: () throws -> T) throws -> T {
        guard let first = readers.first else { return try body() }
        return try first.sync { _ in try holding(readers.dropFirst(), body) }
    }

    /// Closes the connections. Later accesses throw.
    public func close() throws {
        lock.lock()
        let readers = self.readers
        lock.unlock()
        // All or nothing: a call from an access of one of the connections
        // throws before any closes.
        for connection in readers + [writer] { try connection.checkCallerIsOutsideAccess(of: "close()") }
        lock.withLock { isClosed = true }
        for reader in readers { try reader.close() }
        try writer.close()
    }

    /// Lets go of the reader connections: the reads that follow open new
    /// ones. The reads that run meanwhile go on with their connection,
    /// which closes once they end.
    ///
    /// ```swift
    /// try dbPool.barrierWriteWithoutTransaction { db in
    ///     try db.execute(sql: "PRAGMA ...")  // a change the readers must see
    ///     dbPool.invalidateReadOnlyConnections()
    /// }
    /// ```
    public func invalidateReadOnlyConnections() {
        lock.withLock {
            readers.removeAll()
            nextReader = 0
        }
    }

    public func interrupt() {
        lock.lock()
        let readers = self.readers
        lock.unlock()
        writer.interrupt()
        for reader in readers { reader.interrupt() }
    }
}
