/// The dump methods of ``Database``, on a reader: each runs in a read of
/// the database, or in the access that runs on this thread, if any.
///
/// ```swift
/// try dbQueue.dumpContent()
/// try dbPool.dumpTables(["player"], format: .json())
/// ```
extension DatabaseReader {
    /// Prints the rows of `sql`: see ``Database/dumpSQL(_:format:to:)``.
    ///
    /// - Throws: The error of the dump method of ``Database``; a
    ///   ``DatabaseError`` if the connection is closed, or if the call comes
    ///   from an access of the same connection.
    public func dumpSQL(_ sql: SQL, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { db in
            try db.dumpSQL(sql, format: format, to: stream)
        }
    }

    /// Prints the rows of a request: see ``Database/dumpRequest(_:format:to:)``.
    ///
    /// - Throws: The error of the dump method of ``Database``; a
    ///   ``DatabaseError`` if the connection is closed, or if the call comes
    ///   from an access of the same connection.
    public func dumpRequest(_ request: some FetchRequest, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { db in
            try db.dumpRequest(request, format: format, to: stream)
        }
    }

    /// Prints the rows of tables: see
    /// ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
    ///
    /// - Throws: The error of the dump method of ``Database``; a
    ///   ``DatabaseError`` if the connection is closed, or if the call comes
    ///   from an access of the same connection.
    public func dumpTables(
        _ tables: [String], format: some DumpFormat = .debug(), tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false, to stream: (any TextOutputStream)? = nil) throws
    {
        try unsafeReentrantRead { db in
            try db.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream)
        }
    }

    /// Prints the schema, then the rows of every table: see
    /// ``Database/dumpContent(format:to:)``.
    ///
    /// - Throws: The error of the dump method of ``Database``; a
    ///   ``DatabaseError`` if the connection is closed, or if the call comes
    ///   from an access of the same connection.
    public func dumpContent(format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { db in
            try db.dumpContent(format: format, to: stream)
        }
    }

    /// Prints the schema: see ``Database/dumpSchema(to:)``.
    ///
    /// - Throws: The error of the dump method of ``Database``; a
    ///   ``DatabaseError`` if the connection is closed, or if the call comes
    ///   from an access of the same connection.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { db in
            try db.dumpSchema(to: stream)
        }
    }
}
