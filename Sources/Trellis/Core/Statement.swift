import Foundation
import TrellisSQLite

/// A prepared SQLite statement.
///
/// You get statements from a database connection, and reuse them with
/// different arguments:
///
/// ```swift
/// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
/// try statement.execute(arguments: ["Arthur"])
/// try statement.execute(arguments: ["Barbara"])
///
/// let names = try String.fetchAll(db.makeStatement(sql: "SELECT name FROM player"))
/// ```
///
/// A statement belongs to its connection: use it only inside the database
/// access that created it.
public final class Statement {
    /// The raw SQLite statement handle.
    public let sqliteStatement: SQLiteStatement

    /// The SQL of the statement, without its arguments.
    public let sql: String

    /// The connection that prepared the statement.
    ///
    /// A statement keeps its connection: one kept past the life of its
    /// queue reports that the connection is closed, where an unowned
    /// reference would stop the process. The connection drops its cached
    /// statements when it closes, which ends the cycle.
    public let database: Database

    /// The number of columns of the rows produced by the statement.
    public var columnCount: Int { _columnCount }

    // Read again when the schema changes: see `refreshColumns()`.
    @usableFromInline @exclusivity(unchecked) var _columnCount: Int

    /// The schema generation of the connection when the columns were read.
    @exclusivity(unchecked) var schemaGeneration: Int

    /// Whether executing the statement may change the database schema, as
    /// found by the authorizer when the statement was prepared.
    let invalidatesSchemaCache: Bool

    /// Whether the statement may run in a read-only access: it does not
    /// write, or it is a pragma (reading `PRAGMA journal_mode` counts as a
    /// write for SQLite).
    @usableFromInline
    let isAllowedInReadOnlyAccess: Bool

    /// The tables the statement reads and writes.
    let region: StatementRegion

    // The mutable state below is only touched by the connection's accesses,
    // which never overlap: the run-time exclusivity checks of a class's
    // properties would only cost time on each execution.

    /// Whether a cursor iterates the statement: the statement cache then
    /// gives a new statement to other fetches of the same SQL.
    @usableFromInline @exclusivity(unchecked) var isReservedByCursor = false

    /// Whether a fetch can run the statement now: no cursor iterates it,
    /// and no fetch is between its steps (a fetch made while the rows of
    /// another are decoded needs a statement of its own).
    @inlinable
    var isIdle: Bool {
        !isReservedByCursor && sqlite3_stmt_busy(sqliteStatement) == 0
    }

    /// The object that binds values to the parameters as they are made,
    /// if any, unretained: the storage of the container that an insert's
    /// record encodes into (see `PersistenceContainerStorage`), which
    /// clears it when it stops binding or goes. Other objects that held
    /// the role before bind nothing any more.
    @usableFromInline @exclusivity(unchecked) var valuesBinder: UnsafeMutableRawPointer?

    /// The last access whose changes include the tables this statement
    /// writes.
    @exclusivity(unchecked) var recordedAccessGeneration = 0

