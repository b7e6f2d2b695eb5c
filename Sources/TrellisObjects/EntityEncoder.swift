import Foundation
import Trellis

/// Encodes an entity into columns: its stored properties, the target ids
/// of its `ToOne` relations (`spouseId` for `spouse`), and nothing for its
/// `ToMany` relations, which it lists aside.
final class EntityEncoder: Encoder {
    var columns: [String] = []
    var values: [DatabaseValue] = []
    var toOnes: [(property: String, column: String, relation: any AnyToOne)] = []
    var toManys: [(property: String, relation: any AnyToMany)] = []

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func encode(_ entity: some Entity) throws -> EntityEncoder {
        let encoder = EntityEncoder()
        try entity.encode(to: encoder)
        return encoder
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FailingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FailingSingleValueContainer()
    }

    func append(_ column: String, _ value: DatabaseValue) {
        columns.append(column)
        values.append(value)
    }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: EntityEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { encoder.append(key.stringValue, .null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.append(key.stringValue, value.databaseValue) }
        mutating func encode(_ value: String, forKey key: Key) throws { encoder.append(key.stringValue, value.databaseValue) }
        mutating func encode(_ value: Double, forKey key: Key) throws { encoder.append(key.stringValue, value.databaseValue) }
        mutating func encode(_ value: Float, forKey key: Key) throws { encoder.append(key.stringValue, value.databaseValue) }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoder.append(key.stringValue, value.databaseValue) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.append(key.stringValue, value.databaseValue) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.append(key.stringValue, value.databaseValue) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let name = key.stringValue
            if let toOne = value as? any AnyToOne {
                let column = name + "Id"
                encoder.append(column, toOne.targetId.map { Int64(bitPattern: $0).databaseValue } ?? .null)
                encoder.toOnes.append((name, column, toOne))
            } else if let toMany = value as? any AnyToMany {
                encoder.toManys.append((name, toMany))
            } else if let convertible = value as? any DatabaseValueConvertible {
                encoder.append(name, convertible.databaseValue)
            } else {
                let data = try JSONEncoder().encode(value)
                encoder.append(name, String(decoding: data, as: UTF8.self).databaseValue)
            }
        }

        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(encoder: encoder))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}

/// An entity encodes its properties with a keyed container: anything else
/// is an error.
struct FailingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw ObjectStoreError("an entity must encode its properties with a keyed container") }
    mutating func encode<T: Encodable>(_ value: T) throws { throw ObjectStoreError("an entity must encode its properties with a keyed container") }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(EntityEncoder.Container<NestedKey>(encoder: EntityEncoder()))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { EntityEncoder() }
}

struct FailingSingleValueContainer: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw ObjectStoreError("an entity must encode its properties with a keyed container") }
    mutating func encode<T: Encodable>(_ value: T) throws { throw ObjectStoreError("an entity must encode its properties with a keyed container") }
}
