import Foundation
import TrellisSQLite

extension Row {
    /// Calls `body` with the blob at `index`, without copying its bytes
    /// when the row is read from a statement: the data is valid only
    /// during the call. NULL gives nil; text gives its UTF-8 bytes.
    ///
    /// ```swift
    /// while let row = try rows.next() {
    ///     try row.withUnsafeData(atIndex: 0) { (data: Data?) in ... }
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `body`; a ``RowDecodingError`` if `index`
    ///   is out of range, or if the value is neither NULL nor convertible to
    ///   `Data`.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        guard index >= 0 && index < count else {
            throw RowDecodingError.indexOutOfRange(index, type: Data.self, row: self)
        }
        if let sqliteStatement, sqlite3_column_type(sqliteStatement, CInt(offset + index)) == SQLITE_BLOB {
            let column = CInt(offset + index)
            // The pointer is read before the length, as SQLite asks.
            guard let bytes = sqlite3_column_blob(sqliteStatement, column) else { return try body(Data()) }
            let length = Int(sqlite3_column_bytes(sqliteStatement, column))
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: length, deallocator: .none)
            return try body(data)
        }
        if hasNull(atIndex: index) { return try body(nil) }
        return try body(decode(Data.self, atIndex: index))
    }

    /// Calls `body` with the blob of the column `name`, without copying its
    /// bytes (see ``withUnsafeData(atIndex:_:)``). A missing column is an
    /// error.
    ///
    /// ```swift
    /// try row.withUnsafeData(name: "data") { (data: Data?) in ... }
    /// ```
    ///
    /// - Throws: The error thrown by `body`; a ``RowDecodingError`` if there is
    ///   no such column, or if the value is neither NULL nor convertible to
    ///   `Data`.
    public func withUnsafeData<T>(name: String, _ body: (Data?) throws -> T) throws -> T {
        guard let index = index(ofColumn: name) else {
            throw RowDecodingError.columnNotFound(name, type: Data.self, row: self)
        }
        return try withUnsafeData(atIndex: index, body)
    }

    /// Calls `body` with the blob of a column, without copying its bytes
    /// (see ``withUnsafeData(atIndex:_:)``). A missing column is an error.
    ///
    /// ```swift
    /// try row.withUnsafeData(at: Column("data")) { (data: Data?) in ... }
    /// ```
    ///
    /// - Throws: The error thrown by `body`; a ``RowDecodingError`` if there is
    ///   no such column, or if the value is neither NULL nor convertible to
    ///   `Data`.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        try withUnsafeData(name: column.name, body)
    }

    /// The same as ``withUnsafeData(name:_:)``, under the label of GRDB's
    /// API (its README writes `name:`; both compile here).
    ///
    /// - Throws: The error thrown by `body`; a ``RowDecodingError`` if there is
    ///   no such column, or if the value is neither NULL nor convertible to
    ///   `Data`.
    public func withUnsafeData<T>(named name: String, _ body: (Data?) throws -> T) throws -> T {
        try withUnsafeData(name: name, body)
    }

    /// The blob at `index`, or nil if it is NULL, missing, or not
    /// convertible to `Data`; text gives its UTF-8 bytes. Unlike GRDB,
    /// which shares the bytes of the statement, the data is a copy: it
    /// stays valid after the row is gone. Prefer
    /// ``withUnsafeData(atIndex:_:)``, which throws on bad values.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, sql: "SELECT data FROM document")
    /// while let row = try rows.next() {
    ///     let data = row.dataNoCopy(atIndex: 0)
    /// }
    /// ```
    public func dataNoCopy(atIndex index: Int) -> Data? {
        // A copy: the bytes of the statement change at its next step.
        try? withUnsafeData(atIndex: index) { $0?.withUnsafeBytes { Data($0) } }
    }

    /// The blob of the column `name` (see ``dataNoCopy(atIndex:)``), or nil
    /// if there is no such column.
    ///
    /// ```swift
    /// let data = row.dataNoCopy(named: "data")
    /// ```
    public func dataNoCopy(named name: String) -> Data? {
        try? withUnsafeData(name: name) { $0?.withUnsafeBytes { Data($0) } }
    }

    /// The blob of a column (see ``dataNoCopy(atIndex:)``), or nil if there
    /// is no such column.
    ///
    /// ```swift
    /// let data = row.dataNoCopy(Column("data"))
    /// ```
    public func dataNoCopy(_ column: some ColumnExpression) -> Data? {
        dataNoCopy(named: column.name)
    }
}