    /// The current arguments.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
    /// statement.arguments = ["name": "Arthur", "score": 1000]
    /// try statement.execute()
    /// ```
    ///
    /// Arguments that do not fit the parameters (where GRDB stops the
    /// process) make the next execution or fetch of the statement throw a
    /// ``DatabaseError``, until valid arguments are set. Use
    /// ``setArguments(_:)`` to hear of the mistake at once.
    public var arguments: StatementArguments {
        get { _arguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                _arguments = newValue
                invalidArgumentsError = error
            }
        }
    }

    @exclusivity(unchecked) private var _arguments = StatementArguments()

    /// The error of the last arguments given to the `arguments` property,
    /// thrown when the statement runs.
    @usableFromInline @exclusivity(unchecked)
    var invalidArgumentsError: (any Error)?

    @usableFromInline
    let columnLookup = ColumnLookup()

    /// The row of the fetches that decode one row at a time.
    @inlinable
    var reusableRow: Row {
        if let row = _reusableRow { return row }
        return makeReusableRow()
    }

    @usableFromInline
    func makeReusableRow() -> Row {
        let row = Row(reusableBy: self)
        _reusableRow = row
        return row
    }

    @usableFromInline @exclusivity(unchecked)
    var _reusableRow: Row?

    @usableFromInline @exclusivity(unchecked) var _columnNames: [String]?
    @exclusivity(unchecked) private var _parameterNames: [String?]?

    /// What the statement runs on the server of its connection, if the
    /// connection is one to a server: its SQLite statement then only
    /// holds the arguments (see ``ServerStatement``).
    @usableFromInline
    let server: ServerStatement?

    /// The number of parameters of the SQL, which preparing it again after
    /// a change of the schema does not change.
    @usableFromInline
    let parameterCount: Int

    init(database: Database, sqliteStatement: SQLiteStatement, sql: String, invalidatesSchemaCache: Bool, region: StatementRegion) {
        self.database = database
        self.sqliteStatement = sqliteStatement
        self.sql = sql
        self.invalidatesSchemaCache = invalidatesSchemaCache
        self.region = region
        self._columnCount = Int(sqlite3_column_count(sqliteStatement))
        self.parameterCount = Int(sqlite3_bind_parameter_count(sqliteStatement))
        self.schemaGeneration = database.schemaGeneration
        self.isAllowedInReadOnlyAccess = sqlite3_stmt_readonly(sqliteStatement) != 0
            || sql.prefix(6).uppercased() == "PRAGMA"
        self.server = nil
    }

    /// A statement of a connection to a server. Its columns are known
    /// once it ran: the server tells them with the rows.
    init(database: Database, template: DialectStatementTemplate) throws {
        let server = ServerStatement(template: template)
        self.database = database
        self.sqliteStatement = try ServerStatement.makePlaceholder(for: template)
        self.parameterCount = Int(sqlite3_bind_parameter_count(sqliteStatement))
        self.sql = template.sql
        self.invalidatesSchemaCache = server.effect.invalidatesSchemaCache
        self.region = StatementRegion()
        self._columnCount = 0
        self.schemaGeneration = database.schemaGeneration
        // `readOnly` runs inside the transaction of a server's access,
        // which can not become read-only: the connection refuses writes.
        self.isAllowedInReadOnlyAccess = server.isQuery
        self.server = server
    }

    deinit {
        if _reusableRow != nil && !isKnownUniquelyReferenced(&_reusableRow) {
            _reusableRow?.detach(from: self)
        }
        sqlite3_finalize(sqliteStatement)
    }

    /// The names of the columns, from left to right.
    public var columnNames: [String] {
        if let names = _columnNames { return names }
        if server != nil {
            // Asked before the statement ran.
            let names = database.describeOnServer(self)
            takeServerColumns(names)
            return names
        }
        let names = Self.columnNames(of: sqliteStatement)
        _columnNames = names
        return names
    }

    /// Whether the names of the columns are `names`, in order.
    ///
    /// Code that remembers what it found in the columns of a statement
    /// checks that they did not change with it, at no cost when `names`
    /// is the array that ``columnNames`` returned:
    ///
    /// ```swift
    /// if !statement.hasColumnNames(knownColumns) {
    ///     knownColumns = statement.columnNames
    ///     columnIndexes.removeAll()
    /// }
    /// ```
    @inlinable
    public func hasColumnNames(_ names: [String]) -> Bool {
        if let known = _columnNames { return known == names }
        return columnNames == names
    }

    /// The names of the columns of an SQLite statement, as it is now
    /// (empty for a name SQLite could not allocate).
    static func columnNames(of sqliteStatement: SQLiteStatement) -> [String] {
        (0..<sqlite3_column_count(sqliteStatement)).map { index in
            sqlite3_column_name(sqliteStatement, index).map { String(cString: $0) } ?? ""
        }
    }

    /// Whether the statement does not write to the database file.
    public var isReadonly: Bool {
        if let server { return server.isQuery }
        return sqlite3_stmt_readonly(sqliteStatement) != 0
    }

    /// Returns the index of the leftmost column named `name`, compared
    /// case-insensitively.
    ///
    /// Code that reads several columns by name in the same order for each
    /// row (as `init(row:)` does) pays for a name search on the first row
    /// only: later rows compare the name with the one remembered at the same
    /// place in the sequence.
    @inlinable
    public func index(ofColumn name: String) -> Int? {
        let cached = columnLookup.cachedIndex(ofColumn: name, window: columnCount)
        if cached != ColumnLookup.unknown {
            return cached < 0 ? nil : cached
        }
        return resolveIndex(ofColumn: name, offset: 0, count: columnCount, window: columnCount)
    }

    /// Searches a column that the lookup memo did not know, and remembers
    /// the answer at the current place in the sequence of lookups.
    @usableFromInline
    func resolveIndex(ofColumn name: String, offset: Int, count: Int, window: Int) -> Int? {
        let index = Row.searchIndex(ofColumn: name, in: columnNames, offset: offset, count: count)
        columnLookup.remember(name, window: window, index: index)
        return index
    }

    // MARK: - Arguments

    private var parameterNames: [String?] {
        if let names = _parameterNames { return names }
        let names: [String?] = parameterCount == 0 ? [] : (1...CInt(parameterCount)).map { index in
            guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index) else { return nil }
            return String(String(cString: cName).dropFirst())
        }
        _parameterNames = names
        return names
    }

    /// Throws a ``DatabaseError`` when `arguments` do not fill the
    /// statement's parameters exactly.
    ///
    /// - Throws: A ``DatabaseError`` if a parameter has no value or a value has
    ///   no parameter.
    public func validateArguments(_ arguments: StatementArguments) throws {
        _ = try orderedValues(for: arguments)
    }

    /// Sets the arguments, after checking they fit the parameters.
    ///
    /// ```swift
    /// try statement.setArguments(["Arthur", 1000])
    /// try statement.execute()
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if a parameter has no value, a value has
    ///   no parameter, or SQLite fails to bind a value.
    public func setArguments(_ arguments: StatementArguments) throws {
        if arguments.namedValues.isEmpty && arguments.values.count == parameterNames.count {
            // Positional values fill the parameters in order, named or not.
            try bind(arguments.values)
        } else {
            try bind(orderedValues(for: arguments))
        }
        _arguments = arguments
    }

    /// Sets the arguments without checking that they fit: a parameter
    /// takes its named value, else the next positional value, else NULL;
    /// values left over are ignored. This is GRDB's behaviour.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT ?, :a")
    /// statement.setUncheckedArguments([5])   // SELECT 5, NULL
    /// ```
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        var positional = arguments.values.makeIterator()
        let values = parameterNames.map { name in
            name.flatMap { arguments.namedValues[$0] } ?? positional.next() ?? .null
        }
        do {
            try bind(values)
            _arguments = arguments
        } catch {
            // SQLite refuses a value only when it is too big: the statement
            // runs with what was bound, or reports the error when it runs.
            _arguments = arguments
            invalidArgumentsError = error
        }
    }

    /// Throws unless the statement has `count` parameters: values bound
    /// in order must fill them all, or the missing ones would keep the
    /// values of the previous run.
    @inlinable @inline(__always)
    func checkParameterCount(_ count: Int) throws {
        if count != parameterCount { throw wrongParameterCount(count) }
    }

    @usableFromInline
    func wrongParameterCount(_ count: Int) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "wrong number of statement arguments: expected \(parameterCount), got \(count)",
            sql: sql)
    }

    /// Binds values to the parameters, in order, without a
    /// `StatementArguments` value: the fast path of record persistence.
    @inlinable
    func bind(_ values: some Collection<DatabaseValue>) throws {
        // Without values to bind, a statement stepped by hand would not
        // tell that it needs a reset.
        let resets = hasRunSinceReset || values.isEmpty
        if resets { reset() }
        invalidArgumentsError = nil
        var index: CInt = 1
        for value in values {
            let code = value.bind(to: sqliteStatement, at: index)
            if code != SQLITE_OK {
                if code == SQLITE_MISUSE && index == 1 && !resets { return try bindAfterReset(values) }
                try check(code)
            }
            index += 1
        }
    }

    /// Binds the values to a statement stepped by hand, through
    /// `sqliteStatement`, since its last reset: SQLite binds after a
    /// reset only.
    @usableFromInline @inline(never)
    func bindAfterReset(_ values: some Collection<DatabaseValue>) throws {
        hasRunSinceReset = true
        try bind(values)
    }

    private func orderedValues(for arguments: StatementArguments) throws -> [DatabaseValue] {
        let names = parameterNames
        var positional = arguments.values.makeIterator()
        var result: [DatabaseValue] = []
        result.reserveCapacity(names.count)
        for name in names {
            if let name, let value = arguments.namedValues[name] {
                result.append(value)
            } else if let value = positional.next() {
                result.append(value)
            } else if let name {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "missing statement argument: \(name)",
                    sql: sql)
            } else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "wrong number of statement arguments: expected \(names.count), got \(arguments.values.count)",
                    sql: sql)
            }
        }
        if positional.next() != nil {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: expected \(names.count), got \(arguments.values.count)",
                sql: sql)
        }
        return result
    }

    /// Reads the columns again after a change of the schema.
    ///
    /// SQLite prepares a statement again, at its next step, when the schema
    /// changed: `SELECT *` then gives the columns of the new schema (a
    /// column added, removed, or moved by a migration). The statement must
    /// not read its rows with the names and count of the old one.
    func refreshColumns() throws {
        if server != nil {
            // The columns come with the rows of each run.
            schemaGeneration = database.schemaGeneration
            return
        }
        let names = try database.columnNames(ofSQL: sql)
        schemaGeneration = database.schemaGeneration
        updateColumns(names)
    }

    /// The times SQLite prepared the statement again, when the columns
    /// were last read.
    @usableFromInline @exclusivity(unchecked) var columnsReprepareCount: CInt = 0

    /// Reads the columns again if SQLite prepared the statement again at
    /// the step that gave the first row: the schema changed, maybe by
    /// another connection, unnoticed until that step. Called before the
    /// first row of each execution is read.
    ///
    /// - parameter assumedByRequest: whether the fetch relies on the
    ///   columns the statement had when it was compiled (the scopes of
    ///   joined rows, the columns of an adapter): it then throws when they
    ///   moved, rather than read the wrong columns.
    /// - Throws: ``DatabaseError/requestCompiledUnderOldSchema(sql:)`` if the
    ///   columns moved and `assumedByRequest` is true.
    @inlinable
    func checkColumnsAfterFirstStep(assumedByRequest: Bool = false) throws {
        if sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0) != columnsReprepareCount,
           columnsDidReprepare(), assumedByRequest
        {
            throw DatabaseError.requestCompiledUnderOldSchema(sql: sql)
        }
    }

    /// Takes the columns of the statement prepared again; returns whether
    /// they changed. What the connection derived from the old schema is
    /// forgotten then: the schema changed.
    @usableFromInline
    func columnsDidReprepare() -> Bool {
        columnsReprepareCount = sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        let names = Self.columnNames(of: sqliteStatement)
        guard names != columnNames else { return false }
        updateColumns(names)
        database.clearSchemaDerivedCaches()
        return true
    }

    /// Takes the columns that the server told for the statement.
    func takeServerColumns(_ names: [String]) {
        if let known = _columnNames, known == names { return }
        if _columnNames == nil {
            _columnCount = names.count
            _columnNames = names
        } else {
            updateColumns(names)
        }
    }

    /// Takes the new columns, and forgets what the old ones made.
    private func updateColumns(_ names: [String]) {
        guard names != columnNames else { return }
        _columnCount = names.count
        _columnNames = names
        columnLookup.removeAll()
        if _reusableRow != nil && !isKnownUniquelyReferenced(&_reusableRow) {
            _reusableRow?.detach(from: self)
        }
        _reusableRow = nil
    }

    // MARK: - Execution

    /// Resets the statement so that it can run again.
    @inlinable
    public func reset() {
        sqlite3_reset(sqliteStatement)
        hasRunSinceReset = false
    }

    /// Whether the statement ran since ``reset()``: it must be reset again
    /// before new values are bound to its parameters. A fetch resets its
    /// statement when it ends, and the lookup that follows binds at once.
    @usableFromInline @exclusivity(unchecked) var hasRunSinceReset = false

    /// Executes the statement, with new arguments if given.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the
    ///   parameters, or if SQLite fails (a constraint violation,
    ///   `SQLITE_BUSY`...).
    public func execute(arguments: StatementArguments? = nil) throws {
        if let arguments { try setArguments(arguments) } else { reset() }
        try database.willExecute(self)
        if server != nil {
            try database.executeOnServer(self)
            return
        }
        while try step() {}
    }

    /// Steps the statement: true when a row is available.
    @inlinable
    func step() throws -> Bool {
        hasRunSinceReset = true
        let code = sqlite3_step(sqliteStatement)
        if code == SQLITE_ROW {
            columnLookup.startRow()
            return true
        }
        if code == SQLITE_DONE {
            if database.pendingTransactionEnd != nil { database.notifyTransactionEnd() }
            return false
        }
        throw database.stepError(code: code, statement: self)
    }

    @usableFromInline
    func check(_ code: CInt) throws {
        if code != SQLITE_OK {
            throw database.makeError(code: code, statement: self)
        }
    }
}

