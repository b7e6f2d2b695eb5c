import Foundation

// Codable values that adopt DatabaseValueConvertible without implementing
// it are stored as JSON text, like the nested values of Codable records:
//
//     struct Address: Codable, DatabaseValueConvertible {
//         var street: String
//         var city: String
//     }
//
// As in GRDB, values that encode a single value (a wrapper of a string, a
// date...) are stored as that value instead, so that databases read the
// same with both libraries.

extension DatabaseValueConvertible {
    /// The decoder of Codable values: dates as milliseconds since 1970,
    /// data as base64, non-conforming floats throw.
    ///
    /// ```swift
    /// extension Address: DatabaseValueConvertible {
    ///     static func databaseJSONDecoder() -> JSONDecoder {
    ///         let decoder = JSONDecoder()
    ///         decoder.dateDecodingStrategy = .iso8601
    ///         return decoder
    ///     }
    /// }
    /// ```
    public static func databaseJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        return decoder
    }

    /// The encoder of Codable values: sorted keys, so that equal values
    /// give equal JSON text, dates as milliseconds since 1970, data as
    /// base64, non-conforming floats throw.
    ///
    /// ```swift
    /// extension Address: DatabaseValueConvertible {
    ///     static func databaseJSONEncoder() -> JSONEncoder {
    ///         let encoder = JSONEncoder()
    ///         encoder.outputFormatting = .sortedKeys
    ///         encoder.dateEncodingStrategy = .iso8601
    ///         return encoder
    ///     }
    /// }
    /// ```
    public static func databaseJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension DatabaseValueConvertible where Self: Encodable {
    /// The value that the type encodes with a single value container
    /// (text for a `String`, an integer for an `Int`, a date as `Date`
    /// stores it...), or else the JSON text of the value, or NULL when it
    /// can not be encoded.
    ///
    /// ```swift
    /// struct Address: Codable, DatabaseValueConvertible { ... }
    /// // SELECT * FROM player WHERE address = '{"city":"Paris",...}'
    /// Player.filter(JSONColumn("address") == Address(...))
    ///
    /// struct Name: Codable, DatabaseValueConvertible {
    ///     var rawValue: String
    ///     func encode(to encoder: any Encoder) throws {
    ///         var container = encoder.singleValueContainer()
    ///         try container.encode(rawValue)
    ///     }
    /// }
    /// // SELECT * FROM player WHERE name = 'Arthur'
    /// Player.filter(Column("name") == Name(rawValue: "Arthur"))
    /// ```
    public var databaseValue: DatabaseValue {
        if let value = DatabaseValueEncoder.value(of: self) { return value }
        guard let data = try? Self.databaseJSONEncoder().encode(self) else { return .null }
        return String(decoding: data, as: UTF8.self).databaseValue
    }
}

extension DatabaseValueConvertible where Self: Decodable {
    /// The value decoded from the database value when the type decodes a
    /// single value (see `databaseValue`), or else from JSON text
    /// or data; nil when it can not be decoded.
    ///
    /// ```swift
    /// struct Address: Codable, DatabaseValueConvertible { ... }
    /// let addresses = try Address.fetchAll(db, sql: "SELECT address FROM player")
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch DatabaseValueDecoder.decode(Self.self, from: dbValue) {
        case .value(let value): return value
        case .mismatch: return nil
        case .needsJSON: break
        }
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: return nil
        }
        return try? databaseJSONDecoder().decode(Self.self, from: data)
    }
}

// Enums with raw values are stored as their raw value, even when they are
// Codable.

extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
}

extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, RawValue: DatabaseValueConvertible {
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
    }
}
