import Foundation

/// Decodes a `Decodable` value that decodes itself with a single value
/// container from a database value, as GRDB does for Codable
/// `DatabaseValueConvertible` types: the reverse of
/// ``DatabaseValueEncoder``.
///
/// ```swift
/// struct Name: Codable, DatabaseValueConvertible {
///     var rawValue: String
///     init(from decoder: any Decoder) throws {
///         rawValue = try decoder.singleValueContainer().decode(String.self)
///     }
/// }
/// // Name(rawValue: "Arthur"), from the text 'Arthur'
/// ```
///
/// A value that asks for a keyed or unkeyed container is decoded from the
/// JSON text of the database value instead: see ``decode(_:from:)``.
struct DatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
    let dbValue: DatabaseValue

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The result of ``decode(_:from:)``.
    enum Result<Value> {
        /// The value, decoded from a single primitive.
        case value(Value)
        /// The value asks for a keyed or unkeyed container: it is stored
        /// as JSON.
        case needsJSON
        /// The database value does not convert.
        case mismatch
    }

    /// Decodes `type` from a single primitive.
    static func decode<Value: Decodable>(_ type: Value.Type, from dbValue: DatabaseValue) -> Result<Value> {
        do {
            return .value(try Value(from: DatabaseValueDecoder(dbValue: dbValue)))
        } catch is NeedsContainer {
            return .needsJSON
        } catch {
            return .mismatch
        }
    }

    /// Thrown when the decoded type asks for a keyed or unkeyed container.
    struct NeedsContainer: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NeedsContainer()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw NeedsContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode(_ type: Bool.Type) throws -> Bool { try convert(type) }
    func decode(_ type: String.Type) throws -> String { try convert(type) }
    func decode(_ type: Double.Type) throws -> Double { try convert(type) }
    func decode(_ type: Float.Type) throws -> Float { try convert(type) }
    func decode(_ type: Int.Type) throws -> Int { try convert(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try convert(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try convert(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try convert(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try convert(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try convert(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try convert(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try convert(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Dates, UUIDs, URLs, data... read their own database format.
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            // Bound before the cast: `nil as? T` succeeds when T is an
            // optional.
            guard let converted = convertible.fromDatabaseValue(dbValue), let value = converted as? T else {
                throw mismatch(T.self)
            }
            return value
        }
        // A wrapper of a wrapper: the inner value decodes from here too.
        return try T(from: self)
    }

    private func convert<T: DatabaseValueConvertible>(_ type: T.Type) throws -> T {
        guard let value = T.fromDatabaseValue(dbValue) else { throw mismatch(T.self) }
        return value
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: [], debugDescription: "\(dbValue) does not convert to \(type)"))
    }
}
