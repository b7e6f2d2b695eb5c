import Foundation

/// The configuration of a database connection.
///
/// ```swift
/// var config = Configuration()
/// config.readonly = true
/// config.foreignKeysEnabled = true // the default
/// config.label = "MyDatabase"
/// config.prepareDatabase { db in
///     db.trace { print("SQL: \($0)") }
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite", configuration: config)
/// ```
public struct Configuration: Sendable {
    /// Whether SQLite enforces foreign keys. Default true.
    public var foreignKeysEnabled = true

    /// Whether the connections stop acquiring locks when
    /// ``Database/suspendNotification`` is posted, until
    /// ``Database/resumeNotification``. Default false.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.observesSuspensionNotifications = true
    /// let dbPool = try DatabasePool(path: path, configuration: configuration)
    /// ```
    ///
    /// Meanwhile, accesses throw `SQLITE_INTERRUPT` errors: see
    /// ``Database/suspendNotification``.
    public var observesSuspensionNotifications = false

    /// Whether the connections free their non-essential memory when the
    /// operating system asks applications to use less. Default true.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.automaticMemoryManagement = false
    /// let dbQueue = try DatabaseQueue(path: dbPath, configuration: config)
    /// ```
    ///
    /// Linux sends applications no memory warnings: the setting changes
    /// nothing there. Free memory with ``DatabaseQueue/releaseMemory()``
    /// or ``DatabasePool/releaseMemoryEventually()``.
    public var automaticMemoryManagement = true

    /// Whether the connection can not write. Default false.
    public var readonly = false

    /// Whether the connection opens a file that may have been crafted to
    /// attack the application: one a user handed over, downloaded, or
    /// found on a shared disk. Default false.
    ///
    /// A crafted schema may hold views, triggers, generated columns, check
    /// constraints and indexes that call the application's functions when
    /// the application reads it, or rely on `writable_schema` to corrupt the
    /// file. A defensive connection turns on SQLite's defensive mode
    /// (`SQLITE_DBCONFIG_DEFENSIVE`), sets `trusted_schema` off, so that the
    /// schema may only call the functions SQLite marks innocuous (none of
    /// the application's), checks the size of each cell it reads
    /// (`cell_size_check`), and reads the file without memory mapping it.
    /// A statement that the schema makes call a function then throws
    /// instead of running it.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.defensive = true
    /// config.readonly = true
    /// let dbQueue = try DatabaseQueue(path: downloadedPath, configuration: config)
    /// ```
    public var defensive = false

    /// A label that names the connections (``Database/description``) in
    /// errors and traces. A queue's connection is named `label`, the
    /// connections of a pool `label.writer`, `label.reader.1`,
    /// `label.reader.2`..., and its snapshots `label.snapshot.1`... The
    /// label defaults to `Trellis.DatabaseQueue` or `Trellis.DatabasePool`.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.label = "MyDatabase"
    /// let dbPool = try DatabasePool(path: path, configuration: config)
    /// try dbPool.read { db in print(db.description) }  // MyDatabase.reader.1
    /// ```
    public var label: String?

    /// Whether statement arguments appear in error descriptions and
    /// traces. Default false, because they may hold private data.
    public var publicStatementArguments = false

    /// What happens when the database is locked by another connection.
    public var busyMode: BusyMode = .immediateError

    /// The journal mode the connection sets when it opens.
    public var journalMode: JournalModeConfiguration = .default

    /// The kind of the transactions that `write` and `inTransaction()`
    /// open when none is given. Default nil: IMMEDIATE transactions for
    /// writes, as in GRDB 7 (a write takes the write lock when its
    /// transaction begins, so that it never fails to upgrade a read lock
    /// half-way), and DEFERRED ones on read-only connections.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.defaultTransactionKind = .exclusive
    /// ```
    public var defaultTransactionKind: Database.TransactionKind?

    /// Whether SQL accepts double-quoted string literals. Default false,
    /// so that a misspelled `"column"` is an error, not a string.
    public var acceptsDoubleQuotedStringLiterals = false

