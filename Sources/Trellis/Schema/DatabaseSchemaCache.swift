/// The schema of a connection as last introspected. The connection clears
/// it when a statement changes the schema, when a transaction rolls back,
/// and when another connection changes the database.
///
/// Like its connection, it serves one access at a time: its state is not
/// checked for exclusive access at run time.
final class DatabaseSchemaCache {
    @exclusivity(unchecked) var tableExists: [SchemaCacheKey: Bool] = [:]
    @exclusivity(unchecked) var columns: [SchemaCacheKey: [ColumnInfo]] = [:]
    @exclusivity(unchecked) var primaryKeys: [SchemaCacheKey: PrimaryKeyInfo] = [:]
    @exclusivity(unchecked) var foreignKeys: [SchemaCacheKey: [ForeignKeyInfo]] = [:]
    @exclusivity(unchecked) var indexes: [SchemaCacheKey: [IndexInfo]] = [:]
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

/// A table as the introspection methods are asked about it: by name, in
/// one schema or in any.
struct SchemaCacheKey: Hashable {
    let table: String
    let schemaName: String?

    init(_ table: String, _ schemaName: String?) {
        self.table = table
        self.schemaName = schemaName
    }
}
