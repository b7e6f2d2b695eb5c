extension Database {
    /// The declared type of a column.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.column("name", .text)
    ///     t.column("birthDate", .date)
    /// }
    /// ```
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A type from its SQL: `Database.ColumnType("VARCHAR(255)")`.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let text = ColumnType(rawValue: "TEXT")
        public static let integer = ColumnType(rawValue: "INTEGER")
        public static let double = ColumnType(rawValue: "DOUBLE")
        public static let real = ColumnType(rawValue: "REAL")
        public static let numeric = ColumnType(rawValue: "NUMERIC")
        public static let boolean = ColumnType(rawValue: "BOOLEAN")
        public static let blob = ColumnType(rawValue: "BLOB")
        public static let date = ColumnType(rawValue: "DATE")
        public static let datetime = ColumnType(rawValue: "DATETIME")
        public static let any = ColumnType(rawValue: "ANY")
        /// A column that holds JSON text. It is a TEXT column, as in GRDB:
        /// SQLite JSON functions throw errors on blobs, and `.jsonText`
        /// says what the column holds.
        ///
        /// ```swift
        /// try db.create(table: "player") { t in
        ///     t.column("address", .jsonText).notNull()
        /// }
        /// ```
        public static let jsonText = ColumnType(rawValue: "TEXT")
        /// A column that holds JSON: a TEXT column, like ``jsonText``, under
        /// the name GRDB's schema guide uses.
        ///
        /// ```swift
        /// try db.create(table: "player") { t in
        ///     t.column("address", .json) // address TEXT
        /// }
        /// ```
        public static let json = ColumnType(rawValue: "TEXT")
    }

    /// The name of a collation.
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Byte comparison, SQLite's default.
        public static let binary = CollationName(rawValue: "BINARY")
        /// ASCII case-insensitive comparison.
        public static let nocase = CollationName(rawValue: "NOCASE")
        /// Comparison that ignores trailing spaces.
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }

    /// What SQLite does when a constraint fails.
    ///
    /// See <https://www.sqlite.org/lang_conflict.html>.
    public enum ConflictResolution: String, Sendable {
        case rollback = "ROLLBACK"
        case abort = "ABORT"
        case fail = "FAIL"
        case ignore = "IGNORE"
        case replace = "REPLACE"
    }

    /// What SQLite does to referencing rows when a referenced row is
    /// deleted or updated.
    ///
    /// See <https://www.sqlite.org/foreignkeys.html#fk_actions>.
    public enum ForeignKeyAction: String, Sendable {
        case cascade = "CASCADE"
        case restrict = "RESTRICT"
        case setNull = "SET NULL"
        case setDefault = "SET DEFAULT"
    }
}
