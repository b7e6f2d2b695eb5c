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

    /// The code of the last error of the connection, as SQLite reports it
    /// (`sqlite3_extended_errcode`): `SQLITE_OK` when the last call
    /// succeeded, and on a connection to a database server.
    ///
    /// ```swift
    /// let code = sqlite3_exec(db.sqliteConnection, "PRAGMA nope = ", nil, nil, nil)
    /// if code != SQLITE_OK {
    ///     throw DatabaseError(resultCode: db.lastErrorCode, message: db.lastErrorMessage)
    /// }
    /// ```
    public var lastErrorCode: ResultCode {
        guard let sqliteConnection else { return .SQLITE_OK }
        return ResultCode(rawValue: sqlite3_extended_errcode(sqliteConnection))
    }

    /// The largest number of arguments a statement accepts
    /// (`SQLITE_LIMIT_VARIABLE_NUMBER`; 65,535 on a database server).
    ///
    /// Requests such as the one below must not give more keys:
    ///
    /// ```swift
    /// // DELETE FROM player WHERE id IN (?, ?, ...)
    /// for chunk in ids.chunks(ofCount: db.maximumStatementArgumentCount) {
    ///     try Player.deleteAll(db, keys: chunk)
    /// }
    /// ```
    public var maximumStatementArgumentCount: Int {
        guard let sqliteConnection else { return 65_535 }
        return Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}
