import PostgresNIO
import Trellis

/// The connection of one access of a ``PostgreSQLDatabase``, under the
/// ``Trellis/Database`` that the access's closure receives: it runs the
/// statements of that database on a leased postgres-nio connection.
///
/// Each statement is sent on its own and waited for on the thread of the
/// access, and its rows are copied as Trellis values (see
/// `DatabaseValue+PostgresCell.swift`). A statement that runs again on the
/// connection runs prepared (see `PostgresServerConnection+Prepared.swift`).
final class PostgresServerConnection: DatabaseServerConnection {
    let connection: PostgresNIO.PostgresConnection
    let logger: Logger

    /// The statements prepared on the connection, which outlive the access.
    let statements: PostgresStatementCache

    /// The statement that began the open transaction, when nothing else ran
    /// since (see `PostgresServerConnection+Prepared.swift`).
    var pristineTransactionBegin: String?

    init(connection: PostgresNIO.PostgresConnection, statements: PostgresStatementCache, logger: Logger) {
        self.connection = connection
        self.statements = statements
        self.logger = logger
    }

    var dialect: SQLDialect { .postgreSQL }

    /// The commands whose row count is a number of changed rows.
    static let changingCommands: Set<String> = ["INSERT", "UPDATE", "DELETE", "MERGE"]

    /// The answer of the server to one statement.
    struct Answer {
        var rows: [PostgresRow]
        /// The first word of the command tag (`SELECT`, `INSERT`...).
        var command: String
        /// The number of rows that an INSERT, UPDATE, DELETE or MERGE
        /// changed.
        var changesCount: Int?
    }

    func run(_ statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> DatabaseServerRows {
        let firstWord = Self.firstWord(of: statement.sql)
        let result = try answer(statement, firstWord: firstWord, sql: sql, arguments: arguments)
        // PostgreSQL answers the COMMIT of a transaction that a failed
        // statement aborted with a rollback, and no error: the caller that
        // went on after the error must not believe its writes committed.
        if result.command == "ROLLBACK", Self.commitWords.contains(firstWord) {
            throw DatabaseError(
                sqlState: "25P02", message: "the transaction was rolled back: a statement failed in it", sql: sql,
                arguments: arguments)
        }
        var names: [String] = []
        var values: [DatabaseValue] = []
        if let first = result.rows.first {
            names = first.map(\.columnName)
            values.reserveCapacity(names.count * result.rows.count)
        }
        for row in result.rows {
            for cell in row {
                values.append(try DatabaseValue(cell))
            }
        }
        return DatabaseServerRows(columnNames: names, values: values, rowCount: result.rows.count, changesCount: result.changesCount)
    }

    /// The words that commit a transaction: `END` is PostgreSQL's synonym
    /// of `COMMIT`.
    private static let commitWords: Set<String> = ["COMMIT", "END"]

    /// The first word of a statement, after its leading comments.
    static func firstWord(of sql: String) -> String {
        var rest = Substring(sql)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                rest = rest[end.upperBound...]
            } else {
                return rest.prefix { $0.isLetter }.uppercased()
            }
        }
    }

    /// The words of a statement, in upper case, but those of its strings,
    /// quoted identifiers and comments: `UPDATE t SET note = 'returning'`
    /// returns no rows.
    static func words(of sql: String) -> [Substring] {
        let scalars = Array(sql.unicodeScalars)
        var code = String.UnicodeScalarView()
        var index = 0
        func starts(with text: String, at position: Int) -> Bool {
            var position = position
            for scalar in text.unicodeScalars {
                guard position < scalars.count, scalars[position] == scalar else { return false }
                position += 1
            }
            return true
        }
        func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" || scalar == "\"" {
                // A doubled quote reads as the end and the start of two
                // quoted runs, skipped alike.
                index += 1
                while index < scalars.count, scalars[index] != scalar { index += 1 }
                index += 1
                code.append(" ")
            } else if starts(with: "--", at: index) {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if starts(with: "/*", at: index) {
                index += 2
                while index < scalars.count, !starts(with: "*/", at: index) { index += 1 }
                index += 2
                code.append(" ")
            } else if scalar == "$", index + 1 < scalars.count, !("0"..."9").contains(scalars[index + 1]),
                      scalars[index + 1] == "$" || isTagScalar(scalars[index + 1])
            {
                // A dollar-quoted string, `$$...$$` or `$tag$...$tag$`.
                var end = index + 1
                while end < scalars.count, scalars[end] != "$", isTagScalar(scalars[end]) { end += 1 }
                guard end < scalars.count, scalars[end] == "$" else {
                    code.append(" ")
                    index = end
                    continue
                }
                let tag = String(String.UnicodeScalarView(scalars[index...end]))
                index = end + 1
                while index < scalars.count, !starts(with: tag, at: index) { index += 1 }
                index += tag.unicodeScalars.count
                code.append(" ")
            } else {
                code.append(scalar)
                index += 1
            }
        }
        return String(code).uppercased().split { !$0.isLetter && $0 != "_" }
    }

    /// Sends a statement with bound parameters, as an unnamed statement,
    /// which the server parses and plans at each run.
    func runUnnamed(_ statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> Answer {
        let result = try send(
            PostgresQuery(unsafeSQL: statement.sql, binds: Self.bindings(statement.values)), sql: sql, arguments: arguments)
        let command = result.metadata.command
        return Answer(
            rows: result.rows, command: command,
            changesCount: Self.changingCommands.contains(command) ? result.metadata.rows : nil)
    }

    static func bindings(_ values: [DatabaseValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            bindings.appendValue(PostgresParameter(value))
        }
        return bindings
    }

    /// Sends a query, and maps its errors to a ``Trellis/DatabaseError`` of
    /// the statement that the user wrote.
    func send(_ query: PostgresQuery, sql: String, arguments: StatementArguments) throws -> PostgresQueryResult {
        do {
            return try connection.query(query, logger: logger).wait()
        } catch let error as PSQLError {
            throw DatabaseError(error, sql: sql, arguments: arguments)
        }
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
