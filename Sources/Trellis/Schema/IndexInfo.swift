/// An index, as introspected.
public struct IndexInfo: Hashable, Sendable {
    /// How the index was created.
    public enum Origin: String, Sendable {
        case createIndex = "c"
        case uniqueConstraint = "u"
        case primaryKeyConstraint = "pk"
    }

    /// The index name.
    public let name: String
    /// The indexed columns.
    public let columns: [String]
    /// Whether the index is unique.
    public let isUnique: Bool
    /// How the index was created.
    public let origin: Origin
    /// Whether the index covers only the rows of its `WHERE` clause: such
    /// an index makes its columns unique among those rows only.
    public let isPartial: Bool
    /// Whether the index is on expressions (`lower(name)`): its
    /// ``columns`` are then empty. See
    /// ``Database/indexes(on:in:includingExpressions:)``.
    public let isOnExpressions: Bool
}
