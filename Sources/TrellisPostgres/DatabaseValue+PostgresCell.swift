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
        if cell.format == .binary, let value = Self.commonBinaryValue(bytes, type: cell.dataType.rawValue) {
            self = value
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

    /// The value of a binary cell of a common type (integers, booleans,
    /// floating point numbers, text), read straight from its bytes: the
    /// same value as the decoding of postgres-nio below, without its
    /// generic machinery, which costs more than the read for each cell of
    /// a large answer. Nil for other types, and for bytes that the
    /// decoding below must judge.
    @inline(__always)
    private static func commonBinaryValue(_ bytes: ByteBuffer, type: UInt32) -> DatabaseValue? {
        let start = bytes.readerIndex
        let length = bytes.readableBytes
        // The object identifiers of the types (`PostgresDataType`): a
        // switch on them is a jump, where one on the named constants calls
        // an accessor for each case.
        switch type {
        case 20: // int8
            guard length == 8, let value = bytes.getInteger(at: start, as: Int64.self) else { return nil }
            return value.databaseValue
        case 23: // int4
            guard length == 4, let value = bytes.getInteger(at: start, as: Int32.self) else { return nil }
            return Int64(value).databaseValue
        case 21: // int2
            guard length == 2, let value = bytes.getInteger(at: start, as: Int16.self) else { return nil }
            return Int64(value).databaseValue
        case 16: // bool
            guard length == 1, let byte = bytes.getInteger(at: start, as: UInt8.self), byte <= 1 else { return nil }
            return Int64(byte).databaseValue
        case 701: // float8
            guard length == 8, let bits = bytes.getInteger(at: start, as: UInt64.self) else { return nil }
            return Double(bitPattern: bits).databaseValue
        case 700: // float4
            guard length == 4, let bits = bytes.getInteger(at: start, as: UInt32.self) else { return nil }
            return Double(Float(bitPattern: bits)).databaseValue
        case 25, 1043, 19, 1042: // text, varchar, name, bpchar
            return String(decoding: bytes.readableBytesView, as: UTF8.self).databaseValue
        default:
            return nil
        }
    }
}
