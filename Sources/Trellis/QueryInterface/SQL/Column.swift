/// A column of a database table, for the query interface.
///
/// ```swift
/// let players = try Player.filter(Column("score") > 1000).fetchAll(db)
/// ```
///
/// Record types often gather their columns in an enum:
///
/// ```swift
/// extension Player {
///     enum Columns: String, ColumnExpression {
///         case id, name, score
///     }
/// }
/// Player.order(Player.Columns.score.desc)
/// ```
public protocol ColumnExpression: SQLSpecificExpressible, SQLSelectable, SQLOrderingTerm, Sendable {
    /// The name of the column.
    var name: String { get }
}

extension ColumnExpression {
    public var sqlExpression: SQLExpression { .column(name) }
    public var sqlSelection: SQLSelection { .expression(sqlExpression, alias: nil) }
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: nil) }
}

extension ColumnExpression where Self: RawRepresentable, RawValue == String {
    /// The raw value of the enum case.
    public var name: String { rawValue }
}

/// A column, by name.
public struct Column: ColumnExpression {
    /// The hidden `rowid` column.
    public static let rowID = Column("rowid")

    public let name: String

    /// A column named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// A column named after a coding key.
    ///
    /// ```swift
    /// struct Player: Codable {
    ///     var name: String
    ///     enum CodingKeys: String, CodingKey { case name }
    ///     static let name = Column(CodingKeys.name)
    /// }
    /// ```
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}

extension Row {
    /// The value of a column.
    ///
    /// ```swift
    /// init(row: Row) {
    ///     id = row[Columns.id]
    ///     name = row[Columns.name]
    ///     score = row[Columns.score]   // an optional: nil when NULL or missing
    /// }
    /// ```
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The database value of a column, or nil when it is missing.
    public subscript(_ column: some ColumnExpression) -> DatabaseValue? {
        self[column.name]
    }
}

extension ColumnExpression {
    /// The column, never qualified with a table name: it refers to a
    /// result column, such as an aliased selection.
    ///
    /// ```swift
    /// Player
    ///     .select((Column("score") + Column("bonus")).forKey("total"))
    ///     .order(Column("total").detached)
    /// ```
    public var detached: SQLExpression {
        SQLExpression(.literal(SQL(elements: [.identifier(name)])))
    }
}
