/// The column values of a record, in the order the record encodes them.
///
/// ```swift
/// func encode(to container: inout PersistenceContainer) {
///     container["id"] = id
///     container[Columns.name] = name
/// }
/// ```
public struct PersistenceContainer: Sendable {
    /// The encoded columns, in order.
    @usableFromInline
    var columns: [String] = []

    /// The encoded values, aligned with `columns`.
    @usableFromInline
    var values: [DatabaseValue] = []

    @inlinable
    public init() {}

    @inlinable
    init(minimumCapacity: Int) {
        columns.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    /// The value of a column, read case-insensitively; setting a column
    /// twice keeps the last value.
    @inlinable
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { index(of: column).map { values[$0] } }
        set { setValue(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// The value of a column.
    @inlinable
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// Sets the value of a column.
    @inlinable
    public mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        // Setting a column again replaces its value; the exact name is
        // enough, since a record writes each column under one spelling.
        if let index = columns.firstIndex(of: column) {
            values[index] = value
        } else {
            columns.append(column)
            values.append(value)
        }
    }

    /// The encoded column names.
    public var columnNames: [String] { columns }

    /// Whether a column is encoded.
    public func hasColumn(_ column: String) -> Bool { index(of: column) != nil }

    /// The database value of a column, if encoded.
    public func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(of: column).map { values[$0] }
    }

    @inlinable
    func index(of column: String) -> Int? {
        // Columns are few: a linear search with the exact name first beats
        // hashing.
        if let index = columns.firstIndex(of: column) { return index }
        return columns.firstIndex { $0.isEqualIgnoringASCIICase(column) }
    }
}
