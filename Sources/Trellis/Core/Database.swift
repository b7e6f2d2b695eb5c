import Foundation
import TrellisSQLite

/// A connection to an SQLite database.
///
/// You do not create `Database` values yourself: a ``DatabaseQueue`` hands
/// one to the closures of its `read` and `write` methods, and the
/// connection must not escape them (used after its closure returned, it
/// throws `SQLITE_MISUSE`):
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     print(db.lastInsertedRowID)
/// }
/// ```
public final class Database {
    // A connection runs one access at a time, on the thread of its queue,
    // and its methods never overlap two modifications of one property: the
    // state below is not checked for exclusive access at run time, which
    // would cost about 80 instructions per property and per statement.

    /// The raw SQLite connection handle.
    @exclusivity(unchecked) public private(set) var sqliteConnection: SQLiteConnection?

    /// The configuration of the connection.
    public let configuration: Configuration

    /// The label of the connection, for errors and traces.
    public let description: String

    /// Cached statements, by SQL (its bytes, as SQLite reads it).
    @exclusivity(unchecked) private var statementCache: [SQLText: Statement] = [:]

    /// The statement of the last cache hit, with the SQL it was asked
    /// for: a caller that runs one statement in a loop finds it with a
    /// string comparison, which costs less than hashing. The caller's own
    /// string is kept, not the statement's: the same string compares by
    /// identity, without reading its characters.
    // Two properties rather than a tuple: reading a tuple copies it, with
    // a retain of the string and of the statement.
    @exclusivity(unchecked) private var lastCachedSQL: String?
    @exclusivity(unchecked) private var lastCachedStatement: Statement?

    /// The cancellation of the asynchronous access that runs, if any:
    /// once the task is cancelled, statements other than ROLLBACK throw
    /// `CancellationError`, and transactions do not commit.
    var accessCancellation: AccessCancellation?

    /// The statements that begin and end transactions, by
    /// `TransactionStatement`, prepared on first use.
    @exclusivity(unchecked) var transactionStatements: [Statement?] = Array(
        repeating: nil, count: TransactionStatement.allCases.count)

    /// The schema as last introspected; cleared when the schema changes.
    let schemaCache = DatabaseSchemaCache()

    /// The statements of record persistence and key lookups, by record
    /// type and column set.
    @usableFromInline
    let recordStatementCache = RecordStatementCache()

    /// Set by the authorizer while a statement is prepared.
    private var preparedStatementChangesSchema = false

    /// The table or view whose drop the authorizer was last asked about,
    /// until the next authorization: SQLite then asks for the deletion of
    /// its content, which must be allowed (SQLITE_IGNORE would cancel the
    /// drop without an error).
    @exclusivity(unchecked) private var droppedTableName: String?

    /// Counts the changes of the schema that the connection noticed: a
    /// statement prepared before the last one reads its columns again
    /// before it runs (see ``Statement/refreshColumns()``).
    @exclusivity(unchecked) var schemaGeneration = 0

    /// The date of the current transaction, once `transactionDate` asked
    /// the clock; forgotten when a transaction begins.
    @exclusivity(unchecked) var currentTransactionDate: Date?

    /// The tables that the statement being prepared reads and writes, as
    /// the authorizer reports them.
    private var preparedRegion = StatementRegion()

    /// The tables written during the current access, and whether it
    /// changed the schema: what change observers are told.
    @exclusivity(unchecked) private(set) var accessChanges = DatabaseChanges()

    /// Counts accesses, so that a statement run many times in one access
    /// adds its tables to `accessChanges` once.
    @exclusivity(unchecked) private var accessGeneration = 0
    /// The columns written by the transaction in progress, told to the
    /// change observers when it commits and dropped when it rolls back.
    @exclusivity(unchecked) private var transactionChanges = TransactionChanges()

    /// Whether `accessChanges` records the written tables: only while
    /// someone observes changes.
    @exclusivity(unchecked) private var recordsWrittenTables = false

    /// The columns read while ``recordingReadColumns(_:)`` runs.
    @exclusivity(unchecked) private var recordedReadColumns: [String: ColumnSet]?

    /// What the data change, commit and rollback hooks report to: the
    /// transaction observers. Setting it installs or removes the hooks.
    var transactionHookHandler: (any TransactionHookHandler)? {
        didSet {
            if (oldValue == nil) != (transactionHookHandler == nil) { installTransactionHooks() }
        }
    }

    /// How the last transaction ended, until the statement that ended it
    /// is done and the hook handler is told.
    @usableFromInline
    @exclusivity(unchecked) var pendingTransactionEnd: TransactionEnd?

    /// The error of a transaction observer that refused a commit.
    var commitHookError: (any Error)?

    /// The names of the open savepoints, outermost first, as the
    /// statements that ran opened and closed them: see
    /// `willExecute(_: TransactionControl)`.
    @exclusivity(unchecked) var savepointNames: [String] = []

    /// Whether the open transaction began with a `SAVEPOINT` (not a
    /// `BEGIN`): the `RELEASE` of its outermost savepoint commits it.
    @exclusivity(unchecked) var transactionBeganWithSavepoint = false

    /// The statement that runs, while there are transaction observers:
    /// update events report the columns it updates.
    private(set) weak var executingStatement: Statement?

