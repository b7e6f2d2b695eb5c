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

    /// The version of the SQLite library, as `sqlite3_libversion()` returns
    /// it: "3.46.1".
    ///
    /// ```swift
    /// print("SQLite \(Database.sqliteLibVersion)")
    /// ```
    public static var sqliteLibVersion: String {
        String(cString: sqlite3_libversion())
    }

    /// The source identifier of the SQLite library, as `sqlite3_sourceid()`
    /// returns it: the date and the check-in of its source code.
    ///
    /// ```swift
    /// print(Database.sqliteSourceID)   // "2024-08-13 09:16:08 c9c2ab54..."
    /// ```
    public static var sqliteSourceID: String {
        String(cString: sqlite3_sourceid())
    }
}
