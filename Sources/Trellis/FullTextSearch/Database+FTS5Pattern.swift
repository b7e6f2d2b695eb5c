extension Database {
    /// A raw FTS5 pattern, checked against the FTS5 query syntax: its
    /// column filters (`title: sqlite`) may only name the columns of
    /// `table`.
    ///
    /// ```swift
    /// try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book")
    ///
    /// // DatabaseError: fts5: syntax error near "AND"
    /// try db.makeFTS5Pattern(rawPattern: "AND", forTable: "book")
    ///
    /// // DatabaseError: no such column: missing
    /// try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book")
    /// ```
    ///
    /// - throws: a ``DatabaseError``: `no such table` when `table` does
    ///   not exist, SQLite's message when the pattern is not valid.
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}
