import Foundation
import Trellis

/// Encodes an entity into columns: its stored properties, the target ids
/// of its `ToOne` relations (`spouseId` for `spouse`), and nothing for its
/// `ToMany` relations, which it lists aside.
///
/// A box keeps one encoder for the objects it puts, with the keyed
/// container that they ask for, and the storage of their columns: making
/// them for each object costs more than the rest of the encoding.
final class EntityEncoder: Encoder {
    // The state below is only touched by the put that uses the encoder,
    // inside a database access: exclusivity is not checked at run time.
    /// The columns of the encoded object. The objects of a type have the
    /// same columns: the array is kept from one object to the next and
    /// written over in place, so that it stays the array the table cached,
    /// which compares equal by identity.
    @exclusivity(unchecked) var columns: [String] = []
    /// The number of columns of the object being encoded: the first of
    /// `columns`, until the encoding ends and drops the others.
    @exclusivity(unchecked) private var columnCount = 0
    @exclusivity(unchecked) var values: [DatabaseValue] = []
    @exclusivity(unchecked) private(set) var toOnes: [(property: String, column: String, relation: any AnyToOne)] = []
    /// Whether a `ToOne` relation of the encoded object has no target id:
    /// its target, if any, is not stored yet.
    @exclusivity(unchecked) private(set) var hasToOneWithoutTargetId = false
    /// Whether a `ToOne` relation of the encoded object failed a load that
    /// it could not throw (see ``ToOne/target``): the put throws its error.
    @exclusivity(unchecked) private(set) var hasToOneLoadError = false
    @exclusivity(unchecked) var toManys: [(property: String, relation: any AnyToMany)] = []
    let plan: PropertyPlan
    /// The number of properties encoded as generic values so far.
    @exclusivity(unchecked) var position = 0
    /// Whether a put uses the encoder: the targets of an object that are
    /// put with it, when they have its type, get an encoder of their own.
    @exclusivity(unchecked) var isInUse = false
    /// The keyed container of the first key type asked for.
    @exclusivity(unchecked) private var keptContainer = KeptContainer()

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The coding key of the id property, when it is not `id`: its column
    /// is `id` all the same.
    let renamedIdKey: String?

    /// The link of the store that puts the encoded objects, which their
    /// `ToOne` relations get as they are encoded; nil for an encoder that
    /// only reads the columns of an object.
    let link: StoreLink?

    init(plan: PropertyPlan, renamedIdKey: String?, link: StoreLink? = nil) {
        self.plan = plan
        self.renamedIdKey = renamedIdKey
        self.link = link
    }

    /// The columns of an entity, with a plan for this entity only.
    static func encode<E: Entity>(_ entity: E, coding: EntityCoding<E>) throws -> EntityEncoder {
        let encoder = EntityEncoder(plan: PropertyPlan(), renamedIdKey: E.renamedIdKey)
        try encoder.encode(entity, with: coding)
        return encoder
    }

    /// Encodes `entity`, in place of what the encoder held, as `coding`
    /// does: with its binding or its `Codable` conformance.
    func encode<E: Entity>(_ entity: E, with coding: EntityCoding<E>) throws {
        removeAll()
        position = 0
        try coding.encode(entity, into: self)
        dropColumnsOfPreviousObject()
    }

    /// Encodes `entity` through its `Codable` conformance.
    func encodeCodable<E: Entity>(_ entity: E) throws {
        try entity.encode(to: self)
        dropColumnsOfPreviousObject()
        if let renamedIdKey, let index = columns.firstIndex(of: renamedIdKey) {
            columns[index] = "id"
        }
    }

    /// Encodes `entity` with its binding.
    func encodeBound<B: EntityBinding>(_ entity: B) throws {
        try entity.write(to: EntityWriter(self))
    }

    /// The relation that a `ToOne` property hands over while it encodes
    /// itself into this encoder (see `ToOne.encode(to:)`).
    @exclusivity(unchecked) var receivedToOne: (any AnyToOne)?

