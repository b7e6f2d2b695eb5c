import Foundation

/// The Encoder of Encodable records: it writes each property into a column
/// of a persistence container, and nested values as JSON text.
@usableFromInline
final class DatabaseRecordEncoder<Record: EncodableRecord>: Encoder {
    /// The encoded columns. Keyed containers write here.
    @usableFromInline @exclusivity(unchecked) var container = PersistenceContainer()
    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    @inlinable
    init() {}

    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    @usableFromInline
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ThrowingUnkeyedContainer(codingPath: codingPath)
    }

    @usableFromInline
    func singleValueContainer() -> any SingleValueEncodingContainer {
        ThrowingSingleValueContainer(codingPath: codingPath)
    }

    @usableFromInline
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        @usableFromInline let encoder: DatabaseRecordEncoder
        @usableFromInline var codingPath: [any CodingKey] { [] }

        @inlinable
        init(encoder: DatabaseRecordEncoder) {
            self.encoder = encoder
        }

        @inlinable
        func column(for key: Key) -> String {
            switch Record.databaseColumnEncodingStrategy {
            case .useDefaultKeys: return key.stringValue
            case .convertToSnakeCase: return key.stringValue.snakeCased
            case .custom(let columnForKey): return columnForKey(key)
            }
        }

        @inlinable
        func store(_ value: DatabaseValue, forKey key: Key) {
            let column = column(for: key)
            // Encodable writes each key once: append without a search.
            encoder.container.setValue(value, forColumn: column)
        }

        @inlinable mutating func encodeNil(forKey key: Key) throws { store(.null, forKey: key) }
        @inlinable mutating func encode(_ value: Bool, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: String, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: Double, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: Float, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: Int, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: Int8, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: Int16, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: Int32, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: Int64, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        // Through UInt64, which stores values above Int64.max as REAL
        // instead of trapping.
        @inlinable mutating func encode(_ value: UInt, forKey key: Key) throws { store(UInt64(value).databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: UInt8, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: UInt16, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: UInt32, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        @inlinable mutating func encode(_ value: UInt64, forKey key: Key) throws { store(value.databaseValue, forKey: key) }

        @inlinable mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        @inlinable mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        @inlinable mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        @inlinable mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        @inlinable mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }

        @usableFromInline
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { store(.null, forKey: key) }
        }

        @usableFromInline
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            store(try databaseValue(for: value, column: column(for: key)), forKey: key)
        }

        @usableFromInline
        func databaseValue<T: Encodable>(for value: T, column: String) throws -> DatabaseValue {
            if let date = value as? Date {
                return Record.databaseValue(date: date, column: column)
            }
            if let uuid = value as? UUID {
                return Record.databaseValue(uuid: uuid, column: column)
            }
            if let data = value as? Data {
                return Record.databaseValue(data: data, column: column)
            }
            if let convertible = value as? any DatabaseValueConvertible {
                return convertible.databaseValue
            }
            // Optionals of nested values, enums with raw values...
            let single = SingleValueProbe<Record>()
            if (try? value.encode(to: single)) != nil, let dbValue = single.value {
                return dbValue
            }
            let data = try Record.databaseJSONEncoder(for: column).encode(value)
            return String(decoding: data, as: UTF8.self).databaseValue
        }

        @usableFromInline
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            // Nested containers write into the same columns, as GRDB does
            // for records that flatten nested structures.
            KeyedEncodingContainer(DatabaseRecordEncoder<Record>.KeyedContainer<NestedKey>(encoder: encoder))
        }

        @usableFromInline
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            ThrowingUnkeyedContainer(codingPath: [key])
        }

        @usableFromInline
        mutating func superEncoder() -> any Encoder { encoder }

        @usableFromInline
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

}

/// Captures a value encoded as a single primitive (enums with a raw value,
/// wrappers around a database value), or fails for anything else.
private final class SingleValueProbe<Record: EncodableRecord>: Encoder, SingleValueEncodingContainer {
    var value: DatabaseValue?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    struct NotSingleValue: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ThrowingKeyedContainer<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { ThrowingUnkeyedContainer(codingPath: []) }
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
    func encode(_ value: UInt) throws { self.value = UInt64(value).databaseValue }
    func encode(_ value: UInt8) throws { self.value = value.databaseValue }
    func encode(_ value: UInt16) throws { self.value = value.databaseValue }
    func encode(_ value: UInt32) throws { self.value = value.databaseValue }
    func encode(_ value: UInt64) throws { self.value = value.databaseValue }
    func encode<T: Encodable>(_ value: T) throws {
        if let convertible = value as? any DatabaseValueConvertible {
            self.value = convertible.databaseValue
        } else {
            throw NotSingleValue()
        }
    }
}

private struct ThrowingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    struct NotSupported: Error {}
    mutating func encodeNil(forKey key: Key) throws { throw NotSupported() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NotSupported() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(ThrowingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { ThrowingUnkeyedContainer(codingPath: []) }
    mutating func superEncoder() -> any Encoder { ThrowingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ThrowingEncoder() }
}

/// A record is encoded as keyed columns: an unkeyed or single value at the
/// top level is an error.
struct ThrowingUnkeyedContainer: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    var count: Int { 0 }
    struct NotSupported: Error, CustomStringConvertible {
        var description: String { "a record must encode its properties with a keyed container" }
    }
    mutating func encodeNil() throws { throw NotSupported() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw NotSupported() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(ThrowingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { ThrowingEncoder() }
}

struct ThrowingSingleValueContainer: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    struct NotSupported: Error, CustomStringConvertible {
        var description: String { "a record must encode its properties with a keyed container" }
    }
    mutating func encodeNil() throws { throw NotSupported() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw NotSupported() }
}

private struct ThrowingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ThrowingKeyedContainer<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { ThrowingUnkeyedContainer(codingPath: []) }
    func singleValueContainer() -> any SingleValueEncodingContainer { ThrowingSingleValueContainer(codingPath: []) }
}
