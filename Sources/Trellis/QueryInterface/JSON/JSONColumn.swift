/// A column that holds JSON text.
///
/// Its JSON components are available with the `->>` and `->` operators,
/// and JSON functions embed it as JSON, not as a string:
///
/// ```swift
/// struct Player: FetchableRecord, TableRecord {
///     enum Columns {
///         static let address = JSONColumn("address")
///     }
/// }
///
/// // SELECT * FROM player WHERE address ->> 'country' = 'DE'
/// let germanPlayers = try Player
///     .filter { $0.address["country"] == "DE" }
///     .fetchAll(db)
/// ```
///
/// The Codable properties of records that are not plain values (nested
/// structs, arrays, dictionaries) are stored as JSON text: query them
/// with a `JSONColumn`.
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, Sendable {
    public var name: String

    /// A JSON column named `name`.
    ///
    /// ```swift
    /// let address = JSONColumn("address")
    /// ```
    public init(_ name: String) {
        self.name = name
    }

    /// A JSON column named after a coding key.
    ///
    /// ```swift
    /// struct Player: Codable {
    ///     var address: Address
    ///     enum Columns {
    ///         static let address = JSONColumn(CodingKeys.address)
    ///     }
    /// }
    /// ```
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }

    public var sqlExpression: SQLExpression { SQLExpression.column(name).jsonValue }
    public var sqlSelection: SQLSelection { .expression(sqlExpression, alias: nil) }
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: nil) }
}
