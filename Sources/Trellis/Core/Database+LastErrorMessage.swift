import TrellisSQLite

extension Database {
    /// The message of the last error of the connection, as SQLite
    /// reports it (`sqlite3_errmsg`), or nil on a connection to a
    /// database server.
    ///
    /// Errors thrown by Trellis already carry their message: read this
    /// property after a call to a raw SQLite function that failed.
    ///
    /// ```swift
    /// let code = sqlite3_exec(db.sqliteConnection, "PRAGMA nope = ", nil, nil, nil)
    /// if code != SQLITE_OK {
    ///     throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
    /// }
    /// ```
    public var lastErrorMessage: String? {
        guard let sqliteConnection, let message = sqlite3_errmsg(sqliteConnection) else { return nil }
        return String(cString: message)
    }
}