extension Statement: CustomStringConvertible {
    public var description: String { sql }
}

/// Remembers which column index each name lookup of a row resolved to, in
/// the order of the lookups, so that the same sequence on the next row costs
/// one string comparison per lookup. A lookup is made in a window of
/// columns (a scope of the row), which is part of what is remembered.
///
/// It is a class with manually managed storage so that rows can reach it
/// without reference counting or copy-on-write checks on every lookup.
@usableFromInline
final class ColumnLookup {
    @usableFromInline
    struct Entry {
        @usableFromInline var name: String
        @usableFromInline var window: Int
        @usableFromInline var index: Int

        @inlinable
        init(name: String, window: Int, index: Int) {
            self.name = name
            self.window = window
            self.index = index
        }
    }

    /// What `cachedIndex` returns when it does not know the answer.
    @usableFromInline static let unknown = Int.min

    /// The longest remembered sequence of lookups per row.
    @usableFromInline static let capacity = 256

    @usableFromInline let entries: UnsafeMutablePointer<Entry>
    // Only the connection's thread touches a lookup, one access at a time.
    @usableFromInline @exclusivity(unchecked) var count = 0
    @usableFromInline @exclusivity(unchecked) var position = 0

    /// How many columns of a record type's properties are the first
    /// columns of a window, in order (all of them, or 0): compared once per
    /// statement (see `Row.leadingColumnCount(of:named:)`).
    @usableFromInline
    struct ColumnOrder {
        @usableFromInline let record: ObjectIdentifier
        @usableFromInline let window: Int
        @usableFromInline let leadingCount: Int

