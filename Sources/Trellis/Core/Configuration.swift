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

    /// Whether the connection can not write. Default false.
    public var readonly = false

    /// A label that names the connection in errors and traces.
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

    /// The maximum number of statements kept by `cachedStatement`.
    public var maximumStatementCacheSize = 256

    /// The clock of ``Database/transactionDate``. Default `.default`, the
    /// current date of the system.
    public var transactionClock: any TransactionClock = .default

    /// What the connection can not introspect: the primary keys of views.
    /// Default nil.
    public var schemaSource: (any DatabaseSchemaSource)?

    var preparations: [@Sendable (Database) throws -> Void] = []

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
    }

    /// The journal mode a connection sets.
    public enum JournalModeConfiguration: Sendable {
        /// Leaves the journal mode of the file unchanged.
        case `default`
        /// Sets the WAL journal mode.
        case wal
    }
}
