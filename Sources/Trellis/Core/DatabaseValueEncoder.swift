import Foundation

/// Encodes an `Encodable` value that encodes itself with a single value
/// container into the database value of its primitive, as GRDB does for
/// Codable `DatabaseValueConvertible` types:
///
/// ```swift
/// struct Name: Codable, DatabaseValueConvertible {
///     var rawValue: String
///     func encode(to encoder: any Encoder) throws {
///         var container = encoder.singleValueContainer()
///         try container.encode(rawValue)
///     }
/// }
/// // 'Arthur', not the JSON text '"Arthur"'
/// ```
///
/// A value that asks for a keyed or unkeyed container (a struct with
/// synthesized Codable, an array) is not a single value: ``value(of:)``
/// returns nil, and the caller stores its JSON text instead.
final class DatabaseValueEncoder: Encoder, SingleValueEncodingContainer {
    /// The encoded primitive.
    private var value: DatabaseValue?

    /// Whether the value asked for a keyed or unkeyed container.
    private var needsContainer = false

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private init() {}

    /// The database value of `value` when it encodes a single primitive,
    /// or nil when it needs JSON (or its encoding fails, which its JSON
    /// encoding then reports).
    static func value(of value: some Encodable) -> DatabaseValue? {
        let encoder = DatabaseValueEncoder()
        do {
            try value.encode(to: encoder)
        } catch {
            return nil
        }
        return encoder.needsContainer ? nil : encoder.value
    }

    /// Thrown by the containers of a value that is not a single value, so
    /// that its encoding stops early.
    struct NeedsContainer: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsContainer = true
        return KeyedEncodingContainer(RejectingKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsContainer = true
        return RejectingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }
    func encode(_ value: Bool) throws { self.value = value.databaseValue }
    func encode(_ value: String) throws { self.value = value.databaseValue }
    func encode(_ value: Double) throws { self.value = value.databaseValue }
    func encode(_ value: Float) throws { self.value = value.databaseValue }
    func encode(_ value: Int) throws { self.value = value.databaseValue }
    func encode(_ value: Int8) throws { self.value = value.databaseValue }
    func encode(_ value: Int16) throws { self.value = value.databaseValue }
    func encode(_ value: Int32) throws { self.value = value.databaseValue }
    func encode(_ value: Int64) throws { self.value = value.databaseValue }
    // Through UInt64, which stores values above Int64.max as REAL instead
    // of trapping.
    func encode(_ value: UInt) throws { self.value = UInt64(value).databaseValue }
    func encode(_ value: UInt8) throws { self.value = value.databaseValue }
    func encode(_ value: UInt16) throws { self.value = value.databaseValue }
    func encode(_ value: UInt32) throws { self.value = value.databaseValue }
    func encode(_ value: UInt64) throws { self.value = value.databaseValue }

    func encode<T: Encodable>(_ value: T) throws {
        // Dates, UUIDs, URLs, data... keep their own database format.
        if let convertible = value as? any DatabaseValueConvertible {
            self.value = convertible.databaseValue
        } else {
            // A wrapper of a wrapper: the inner value encodes here too.
            try value.encode(to: self)
        }
    }
}

private struct RejectingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws { throw DatabaseValueEncoder.NeedsContainer() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw DatabaseValueEncoder.NeedsContainer() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RejectingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { RejectingUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { RejectingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RejectingEncoder() }
}

private struct RejectingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw DatabaseValueEncoder.NeedsContainer() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw DatabaseValueEncoder.NeedsContainer() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RejectingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { RejectingEncoder() }
}

private struct RejectingSingleValueContainer: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw DatabaseValueEncoder.NeedsContainer() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw DatabaseValueEncoder.NeedsContainer() }
}

private struct RejectingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RejectingKeyedContainer<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { RejectingUnkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { RejectingSingleValueContainer() }
}
