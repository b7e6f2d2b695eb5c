import TrellisSQLite

/// A raw SQLite connection handle (`sqlite3*`).
public typealias SQLiteConnection = OpaquePointer

/// A raw SQLite prepared statement handle (`sqlite3_stmt*`).
public typealias SQLiteStatement = OpaquePointer

/// SQLite copies the bound bytes before the call returns.
@usableFromInline
let SQLITE_TRANSIENT = trellis_sqlite_transient()

extension String {
    /// Reads the text value at `index` of the current row of a stepped
    /// statement, without an intermediate C string.
    @inlinable
    init(sqliteText sqliteStatement: SQLiteStatement, index: CInt) {
        guard let text = sqlite3_column_text(sqliteStatement, index) else {
            self = ""
            return
        }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        self = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Reads a text value (`sqlite3_value*`), such as the one that
    /// `sqlite3_column_value` returns.
    @inlinable
    init(sqliteValue value: OpaquePointer) {
        guard let text = sqlite3_value_text(value) else {
            self = ""
            return
        }
        let count = Int(sqlite3_value_bytes(value))
        self = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}
