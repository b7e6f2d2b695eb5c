/// A foreign key, as a table declares it: see
/// ``Database/declaredForeignKeys(on:in:)``.
public struct DeclaredForeignKeyInfo: Hashable, Sendable {
    /// The SQLite id of the foreign key: 0 for the last declared one.
    public let id: Int
    /// The referenced table, as the declaration spells it: it may not exist.
    public let destinationTable: String
    /// The columns of the origin table.
    public internal(set) var originColumns: [String]
    /// The columns of the destination table, nil when the declaration
    /// names none: the foreign key then references the primary key.
    public internal(set) var destinationColumns: [String]?
    /// What a delete of the referenced row does; nil for `NO ACTION`.
    public let onDelete: Database.ForeignKeyAction?
    /// What an update of the referenced key does; nil for `NO ACTION`.
    public let onUpdate: Database.ForeignKeyAction?
}
