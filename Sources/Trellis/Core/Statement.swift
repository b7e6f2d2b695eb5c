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
    public unowned let database: Database

    /// The number of columns of the rows produced by the statement.
    public let columnCount: Int

    /// Whether executing the statement may change the database schema, as
    /// found by the authorizer when the statement was prepared.
    let invalidatesSchemaCache: Bool

    /// The current arguments.
    public private(set) var arguments = StatementArguments()

    @usableFromInline @exclusivity(unchecked)
    var columnLookup: ColumnLookup

    private var _columnNames: [String]?
    private var _parameterNames: [String?]?

    init(database: Database, sqliteStatement: SQLiteStatement, sql: String, invalidatesSchemaCache: Bool) {
        self.database = database
        self.sqliteStatement = sqliteStatement
        self.sql = sql
        self.invalidatesSchemaCache = invalidatesSchemaCache
        self.columnCount = Int(sqlite3_column_count(sqliteStatement))
        self.columnLookup = ColumnLookup()
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
    }

    /// The names of the columns, from left to right.
    public var columnNames: [String] {
        if let names = _columnNames { return names }
        let names = (0..<CInt(columnCount)).map { String(cString: sqlite3_column_name(sqliteStatement, $0)) }
        _columnNames = names
        return names
    }

    /// Whether the statement does not write to the database file.
    public var isReadonly: Bool {
        sqlite3_stmt_readonly(sqliteStatement) != 0
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
        columnLookup.index(ofColumn: name, window: columnCount) { [unowned self] name in
            Row.searchIndex(ofColumn: name, in: self.columnNames, offset: 0, count: self.columnCount)
        }
    }

    // MARK: - Arguments

    private var parameterNames: [String?] {
        if let names = _parameterNames { return names }
        let count = sqlite3_bind_parameter_count(sqliteStatement)
        let names: [String?] = count == 0 ? [] : (1...count).map { index in
            guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index) else { return nil }
            return String(String(cString: cName).dropFirst())
        }
        _parameterNames = names
        return names
    }

    /// Throws a ``DatabaseError`` when `arguments` do not fill the
    /// statement's parameters exactly.
    public func validateArguments(_ arguments: StatementArguments) throws {
        _ = try orderedValues(for: arguments)
    }

    /// Sets the arguments, after checking they fit the parameters.
    public func setArguments(_ arguments: StatementArguments) throws {
        let values = try orderedValues(for: arguments)
        reset()
        for (offset, value) in values.enumerated() {
            try check(value.bind(to: sqliteStatement, at: CInt(offset + 1)))
        }
        self.arguments = arguments
    }

    /// Binds values to the parameters, in order, without a
    /// `StatementArguments` value: the fast path of record persistence.
    @inlinable
    func bind(_ values: some Collection<DatabaseValue>) throws {
        sqlite3_reset(sqliteStatement)
        var index: CInt = 1
        for value in values {
            let code = value.bind(to: sqliteStatement, at: index)
            if code != SQLITE_OK { try check(code) }
            index += 1
        }
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

    // MARK: - Execution

    /// Resets the statement so that it can run again.
    @inlinable
    public func reset() {
        sqlite3_reset(sqliteStatement)
    }

    /// Executes the statement, with new arguments if given.
    public func execute(arguments: StatementArguments? = nil) throws {
        if let arguments { try setArguments(arguments) } else { reset() }
        try database.willExecute(self)
        while try step() {}
    }

    /// Steps the statement: true when a row is available.
    @inlinable
    func step() throws -> Bool {
        let code = sqlite3_step(sqliteStatement)
        if code == SQLITE_ROW {
            columnLookup.startRow()
            return true
        }
        if code == SQLITE_DONE {
            return false
        }
        throw database.makeError(code: code, statement: self)
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
@usableFromInline
struct ColumnLookup {
    @usableFromInline var names: [String] = []
    @usableFromInline var windows: [Int] = []
    @usableFromInline var indexes: [Int] = []
    @usableFromInline var position = 0

    @inlinable
    mutating func startRow() {
        position = 0
    }

    @inlinable
    mutating func index(ofColumn name: String, window: Int, search: (String) -> Int?) -> Int? {
        let position = self.position
        self.position = position &+ 1
        if position < names.count {
            if windows[position] == window && names[position] == name {
                let index = indexes[position]
                return index < 0 ? nil : index
            }
            let index = search(name)
            names[position] = name
            windows[position] = window
            indexes[position] = index ?? -1
            return index
        }
        let index = search(name)
        if position == names.count && position < 1024 {
            names.append(name)
            windows.append(window)
            indexes.append(index ?? -1)
        }
        return index
    }
}
