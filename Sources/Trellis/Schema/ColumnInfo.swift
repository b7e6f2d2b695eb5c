/// A column of a table, as introspected.
///
/// ```swift
/// let columns = try db.columns(in: "player")
/// for column in columns {
///     print(column.name, column.type, column.isNotNull)
/// }
/// ```
public struct ColumnInfo: Hashable, Sendable {
    /// The column name.
    public let name: String
    /// The declared type, as written in the schema (may be empty).
    public let type: String
    /// Whether the column is NOT NULL.
    public let isNotNull: Bool
    /// The SQL of the default value, if any.
    public let defaultValueSQL: String?
    /// The 1-based position of the column in the primary key, or 0.
    public let primaryKeyIndex: Int
    /// The position of the column in the table.
    public let cid: Int
    /// How the column is generated (`GENERATED ALWAYS AS`): its value is
    /// computed on read (`.virtual`) or on write (`.stored`); nil for an
    /// ordinary column.
    ///
    /// ```swift
    /// // CREATE TABLE player (score INTEGER, bonus INTEGER AS (score * 2) STORED)
    /// try db.columns(in: "player")[1].generated // .stored
    /// ```
    public let generated: Database.GeneratedColumnQualification?

    /// The declared type as a column type, if any.
    public var columnType: Database.ColumnType? {
        type.isEmpty ? nil : Database.ColumnType(rawValue: type)
    }
}

// The schema of another engine (PostgreSQL's catalog) is described with
// the same values as SQLite's.
extension ColumnInfo {
    package init(name: String, declaredType: String, notNull: Bool, defaultSQL: String?, primaryKeyPosition: Int, index: Int) {
        self.init(name: name, type: declaredType, isNotNull: notNull, defaultValueSQL: defaultSQL,
                  primaryKeyIndex: primaryKeyPosition, cid: index, generated: nil)
    }
}
