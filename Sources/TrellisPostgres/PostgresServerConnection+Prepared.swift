import PostgresNIO
import Trellis

/// The statements that run prepared.
///
/// A statement that runs a second time on the connection is sent as a
/// named statement of the protocol (see ``PostgresNamedStatement``): the
/// server parses and plans it once, and later runs take one Bind and one
/// Execute message, and no description of the rows. Its parameters are
/// bound as those of unnamed statements are: text of unspecified type,
/// whose type the server infers from its place, and `bytea` for blobs.
///
/// Only queries and the statements that return the rows they change
/// (`RETURNING`) are prepared: others, and schema and transaction
/// statements, run as before.
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
        throws -> Answer
    {
        let pristineBegin = pristineTransactionBegin
        pristineTransactionBegin = nil
        let answer: Answer
        if statements.capacity > 0, Self.preparableWords.contains(firstWord),
           statements.isPreparable(statement.sql, decide: { Self.isPreparable(statement, firstWord: firstWord) })
        {
            answer = try runPrepared(
                statement, firstWord: firstWord, pristineBegin: pristineBegin, sql: sql, arguments: arguments)
        } else {
            answer = try runUnnamed(statement, sql: sql, arguments: arguments)
        }
        didRun(statement, firstWord: firstWord)
        return answer
    }

    /// Whether a statement may run prepared: a query, or an INSERT, UPDATE
    /// or DELETE with `RETURNING`, whose rows are the rows it changed.
    /// postgres-nio does not give the number of rows that a named
    /// statement without rows changed (see ``PostgresNamedStatement``).
    private static func isPreparable(_ statement: DialectStatement, firstWord: String) -> Bool {
        guard preparableWords.contains(firstWord) else { return false }
        let words = PostgresServerConnection.words(of: statement.sql)
        switch firstWord {
        case "INSERT", "UPDATE", "DELETE":
            return words.contains("RETURNING")
        default:
            // A WITH that writes may answer with rows and a number of
            // changed rows, and `SELECT ... INTO` creates a table: both
            // run unnamed.
            return !words.contains { ["INSERT", "UPDATE", "DELETE", "MERGE", "INTO"].contains($0) }
        }
    }

    private func runPrepared(
        _ statement: DialectStatement, firstWord: String, pristineBegin: String?,
        sql: String, arguments: StatementArguments) throws -> Answer
    {
        let key = PostgresStatementCache.key(sql: statement.sql, values: statement.values)
        let name: String
        let isNew: Bool
        if let known = statements.preparedName(for: key) {
            (name, isNew) = (known, false)
        } else if statements.shouldPrepare(key), let new = statements.makeName(for: key) {
            (name, isNew) = (new, true)
        } else {
            let answer = try runUnnamed(statement, sql: sql, arguments: arguments)
            statements.didRunUnnamed(key, rowCount: answer.rows.count)
            return answer
        }
        let named = PostgresNamedStatement(
            name: name, sql: statement.sql,
            parameterTypes: statement.values.map { PostgresParameter($0).psqlType },
            bindings: Self.bindings(statement.values))
        let rows: [PostgresRow]
        do {
            rows = try named.run(on: connection, logger: logger)
        } catch let error as PSQLError {
            if isNew {
                // postgres-nio keeps the failure of a preparation for the
                // name, and tells no failed preparation from a failed run:
                // the name is given up, and deallocated in case it exists.
                statements.deallocateLater(name)
                throw DatabaseError(error, sql: sql, arguments: arguments)
            }
            return try recover(
                from: error, of: statement, key: key, pristineBegin: pristineBegin, sql: sql, arguments: arguments)
        }
        if rows.count > PostgresStatementCache.preparedRowLimit {
            statements.didReturnManyRows(key, sql: statement.sql, newName: isNew ? name : nil)
        } else if isNew {
            statements.didPrepare(key, name: name)
        }
        // A query changes no row; the rows of a RETURNING are the rows
        // that its statement changed.
        return Answer(
            rows: rows, command: firstWord, changesCount: Self.changingCommands.contains(firstWord) ? rows.count : nil)
    }

    /// Handles the failure of a prepared statement. A statement whose plan
    /// no longer fits the schema (`0A000`, `cached plan must not change
    /// result type`, after another connection added a column to the table
    /// of a `SELECT *`) or that the server no longer knows (`26000`) is
    /// forgotten, and prepared again under a new name at a later run.
    ///
    /// The failed statement aborted the transaction, which PostgreSQL does
    /// not let go on. When the transaction ran nothing else yet, it is
    /// rolled back and begun again, and the statement runs unnamed: the
    /// caller sees no error. Else the error is thrown, and the next access
    /// runs the statement afresh.
    private func recover(
        from error: PSQLError, of statement: DialectStatement, key: String, pristineBegin: String?,
        sql: String, arguments: StatementArguments) throws -> Answer
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
    private func didRun(_ statement: DialectStatement, firstWord: String) {
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
