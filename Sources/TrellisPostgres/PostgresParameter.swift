import Foundation
import PostgresNIO
import Trellis

/// A `DatabaseValue` bound to a PostgreSQL parameter.
///
/// Numbers and strings are sent as text of no declared type, so that the
/// server gives each parameter the type its place in the statement wants:
/// `1` fills an `INTEGER`, a `BOOLEAN` or a `NUMERIC` column alike, and
/// the text of a `Date` fills a `TIMESTAMP`, as SQLite's loose typing
/// lets records do. Blobs are sent as `bytea`.
struct PostgresParameter: PostgresDynamicTypeEncodable {
    let value: DatabaseValue

    init(_ value: DatabaseValue) {
        self.value = value
    }

    /// Type 0 asks the server to infer the type of the parameter.
    private static let unspecified = PostgresDataType(0)

    var psqlType: PostgresDataType {
        if case .blob = value.storage { return .bytea }
        return Self.unspecified
    }

    var psqlFormat: PostgresFormat {
        if case .blob = value.storage { return .binary }
        return .text
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer,
        context: PostgresEncodingContext<JSONEncoder>)
    {
        switch value.storage {
        case .null:
            // Bindings of NULL are appended with `appendNull()`.
            break
        case .int64(let int):
            byteBuffer.writeString(String(int))
        case .double(let double):
            byteBuffer.writeString(Self.text(of: double))
        case .string(let string):
            byteBuffer.writeString(string)
        case .blob(let data):
            byteBuffer.writeBytes(data)
        }
    }

    /// The text of a double that PostgreSQL reads back to the same value.
    private static func text(of double: Double) -> String {
        if double.isNaN { return "NaN" }
        if double.isInfinite { return double < 0 ? "-Infinity" : "Infinity" }
        return "\(double)"
    }
}

extension PostgresBindings {
    mutating func appendValue(_ parameter: PostgresParameter) {
        if parameter.value.isNull {
            appendNull()
        } else {
            append(parameter)
        }
    }
}
