import Foundation
import PostgresNIO
import Trellis

extension DatabaseValue {
    /// The value of a cell of a PostgreSQL row, in the storage that Trellis
    /// decodes on SQLite: booleans are the integers 1 and 0, dates and
    /// timestamps the text that Trellis writes for a `Date`, UUIDs and
    /// JSON their text, `NUMERIC` an integer when it is integral, else a
    /// double.
    init(_ cell: PostgresCell) throws {
        guard let bytes = cell.bytes else {
            self = .null
            return
        }
        switch cell.dataType {
        case .bool:
            self = (try cell.decode(Bool.self) ? 1 : 0).databaseValue
        case .int2, .int4, .int8:
            self = try cell.decode(Int64.self).databaseValue
        case .float4, .float8:
            self = try cell.decode(Double.self).databaseValue
        case .numeric:
            let text = try cell.decode(Decimal.self).description
            if let int = Int64(text) {
                self = int.databaseValue
            } else if let double = Double(text) {
                self = double.databaseValue
            } else {
                self = text.databaseValue
            }
        case .bytea:
            self = Data(bytes.readableBytesView).databaseValue
        case .timestamp, .timestamptz:
            self = try cell.decode(Date.self).databaseValue
        case .date:
            // The day alone, as Trellis writes a `DatabaseDateComponents`
            // of the `YMD` format.
            let dateValue = try cell.decode(Date.self).databaseValue
            self = String.fromDatabaseValue(dateValue).map { String($0.prefix(10)).databaseValue } ?? dateValue
        case .uuid:
            self = try cell.decode(UUID.self).uuidString.databaseValue
        case .jsonb where cell.format == .binary:
            // Binary `jsonb` is a version byte followed by the JSON text.
            self = String(decoding: bytes.readableBytesView.dropFirst(), as: UTF8.self).databaseValue
        default:
            if cell.format == .text {
                self = String(decoding: bytes.readableBytesView, as: UTF8.self).databaseValue
            } else if let string = try? cell.decode(String.self) {
                self = string.databaseValue
            } else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISMATCH,
                    message: "column \(cell.columnName) has the PostgreSQL type \(cell.dataType), which Trellis does not read")
            }
        }
    }
}
