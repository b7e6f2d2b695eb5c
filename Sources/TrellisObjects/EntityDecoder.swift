import Foundation
import Trellis

/// Decodes an entity from a row of its table, and attaches its relations
/// to the store so that they load lazily.
final class EntityDecoder: Decoder {
    let row: Row
    let store: Store
    let ownerId: Id
    let plan: PropertyPlan
    /// The number of properties decoded as generic values so far.
    var position = 0

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(row: Row, store: Store, plan: PropertyPlan) throws {
        self.row = row
        self.store = store
        self.plan = plan
        let id: Int64 = try row.decode(forColumn: "id")
        self.ownerId = Id(bitPattern: id)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ObjectStoreError("an entity must decode its properties with a keyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw ObjectStoreError("an entity must decode its properties with a keyed container")
    }

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: EntityDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { decoder.row.columnNames.compactMap { Key(stringValue: $0) } }
        var row: Row { decoder.row }

        func contains(_ key: Key) -> Bool {
            row.hasColumn(key.stringValue) || row.hasColumn(key.stringValue + "Id")
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let value = row[key.stringValue] as DatabaseValue? else { return true }
            return value.isNull
        }

        /// The index of the column of a primitive property, or nil when it
        /// is NULL or missing: a property added in a later version of the
        /// entity reads NULL in older rows, and gets the zero value of its
        /// type, as in ObjectBox. (Each type below reads its column with
        /// concrete code: a generic helper would not be specialized in this
        /// generic container.)
        private func presentIndex(_ key: Key) -> Int? {
            guard let index = row.index(ofColumn: key.stringValue), !row.hasNull(atIndex: index) else { return nil }
            return index
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            guard let index = presentIndex(key) else { return false }
            return try row.decode(Bool.self, atIndex: index)
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard let index = presentIndex(key) else { return "" }
            return try row.decode(String.self, atIndex: index)
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            guard let index = presentIndex(key) else { return 0 }
            return try row.decode(Double.self, atIndex: index)
        }

        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            guard let index = presentIndex(key) else { return 0 }
            return try row.decode(Float.self, atIndex: index)
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            guard let index = presentIndex(key) else { return 0 }
            return try row.decode(Int.self, atIndex: index)
        }

        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            guard let index = presentIndex(key) else { return 0 }
            return try row.decode(Int64.self, atIndex: index)
        }

        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            // Ids are stored as signed 64-bit integers.
            guard let index = presentIndex(key) else { return 0 }
            return UInt64(bitPattern: try row.decode(Int64.self, atIndex: index))
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let property = decoder.plan.property(at: decoder.position, type: T.self, key: key.stringValue)
            decoder.position += 1
            switch property.kind {
            case .toOne(let relationType):
                var targetId: Id?
                if let index = row.index(ofColumn: property.column), !row.hasNull(atIndex: index) {
                    targetId = Id(bitPattern: try row.decode(Int64.self, atIndex: index))
                }
                return try cast(relationType.init(targetId: targetId, store: decoder.store), property)
            case .toMany(let relationType):
                return try cast(relationType.init(store: decoder.store, ownerId: decoder.ownerId, propertyName: property.key), property)
            case .value(let convertible):
                return try decodeValue(T.self, convertible, property)
            case .bytes:
                return try decodeBytes(T.self, property)
            case .rawValue(let converter):
                return try decodeRawValue(T.self, converter, property)
            case .json:
                return try decodeJSON(T.self, property)
            }
        }

        @inline(never)
        private func decodeRawValue<T: Decodable>(_ type: T.Type, _ converter: any RawValueConverter, _ property: PropertyPlan.Property) throws -> T {
            let dbValue = row[property.column] as DatabaseValue? ?? .null
            if let value = converter.value(from: dbValue) as? T { return value }
            // Stored as JSON before raw values had columns.
            if case .string(let text) = dbValue.storage, let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) {
                return value
            }
            throw ObjectStoreError("could not decode \(T.self) from \(dbValue), column \(property.column): no \(T.self) has this raw value")
        }

        @inline(never)
        private func decodeBytes<T>(_ type: T.Type, _ property: PropertyPlan.Property) throws -> T {
            let bytes: [UInt8]
            if let dbValue = row[property.column] as DatabaseValue?, case .string(let text) = dbValue.storage {
                // Stored as JSON before bytes were blobs.
                bytes = try JSONDecoder().decode([UInt8].self, from: Data(text.utf8))
            } else {
                bytes = Array(try row.decodeIfPresent(Data.self, forColumn: property.column) ?? Data())
            }
            guard let bytes = bytes as? T else {
                throw ObjectStoreError("could not decode \(T.self) from bytes, column \(property.column)")
            }
            return bytes
        }

        // The branches below are apart so that the relations above do not
        // pay for the metadata of `Optional<T>`, which their casts need.

        @inline(never)
        private func decodeValue<T>(_ type: T.Type, _ convertible: any DatabaseValueConvertible.Type, _ property: PropertyPlan.Property) throws -> T {
            guard let dbValue = row[property.column] as DatabaseValue? else {
                if let missing = convertible.fromMissingColumn() as? T { return missing }
                // A property added in a later version of the entity: the
                // zero of its type, as for `Int` and `String`.
                if let zero = zeroInteger(T.self) { return zero }
                throw ObjectStoreError("no column \(property.column) for \(T.self) in table of \(decoder.row)")
            }
            guard let value = convertible.fromDatabaseValue(dbValue) as? T else {
                if dbValue.isNull, let zero = zeroInteger(T.self) { return zero }
                throw ObjectStoreError("could not decode \(T.self) from \(dbValue), column \(property.column)")
            }
            return value
        }

        /// 0, when `T` is an integer type (`Int8`, `UInt16`...).
        private func zeroInteger<T>(_ type: T.Type) -> T? {
            func zero<I: BinaryInteger>(_ type: I.Type) -> I { 0 }
            guard let integer = T.self as? any BinaryInteger.Type else { return nil }
            return zero(integer) as? T
        }

        @inline(never)
        private func decodeJSON<T: Decodable>(_ type: T.Type, _ property: PropertyPlan.Property) throws -> T {
            guard let text = try row.decodeIfPresent(String.self, forColumn: property.column) else {
                throw ObjectStoreError("no value for \(property.column) (\(T.self))")
            }
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        }

        /// The relation that the plan made from `T.self`.
        private func cast<T>(_ relation: AnyObject, _ property: PropertyPlan.Property) throws -> T {
            // A type comparison, where a dynamic cast would instantiate
            // `Optional<T>` for every object.
            guard ObjectIdentifier(type(of: relation)) == ObjectIdentifier(T.self) else {
                throw ObjectStoreError("could not decode \(T.self) for \(property.key)")
            }
            return unsafeBitCast(relation, to: T.self)
        }

        // The integers that go through the generic path keep their place
        // in the plan when they are nil too.
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(generic: type, key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(generic: type, key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(generic: type, key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(generic: type, key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(generic: type, key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(generic: type, key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(generic: type, key) }

        private func decodeIfPresent<T: Decodable>(generic type: T.Type, _ key: Key) throws -> T? {
            try decodeIfPresent(type, forKey: key)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let property = decoder.plan.property(at: decoder.position, type: T.self, key: key.stringValue)
            switch property.kind {
            case .toOne, .toMany:
                // A relation is never nil: its owner attaches it.
                return try decode(T.self, forKey: key)
            case .value, .bytes, .rawValue, .json:
                if try decodeNil(forKey: key) {
                    decoder.position += 1
                    return nil
                }
                return try decode(T.self, forKey: key)
            }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(Container<NestedKey>(decoder: decoder))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw ObjectStoreError("unsupported nested array for \(key.stringValue)")
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }
}
