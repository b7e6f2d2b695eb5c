import Foundation
import PostgresNIO
import Trellis

extension DatabaseValue {
    /// The value of a cell of a PostgreSQL row, in the storage that Trellis
    /// decodes on SQLite: booleans are the integers 1 and 0, dates and
    /// timestamps the text that Trellis writes for a `Date`, UUIDs and
    /// JSON their text, `NUMERIC` an integer when it is integral, else a
    /// double when it keeps every digit, else the exact text (see
    /// `PostgresNumericValue`). The types that have no such value and whose
    /// text is exact (`"char"`, `inet`, `cidr`, `interval`, arrays of the
    /// types that it converts) are their text: see `PostgresTextForm`.
    ///
    /// Nil for a cell of another type: an enum or an array of one, which
    /// only the catalog tells, or a type that Trellis does not convert.
    /// The connection resolves these cells once the answer is read, and
    /// throws for the latter: a cell's bytes are never read as another
    /// type's.
    init?(_ cell: PostgresCell) throws {
        guard let bytes = cell.bytes else {
            self = .null
            return
        }
        guard cell.format == .binary else {
            // Trellis asks for binary cells: a text cell is its value's
            // text, whatever its type.
            self = String(decoding: bytes.readableBytesView, as: UTF8.self).databaseValue
            return
        }
        if let value = Self.commonBinaryValue(bytes, type: cell.dataType.rawValue) {
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
            guard let value = PostgresNumericValue.value(of: bytes) else { throw DatabaseError.malformedCell(cell) }
            self = value
        case .bytea:
            self = Data(bytes.readableBytesView).databaseValue
        case .timestamp, .timestamptz, .date:
            guard let value = PostgresDateValue.value(of: bytes, type: cell.dataType.rawValue) else {
                throw DatabaseError.malformedCell(cell)
            }
            self = value
        case .uuid:
            self = try cell.decode(UUID.self).uuidString.databaseValue
        case .oid:
            // An unsigned 32-bit integer.
            guard bytes.readableBytes == 4, let oid = bytes.getInteger(at: bytes.readerIndex, as: UInt32.self) else {
                throw DatabaseError.malformedCell(cell)
            }
            self = Int64(oid).databaseValue
        default:
            let form = PostgresTextForm()
            guard form.knows(cell.dataType.rawValue) else { return nil }
            do {
                guard let text = try form.text(of: bytes, type: cell.dataType.rawValue) else { return nil }
                self = text.databaseValue
            } catch {
                throw DatabaseError.malformedCell(cell)
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

extension DatabaseError {
    /// The error of a cell whose bytes are not a value of its type.
    static func malformedCell(_ cell: PostgresCell) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISMATCH,
            message: "column \(cell.columnName) holds bytes that are not a value of its PostgreSQL type "
                + "(OID \(cell.dataType.rawValue))")
    }
}
