/// The schema of a connection as last introspected. The connection clears
/// it when a statement changes the schema, when a transaction rolls back,
/// and when another connection changes the database.
///
/// Like its connection, it serves one access at a time: its state is not
/// checked for exclusive access at run time.
final class DatabaseSchemaCache {
    @exclusivity(unchecked) var tableExists: [String: Bool] = [:]
    @exclusivity(unchecked) var columns: [String: [ColumnInfo]] = [:]
    @exclusivity(unchecked) var primaryKeys: [String: PrimaryKeyInfo] = [:]
    @exclusivity(unchecked) var foreignKeys: [String: [ForeignKeyInfo]] = [:]
    @exclusivity(unchecked) var indexes: [String: [IndexInfo]] = [:]
    /// Values cached by upper layers (resolved foreign keys, statement SQL
    /// per record type), which depend on the schema.
    @exclusivity(unchecked) var derived: [String: Any] = [:]
    /// Facts about the connection that schema changes keep: registered
    /// collations and functions.
    @exclusivity(unchecked) var persistent: [String: Any] = [:]

    func clear() {
        tableExists.removeAll()
        columns.removeAll()
        primaryKeys.removeAll()
        foreignKeys.removeAll()
        indexes.removeAll()
        derived.removeAll()
    }
}
