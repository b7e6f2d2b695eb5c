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
    // `readers`, `readerLoads`, `openingReaders`, `snapshotCount` and
    // `isClosed` are guarded by `lock`.
    let writer: SerializedDatabase
    private var readers: [SerializedDatabase] = []
    /// The number of reads that use or wait for each reader.
    private var readerLoads: [Int] = []
    /// The threads that open a reader, and how many they open: a reader
    /// opens outside the lock, and its `prepareDatabase` may read.
    private var openingReaders: [ObjectIdentifier: Int] = [:]
    private var isClosed = false
    private var snapshotCount = 0
    private let lock = NSLock()
    /// The configuration of the readers and snapshots, which
    /// `add(tokenizer:)` extends: guarded by `lock`.
    private var _readerConfiguration: Configuration

    /// The configuration of the readers and snapshots that open now.
    var readerConfiguration: Configuration {
        lock.withLock { _readerConfiguration }
    }

    /// The path of the database.
    public let path: String

    /// The configuration of the connections.
    public var configuration: Configuration { writer.configuration }

    /// The name of the connection of a new snapshot: `label.snapshot.N`,
    /// as GRDB names them, N counting the snapshots of the pool from 1.
    func nextSnapshotLabel() -> String {
        lock.lock()
        snapshotCount += 1
        let number = snapshotCount
        lock.unlock()
        return (configuration.label ?? "Trellis.DatabasePool") + ".snapshot.\(number)"
    }

    /// Opens a pool on a database file, creating it unless the configuration
    /// is read-only, in the WAL journal mode.
    ///
    /// - Throws: A ``DatabaseError`` if the path is empty or in memory, if the
    ///   file cannot be opened or is not a database, or if `prepareDatabase` or
    ///   a setting of the configuration fails.
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
        readerConfiguration.isQueryOnly = true
        // An IMMEDIATE transaction would take the write lock from the writer.
        readerConfiguration.defaultTransactionKind = .deferred
        _readerConfiguration = readerConfiguration
    }

    /// The writer, then the readers opened so far.
    var connections: [SerializedDatabase] {
        lock.withLock { [writer] + readers }
    }

    /// Has the readers and snapshots that open from now on run
    /// `preparation` when they open, and returns the connections open
    /// already, for the caller to prepare: no connection misses it, and
    /// none that opens meanwhile runs it twice.
    func connectionsAddingPreparation(_ preparation: @escaping @Sendable (Database) -> Void) -> [SerializedDatabase] {
        lock.withLock {
            _readerConfiguration.prepareDatabase { db in preparation(db) }
            addedPreparations.append(preparation)
            return [writer] + readers
        }
    }

    /// The preparations of ``connectionsAddingPreparation(_:)``, in order:
    /// a reader that was opening when one was added runs it once open.
    /// Guarded by `lock`.
    private var addedPreparations: [@Sendable (Database) -> Void] = []

    /// Runs `body` with a reader connection: an idle one, else a new one
    /// while there are fewer than `maximumReaderCount`, else the one with
    /// the fewest reads to run. The least busy reader, rather than each in
    /// turn, so that a read does not wait behind a long one while another
    /// reader idles, nor behind the read that waits for it.
    private func withReader<T>(_ body: (SerializedDatabase) throws -> T) throws -> T {
        let reader = try acquireReader()
        defer { releaseReader(reader) }
        return try body(reader)
    }

    private func withReader<T>(_ body: (SerializedDatabase) async throws -> T) async throws -> T {
        let reader = try acquireReader()
        defer { releaseReader(reader) }
        return try await body(reader)
    }

    /// A reader, counted as used until `releaseReader`.
    private func acquireReader() throws -> SerializedDatabase {
        lock.lock()
        if isClosed {
            lock.unlock()
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed: \(path)")
        }
        let leastBusy = readerLoads.indices.min { readerLoads[$0] < readerLoads[$1] }
        let openCount = readers.count + openingReaders.values.reduce(0, +)
        if let leastBusy, readerLoads[leastBusy] == 0 || openCount >= max(1, _readerConfiguration.maximumReaderCount) {
            readerLoads[leastBusy] += 1
            // Read under the lock: another thread may be appending a
            // reader it opened (found by ThreadSanitizer).
            let reader = readers[leastBusy]
            lock.unlock()
            return reader
        }
        let thread = ObjectIdentifier(Thread.current)
        if openingReaders[thread] != nil {
            lock.unlock()
            // The reader would be opened by the `prepareDatabase` of the
            // reader this thread opens, and so on.
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "prepareDatabase can not read from its own DatabasePool while the pool opens a reader")
        }
        openingReaders[thread, default: 0] += 1
        let number = openCount + 1
        let readerConfiguration = _readerConfiguration
        let preparationCount = addedPreparations.count
        lock.unlock()
        // Opened outside the lock: other reads go on meanwhile, and the
        // reader's `prepareDatabase` may read with the readers open.
        let opened = Result {
            try SerializedDatabase(
                path: path, configuration: readerConfiguration,
                label: (readerConfiguration.label ?? "Trellis.DatabasePool") + ".reader.\(number)",
                isWriter: false, checksSchemaVersion: true)
        }
        lock.lock()
        defer { lock.unlock() }
        openingReaders[thread] = nil
        let reader = try opened.get()
        if isClosed {
            try? reader.close()
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed: \(path)")
        }
        for preparation in addedPreparations[preparationCount...] {
            reader.syncWithoutErrors { db in preparation(db) }
        }
        readers.append(reader)
        readerLoads.append(1)
        return reader
    }

    /// Ends a use of `reader` that `acquireReader` counted.
    private func releaseReader(_ reader: SerializedDatabase) {
        lock.withLock {
            // A reader that the pool let go of is no longer counted.
            if let index = readers.firstIndex(where: { $0 === reader }) {
                readerLoads[index] -= 1
            }
        }
    }

    // MARK: - Reading

    /// Runs `value` with a reader connection, in a transaction that sees the
    /// database as it was when the read began.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader { reader in try reader.sync { db in try db.readOnly { try value(db) } } }
    }

    /// The asynchronous version of `read(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withReader { reader in try await reader.async { db in try db.readOnly { try value(db) } } }
    }

    /// Runs `value` with a reader connection, outside of any transaction.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader { reader in try reader.sync(value) }
    }

    /// The asynchronous version of `unsafeRead(_:)`.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withReader { reader in try await reader.async(value) }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let reader: SerializedDatabase
        do {
            reader = try acquireReader()
        } catch {
            value(.failure(error))
            return
        }
        reader.asyncAccess({ db in
            db.readOnly(delivering: value)
            self.releaseReader(reader)
        }, failure: { error in
            self.releaseReader(reader)
            value(.failure(error))
        })
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let reader: SerializedDatabase
        do {
            reader = try acquireReader()
        } catch {
            value(.failure(error))
            return
        }
        reader.asyncAccess({ db in
            value(.success(db))
            self.releaseReader(reader)
        }, failure: { error in
            self.releaseReader(reader)
            value(.failure(error))
        })
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
            reader = try acquireReader()
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
            self.releaseReader(reader)
        }, failure: { error in
            snapshotTaken.signal()
            self.releaseReader(reader)
            value(.failure(error))
        })
        snapshotTaken.wait()
    }

    /// Runs `value` with a reader connection, reusing the access that runs on
    /// this thread, if any.
    ///
    /// - Throws: The error thrown by `value`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        let current = lock.withLock { readers.first(where: \.isAccessingOnCurrentThread) } ?? (writer.isAccessingOnCurrentThread ? writer : nil)
        if let current { return try current.reentrantSync(value) }
        return try withReader { reader in try reader.sync(value) }
    }

    /// Runs `updates` with the writer connection, reusing the access that runs
    /// on this thread, if any.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails.
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
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writeWithoutTransaction { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// Runs `updates` with the writer connection, outside of any transaction.
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

    /// Runs `updates` when no read runs: each reader is taken in turn
    /// while the writer runs.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed, if the call comes from an access of the same
    ///   connection (accesses are not reentrant), or if SQLite fails.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        lock.lock()
        let readers = self.readers
        lock.unlock()
        return try Self.holding(readers[...]) {
            try writeWithoutTransaction(updates)
        }
    }

    /// The asynchronous version of `barrierWriteWithoutTransaction(_:)`.
    ///
    /// - Throws: The error thrown by `updates`; a ``DatabaseError`` if the
    ///   connection is closed or SQLite fails; `CancellationError` if the task
    ///   is cancelled.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction(updates)
    }

    /// As the asynchronous `barrierWriteWithoutTransaction`, it does not
    /// wait for the reads that run: readers see committed states only.
    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncAccess({ db in
            updates(.success(db))
            try? db.checkNoTransactionLeftOpen()
        }, failure: { updates(.failure($0)) })
    }

    /// Runs `body` inside an access of each reader, so that none reads.
    private static func holding<T>(_ readers: ArraySlice<SerializedDatabase>, _ body: () throws -> T) throws -> T {
        guard let first = readers.first else { return try body() }
        return try first.sync { _ in try holding(readers.dropFirst(), body) }
    }

    /// Closes the connections. Later accesses throw.
    ///
    /// - Throws: The first error of the connections that close: see
    ///   ``DatabaseQueue/close()``.
    public func close() throws {
        lock.lock()
        let readers = self.readers
        lock.unlock()
        // All or nothing: a call from an access of one of the connections
        // throws before any closes.
        for connection in readers + [writer] { try connection.checkCallerIsOutsideAccess(of: "close()") }
        lock.withLock { isClosed = true }
        // Each connection closes, even after one reported unfinalized
        // statements: the first error is thrown after.
        var firstError: (any Error)?
        for connection in readers + [writer] {
            do {
                try connection.close()
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
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
            readerLoads.removeAll()
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
