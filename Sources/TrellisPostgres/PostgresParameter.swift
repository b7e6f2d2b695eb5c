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
    static func text(of double: Double) -> String {
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

extension PostgresParameter {
    /// The value as an argument of `EXECUTE`, which takes expressions, not
    /// bound parameters: a string constant of no declared type, which the
    /// server reads with the type of the prepared statement's parameter,
    /// as it reads a parameter of unspecified type. Nil when the value has
    /// no such constant (a string with a NUL character, which PostgreSQL
    /// refuses): the statement is then sent with bound parameters.
    ///
    /// The constant is an escape string (`E'...'`), whose meaning does not
    /// depend on the `standard_conforming_strings` setting.
    var executeArgument: String? {
        switch value.storage {
        case .null:
            return "NULL"
        case .int64(let int):
            return "'\(int)'"
        case .double(let double):
            return "'\(Self.text(of: double))'"
        case .string(let string):
            guard !string.utf8.contains(0) else { return nil }
            var literal = "E'"
            literal.reserveCapacity(string.utf8.count + 4)
            for character in string.unicodeScalars {
                switch character {
                case "'": literal += "''"
                case "\\": literal += "\\\\"
                default: literal.unicodeScalars.append(character)
                }
            }
            return literal + "'"
        case .blob(let data):
            // The hex format of bytea, its backslash escaped.
            var bytes = Array("E'\\\\x".utf8)
            bytes.reserveCapacity(data.count * 2 + 7)
            for byte in data {
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
            bytes.append(UInt8(ascii: "'"))
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