    /// Whether `write` may leave a transaction open. Default false.
    public var allowsUnsafeTransactions = false

    /// The maximum number of reader connections of a ``DatabasePool``.
    /// Default 5.
    public var maximumReaderCount = 5

    /// Whether the reader connections of a ``DatabasePool`` stay open until
    /// the pool closes. Default false.
    ///
    /// GRDB may close idle readers to save memory unless this is true.
    /// Trellis never does: a pool keeps the readers it opened until
    /// ``DatabasePool/close()``, and ``DatabasePool/releaseMemory()`` frees
    /// their caches only. Both values behave that way; the property is
    /// here so that configurations written for GRDB compile.
    public var persistentReadOnlyConnections = false

    /// The maximum number of statements kept by `cachedStatement`.
    public var maximumStatementCacheSize = 256

    /// The clock of ``Database/transactionDate``. Default `.default`, the
    /// current date of the system.
    public var transactionClock: any TransactionClock = .default

    /// What the connection can not introspect: the primary keys of views.
    /// Default nil.
    public var schemaSource: (any DatabaseSchemaSource)?

    /// The quality of service of the dispatch queues that run database
    /// accesses, when no target queue gives one. Default `.userInitiated`.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.qos = .utility
    /// let dbPool = try DatabasePool(path: "/path/to/database.sqlite", configuration: config)
    /// ```
    public var qos: DispatchQoS = .userInitiated

    /// The quality of service of reads: the one of ``targetQueue`` if
    /// set, else ``qos``.
    public var readQoS: DispatchQoS {
        targetQueue?.qos ?? qos
    }

    /// The quality of service of writes: the one of ``writeTargetQueue``,
    /// else of ``targetQueue``, else ``qos``.
    public var writeQoS: DispatchQoS {
        writeTargetQueue?.qos ?? targetQueue?.qos ?? qos
    }

    /// The queue that the dispatch queues of database accesses target:
    /// the reader connections and snapshots of a ``DatabasePool``, and the
    /// writer when ``writeTargetQueue`` is nil. Default nil.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.targetQueue = DispatchQueue(label: "database", qos: .utility)
    /// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite", configuration: config)
    /// ```
    ///
    /// A serial target queue runs one access at a time for all the
    /// connections that target it: pool reads do not run in parallel, and
    /// an access must not wait for another connection that shares it.
    public var targetQueue: DispatchQueue?

    /// The queue that the writer's dispatch queue targets: the connection
    /// of a ``DatabaseQueue``, or the writer of a ``DatabasePool``. Default
    /// nil: ``targetQueue``.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.writeTargetQueue = DispatchQueue(label: "database.writer", qos: .background)
    /// ```
    public var writeTargetQueue: DispatchQueue?

    var preparations: [@Sendable (Database) throws -> Void] = []

    /// Whether the connection never writes (`PRAGMA query_only`), after the
    /// preparations: the readers of a pool, even in `unsafeRead`.
    var isQueryOnly = false

    public init() {}

    /// Registers a function that runs on each new connection, before it is
    /// used: the place for pragmas, functions and tracing.
    public mutating func prepareDatabase(_ preparation: @escaping @Sendable (Database) throws -> Void) {
        preparations.append(preparation)
    }

    /// What a connection does when the database is locked.
    public enum BusyMode: Sendable {
        /// Fails at once with `SQLITE_BUSY`.
        case immediateError
        /// Retries until the given number of seconds has elapsed.
        case timeout(TimeInterval)
        /// Asks the callback whether to retry, with the number of times it
        /// was asked before for the same lock: it returns false to fail with
        /// `SQLITE_BUSY`.
        ///
        /// ```swift
        /// config.busyMode = .callback { numberOfTries in numberOfTries < 3 }
        /// ```
        case callback(Database.BusyCallback)
    }

    /// The journal mode a connection sets.
    public enum JournalModeConfiguration: Sendable {
        /// Leaves the journal mode of the file unchanged.
        case `default`
        /// Sets the WAL journal mode.
        case wal
    }
}