    /// Forgets the encoded object: its relations refer to other objects,
    /// and to the store, which keeps the encoder.
    func removeAll() {
        columnCount = 0
        Self.empty(&values)
        Self.empty(&toOnes)
        Self.empty(&toManys)
        hasToOneWithoutTargetId = false
        hasToOneLoadError = false
    }

    /// Appends the column of a `ToOne` relation, and the relation, which
    /// it links to the store (see `link`). Its state is read here, once,
    /// where the put would otherwise read it back from the array, with a
    /// retain of the relation for each read.
    func appendToOne(_ property: String, _ column: String, _ relation: any AnyToOne) {
        let targetId = relation.targetId
        append(column, targetId.map { Int64(bitPattern: $0).databaseValue } ?? .null)
        if targetId == nil { hasToOneWithoutTargetId = true }
        if relation.hasLoadError { hasToOneLoadError = true }
        // Linked here rather than after the write: the relation is at hand.
        // A put that fails leaves it linked to the store of its target.
        if let link { relation.attach(to: link) }
        toOnes.append((property, column, relation))
    }

    /// Empties `array` and keeps its storage. An entity has a few columns:
    /// removing them one by one costs less than `removeAll(keepingCapacity:)`,
    /// which replaces a range through the generic path of the standard
    /// library, even for an array that is empty already.
    @inline(__always)
    private static func empty<Element>(_ array: inout [Element]) {
        while !array.isEmpty { array.removeLast() }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        keptContainer.container(for: Key.self) { KeyedEncodingContainer(Container<Key>(encoder: self)) }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FailingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FailingSingleValueContainer()
    }

    /// The column of each `ToOne` relation written, by its position among
    /// the relations of an object: the same for every object of a type.
    @exclusivity(unchecked) private var relationColumns: [(property: String, column: String)] = []

    /// The column of the next `ToOne` relation, `property`: `<property>Id`,
    /// made once rather than for each object.
    func columnOfNextRelation(_ property: String) -> String {
        let position = toOnes.count
        if position < relationColumns.count && relationColumns[position].property == property {
            return relationColumns[position].column
        }
        let column = property + "Id"
        if position < relationColumns.count {
            relationColumns[position] = (property, column)
        } else if position == relationColumns.count {
            relationColumns.append((property, column))
        }
        return column
    }

    func append(_ column: String, _ value: DatabaseValue) {
        if columnCount < columns.count {
            // Most often the same string: compared without reading it.
            if columns[columnCount] != column { columns[columnCount] = column }
        } else {
            columns.append(column)
        }
        columnCount &+= 1
        values.append(value)
    }

    /// Drops the columns that the previous object had beyond those of the
    /// encoded one.
    private func dropColumnsOfPreviousObject() {
        if columnCount < columns.count { columns.removeLast(columns.count - columnCount) }
    }

    /// The keyed container of an entity. It does not retain the encoder
    /// (see `Unretained`).
    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        private let encoder: Unretained<EntityEncoder>
        var codingPath: [any CodingKey] { [] }

        init(encoder: EntityEncoder) {
            self.encoder = Unretained(encoder)
        }

