import PostgresNIO
import Trellis

/// The statements that run prepared.
///
/// A statement that runs a second time on the connection is prepared with
/// SQL, `PREPARE trellis_1(unknown, bytea) AS SELECT ...`, and runs as
/// `EXECUTE trellis_1('42', E'\\x00')`: the server then parses a few words
/// instead of the whole statement, and reuses its plan.
///
/// postgres-nio prepares statements of the protocol only for SQL known when
/// the app is compiled (`PostgresPreparedStatement`); and `EXECUTE` takes no
/// bound parameter of unspecified type, which Trellis sends so that the
/// server gives each value the type of its place. The arguments of `EXECUTE`
/// are thus string constants of no declared type, which the server reads
/// as it reads such parameters: `'1'` fills an `INTEGER`, a `BOOLEAN` or a
/// `NUMERIC` parameter alike. Blobs are declared `bytea` in the `PREPARE`,
/// as they are bound as `bytea` to an unnamed statement.
///
/// Only queries and the statements that change rows are prepared: the
/// schema statements and those of transactions, which PostgreSQL does not
/// prepare, run as before.
extension PostgresServerConnection {
    /// The first words of the statements that may run prepared.
    private static let preparableWords: Set<String> = ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "VALUES", "TABLE"]

    /// The first words of the statements after which a prepared statement
    /// may return other columns: its plan would then fail (`cached plan must
    /// not change result type`).
    private static let schemaWords: Set<String> = ["CREATE", "ALTER", "DROP", "DO", "IMPORT"]

    /// The first words of the statements that end a transaction.
    private static let endWords: Set<String> = ["COMMIT", "END", "ROLLBACK", "ABORT"]

    /// Runs a statement, prepared when it should be, and keeps the cache of
    /// prepared statements in step with the connection.
    func answer(_ statement: DialectStatement, firstWord: String, sql: String, arguments: StatementArguments)
        throws -> PostgresQueryResult
    {
        let pristineBegin = pristineTransactionBegin
        pristineTransactionBegin = nil
        let result: PostgresQueryResult
        if let executeArguments = preparableArguments(statement, firstWord: firstWord) {
            result = try runPrepared(
                statement, executeArguments: executeArguments, pristineBegin: pristineBegin, sql: sql,
                arguments: arguments)
        } else {
            result = try runUnnamed(statement, sql: sql, arguments: arguments)
        }
        try didRun(statement, firstWord: firstWord)
        return result
    }

    /// The arguments of `EXECUTE`, when the statement may run prepared.
    private func preparableArguments(_ statement: DialectStatement, firstWord: String) -> [String]? {
        guard statements.capacity > 0, Self.preparableWords.contains(firstWord) else { return nil }
        // `SELECT ... INTO` creates a table, and can not be prepared.
        if firstWord != "INSERT", statement.sql.uppercased().contains("INTO") { return nil }
        var arguments: [String] = []
        arguments.reserveCapacity(statement.values.count)
        for value in statement.values {
            guard let argument = PostgresParameter(value).executeArgument else { return nil }
            arguments.append(argument)
        }
        return arguments
    }

    private func runPrepared(
        _ statement: DialectStatement, executeArguments: [String], pristineBegin: String?,
        sql: String, arguments: StatementArguments) throws -> PostgresQueryResult
    {
        let key = PostgresStatementCache.key(sql: statement.sql, values: statement.values)
        if let name = statements.preparedName(for: key) {
            do {
                return try connection.query(Self.execute(name, executeArguments), logger: logger).wait()
            } catch let error as PSQLError {
                return try recover(
                    from: error, of: statement, key: key, pristineBegin: pristineBegin, sql: sql, arguments: arguments)
            }
        }
        guard statements.shouldPrepare(key) else {
            return try runUnnamed(statement, sql: sql, arguments: arguments)
        }
        let name = statements.makeName(for: key)
        let types = statement.values.isEmpty
            ? ""
            : "(" + statement.values.map { PostgresParameter($0).psqlType == .bytea ? "bytea" : "unknown" }
                .joined(separator: ", ") + ")"
        // An error of the PREPARE is the error of the statement: the server
        // parses and analyzes it as it would an unnamed one.
        _ = try send(PostgresQuery(unsafeSQL: "PREPARE \(name)\(types) AS \(statement.sql)"), sql: sql, arguments: arguments)
        statements.didPrepare(key, name: name)
        return try send(Self.execute(name, executeArguments), sql: sql, arguments: arguments)
    }

    private static func execute(_ name: String, _ arguments: [String]) -> PostgresQuery {
        PostgresQuery(unsafeSQL: arguments.isEmpty ? "EXECUTE \(name)" : "EXECUTE \(name)(\(arguments.joined(separator: ", ")))")
    }

    /// Handles the failure of a prepared statement. A statement whose plan
    /// no longer fits the schema (`0A000`, `cached plan must not change
    /// result type`, after another connection added a column to the table
    /// of a `SELECT *`) or that the server no longer knows (`26000`) is
    /// forgotten, and prepared again at a later run.
    ///
    /// The failed statement aborted the transaction, which PostgreSQL does
    /// not let go on. When the transaction ran nothing else yet, it is
    /// rolled back and begun again, and the statement runs unnamed: the
    /// caller sees no error. Else the error is thrown, and the next access
    /// runs the statement afresh.
    private func recover(
        from error: PSQLError, of statement: DialectStatement, key: String, pristineBegin: String?,
        sql: String, arguments: StatementArguments) throws -> PostgresQueryResult
    {
        let sqlState = error.serverInfo?[.sqlState]
        guard sqlState == "0A000" || sqlState == "26000" else {
            throw DatabaseError(error, sql: sql, arguments: arguments)
        }
        statements.forget(key, deallocate: sqlState == "0A000")
        guard let pristineBegin else {
            throw DatabaseError(error, sql: sql, arguments: arguments)
        }
        _ = try send(PostgresQuery(unsafeSQL: "ROLLBACK"), sql: sql, arguments: arguments)
        deallocateUnusedStatements()
        _ = try send(PostgresQuery(unsafeSQL: pristineBegin), sql: sql, arguments: arguments)
        return try runUnnamed(statement, sql: sql, arguments: arguments)
    }

    /// Keeps the cache in step with a statement that ran.
    private func didRun(_ statement: DialectStatement, firstWord: String) throws {
        switch firstWord {
        case "BEGIN", "START":
            if statement.values.isEmpty { pristineTransactionBegin = statement.sql }
        case _ where Self.endWords.contains(firstWord):
            // `ROLLBACK TO SAVEPOINT` ends no transaction.
            if !statement.sql.uppercased().contains(" TO ") { deallocateUnusedStatements() }
        case _ where Self.schemaWords.contains(firstWord):
            statements.forgetAll(deallocate: true)
        case "SET", "RESET":
            // Another search path may find other tables under the same names.
            let text = statement.sql.uppercased()
            if text.contains("SEARCH_PATH") || text.contains("ALL") { statements.forgetAll(deallocate: true) }
        case "DEALLOCATE", "DISCARD":
            // The statements may be gone: the server tells which no more.
            statements.forgetAll(deallocate: false)
        default:
            break
        }
    }

    /// Deallocates the statements that the cache evicted or forgot, once
    /// no transaction is open: a `DEALLOCATE` that fails then aborts
    /// nothing, and its error is of no interest to the caller.
    private func deallocateUnusedStatements() {
        for name in statements.takeNamesToDeallocate() {
            _ = try? connection.query(PostgresQuery(unsafeSQL: "DEALLOCATE \(name)"), logger: logger).wait()
        }
    }
}
