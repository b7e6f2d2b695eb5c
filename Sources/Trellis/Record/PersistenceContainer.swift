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
        @inline(__always) set {
            // Consuming the value spares a copy of the existential.
            if let value = consume newValue {
                setValue(value.databaseValue, forColumn: column)
            } else {
                setValue(.null, forColumn: column)
            }
        }
    }

    /// The value of a column.
    @inlinable
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// Sets the value of a column.
    @inlinable @inline(__always)
    public mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        // Appends without a search: comparing different names is the
        // costly case, and a record usually writes each column once.
        // Lookups read the last value of a column, and
        // `removeDuplicateColumns()` folds repeated columns before SQL is
        // made from them.
        columns.append(column)
        values.append(value)
    }

    /// Replaces the value of a column, or appends it: the update of a
    /// container whose columns are each there once.
    @inlinable
    mutating func replaceValue(_ value: DatabaseValue, forColumn column: String) {
        if let index = columns.firstIndex(of: column) ?? columns.firstIndex(where: { $0.isEqualIgnoringASCIICase(column) }) {
            values[index] = value
        } else {
            columns.append(column)
            values.append(value)
        }
    }

    /// Folds the columns set more than once into their first position,
    /// with their last value.
    @inlinable
    mutating func removeDuplicateColumns() {
        guard columns.count > 1 else { return }
        var index = 1
        while index < columns.count {
            if let first = columns[..<index].firstIndex(of: columns[index]) {
                values[first] = values.remove(at: index)
                columns.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// The encoded column names, each once.
    public var columnNames: [String] {
        var container = self
        container.removeDuplicateColumns()
        return container.columns
    }

    /// Whether a column is encoded.
    public func hasColumn(_ column: String) -> Bool { index(of: column) != nil }

    /// The database value of a column, if encoded.
    public func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(of: column).map { values[$0] }
    }

    /// The position of the last value of the column.
    @inlinable
    func index(of column: String) -> Int? {
        // Columns are few: a linear search with the exact name first beats
        // hashing.
        if let index = columns.lastIndex(of: column) { return index }
        return columns.lastIndex { $0.isEqualIgnoringASCIICase(column) }
    }
}
