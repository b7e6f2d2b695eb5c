import TrellisSQLite

/// The statements of an SQL string that holds several, prepared one at a
/// time: a statement may use a table that the previous one creates. See
/// ``Database/allStatements(sql:arguments:)``.
///
/// ```swift
/// let statements = try db.allStatements(sql: """
///     INSERT INTO player (name) VALUES (?);
///     INSERT INTO player (name) VALUES (?);
///     """, arguments: ["Arthur", "Barbara"])
/// while let statement = try statements.next() {
///     try statement.execute()
/// }
/// ```
///
/// Given arguments are shared out: each statement takes the positional
/// values it needs, in order, and any named value; the last one takes
/// what is left, so that extra values are an error before it runs.
public final class SQLStatementCursor: Cursor {
    private let database: Database
    private let sql: String
    private let utf8: ContiguousArray<CChar>
    private let arguments: StatementArguments?
    private var remainingValues: ArraySlice<DatabaseValue>
    private var offset = 0
    private var isAtEnd = false

    init(database: Database, sql: String, arguments: StatementArguments?) {
        self.database = database
        self.sql = sql
        utf8 = sql.utf8CString
        self.arguments = arguments
        remainingValues = arguments?.values[...] ?? []
    }

    /// The next statement, with its arguments, or nil after the last one.
    ///
    /// - Throws: A ``DatabaseError`` if the next statement is invalid, or if
    ///   the arguments do not fit the statements.
    public func next() throws -> Statement? {
        guard !isAtEnd else { return nil }
        if offset == 0 { try Database.checkNoStatementAfterNUL(utf8) }
        guard let prepared = try database.prepareStatement(utf8: utf8, from: offset, persistent: false) else {
            isAtEnd = true
            try checkNoValueIsLeft()
            return nil
        }
        offset = prepared.next
        if let arguments {
            let values = prepared.isLast
                ? Array(remainingValues)
                : Array(remainingValues.prefix(Self.positionalParameterCount(of: prepared.statement, named: arguments.namedValues)))
            remainingValues = remainingValues.dropFirst(values.count)
            try prepared.statement.setArguments(StatementArguments(values: values, namedValues: arguments.namedValues))
        }
        return prepared.statement
    }

    /// The number of parameters of `statement` that no named value fills.
    private static func positionalParameterCount(of statement: Statement, named: [String: DatabaseValue]) -> Int {
        let parameterCount = statement.parameterCount
        var positionalCount = 0
        for index in 0..<parameterCount {
            let isNamed = sqlite3_bind_parameter_name(statement.sqliteStatement, CInt(index + 1)).map {
                named[String(String(cString: $0).dropFirst())] != nil
            } ?? false
            if !isNamed { positionalCount += 1 }
        }
        return positionalCount
    }

    private func checkNoValueIsLeft() throws {
        guard let arguments, !remainingValues.isEmpty else { return }
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "wrong number of statement arguments: expected \(arguments.values.count - remainingValues.count), got \(arguments.values.count)",
            sql: sql)
    }
}

extension Database {
    /// The statements of `sql`, prepared one at a time as the cursor is
    /// iterated (a statement may use a table that the previous one
    /// creates). With `arguments`, each statement takes its share of them.
    ///
    /// ```swift
    /// let statements = try db.allStatements(sql: """
    ///     CREATE TABLE player (name TEXT);
    ///     INSERT INTO player (name) VALUES (?);
    ///     SELECT * FROM player;
    ///     """, arguments: ["Arthur"])
    /// while let statement = try statements.next() {
    ///     try statement.execute()
    /// }
    /// ```
    ///
    /// - Throws: Never: the statements are prepared, and their errors thrown,
    ///   by the cursor's `next()`.
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

}
