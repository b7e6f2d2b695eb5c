/// The tables that a statement reads and writes, as SQLite's authorizer
/// reports them when the statement is prepared (writes of its triggers
/// included). Names are lowercased.
struct StatementRegion: Sendable {
    var readTables: Set<String> = []
    var writtenTables: Set<String> = []
}

/// What a write access changed: the tables it wrote to (lowercased), and
/// whether it changed the schema.
struct DatabaseChanges: Sendable {
    var tables: Set<String> = []
    var schemaChanged = false
    /// Set when rows changed through statements Trellis did not prepare
    /// (the raw connection handle), whose tables are unknown.
    var tablesAreUnknown = false

    /// Whether a value read from `readTables` may have changed.
    func impacts(readTables: Set<String>) -> Bool {
        schemaChanged || tablesAreUnknown || !tables.isDisjoint(with: readTables)
    }
}
