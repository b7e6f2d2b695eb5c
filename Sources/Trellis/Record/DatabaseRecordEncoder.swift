import Foundation

/// The Encoder of Encodable records: it writes each property into a column
/// of a persistence container, and nested values as JSON text.
///
/// It is not generic over the record type, so that its containers are
/// generic over their coding keys only; the record type is kept for its
/// strategies.
@usableFromInline
final class DatabaseRecordEncoder: Encoder {
    /// The encoded columns. Keyed containers write here.
    @usableFromInline @exclusivity(unchecked) var container = PersistenceContainer()
    /// Whether the storage of `container` is its own while a record
    /// encodes: its writes then need no copy-on-write check. Only the
    /// encoder's containers reach `container`, and the encoding of a
    /// record makes it its own first (see `EncodableRecord.encode(to:)`).
    @usableFromInline @exclusivity(unchecked) var ownsStorage = false
    @usableFromInline let recordType: any EncodableRecord.Type
    let usesDefaultKeys: Bool
    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }

    @inlinable
    convenience init<Record: EncodableRecord>(recordType: Record.Type) {
        // Read in the caller, where the record type is concrete.
        let usesDefaultKeys = if case .useDefaultKeys = Record.databaseColumnEncodingStrategy { true } else { false }
        self.init(recordType: recordType, usesDefaultKeys: usesDefaultKeys)
    }

    @usableFromInline
    init(recordType: any EncodableRecord.Type, usesDefaultKeys: Bool) {
        self.recordType = recordType
        self.usesDefaultKeys = usesDefaultKeys
    }

    /// The keyed container of the last record, with the identifier of its
    /// key type, in a `KeptKeyedEncodingContainer`: the next record of the
    /// same type gets it back, without the allocation and the metadata
    /// lookups of a new one.
    @exclusivity(unchecked) private var keptContainer: (keyType: ObjectIdentifier, box: AnyObject)?

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let keyType = ObjectIdentifier(Key.self)
        if let keptContainer, keptContainer.keyType == keyType {
            // Only a `KeptKeyedEncodingContainer<Key>` is kept with the
            // identifier of `Key`.
            return unsafeDowncast(keptContainer.box, to: KeptKeyedEncodingContainer<Key>.self).container
        }
        // The container does not retain the encoder: keeping it makes no cycle.
        let container = KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
        keptContainer = (keyType, KeptKeyedEncodingContainer(container))
        return container
    }

    @usableFromInline
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ThrowingUnkeyedContainer(codingPath: codingPath)
    }

    @usableFromInline
    func singleValueContainer() -> any SingleValueEncodingContainer {
        ThrowingSingleValueContainer(codingPath: codingPath)
    }

    /// The column of a coding key, after the record's column strategy.
    @inline(__always)
    func column(for key: some CodingKey) -> String {
        usesDefaultKeys ? key.stringValue : columnName(for: key)
    }

    private func columnName(for key: some CodingKey) -> String {
        switch recordType.databaseColumnEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return key.stringValue.snakeCased
        case .custom(let columnForKey): return columnForKey(key)
        }
    }

    /// Appends a column: Encodable writes each key once, so that there is
    /// no need to search for it.
    @inline(__always)
    func store(_ value: DatabaseValue, forColumn column: String) {
        if ownsStorage {
            container.appendToOwnStorage(value, forColumn: column)
        } else {
            container.setValue(value, forColumn: column)
        }
    }

    @inline(__always)
    func store(_ value: DatabaseValue, forKey key: some CodingKey) {
        store(value, forColumn: column(for: key))
    }

    /// The database value of a property that is not a primitive.
    func databaseValue<T: Encodable>(for value: T, column: String, key: String) throws -> DatabaseValue {
        if let date = value as? Date {
            return recordType.databaseValue(date: date, column: column)
        }
        if let uuid = value as? UUID {
            return recordType.databaseValue(uuid: uuid, column: column)
        }
        if let data = value as? Data {
            if case .text = recordType.databaseDataEncodingStrategy(for: column), String(data: data, encoding: .utf8) == nil {
                // NULL would lose the data silently.
                throw EncodingError.invalidValue(data, EncodingError.Context(
                    codingPath: [],
                    debugDescription: "Non-UTF8 data can't be encoded as text in the database (column \(column) of \(recordType))"))
            }
            return recordType.databaseValue(data: data, column: column)
        }
        if let convertible = value as? any DatabaseValueConvertible {
            return convertible.databaseValue
        }
        // Optionals of nested values, enums with raw values...
        let single = SingleValueProbe(recordType: recordType)
        if (try? value.encode(to: single)) != nil, let dbValue = single.value {
            return dbValue
        }
        // As in GRDB, the encoder is asked for the coding key, and it
        // shares the record's user info with the nested values.
        let jsonEncoder = recordType.databaseJSONEncoder(for: key)
        jsonEncoder.userInfo.merge(sendableUserInfo(recordType.databaseEncodingUserInfo)) { own, _ in own }
        let data = try jsonEncoder.encode(value)
        return String(decoding: data, as: UTF8.self).databaseValue
    }

    /// The keyed container of a record. It does not retain the encoder
    /// (see ``Unretained``).
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        private let encoder: Unretained<DatabaseRecordEncoder>
        var codingPath: [any CodingKey] { [] }

        init(encoder: DatabaseRecordEncoder) {
            self.encoder = Unretained(encoder)
        }

        @inline(__always)
        private func store(_ value: DatabaseValue, forKey key: Key) {
            encoder.read { $0.store(value, forKey: key) }
        }

        mutating func encodeNil(forKey key: Key) throws { store(.null, forKey: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        // Through UInt64, which stores values above Int64.max as REAL
        // instead of trapping.
        mutating func encode(_ value: UInt, forKey key: Key) throws { store(UInt64(value).databaseValue, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { store(value.databaseValue, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { store(value.databaseValue, forKey: key) }

        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { store(value?.databaseValue ?? .null, forKey: key) }

        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { store(.null, forKey: key) }
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoder.read { encoder in
                let column = encoder.column(for: key)
                encoder.store(try encoder.databaseValue(for: value, column: column, key: key.stringValue), forColumn: column)
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            // Nested containers write into the same columns, as GRDB does
            // for records that flatten nested structures.
            KeyedEncodingContainer(DatabaseRecordEncoder.KeyedContainer<NestedKey>(encoder: encoder.object))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            ThrowingUnkeyedContainer(codingPath: [key])
        }

        mutating func superEncoder() -> any Encoder { encoder.object }

        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.object }
    }

}

/// Captures a value encoded as a single primitive (enums with a raw value,
/// wrappers around a database value), or fails for anything else.
private final class SingleValueProbe: Encoder, SingleValueEncodingContainer {
    let recordType: any EncodableRecord.Type
    var value: DatabaseValue?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }

    init(recordType: any EncodableRecord.Type) {
        self.recordType = recordType
    }

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

/// A keyed container that an encoder keeps for the next record, in a class
/// of its own: the encoder holds it as `AnyObject`, and gets it back with
/// the type that the identifier of `Key` proves.
final class KeptKeyedEncodingContainer<Key: CodingKey> {
    let container: KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) {
        self.container = container
    }
}