    /// The data version at the end of the last access, to notice schema
    /// changes made by other connections.
    @exclusivity(unchecked) private var lastDataVersion: UInt32?
    @exclusivity(unchecked) private var accessStart: (version: UInt32?, totalChanges: Int)?
    @exclusivity(unchecked) private var lastSchemaVersion: Int?

    /// Whether each access reads the schema version: see `willStartAccess(recordingWrittenTables:)`.
    @exclusivity(unchecked) var checksSchemaVersion = false

    @exclusivity(unchecked) private var tracer: Tracer?

    /// The busy handler of `Configuration.busyMode = .callback`.
    private var busyHandler: BusyHandler?

    /// The suspension of the connection, when its configuration observes
    /// ``Database/suspendNotification``.
    private var suspension: DatabaseSuspension?

    /// Whether the connection forbids writes for the current access.
    @usableFromInline
    @exclusivity(unchecked) var isReadOnlyAccess = false

    /// Whether the connection forbids writes for good (see
    /// ``makeQueryOnly()``).
    private(set) var isQueryOnly = false

    /// The number of `inTransaction` bodies running: their transaction
    /// must not end before they do.
    @exclusivity(unchecked) var transactionBodyDepth = 0

    /// Whether the connection's queue runs no access: it is set between
    /// accesses, so that a `Database` that escaped the closure of its
    /// access throws instead of running statements (see
    /// `checkIsInsideAccess(sql:)`). A connection used outside of any
    /// queue, for internal work, never sets it.
    @exclusivity(unchecked) var isOutsideAccess = false

    /// The failures of non-throwing row accessors in the current access,
    /// with the row that recorded each, until a fetch throws them: the
    /// access throws the first one left (see
    /// `throwUnreportedDecodingError()`).
    @exclusivity(unchecked) var unreportedDecodingErrors: [(row: ObjectIdentifier, error: any Error)] = []

    /// What the fetch of records that runs learns of the arrays of records
    /// that they read from prefetched rows (see `PrefetchedRecordsPlan`).
    @usableFromInline @exclusivity(unchecked) var prefetchedRecordsLearning: PrefetchedRecordsLearning?

    /// Whether a statement of the current access stopped with
    /// `SQLITE_INTERRUPT`: see `didEndAccess()`.
    @exclusivity(unchecked) var wasInterrupted = false

    /// The server that runs the statements of the connection, when it is a
    /// connection to a database server: `sqliteConnection` is then nil, and
    /// the features that only SQLite has throw (see `Database+Server.swift`).
    let server: (any DatabaseServerConnection)?

    /// Whether `server` is set, for the inlined code of the fast paths,
    /// which tests it once per statement run.
    @usableFromInline
    let usesServer: Bool

    /// The counts that SQLite keeps for its connections, kept for a server
    /// from the answers to the statements.
    @exclusivity(unchecked) var serverChangesCount = 0
    @exclusivity(unchecked) var serverTotalChangesCount = 0
    /// The key of the last record inserted, as SQLite's rowid of an
    /// `INTEGER PRIMARY KEY`, 0 before any insertion: nil after a statement
    /// that may have inserted a row whose key the connection did not read.
    @exclusivity(unchecked) var serverLastInsertedRowID: Int64? = 0
    @exclusivity(unchecked) var serverTransactionIsOpen = false

    /// The error of a feature that only SQLite has, used on a server by a
    /// method that can not throw: the next statement throws it.
    @exclusivity(unchecked) var pendingServerError: (any Error)?