        @inlinable
        init(record: ObjectIdentifier, window: Int, leadingCount: Int) {
            self.record = record
            self.window = window
            self.leadingCount = leadingCount
        }
    }

    /// The most record types remembered per statement (a join decodes a
    /// few); beyond, the comparison is made again for each row.
    @usableFromInline static let columnOrderCapacity = 8

    @usableFromInline let columnOrders: UnsafeMutablePointer<ColumnOrder>
    @usableFromInline @exclusivity(unchecked) var columnOrderCount = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        columnOrders = .allocate(capacity: Self.columnOrderCapacity)
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        columnOrders.deallocate()
    }

    /// The remembered comparison of the columns of `record` with those of
    /// `window`, if any.
    @inlinable
    func knownColumnOrder(of record: ObjectIdentifier, window: Int) -> Int? {
        var index = 0
        while index < columnOrderCount {
            let order = columnOrders[index]
            if order.record == record && order.window == window { return order.leadingCount }
            index &+= 1
        }
        return nil
    }

    @usableFromInline
    func rememberColumnOrder(of record: ObjectIdentifier, window: Int, leadingCount: Int) {
        guard columnOrderCount < Self.columnOrderCapacity else { return }
        (columnOrders + columnOrderCount).initialize(to: ColumnOrder(record: record, window: window, leadingCount: leadingCount))
        columnOrderCount += 1
    }

    @inlinable
    func startRow() {
        position = 0
    }

    /// Forgets the lookups: the columns changed.
    func removeAll() {
        entries.deinitialize(count: count)
        count = 0
        position = 0
        columnOrderCount = 0
    }

    /// The remembered index (-1 for a missing column), or `unknown`.
    @inlinable
    func cachedIndex(ofColumn name: String, window: Int) -> Int {
        let position = self.position
        self.position = position &+ 1
        if position < count {
            let entry = entries + position
            if entry.pointee.window == window && entry.pointee.name == name {
                return entry.pointee.index
            }
        }
        return Self.unknown
    }

    /// Remembers the answer of the lookup that `cachedIndex` did not know.
    @usableFromInline
    func remember(_ name: String, window: Int, index: Int?) {
        let position = self.position &- 1
        let entry = Entry(name: name, window: window, index: index ?? -1)
        if position < count {
            entries[position] = entry
        } else if position == count && position < Self.capacity {
            (entries + position).initialize(to: entry)
            count += 1
        }
    }
}
