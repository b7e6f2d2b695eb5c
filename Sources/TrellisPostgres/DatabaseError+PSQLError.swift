import PostgresNIO
import Trellis

extension DatabaseError {
    /// The error of a statement that postgres-nio reports: the server's
    /// SQLSTATE and message when the server refused the statement.
    init(_ error: PSQLError, sql: String, arguments: StatementArguments) {
        if let serverInfo = error.serverInfo, let sqlState = serverInfo[.sqlState] {
            self.init(sqlState: sqlState, message: serverInfo[.message], sql: sql, arguments: arguments)
        } else {
            // The connection failed, not the statement: no SQLSTATE.
            self.init(resultCode: .SQLITE_IOERR, message: "PostgreSQL connection error: \(error.code)", sql: sql, arguments: arguments)
        }
    }
}
