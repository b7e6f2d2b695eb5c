/// The primary key of a table, as introspected: explicit columns, or the
/// hidden rowid.
public struct PrimaryKeyInfo: Hashable, Sendable {
    /// The primary key columns. `["rowid"]` for a table without an
    /// explicit primary key; `["_rowid_"]` (or `["oid"]`) when a column of
    /// the table is named `rowid`, and hides the rowid under that name.
    public let columns: [String]
    /// The column that aliases the rowid (`INTEGER PRIMARY KEY`), if any:
    /// nil for the hidden rowid, and for `INTEGER PRIMARY KEY DESC`, which
    /// SQLite does not make an alias of the rowid.
    ///
    /// ```swift
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)
    /// try db.primaryKey("player").rowIDColumn // "id"
    /// ```
    public let rowIDColumn: String?
    /// Whether the primary key is the rowid: the hidden one, or the
    /// `INTEGER PRIMARY KEY` column that aliases it.
    ///
    /// ```swift
    /// // CREATE TABLE log (message TEXT)
    /// try db.primaryKey("log").isRowID // true
    /// try db.primaryKey("log").rowIDColumn // nil: the rowid is hidden
    /// ```
    public let isRowID: Bool

    /// Whether the key is the one a ``DatabaseSchemaSource`` gives a view.
    var isViewKey = false

    /// Whether the primary key is the hidden rowid of a table that
    /// declares none.
    var isHiddenRowID: Bool { isRowID && rowIDColumn == nil }

    static let hiddenRowID = PrimaryKeyInfo(columns: ["rowid"], rowIDColumn: nil, isRowID: true)
}

// The schema of another engine (PostgreSQL's catalog) is described with
// the same values as SQLite's.
extension PrimaryKeyInfo {
    /// A primary key of explicit columns: PostgreSQL tables have no rowid.
    package init(explicitColumns columns: [String]) {
        self.init(columns: columns, rowIDColumn: nil, isRowID: false)
    }
}
