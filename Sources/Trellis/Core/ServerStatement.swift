import Foundation
import TrellisSQLite

/// What a ``Statement`` of a connection to a database server runs: its SQL
/// in the server's dialect, and what running it does to the connection.
///
/// The SQLite statement of such a ``Statement`` is a placeholder,
/// `SELECT ?, :name...`, with one parameter for each of the server's
/// parameters, in the same order. It holds the arguments: every way of
/// binding them (`setArguments`, the record persistence fast paths, key
/// lookups) works on it unchanged, and the server's values are read back
/// by stepping it once, when the statement runs. SQLite's code paths thus
/// need no test of the engine, but where a statement runs.
@usableFromInline
final class ServerStatement {
    /// The SQL that the server runs.
    let engineSQL: String

    /// The number of parameters of the server's SQL.
    let parameterCount: Int

    /// Whether the statement only reads, as its words say: a query, or a
    /// `WITH` that names no writing statement.
    let isQuery: Bool

    /// What running the statement does to the connection, as far as a
    /// connection must know without the server telling it.
    let effect: Effect

    /// When the columns of the statement are known, as its words say.
    let columns: Columns

    /// Whether the statement may insert rows, as its words say (`INSERT`,
    /// `MERGE`, in a `WITH` as well): the connection then no longer knows
    /// the last inserted row id.
    let mayInsert: Bool

    enum Columns {
        /// The statement returns no row, and has no column.
        case none
        /// A query (`SELECT`, `VALUES`, `TABLE`, a `WITH` that only
        /// reads): the server describes its columns before it runs.
        case describable
        /// A statement that returns rows but is no query (`RETURNING`,
        /// `SHOW`, `EXPLAIN`): its columns are known once it ran. A
        /// server describes a query by reading it in a subquery, where
        /// PostgreSQL refuses these, and would run the writes of a `WITH`.
        case knownOnceRun
    }

    enum Effect {
        case none
        /// A statement of the schema (`CREATE`, `ALTER`, `DROP`...): the
        /// cached schema is stale once it ran.
        case changesSchema
        /// `BEGIN`, `START TRANSACTION`
        case beginsTransaction
        /// `COMMIT`, `END`
        case commitsTransaction
        /// `ROLLBACK` without `TO`, `ABORT`, which may undo schema changes.
        case rollsBackTransaction
        /// `ROLLBACK TO SAVEPOINT`, which may undo schema changes.
        case rollsBackToSavepoint

        /// Whether the cached schema is stale once the statement ran.
        var invalidatesSchemaCache: Bool {
            switch self {
            case .changesSchema, .rollsBackTransaction, .rollsBackToSavepoint: true
            case .none, .beginsTransaction, .commitsTransaction: false
            }
        }
    }

    init(template: DialectStatementTemplate) {
        engineSQL = template.engineSQL
        parameterCount = template.placeholders.count
        let words = Self.words(of: template.sql)
        effect = Self.effect(of: words)
        isQuery = Self.isQuery(words)
        columns = Self.columns(of: words)
        mayInsert = words.contains { $0 == "INSERT" || $0 == "MERGE" }
    }

    /// The words of a statement, but those of its strings, quoted
    /// identifiers and comments: `SELECT 'delete'` does not write.
    private static func words(of sql: String) -> [Substring] {
        let characters = Array(sql)
        var code = ""
        var index = 0
        func starts(_ first: Character, _ second: Character) -> Bool {
            index + 1 < characters.count && characters[index] == first && characters[index + 1] == second
        }
        while index < characters.count {
            let character = characters[index]
            if character == "'" || character == "\"" {
                // A doubled quote reads as the end and the start of two
                // quoted runs, skipped alike.
                index += 1
                while index < characters.count, characters[index] != character { index += 1 }
                index += 1
                code.append(" ")
            } else if starts("-", "-") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if starts("/", "*") {
                index += 2
                while index < characters.count, !starts("*", "/") { index += 1 }
                index += 2
                code.append(" ")
            } else {
                code.append(character)
                index += 1
            }
        }
        return code.uppercased().split(whereSeparator: { !$0.isLetter && $0 != "_" })
    }

    private static func isQuery(_ words: [Substring]) -> Bool {
        switch words.first {
        case "SELECT", "VALUES", "TABLE", "SHOW", "EXPLAIN":
            return true
        case "WITH":
            return !writes(words)
        default:
            return false
        }
    }

    private static func writes(_ words: [Substring]) -> Bool {
        words.contains { ["INSERT", "UPDATE", "DELETE", "MERGE"].contains($0) }
    }

    private static func columns(of words: [Substring]) -> Columns {
        switch words.first {
        case "SELECT", "VALUES", "TABLE":
            return .describable
        case "WITH":
            // The main statement of a WITH that writes may return rows.
            return writes(words) ? .knownOnceRun : .describable
        case "SHOW", "EXPLAIN":
            return .knownOnceRun
        default:
            return words.contains("RETURNING") ? .knownOnceRun : .none
        }
    }

    /// The SQLite statement that holds the arguments of `template`.
    static func makePlaceholder(for template: DialectStatementTemplate) throws -> SQLiteStatement {
        let sql = template.placeholders.isEmpty ? "SELECT NULL" : "SELECT " + template.placeholders.joined(separator: ", ")
        return try ServerPlaceholderConnection.shared.prepare(sql)
    }

    /// The values bound to the placeholder, in the order of the server's
    /// parameters.
    func boundValues(of placeholder: SQLiteStatement) throws -> [DatabaseValue] {
        guard parameterCount > 0 else { return [] }
        // Resetting keeps the bindings.
        sqlite3_reset(placeholder)
        defer { sqlite3_reset(placeholder) }
        let code = sqlite3_step(placeholder)
        guard code == SQLITE_ROW else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "the arguments of the statement could not be read: \(String(cString: sqlite3_errstr(code)))")
        }
        return (0..<CInt(parameterCount)).map { DatabaseValue(sqliteStatement: placeholder, index: $0) }
    }

    /// What the first words of a statement say it does.
    private static func effect(of words: [Substring]) -> Effect {
        let words = words.prefix(4)
        switch words.first {
        case "CREATE", "ALTER", "DROP", "TRUNCATE", "COMMENT", "GRANT", "REVOKE":
            return .changesSchema
        case "BEGIN", "START":
            return .beginsTransaction
        case "COMMIT", "END":
            return .commitsTransaction
        case "ABORT":
            return .rollsBackTransaction
        case "ROLLBACK":
            return words.contains("TO") ? .rollsBackToSavepoint : .rollsBackTransaction
        default:
            return .none
        }
    }
}

/// The in-memory SQLite connection that prepares the placeholders of the
/// statements of servers (see ``ServerStatement``), shared by all
/// connections: it is opened in SQLite's serialized mode, which makes its
/// use from several threads safe, and a placeholder reads no table.
final class ServerPlaceholderConnection: @unchecked Sendable {
    static let shared = ServerPlaceholderConnection()

    private let connection: SQLiteConnection?

    private init() {
        var connection: SQLiteConnection?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_MEMORY
        if sqlite3_open_v2(":memory:", &connection, flags, nil) == SQLITE_OK {
            self.connection = connection
        } else {
            sqlite3_close_v2(connection)
            self.connection = nil
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        guard let connection else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "the in-memory database of statement arguments could not be opened")
        }
        var statement: SQLiteStatement?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "invalid statement parameters: \(String(cString: sqlite3_errstr(code)))", sql: sql)
        }
        return statement
    }
}
