/// The coding key of a column, for the values that a binding reads and
/// writes through the coding containers of the store: dates, enums,
/// values stored as JSON.
struct ColumnKey: CodingKey {
    let stringValue: String

    init(_ column: String) {
        stringValue = column
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
