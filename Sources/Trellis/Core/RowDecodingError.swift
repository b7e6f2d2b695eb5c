/// An error thrown when a row value can not be decoded: a missing column,
/// a NULL where a value is required, or a value of the wrong type.
///
/// Its description names the column, the type and the row, as GRDB's does:
/// `could not decode Int from database value NULL - column: "score",
/// column index: 2, row: [id:1 name:"Arthur" score:NULL]`, or
/// `column not found: "score" - row: [id:1 name:"Arthur"]`.
public struct RowDecodingError: Error, CustomStringConvertible, @unchecked Sendable {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The row has no such column.
        case columnNotFound
        /// The value can not convert to the requested type.
        case valueMismatch
        /// Another decoding failure, such as invalid JSON.
        case other
    }

    public let reason: Reason

    /// The description of the failure.
    public let message: String

    public init(reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    @usableFromInline
    static func columnNotFound(_ name: String, type: Any.Type, row: Row) -> RowDecodingError {
        RowDecodingError(
            reason: .columnNotFound,
            message: "column not found: \(String(reflecting: name)) - row: \(row)\(row.sqlSuffix)")
    }

    @usableFromInline
    static func valueMismatch(
        _ type: Any.Type, value: DatabaseValue, index: Int, row: Row) -> RowDecodingError
    {
        let name = index < row.count ? row.columnNames[index] : "?"
        return RowDecodingError(
            reason: .valueMismatch,
            message: "could not decode \(type) from database value \(value) - column: \(String(reflecting: name)), column index: \(index), row: \(row)\(row.sqlSuffix)")
    }

    @usableFromInline
    static func indexOutOfRange(_ index: Int, type: Any.Type, row: Row) -> RowDecodingError {
        RowDecodingError(
            reason: .columnNotFound,
            message: "could not decode \(type) - column index \(index) out of range, row: \(row)\(row.sqlSuffix)")
    }
}

extension Row {
    /// The statement of a fetched row, as GRDB describes it in its errors.
    var sqlSuffix: String {
        unretainedStatement.map { ", sql: `\($0.sql)`, arguments: \($0.arguments)" } ?? ""
    }
}
