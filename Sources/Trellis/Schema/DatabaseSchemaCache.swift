/// The schema of a connection as last introspected. The connection clears
/// it when a statement changes the schema, when a transaction rolls back,
/// and when another connection changes the database.
final class DatabaseSchemaCache {
    var tableExists: [String: Bool] = [:]
    var columns: [String: [ColumnInfo]] = [:]
    var primaryKeys: [String: PrimaryKeyInfo] = [:]
    var foreignKeys: [String: [ForeignKeyInfo]] = [:]
    var indexes: [String: [IndexInfo]] = [:]
    /// Values cached by upper layers (resolved foreign keys, statement SQL
    /// per record type), which depend on the schema.
    var derived: [String: Any] = [:]
    /// Facts about the connection that schema changes keep: registered
    /// collations and functions.
    var persistent: [String: Any] = [:]

    func clear() {
        tableExists.removeAll()
        columns.removeAll()
        primaryKeys.removeAll()
        foreignKeys.removeAll()
        indexes.removeAll()
        derived.removeAll()
    }
}
