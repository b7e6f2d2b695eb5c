import Trellis

extension Store {
    /// The version of the object store: Trellis has no release yet, so
    /// this says "development", not an ObjectBox version.
    ///
    /// ```swift
    /// print(Store.version)       // "development"
    /// ```
    public static var version: String { "development" }

    /// The versions of the object store and of the SQLite library under it.
    ///
    /// ```swift
    /// print(Store.versionAll)    // "Trellis development (SQLite 3.45.1)"
    /// ```
    public static var versionAll: String {
        "Trellis \(version) (SQLite \(sqliteVersion))"
    }

    /// ``versionAll``, with what the store is built on: SQLite's source id,
    /// and that it is not ObjectBox's database.
    ///
    /// ```swift
    /// print(Store.versionFullInfo)
    /// ```
    public static var versionFullInfo: String {
        "Trellis \(version): an ObjectBox-style object store on SQLite \(sqliteVersion) (source \(Database.sqliteSourceID)); not ObjectBox's database"
    }

    /// The version of the library under the store, ObjectBox's C library
    /// in ObjectBox: here the SQLite library that the process runs.
    ///
    /// ```swift
    /// print(Store.versionLib)    // "SQLite 3.45.1"
    /// ```
    public static var versionLib: String { "SQLite \(sqliteVersion)" }

    /// The version of the database core, ObjectBox's core in ObjectBox:
    /// here SQLite's version and source id.
    ///
    /// ```swift
    /// print(Store.versionCore)   // "SQLite 3.45.1 (2024-01-30 ...)"
    /// ```
    public static var versionCore: String { "SQLite \(sqliteVersion) (\(Database.sqliteSourceID))" }

    /// The version of the SQLite library that the process runs.
    private static var sqliteVersion: String {
        Database.sqliteLibVersion
    }
}
