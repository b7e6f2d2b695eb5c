// What a connection checks about its accesses: that a `Database` is used
// inside one, and that the failures of non-throwing row accessors reach the
// caller.

extension Database {
    /// Throws when no access of the connection runs: the `Database` value
    /// escaped the closure it was given to, and would run its statements
    /// on any thread, beside the accesses of other threads.
    ///
    /// ```swift
    /// let escaped = try dbQueue.read { db in db }
    /// try escaped.execute(sql: "SELECT 1") // throws SQLITE_MISUSE
    /// ```
    func checkIsInsideAccess(sql: String?) throws {
        guard isOutsideAccess else { return }
        // A closed connection says so, whatever the access.
        if !usesServer { _ = try openConnection() }
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "Database was used outside of its access: the Database given to the closure of read, write, "
                + "inDatabase... must not be used after the closure returns (\(description))",
            sql: sql)
    }

    /// Remembers the failure of a non-throwing accessor of `row`, recorded
    /// on the row: the access throws it unless a fetch does.
    func recordUnreportedDecodingError(_ error: any Error, of row: ObjectIdentifier) {
        unreportedDecodingErrors.append((row, error))
    }

    /// Forgets the failure of `row` that a fetch threw.
    func forgetDecodingError(of row: ObjectIdentifier) {
        if let index = unreportedDecodingErrors.lastIndex(where: { $0.row == row }) {
            unreportedDecodingErrors.remove(at: index)
        }
    }

    /// Throws the first failure of a non-throwing row accessor that no
    /// fetch threw: the failure of
    /// `let score: Int = row["score"]` on a row without that column.
    func throwUnreportedDecodingError() throws {
        guard let first = unreportedDecodingErrors.first else { return }
        unreportedDecodingErrors.removeAll()
        throw first.error
    }
}
