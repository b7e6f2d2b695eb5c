import Foundation
import TrellisSQLite

/// An error thrown by SQLite, or by Trellis when a request can not run.
///
/// Its description gives the result code, the message, and the SQL that
/// failed. Statement arguments appear in the description only when
/// ``Configuration/publicStatementArguments`` is true, because they may
/// hold private data; the ``arguments`` property always has them:
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (?)", arguments: [1])
/// } catch let error as DatabaseError {
///     print(error.resultCode)          // SQLITE_CONSTRAINT
///     print(error.extendedResultCode)  // SQLITE_CONSTRAINT_PRIMARYKEY
///     print(error.message ?? "")       // UNIQUE constraint failed: player.id
///     print(error)                     // SQLite error 19: UNIQUE constraint failed: ...
/// }
/// ```
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code.
    public let extendedResultCode: ResultCode

    /// The error message.
    public let message: String?

    /// The SQL that failed, if any.
    public let sql: String?

    /// The arguments of the failed statement.
    public let arguments: StatementArguments?

    /// Whether the description shows the arguments.
    let publicStatementArguments: Bool

    /// The SQLSTATE of an error reported by a PostgreSQL server (`23505`
    /// for a unique violation), nil for SQLite. The result code of such an
    /// error is the closest SQLite code: `SQLITE_CONSTRAINT_UNIQUE` for
    /// `23505`, `SQLITE_ERROR` when there is none.
    ///
    /// ```swift
    /// catch let error as DatabaseError where error.sqlState == "23505" { ... }
    /// ```
    public let sqlState: String?

    /// The primary result code.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// Whether the error comes from an interrupted database: its code is
    /// `SQLITE_INTERRUPT`, or `SQLITE_ABORT` for the accesses of a
    /// transaction that an interruption rolled back.
    ///
    /// ```swift
    /// do {
    ///     try dbPool.write { db in ... }
    /// } catch let error as DatabaseError where error.isInterruptionError {
    ///     // The database was interrupted.
    /// }
    /// ```
    public var isInterruptionError: Bool {
        resultCode == .SQLITE_INTERRUPT || resultCode == .SQLITE_ABORT
    }

    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil)
    {
        self.init(resultCode: resultCode, message: message, sql: sql, arguments: arguments, publicStatementArguments: false)
    }

    init(
        resultCode: ResultCode, message: String?, sql: String?, arguments: StatementArguments?,
        publicStatementArguments: Bool, sqlState: String? = nil)
    {
        self.sqlState = sqlState
        self.extendedResultCode = resultCode
        // Without a message, SQLite's text for the code, as in GRDB:
        // `DatabaseError(resultCode: .SQLITE_BUSY).message` is "database is locked".
        self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
        self.sql = sql
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
    }

    /// The description of the error: its arguments are left out unless
    /// the configuration makes them public (they may hold user data that
    /// logs should not record).
    public var description: String {
        description(withArguments: publicStatementArguments)
    }

    /// The description of the error with the arguments of the failed
    /// statement, whatever the configuration: for debugging.
    ///
    /// ```swift
    /// do {
    ///     try Player(name: "Arthur").insert(db)
    /// } catch let error as DatabaseError {
    ///     print(error.expandedDescription)
    ///     // SQLite error 19: UNIQUE constraint failed: player.name - while executing `INSERT ...` with arguments ["Arthur"]
    /// }
    /// ```
    public var expandedDescription: String {
        description(withArguments: true)
    }

    private func description(withArguments showsArguments: Bool) -> String {
        var text = sqlState.map { "PostgreSQL error \($0)" } ?? "SQLite error \(resultCode.rawValue)"
        if let message {
            text += ": " + message
        }
        if let sql {
            text += " - while executing `\(sql)`"
            if showsArguments, let arguments, !arguments.isEmpty {
                text += " with arguments \(arguments)"
            }
        }
        return text
    }

}

extension DatabaseError {
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
}

extension DatabaseError {
    /// `error`, with `arguments` when it is a database error of a statement
    /// whose values were bound without `setArguments`.
    @usableFromInline
    static func reporting(_ error: any Error, arguments: [DatabaseValue]) -> any Error {
        guard let error = error as? DatabaseError, error.sql != nil else { return error }
        return DatabaseError(
            resultCode: error.extendedResultCode, message: error.message, sql: error.sql,
            arguments: StatementArguments(values: arguments), publicStatementArguments: error.publicStatementArguments,
            sqlState: error.sqlState)
    }

    /// An error reported by a PostgreSQL server, with its SQLSTATE and
    /// message, and the closest SQLite result code, so that code that
    /// tests `resultCode` runs unchanged on both engines.
    package init(sqlState: String, message: String?, sql: String?, arguments: StatementArguments?) {
        let resultCode: ResultCode = switch sqlState {
        case "23505": .SQLITE_CONSTRAINT_UNIQUE
        case "23503": .SQLITE_CONSTRAINT_FOREIGNKEY
        case "23502": .SQLITE_CONSTRAINT_NOTNULL
        case "23514": .SQLITE_CONSTRAINT_CHECK
        case _ where sqlState.hasPrefix("23"): .SQLITE_CONSTRAINT
        case "40001", "40P01", "55P03": .SQLITE_BUSY
        case "57014": .SQLITE_INTERRUPT
        case "25006": .SQLITE_READONLY
        default: .SQLITE_ERROR
        }
        self.init(
            resultCode: resultCode, message: message, sql: sql, arguments: arguments,
            publicStatementArguments: false, sqlState: sqlState)
    }

    /// A misuse of the library that a caller can fix: a wrong argument
    /// count, a reentrant access, a closed connection.
    static func misuse(_ message: String, sql: String? = nil) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: message, sql: sql)
    }
}

/// As an `NSError`, the code is the extended result code, and the
/// description is the localized description, as in GRDB:
///
/// ```swift
/// (error as NSError).code     // 2067 (SQLITE_CONSTRAINT_UNIQUE)
/// error.localizedDescription  // SQLite error 19: UNIQUE constraint failed: ...
/// ```
extension DatabaseError: CustomNSError {
    public var errorCode: Int { Int(extendedResultCode.rawValue) }

    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let message { userInfo[NSLocalizedFailureReasonErrorKey] = message }
        return userInfo
    }
}
