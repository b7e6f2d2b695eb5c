/// Options of `create(table:options:body:)`.
///
/// ```swift
/// try db.create(table: "player", options: [.ifNotExists, .strict]) { t in ... }
/// ```
public struct TableOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Only creates the table if it does not exist.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// Creates a temporary table.
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// Creates a `WITHOUT ROWID` table.
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// Creates a `STRICT` table (SQLite 3.37+).
    public static let strict = TableOptions(rawValue: 1 << 3)
}

/// Options of `create(index:on:columns:options:condition:)`.
public struct IndexOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Only creates the index if it does not exist.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
    /// Creates a unique index.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// Options of `create(view:options:as:)`.
public struct ViewOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Only creates the view if it does not exist.
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)
    /// Creates a temporary view.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}

extension Database {
    /// Whether a generated column is computed when read or stored.
    public enum GeneratedColumnQualification: Sendable {
        case virtual
        case stored
    }
}