    /// Opens a connection. Throws when the file can not be opened or is not
    /// a database.
    init(path: String, configuration: Configuration, label: String) throws {
        // SQLite would open the file named by the part before the NUL.
        guard !path.utf8.contains(0) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "the database path contains a NUL character")
        }
        self.configuration = configuration
        self.description = label
        self.server = nil
        self.usesServer = false
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var connection: SQLiteConnection?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(connection)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "\(message): \(path)")
        }
        self.sqliteConnection = connection
        if configuration.observesSuspensionNotifications {
            suspension = DatabaseSuspension(connection: connection)
        }
        do {
            try setUp()
        } catch {
            close()
            throw error
        }
    }

    /// A connection whose statements run on a database server: see
    /// `Database+Server.swift`.
    init(server: any DatabaseServerConnection, configuration: Configuration, label: String) {
        self.configuration = configuration
        self.description = label
        self.server = server
        self.usesServer = true
    }

    deinit {
        close()
    }

    private func setUp() throws {
        guard let connection = sqliteConnection else { return }
        sqlite3_extended_result_codes(connection, 1)
        if !configuration.acceptsDoubleQuotedStringLiterals {
            _ = trellis_sqlite_db_config_int(connection, SQLITE_DBCONFIG_DQS_DML, 0)
            _ = trellis_sqlite_db_config_int(connection, SQLITE_DBCONFIG_DQS_DDL, 0)
        }
        // Before any statement reads the schema that it distrusts.
        if configuration.defensive { try enterDefensiveMode(connection) }
        switch configuration.busyMode {
        case .immediateError:
            break
        case .timeout(let seconds):
            sqlite3_busy_timeout(connection, CInt(max(0, min(seconds * 1000, Double(CInt.max)))))
        case .callback(let callback):
            busyHandler = BusyHandler(connection: connection, callback: callback)
        }
        installAuthorizer()
        for function in DatabaseFunction.builtIn { add(function: function) }
        for collation in DatabaseCollation.builtIn { add(collation: collation) }
        // Checks that the file is a database: a statement reads its header.
        try execute(sql: configuration.foreignKeysEnabled ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
        _ = try Int.fetchOne(self, sql: "PRAGMA schema_version")
        if case .wal = configuration.journalMode, !configuration.readonly {
            let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
            if mode?.lowercased() != "wal", !isInMemory {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not activate WAL mode (got \(mode ?? "nil"))")
            }
            // A new database switched to WAL creates its `-wal` and `-shm`
            // files at its first read, which happens now rather than later.
            _ = try Int.fetchOne(self, sql: "PRAGMA schema_version")
        }
        for preparation in configuration.preparations {
            try preparation(self)
        }
        if configuration.isQueryOnly {
            try makeQueryOnly()
        }
    }

    /// Forbids writes on the connection from now on: the readers of a
    /// pool, a read-only copy of a database.
    func makeQueryOnly() throws {
        try execute(sql: "PRAGMA query_only = 1")
        isQueryOnly = true
    }

    private var isInMemory: Bool {
        guard let connection = sqliteConnection, let file = sqlite3_db_filename(connection, "main") else { return true }
        return file.pointee == 0
    }

    /// Closes the connection. Later accesses throw a ``DatabaseError``.
    /// Statements that are not finalized yet keep SQLite's connection
    /// open until they are.
    func close() {
        guard let connection = sqliteConnection else { return }
        willClose(connection)
        sqlite3_close_v2(connection)
        sqliteConnection = nil
    }

    /// Closes the connection, as ``close()``, and throws `SQLITE_BUSY`
    /// when statements that are not finalized (kept past their access)
    /// keep SQLite's connection open: each one is reported to
    /// ``Database/logError``. The connection is closed all the same for
    /// Trellis, and SQLite closes it once they are finalized.
    func closeReportingUnfinalizedStatements() throws {
        guard let connection = sqliteConnection else { return }
        willClose(connection)
        let code = sqlite3_close(connection)
        if code == SQLITE_OK {
            sqliteConnection = nil
            return
        }
        let message = String(cString: sqlite3_errmsg(connection))
        if code == SQLITE_BUSY, let log = Database.logError {
            var statement = sqlite3_next_stmt(connection, nil)
            while let unfinalized = statement {
                let sql = sqlite3_sql(unfinalized).map { String(cString: $0) } ?? ""
                log(ResultCode(rawValue: code), "unfinalized statement: \(sql)")
                statement = sqlite3_next_stmt(connection, unfinalized)
            }
        }
        sqlite3_close_v2(connection)
        sqliteConnection = nil
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
    }

    /// Drops what the connection holds before it closes.
    private func willClose(_ connection: SQLiteConnection) {
        statementCache.removeAll()
        lastCachedSQL = nil
        lastCachedStatement = nil
        transactionStatements = transactionStatements.map { _ in nil }
        recordStatementCache.clear()
        sqlite3_trace_v2(connection, 0, nil, nil)
        tracer = nil
        suspension?.close()
    }

    /// Whether the connection is closed.
    public var isClosed: Bool { sqliteConnection == nil }

    @usableFromInline
    func openConnection() throws -> SQLiteConnection {
        guard let connection = sqliteConnection else {
            // The SQLite connection is asked for by the features that only
            // SQLite has.
            if let server { throw server.dialect.unsupported("This SQLite feature") }
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed: \(description)")
        }
        return connection
    }

    // MARK: - Errors

    /// Builds the error for a failed call, with the connection's message.
    @usableFromInline
    func makeError(code: CInt, statement: Statement? = nil, sql: String? = nil) -> DatabaseError {
        let extended = sqliteConnection.map { sqlite3_extended_errcode($0) } ?? code
        let resultCode = ResultCode(rawValue: (extended & 0xFF) == (code & 0xFF) ? extended : code)
        let message = sqliteConnection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return DatabaseError(
            resultCode: resultCode, message: message, sql: statement?.sql ?? sql, arguments: statement?.arguments,
            publicStatementArguments: configuration.publicStatementArguments)
    }

    // MARK: - Changes

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int {
        sqliteConnection.map { Int(sqlite3_changes64($0)) } ?? serverChangesCount
    }

    /// The number of rows changed since the connection was opened.
    public var totalChangesCount: Int {
        sqliteConnection.map { Int(sqlite3_total_changes64($0)) } ?? serverTotalChangesCount
    }

    /// The rowid of the last inserted row.
    ///
    /// ```swift
    /// try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    /// let playerId = db.lastInsertedRowID
    /// ```
    ///
    /// A database server has no rowid: there it is the integer primary key
    /// of the last record inserted (`insert`, `upsert`), which Trellis reads
    /// back with `RETURNING`. After another statement that inserts, such as
    /// raw SQL, the key is unknown: the property returns 0 and the next
    /// statement, or the end of the access, throws a ``DatabaseError``
    /// instead of going on with a wrong id. Read the key with
    /// `INSERT ... RETURNING` there.
    public var lastInsertedRowID: Int64 {
        if let sqliteConnection { return sqlite3_last_insert_rowid(sqliteConnection) }
        guard let rowID = serverLastInsertedRowID else {
            recordUnsupportedFeature(
                "lastInsertedRowID after an INSERT statement",
                hint: "read the key with INSERT ... RETURNING, or insert a record")
            return 0
        }
        return rowID
    }

    /// Whether a transaction is open.
    public var isInsideTransaction: Bool {
        sqliteConnection.map { sqlite3_get_autocommit($0) == 0 } ?? serverTransactionIsOpen
    }

    // MARK: - Statements

    /// Prepares one statement. Throws when the SQL is invalid or holds more
    /// than one statement.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   more than one statement.
    public func makeStatement(sql: String) throws -> Statement {
        var statements = try prepareStatements(sql: sql, persistent: false)
        guard statements.count <= 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Multiple statements found. To execute multiple statements, use Database.execute(sql:) or Database.allStatements(sql:) instead.",
                sql: sql)
        }
        guard let statement = statements.popLast() else {
            // GRDB's code and message for SQL without a statement.
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "empty statement", sql: sql)
        }
        return statement
    }

    /// Returns a prepared statement from the connection's cache, preparing
    /// it on first use. The cache makes repeated SQL cheap.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   more than one statement.
    @inlinable
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = cachedStatementIfPresent(sql: sql) { return statement }
        return try cacheStatement(sql: sql)
    }

    /// A cached statement that a cursor is still iterating (or will
    /// iterate) can not serve another request: that one gets a fresh
    /// statement.
    @usableFromInline
    func cachedStatementIfPresent(sql: String) -> Statement? {
        let isLastSQL = lastCachedSQL.map { $0.hasIdenticalRepresentation(sql) || $0.hasSameUTF8(as: sql) } ?? false
        // A loop of one request asks for the statement of the last SQL,
        // which is tested without retaining it.
        if isLastSQL, let last = lastCachedStatement.map(Unmanaged.passUnretained),
           last._withUnsafeGuaranteedRef({ statement in
               statement.isIdle && statement.schemaGeneration == schemaGeneration
           })
        {
            return last.takeUnretainedValue()
        }
        let statement: Statement
        if isLastSQL, let last = lastCachedStatement {
            statement = last
        } else {
            guard let cached = statementCache[SQLText(sql)] else { return nil }
            statement = cached
            lastCachedSQL = sql
            lastCachedStatement = cached
        }
        if !statement.isIdle {
            return try? makeStatement(sql: sql)
        }
        if statement.schemaGeneration != schemaGeneration {
            // Prepared under an older schema: its columns may have changed,
            // and the adapters of requests read them before it runs.
            do {
                try statement.refreshColumns()
            } catch {
                return nil
            }
        }
        return statement
    }

    @usableFromInline
    func cacheStatement(sql: String) throws -> Statement {
        var statements = try prepareStatements(sql: sql, persistent: true)
        if statements.isEmpty {
            // GRDB's code and message for SQL without a statement.
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "empty statement", sql: sql)
        }
        guard statements.count == 1, let statement = statements.popLast() else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Multiple statements found. To execute multiple statements, use Database.execute(sql:) or Database.allStatements(sql:) instead.",
                sql: sql)
        }
        if statementCache.count >= configuration.maximumStatementCacheSize {
            statementCache.removeAll(keepingCapacity: true)
            lastCachedSQL = nil
            lastCachedStatement = nil
        }
        statementCache[SQLText(sql)] = statement
        return statement
    }

    /// Prepares every statement of `sql`, in order.
    private func prepareStatements(sql: String, persistent: Bool) throws -> [Statement] {
        var statements: [Statement] = []
        try forEachStatement(sql: sql, persistent: persistent) { statement, _ in statements.append(statement) }
        return statements
    }

    /// Prepares the statements of `sql` one after the other, each after
    /// `body` ran the previous one: a statement may depend on a table that
    /// the previous one creates.
    private func forEachStatement(sql: String, persistent: Bool, _ body: (Statement, _ isLast: Bool) throws -> Void) throws {
        let utf8 = sql.utf8CString
        try Self.checkNoStatementAfterNUL(utf8)
        var offset = 0
        while let prepared = try prepareStatement(utf8: utf8, from: offset, persistent: persistent) {
            offset = prepared.next
            try body(prepared.statement, prepared.isLast)
        }
    }

    /// Throws when `utf8` (SQL with a trailing NUL) has a NUL character
    /// followed by more than whitespace: SQLite stops at the NUL, and what
    /// follows would silently never run. Checked before any statement runs.
    static func checkNoStatementAfterNUL(_ utf8: ContiguousArray<CChar>) throws {
        guard let nul = utf8.firstIndex(of: 0), nul < utf8.count - 1 else { return }
        let whitespace: Set<CChar> = [0, 9, 10, 13, 32]
        guard utf8[nul...].contains(where: { !whitespace.contains($0) }) else { return }
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "SQL contains a NUL character before its end",
            sql: String(decoding: utf8.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Prepares the first statement of `utf8` (SQL with a trailing NUL) at
    /// or after `offset`: the statement, the offset that follows it, and
    /// whether only whitespace, comments and semicolons follow. Nil when
    /// no statement is left.
    func prepareStatement(utf8: ContiguousArray<CChar>, from offset: Int, persistent: Bool) throws
        -> (statement: Statement, next: Int, isLast: Bool)?
    {
        if isOutsideAccess {
            try checkIsInsideAccess(sql: String(decoding: utf8.dropFirst(offset).prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
        if let server { return try prepareServerStatement(utf8: utf8, from: offset, dialect: server.dialect) }
        let connection = try openConnection()
        return try utf8.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            let end = start + buffer.count - 1  // the trailing NUL
            var cursor = start + offset
            while cursor < end {
                var sqliteStatement: SQLiteStatement?
                var tail: UnsafePointer<CChar>?
                preparedStatementChangesSchema = false
                droppedTableName = nil
                preparedRegion = StatementRegion()
                let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
                let code = sqlite3_prepare_v3(connection, cursor, CInt(end - cursor), flags, &sqliteStatement, &tail)
                guard code == SQLITE_OK else {
                    throw makeError(code: code, sql: Self.failedStatementSQL(from: cursor, end: end))
                }
                let next = tail ?? end
                guard let sqliteStatement else {
                    // SQLite stops at a NUL character, which only
                    // whitespace follows (see `checkNoStatementAfterNUL`).
                    if next == cursor { return nil }
                    // Whitespace or a comment.
                    cursor = next
                    continue
                }
                let statementSQL = String(
                    decoding: UnsafeRawBufferPointer(start: cursor, count: next - cursor),
                    as: UTF8.self
                ).trimmingCharacters(in: .whitespacesAndNewlines)
                let rest = String(cString: next).trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ";")))
                let statement = Statement(
                    database: self,
                    sqliteStatement: sqliteStatement,
                    sql: statementSQL,
                    invalidatesSchemaCache: preparedStatementChangesSchema,
                    region: preparedRegion)
                return (statement, next - start, rest.isEmpty)
            }
            return nil
        }
    }

    /// Executes one or several SQL statements, separated by semicolons.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
    ///     INSERT INTO player (name) VALUES (?);
    ///     """, arguments: ["Arthur"])
    /// ```
    ///
    /// Positional arguments are consumed by the statements in order; named
    /// arguments are available to all.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        let statements = try allStatements(sql: sql, arguments: arguments)
        while let statement = try statements.next() {
            try statement.execute()
        }
    }

    /// Called before a statement runs: keeps the schema cache fresh and
    /// traces the statement.
    @usableFromInline
    func willExecute(_ statement: Statement) throws {
        if isOutsideAccess { try checkIsInsideAccess(sql: statement.sql) }
        if let error = statement.invalidArgumentsError { throw error }
        if statement.schemaGeneration != schemaGeneration { try statement.refreshColumns() }
        // A statement kept past the access that prepared it, or past the
        // life of its queue.
        if sqliteConnection == nil && !usesServer { _ = try openConnection() }
        // As in GRDB, the only statement a cancelled access runs is ROLLBACK.
        if let accessCancellation, accessCancellation.isCancelled, !statement.region.rollsBack {
            throw CancellationError()
        }
        if let suspension, suspension.isSuspended, !statement.endsSuspendedTransaction {
            throw DatabaseError(resultCode: .SQLITE_INTERRUPT, message: "Database is suspended", sql: statement.sql)
        }
        // SQLite ended the transaction of the running `inTransaction` (a
        // conflict resolved with ROLLBACK, a raw COMMIT or ROLLBACK): as in
        // GRDB, the statements that follow fail, rather than run outside
        // of any transaction and commit one by one.
        if transactionBodyDepth > 0, let sqliteConnection, sqlite3_get_autocommit(sqliteConnection) != 0 {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: statement.sql)
        }
        if isReadOnlyAccess && !statement.isAllowedInReadOnlyAccess {
            throw DatabaseError(
                resultCode: .SQLITE_READONLY,
                message: "attempt to write a readonly database",
                sql: statement.sql)
        }
        if statement.invalidatesSchemaCache {
            clearSchemaDerivedCaches()
            // A rollback may undo schema changes, which the statements that
            // made them told already: it changes nothing observers saw.
            if !statement.region.controlsTransactions {
                accessChanges.schemaChanged = true
            }
        }
        if statement.region.controlsTransactions, let control = statement.region.transactionControl {
            try willExecute(control)
        }
        if recordsWrittenTables && statement.recordedAccessGeneration != accessGeneration
            && !statement.region.writtenColumns.isEmpty
        {
            statement.recordedAccessGeneration = accessGeneration
            if isInsideTransaction {
                transactionChanges.tables.formColumnUnion(statement.region.writtenColumns)
            } else {
                accessChanges.tables.formColumnUnion(statement.region.writtenColumns)
            }
        }
        if recordedReadColumns != nil {
            recordedReadColumns?.formColumnUnion(statement.region.readColumns)
        }
        if transactionHookHandler != nil { executingStatement = statement }
    }

    /// Follows the transaction in progress for the change observers: the
    /// columns written in a transaction count once it commits, and the
    /// rows it changed do not count when it rolls back (an observation is
    /// not told of a rollback). Called before the statement runs.
    func trackChanges(of control: TransactionControl, savepointDepth depth: Int?) {
        switch control {
        case .beginTransaction:
            transactionChanges = TransactionChanges(changesCountAtStart: totalChangesCount)
        case .beginSavepoint:
            if !isInsideTransaction {
                transactionChanges = TransactionChanges(changesCountAtStart: totalChangesCount)
            }
            transactionChanges.savepoints.append((transactionChanges.tables, totalChangesCount))
        case .commitTransaction:
            commitTrackedChanges()
        case .releaseSavepoint:
            guard let depth else { return }
            if depth == 0 && transactionBeganWithSavepoint {
                commitTrackedChanges()
            } else if depth < transactionChanges.savepoints.count {
                transactionChanges.savepoints.removeSubrange(depth...)
            }
        case .rollbackTransaction:
            if let start = transactionChanges.changesCountAtStart {
                accessChanges.discardedChangesCount += totalChangesCount - start
            }
            transactionChanges = TransactionChanges()
            // Statements run again record their tables again.
            accessGeneration &+= 1
        case .rollbackToSavepoint:
            guard let depth, depth < transactionChanges.savepoints.count else { return }
            let savepoint = transactionChanges.savepoints[depth]
            accessChanges.discardedChangesCount += totalChangesCount - savepoint.changesCount
            transactionChanges.tables = savepoint.tables
            // The savepoint stays open, empty.
            transactionChanges.savepoints.removeSubrange((depth + 1)...)
            transactionChanges.savepoints[depth].changesCount = totalChangesCount
            accessGeneration &+= 1
        }
    }

    /// The row changes of the transaction in progress, which it may
    /// still roll back: change observers hear of them once it commits.
    var uncommittedChangesCount: Int {
        guard let start = transactionChanges.changesCountAtStart, isInsideTransaction else { return 0 }
        return totalChangesCount - start
    }

    private func commitTrackedChanges() {
        accessChanges.tables.formColumnUnion(transactionChanges.tables)
        transactionChanges = TransactionChanges()
    }

    /// Records changes that SQLite does not report, in the columns of
    /// tables (lowercased) or in the whole database (nil): the observers of
    /// the access's changes hear of them when it ends.
    func recordNotifiedChanges(inTables tables: [String: ColumnSet]?) {
        accessChanges.isNotified = true
        if let tables {
            accessChanges.tables.formColumnUnion(tables)
        } else {
            accessChanges.tablesAreUnknown = true
        }
    }

    /// Forgets the prepared statements: they are prepared again when next
    /// needed.
    func clearStatementCaches() {
        statementCache.removeAll()
        lastCachedSQL = nil
        lastCachedStatement = nil
        recordStatementCache.clear()
    }

    /// Runs `body`, and returns the columns read by the statements it ran,
    /// by lowercased table name: the region that a ``ValueObservation``
    /// observes.
    func recordingReadColumns<T>(_ body: () throws -> T) rethrows -> (value: T, columns: [String: ColumnSet]) {
        let outer = recordedReadColumns
        recordedReadColumns = [:]
        defer {
            if var outer {
                outer.formColumnUnion(recordedReadColumns ?? [:])
                recordedReadColumns = outer
            } else {
                recordedReadColumns = nil
            }
        }
        let value = try body()
        return (value, recordedReadColumns ?? [:])
    }

    // MARK: - Schema changes

    /// Clears the schema cache when another connection changed the schema.
    ///
    /// Connections of a pool read `PRAGMA schema_version` at the start of
    /// each access: the writer changes the schema under the readers. A
    /// single connection notices changes made by other processes more
    /// cheaply: when the data version moved during an access that wrote
    /// nothing, the change came from elsewhere.
    func willStartAccess(recordingWrittenTables: Bool) {
        accessGeneration &+= 1
        unreportedDecodingErrors.removeAll()
        accessChanges = DatabaseChanges()
        recordsWrittenTables = recordingWrittenTables
        if checksSchemaVersion {
            let version = try? Int.fetchOne(self, sql: "PRAGMA schema_version")
            if let version, let lastSchemaVersion, version != lastSchemaVersion {
                schemaDidChangeElsewhere()
            }
            lastSchemaVersion = version
            return
        }
        let version = dataVersion
        if let lastDataVersion, let version, lastDataVersion != version {
            schemaDidChangeElsewhere()
        }
        accessStart = (version, totalChangesCount)
    }

    /// Notices, once a transaction holds the write lock, a change that
    /// another connection made since the access began: the data version
    /// that the access started with was the one of the last time the
    /// connection read the file, and taking the lock reads it again. A
    /// write that follows then works from the schema as it is now (an
    /// update writes a column that another connection added).
    func noticeChangesElsewhereAtWriteLock() {
        guard let start = accessStart, let startVersion = start.version, let version = dataVersion,
              version != startVersion, start.totalChanges == totalChangesCount
        else { return }
        schemaDidChangeElsewhere()
        accessStart = (version, totalChangesCount)
    }

    /// Remembers the data version at the end of an access (see
    /// ``willStartAccess(recordingWrittenTables:)``).
    func didEndAccess() {
        if wasInterrupted { resetStatementsAfterInterruption() }
        let version = dataVersion
        if let start = accessStart, start.version != version, start.totalChanges == totalChangesCount {
            schemaDidChangeElsewhere()
        }
        lastDataVersion = version
        accessStart = nil
    }

    /// Resets the statements left running after an interruption: SQLite
    /// interrupts every statement of the connection until none runs, so
    /// that one statement left running (a cursor kept past its access, a
    /// statement stepped by hand) would make all later ones, ROLLBACK
    /// included, fail with `SQLITE_INTERRUPT`. No statement may run past
    /// its access, so none is cut short here.
    private func resetStatementsAfterInterruption() {
        wasInterrupted = false
        guard let connection = sqliteConnection else { return }
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(connection, current)
        }
    }

    /// Forgets what depends on a schema that another connection may have
    /// changed, and has SQLite read the schema again now: it reads it when
    /// a statement runs, not when one is prepared, so that the columns of a
    /// statement prepared before would come from the old schema (see
    /// ``Statement/refreshColumns()``), as would schema introspection.
    private func schemaDidChangeElsewhere() {
        if let connection = sqliteConnection {
            var sqliteStatement: SQLiteStatement?
            if sqlite3_prepare_v3(connection, "SELECT 1 FROM sqlite_master LIMIT 0", -1, 0, &sqliteStatement, nil) == SQLITE_OK,
               let sqliteStatement
            {
                // A statement that reads the schema table checks the schema
                // cookie when it runs, and SQLite loads the new schema.
                sqlite3_step(sqliteStatement)
                sqlite3_finalize(sqliteStatement)
            }
        }
        clearSchemaDerivedCaches()
    }

    /// A counter that changes whenever the database file changes, by this
    /// connection or another one.
    private var dataVersion: UInt32? {
        guard let connection = sqliteConnection else { return nil }
        var version: UInt32 = 0
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK else { return nil }
        return version
    }

    private func installAuthorizer() {
        guard let connection = sqliteConnection else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_set_authorizer(connection, { context, action, operation, column, _, _ in
            // The deletion of a dropped table's content follows the
            // authorization of the drop, maybe after the deletion of its
            // entry in the schema table.
            var droppedTableName: String?
            if let context {
                let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                if db.droppedTableName != nil
                    && !(action == SQLITE_DELETE && operation.map { strncmp($0, "sqlite_", 7) == 0 } == true)
                {
                    droppedTableName = db.droppedTableName
                    db.droppedTableName = nil
                }
            }
            switch action {
            case SQLITE_READ:
                if let context, let table = operation {
                    Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().preparedRegion.recordRead(table, column: column)
                }
            case SQLITE_INSERT:
                if let context, let table = operation {
                    Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().preparedRegion.recordWrite(table)
                }
            case SQLITE_UPDATE:
                if let context, let table = operation {
                    Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().preparedRegion.recordUpdate(table, column: column)
                }
            case SQLITE_DELETE:
                if let context, let table = operation {
                    let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                    db.preparedRegion.recordWrite(table)
                    // With transaction observers, `DELETE FROM t` must report
                    // each row: SQLITE_IGNORE turns off the truncate
                    // optimization, and the rows are still deleted. Not for
                    // `DROP TABLE t`, which SQLITE_IGNORE would skip.
                    if db.transactionHookHandler != nil, strncmp(table, "sqlite_", 7) != 0,
                       droppedTableName.map({ strcmp($0, table) != 0 }) ?? true
                    {
                        return SQLITE_IGNORE
                    }
                }
            case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_VTABLE:
                if let context {
                    let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                    db.preparedStatementChangesSchema = true
                    db.droppedTableName = operation.map { String(cString: $0) }
                }
            case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
                 SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
                 SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TRIGGER,
                 SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DETACH, SQLITE_ATTACH:
                if let context {
                    Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().preparedStatementChangesSchema = true
                }
            case SQLITE_TRANSACTION:
                guard let context, let operation else { break }
                let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                switch String(cString: operation) {
                case "BEGIN": db.preparedRegion.transactionControl = .beginTransaction
                case "COMMIT": db.preparedRegion.transactionControl = .commitTransaction
                case "ROLLBACK":
                    db.preparedRegion.transactionControl = .rollbackTransaction
                    // A rollback may undo schema changes.
                    db.preparedStatementChangesSchema = true
                default: break
                }
            case SQLITE_SAVEPOINT:
                // The second argument is the name of the savepoint.
                guard let context, let operation, let name = column else { break }
                let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                switch String(cString: operation) {
                case "BEGIN":
                    db.preparedRegion.transactionControl = .beginSavepoint(String(cString: name))
                case "RELEASE":
                    db.preparedRegion.transactionControl = .releaseSavepoint(String(cString: name))
                case "ROLLBACK":
                    db.preparedRegion.transactionControl = .rollbackToSavepoint(String(cString: name))
                    db.preparedStatementChangesSchema = true
                default:
                    break
                }
            default:
                break
            }
            return SQLITE_OK
        }, context)
    }

    /// Clears the cached schema: the next introspection reads it again.
    public func clearSchemaCache() {
        clearSchemaDerivedCaches()
    }

    /// Clears what was derived from the schema: introspection, and the
    /// table facts that record persistence keeps.
    func clearSchemaDerivedCaches() {
        schemaCache.clear()
        recordStatementCache.clear()
        schemaGeneration &+= 1
    }

    /// The names of the result columns of `sql` under the current schema.
    func columnNames(ofSQL sql: String) throws -> [String] {
        let connection = try openConnection()
        var sqliteStatement: SQLiteStatement?
        let code = sqlite3_prepare_v3(connection, sql, -1, 0, &sqliteStatement, nil)
        guard code == SQLITE_OK, let sqliteStatement else { throw makeError(code: code, sql: sql) }
        defer { sqlite3_finalize(sqliteStatement) }
        return Statement.columnNames(of: sqliteStatement)
    }

    // MARK: - Tracing

    /// Calls `trace` with each statement the connection runs (`.statement`,
    /// the default), or with each statement and its duration once it ends
    /// (`.profile`), or stops tracing when `trace` is nil. Statements of
    /// triggers are traced too.
    ///
    /// ```swift
    /// db.trace { event in print(event) }  // SELECT * FROM player WHERE email = ?
    /// db.trace(options: .profile) { event in
    ///     if case let .profile(statement, duration) = event, duration > 0.5 {
    ///         print("Slow query: \(statement.sql)")
    ///     }
    /// }
    /// ```
    ///
    /// Arguments appear in descriptions when
    /// ``Configuration/publicStatementArguments`` is true;
    /// `expandedDescription` always shows them.
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        guard let connection = sqliteConnection else {
            if trace != nil { recordUnsupportedFeature("trace(options:_:)") }
            return
        }
        // SQLite forgets the previous callback before the tracer that it
        // refers to is released.
        sqlite3_trace_v2(connection, 0, nil, nil)
        tracer = nil
        guard let trace, !options.isEmpty else { return }
        let tracer = Tracer(publicArguments: configuration.publicStatementArguments, trace: trace)
        self.tracer = tracer
        var mask: UInt32 = 0
        if options.contains(.statement) { mask |= UInt32(SQLITE_TRACE_STMT) }
        if options.contains(.profile) { mask |= UInt32(SQLITE_TRACE_PROFILE) }
        sqlite3_trace_v2(
            connection, mask,
            { mask, context, statement, detail in
                guard let context else { return 0 }
                Unmanaged<Tracer>.fromOpaque(context).takeUnretainedValue()
                    .handle(mask: mask, statement: OpaquePointer(statement), detail: detail)
                return 0
            },
            Unmanaged.passUnretained(tracer).toOpaque())
    }

    /// What to trace.
    public struct TracingOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Each statement as it starts.
        public static let statement = TracingOptions(rawValue: 1)
        /// Each statement when it ends, with its duration.
        public static let profile = TracingOptions(rawValue: 2)
    }

    /// A traced event.
    public enum TraceEvent: CustomStringConvertible {
        /// A statement starts.
        case statement(Statement)
        /// A statement ended, after `duration` seconds.
        case profile(statement: Statement, duration: TimeInterval)

        /// A traced statement.
        public struct Statement: CustomStringConvertible {
            /// The SQL that runs (for a trigger, its name in a comment).
            public let sql: String
            /// The SQL with its arguments inlined.
            public let expandedSQL: String
            let publicArguments: Bool

            /// The SQL, with its arguments when they are public.
            public var description: String { publicArguments ? expandedSQL : sql }
        }

        /// The SQL, prefixed with the duration of profile events
        /// (`0.003s SELECT ...`), with its arguments when they are public.
        public var description: String {
            switch self {
            case .statement(let statement): statement.description
            case .profile(let statement, let duration): String(format: "%.3fs ", duration) + statement.description
            }
        }

        /// The description, with arguments inlined whatever the
        /// configuration.
        public var expandedDescription: String {
            switch self {
            case .statement(let statement): statement.expandedSQL
            case .profile(let statement, let duration): String(format: "%.3fs ", duration) + statement.expandedSQL
            }
        }
    }

    /// Receives SQLite's trace callbacks for the closure of `trace`.
    final class Tracer {
        let publicArguments: Bool
        let trace: (TraceEvent) -> Void

        init(publicArguments: Bool, trace: @escaping (TraceEvent) -> Void) {
            self.publicArguments = publicArguments
            self.trace = trace
        }

        func handle(mask: UInt32, statement: OpaquePointer?, detail: UnsafeMutableRawPointer?) {
            switch Int32(mask) {
            case SQLITE_TRACE_STMT:
                // The detail is the SQL, or the comment of a trigger.
                let sql = detail.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
                let isTrigger = sql.hasPrefix("--")
                trace(.statement(tracedStatement(statement, sql: sql, expands: !isTrigger)))
            case SQLITE_TRACE_PROFILE:
                let nanoseconds = detail.map { $0.load(as: Int64.self) } ?? 0
                let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
                trace(.profile(statement: tracedStatement(statement, sql: sql, expands: true),
                               duration: TimeInterval(nanoseconds) / 1_000_000_000))
            default:
                break
            }
        }

        private func tracedStatement(_ statement: OpaquePointer?, sql: String, expands: Bool) -> TraceEvent.Statement {
            var expanded = sql
            if expands, let cString = sqlite3_expanded_sql(statement) {
                expanded = String(cString: cString)
                sqlite3_free(cString)
            }
            return TraceEvent.Statement(sql: sql, expandedSQL: expanded, publicArguments: publicArguments)
        }
    }
}
