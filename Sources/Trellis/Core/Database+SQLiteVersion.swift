import TrellisSQLite

extension Database {
    /// The version number of the SQLite library, as `sqlite3_libversion_number()`
    /// returns it: 3046001 for SQLite 3.46.1.
    ///
    /// ```swift
    /// if Database.sqliteLibVersionNumber >= 3_035_000 {
    ///     // RETURNING clauses are available
    /// }
    /// ```
    public static var sqliteLibVersionNumber: CInt {
        sqlite3_libversion_number()
    }
}
