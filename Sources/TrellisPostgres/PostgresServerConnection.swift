import PostgresNIO
import Trellis

/// The connection of one access of a ``PostgreSQLDatabase``, under the
/// ``Trellis/Database`` that the access's closure receives: it runs the
/// statements of that database on a leased postgres-nio connection.
///
/// Each statement is sent on its own and waited for on the thread of the
/// access, and its rows are copied as Trellis values (see
/// `DatabaseValue+PostgresCell.swift`).
final class PostgresServerConnection: DatabaseServerConnection {
    private let connection: PostgresNIO.PostgresConnection
    private let logger: Logger

    init(connection: PostgresNIO.PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    var dialect: SQLDialect { .postgreSQL }

    /// The commands whose row count is a number of changed rows.
    private static let changingCommands: Set<String> = ["INSERT", "UPDATE", "DELETE", "MERGE"]

    func run(_ statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> DatabaseServerRows {
        var bindings = PostgresBindings(capacity: statement.values.count)
        for value in statement.values {
            bindings.appendValue(PostgresParameter(value))
        }
        let query = PostgresQuery(unsafeSQL: statement.sql, binds: bindings)
        // The rows are converted on the event loop of the connection as
        // they arrive, while the server sends the next ones, rather than
        // all at once after the last one.
        let answer = Answer()
        let metadata: PostgresQueryMetadata
        do {
            metadata = try connection.query(query, logger: logger) { row in answer.append(row) }.wait()
        } catch let error as PSQLError {
            throw DatabaseError(error, sql: sql, arguments: arguments)
        }
        // PostgreSQL answers the COMMIT of a transaction that a failed
        // statement aborted with a rollback, and no error: the caller that
        // went on after the error must not believe its writes committed.
        if metadata.command == "ROLLBACK", Self.commitWords.contains(Self.firstWord(of: statement.sql)) {
            throw DatabaseError(
                sqlState: "25P02", message: "the transaction was rolled back: a statement failed in it", sql: sql,
                arguments: arguments)
        }
        if let error = answer.error { throw error }
        let changesCount = Self.changingCommands.contains(metadata.command) ? metadata.rows : nil
        return DatabaseServerRows(
            columnNames: answer.names, values: answer.values, rowCount: answer.rowCount, changesCount: changesCount)
    }

    /// The rows of an answer, converted to Trellis values as they arrive.
    ///
    /// Only the event loop of the connection writes it, until the query
    /// ends; the thread of the access reads it once it has waited for the
    /// end, which orders the accesses: they are not checked at run time
    /// (a check for each value costs more than its copy).
    private final class Answer: @unchecked Sendable {
        @exclusivity(unchecked) var names: [String] = []
        @exclusivity(unchecked) var values: [DatabaseValue] = []
        @exclusivity(unchecked) var rowCount = 0
        /// The first cell that Trellis could not read: the statement runs
        /// to its end all the same, and the error is thrown then.
        @exclusivity(unchecked) var error: (any Error)?

        func append(_ row: PostgresRow) {
            guard error == nil else { return }
            if rowCount == 0 {
                names = row.map(\.columnName)
            }
            do {
                for cell in row {
                    values.append(try DatabaseValue(cell))
                }
                rowCount += 1
            } catch {
                self.error = error
            }
        }
    }

    /// The words that commit a transaction: `END` is PostgreSQL's synonym
    /// of `COMMIT`.
    private static let commitWords: Set<String> = ["COMMIT", "END"]

    private static func firstWord(of sql: String) -> String {
        sql.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
    }

    func columnNames(of statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> [String] {
        // Trellis asks for the columns of queries only, which a subquery
        // takes. A server tells the columns with the rows, and a query may return
        // none: this one returns one row, of NULLs, in the query's columns,
        // which it does not run.
        var described = statement
        described.sql = "SELECT trellis_columns.* FROM (VALUES (1)) AS trellis_row "
            + "LEFT JOIN (\(statement.sql)) AS trellis_columns ON FALSE"
        return try run(described, sql: sql, arguments: arguments).columnNames
    }

    /// The rows of a catalog query, written with `?` for its arguments.
    func rows(_ sql: String, arguments: StatementArguments) throws -> [Row] {
        var rows: [Row] = []
        for statement in try dialect.statements(sql, arguments: arguments) {
            let answer = try run(statement, sql: sql, arguments: arguments)
            let width = answer.columnNames.count
            rows = (0..<answer.rowCount).map { index in
                Row(columns: Array(zip(answer.columnNames, answer.values[(index * width)..<((index + 1) * width)])))
            }
        }
        return rows
    }
}