        mutating func encodeNil(forKey key: Key) throws { encoder.read { $0.append(key.stringValue, .null) } }
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value.databaseValue) } }
        mutating func encode(_ value: String, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value.databaseValue) } }
        mutating func encode(_ value: Double, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value.databaseValue) } }
        mutating func encode(_ value: Float, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value.databaseValue) } }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value.databaseValue) } }
        mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value.databaseValue) } }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value.storedDatabaseValue) } }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try self.encoder.read { encoder in
                let property = encoder.plan.property(at: encoder.position, type: T.self, key: key.stringValue)
                encoder.position += 1
                switch property.kind {
                case .toOne(let relationType):
                    // The relation hands itself over: no cast of `value`,
                    // which would cost more than the rest of the put.
                    guard ObjectIdentifier(T.self) == ObjectIdentifier(relationType) else { throw mismatch(value, property) }
                    encoder.receivedToOne = nil
                    try value.encode(to: encoder)
                    guard let toOne = encoder.receivedToOne else { throw mismatch(value, property) }
                    encoder.receivedToOne = nil
                    encoder.appendToOne(property.key, property.column, toOne)
                case .toMany(let relationType):
                    guard let toMany = relationType.relation(in: value) else { throw mismatch(value, property) }
                    encoder.toManys.append((property.key, toMany))
                case .value(let valueType):
                    guard let databaseValue = valueType.databaseValue(of: value) else { throw mismatch(value, property) }
                    encoder.append(property.column, databaseValue)
                case .rawValue(let converter):
                    guard let databaseValue = converter.databaseValue(of: value) else { throw mismatch(value, property) }
                    encoder.append(property.column, databaseValue)
                case .bytes:
                    guard let bytes = value as? [UInt8] else { throw mismatch(value, property) }
                    encoder.append(property.column, Data(bytes).databaseValue)
                case .json:
                    // Sorted keys: the same value is always the same text.
                    let jsonEncoder = JSONEncoder()
                    jsonEncoder.outputFormatting = .sortedKeys
                    let data = try jsonEncoder.encode(value)
                    encoder.append(property.column, String(decoding: data, as: UTF8.self).databaseValue)
                }
            }
        }

        private func mismatch(_ value: some Any, _ property: PropertyPlan.Property) -> ObjectBoxError {
            ObjectBoxError.illegalState(message: "could not encode \(type(of: value)) for \(property.key)")
        }

        // A nil optional stores NULL: the defaults of these methods would
        // leave the column out, so that putting an object whose property
        // became nil would keep the old value, and a table created from an
        // object with nil properties would lack their columns.
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value?.databaseValue ?? .null) } }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value?.databaseValue ?? .null) } }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value?.databaseValue ?? .null) } }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value?.databaseValue ?? .null) } }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value?.databaseValue ?? .null) } }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value?.databaseValue ?? .null) } }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { encoder.read { $0.append(key.stringValue, value?.storedDatabaseValue ?? .null) } }
        // The other integers go through the generic path, as their
        // non-optional values do.
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresent(value as Int8?, generic: key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresent(value as Int16?, generic: key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresent(value as Int32?, generic: key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresent(value as UInt?, generic: key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresent(value as UInt8?, generic: key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresent(value as UInt16?, generic: key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresent(value as UInt32?, generic: key) }

        private mutating func encodeIfPresent<T: Encodable>(_ value: T?, generic key: Key) throws {
            try encodeIfPresent(value, forKey: key)
        }

        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value {
                try encode(value, forKey: key)
            } else {
                // A nil value takes its place in the plan too, so that the
                // properties after it keep their positions.
                encoder.read { encoder in
                    let property = encoder.plan.property(at: encoder.position, type: T.self, key: key.stringValue)
                    encoder.position += 1
                    encoder.append(property.column, .null)
                }
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(encoder: encoder.object))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder.object }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.object }
    }
}

/// An entity encodes its properties with a keyed container: anything else
/// is an error.
struct FailingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw ObjectBoxError.illegalState(message: "an entity must encode its properties with a keyed container") }
    mutating func encode<T: Encodable>(_ value: T) throws { throw ObjectBoxError.illegalState(message: "an entity must encode its properties with a keyed container") }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(EntityEncoder.Container<NestedKey>(encoder: EntityEncoder(plan: PropertyPlan(), renamedIdKey: nil)))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { EntityEncoder(plan: PropertyPlan(), renamedIdKey: nil) }
}

struct FailingSingleValueContainer: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw ObjectBoxError.illegalState(message: "an entity must encode its properties with a keyed container") }
    mutating func encode<T: Encodable>(_ value: T) throws { throw ObjectBoxError.illegalState(message: "an entity must encode its properties with a keyed container") }
}
