import Foundation
import Trellis

/// Decodes entities from rows of their table, and attaches their
/// relations to the store so that they load lazily.
///
/// A box keeps one decoder for all the rows it decodes, with the keyed
/// container that its entities ask for: making them for each row costs
/// more than reading the row. The rows of a statement are read straight
/// from the statement, at columns found once per statement.
@usableFromInline
final class EntityDecoder: Decoder {
    /// The row being decoded. The decoder does not retain it: a row is
    /// decoded inside the call that was given it, which holds it, and a
    /// statement's reusable row that another reference held would be
    /// copied by the statement's next step. Reads need no retain either
    /// (a retain and a release cost more than the read of an integer).
    // The state below is only touched by the fetch that uses the decoder,
    // inside a database access: exclusivity is not checked at run time.
    @usableFromInline @exclusivity(unchecked) private(set) var unretainedRow: Unretained<Row>
    /// The row being decoded, retained by the caller.
    @usableFromInline var row: Row { unretainedRow.object }
    /// The row of an idle decoder, so that it does not keep the last row
    /// it decoded.
    private let noRow: Row
    /// What the relations of the decoded objects refer to.
    @usableFromInline let link: StoreLink
    /// The type of the decoded objects: the owner of their `ToMany`
    /// relations.
    @usableFromInline let entityType: any Entity.Type
    /// The coding key of the id property, when it is not `id`: its column
    /// is `id` all the same.
    let renamedIdKey: String?
    let plan: PropertyPlan
    /// The number of properties decoded as generic values so far.
    @exclusivity(unchecked) var position = 0
    /// Whether a fetch uses the decoder: an entity whose decoding fetches
    /// other objects of its type makes them with a decoder of its own.
    private(set) var isInUse = false
    /// Whether the decoded rows are those of one statement, whose columns
    /// are `indexedColumns`: the lookups of a row then repeat those of the
    /// previous row.
    @usableFromInline @exclusivity(unchecked) private(set) var readsStatement = false
    /// The columns of the statement that `columns` describe.
    private var indexedColumns: [String] = []
    /// What the relation decoded next reads (see `ToOne.init(from:)`).
    @exclusivity(unchecked) var pendingRelation: PendingRelation?
    /// The column of each column or relation name looked up, in the order
    /// of the lookups of a row: the same for every row of an entity type.
    @usableFromInline @exclusivity(unchecked) var columns: [(key: String, isRelation: Bool, index: Int?)] = []
    /// The number of column lookups of the current row.
    @usableFromInline @exclusivity(unchecked) var lookupCount = 0
    /// The keyed container of the first key type asked for.
    @exclusivity(unchecked) private var keptContainer = KeptContainer()

    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(plan: PropertyPlan, link: StoreLink, entityType: any Entity.Type) {
        self.plan = plan
        self.link = link
        self.entityType = entityType
        renamedIdKey = entityType.renamedIdKey
        noRow = Row()
        unretainedRow = Unretained(noRow)
    }

    /// Prepares the decoding of rows: those of `statement` when given, whose
    /// current row is then the decoded row; any rows otherwise.
    func begin(_ statement: Statement?) {
        isInUse = true
        guard let statement else { return }
        statementToCheck = Unretained(statement)
        readsStatement = true
    }

    /// The statement whose first row is next, until its columns are
    /// compared with those of the memoized lookups. Not before: SQLite
    /// prepares a statement again at its first step when another
    /// connection changed the schema, and its columns may then move.
    @exclusivity(unchecked) private var statementToCheck: Unretained<Statement>?

    /// Forgets the memoized lookups when the statement's columns are not
    /// those they were made for.
    private func checkColumns(of statement: Unretained<Statement>) {
        // The same array when the statement is the one of the previous
        // fetch: comparing it costs no more than comparing references.
        statement.read { statement in
            if !statement.hasColumnNames(indexedColumns) {
                indexedColumns = statement.columnNames
                columns.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Ends the decoding of the rows given since `begin`.
    func end() {
        isInUse = false
        readsStatement = false
        statementToCheck = nil
        unretainedRow = Unretained(noRow)
    }

    /// Decodes an entity from `row` through its `Codable` conformance.
    func decodeCodable<T: Entity>(_ type: T.Type, from row: Row) throws -> T {
        startReading(row)
        return try T(from: self)
    }

    /// Reads an entity from `row` with its binding.
    func decodeBound<B: EntityBinding>(_ type: B.Type, from row: Row) throws -> B {
        startReading(row)
        return try B(reading: EntityReader(self))
    }

    /// Prepares the read of an object from `row`.
    @usableFromInline
    func startReading(_ row: Row) {
        unretainedRow = Unretained(row)
        position = 0
        lookupCount = 0
        if let statement = statementToCheck {
            statementToCheck = nil
            checkColumns(of: statement)
        }
    }

    /// The id of the entity of the row, for its `ToMany` relations.
    @usableFromInline var ownerId: Id {
        get throws {
            let id: Int64 = try row.decode(forColumn: "id")
            return Id(bitPattern: id)
        }
    }

    /// The index of the column `name`, or nil when the row has none.
    @inlinable @inline(__always)
    func index(ofColumn name: String) -> Int? {
        memoizedIndex(of: name, isRelation: false) { lookUpColumn(name) }
    }

    /// The index of the column of the `ToOne` relation `property`
    /// (`<property>Id`), or nil when the row has none. The column name is
    /// made only when the lookup is not memoized: a string concatenation
    /// for each object would cost more than the read of its column.
    @inlinable @inline(__always)
    func index(ofRelation property: String) -> Int? {
        memoizedIndex(of: property, isRelation: true) { lookUpColumn(property + "Id") }
    }

    /// The index that `lookUp` finds for `key`, memoized by the position of
    /// the lookup in the row: the rows of a statement make the same lookups
    /// in the same order.
    @inlinable @inline(__always)
    func memoizedIndex(of key: String, isRelation: Bool, _ lookUp: () -> Int?) -> Int? {
        guard readsStatement else { return lookUp() }
        let lookup = lookupCount
        lookupCount = lookup &+ 1
        if lookup < columns.count && columns[lookup].key == key && columns[lookup].isRelation == isRelation {
            return columns[lookup].index
        }
        return memoize(lookUp(), of: key, isRelation: isRelation, at: lookup)
    }

    /// Memoizes the index that the lookup number `lookup` of a row found.
    @usableFromInline
    func memoize(_ index: Int?, of key: String, isRelation: Bool, at lookup: Int) -> Int? {
        if lookup < columns.count {
            columns[lookup] = (key, isRelation, index)
        } else if lookup == columns.count {
            columns.append((key, isRelation, index))
        }
        return index
    }

    @usableFromInline
    func lookUpColumn(_ name: String) -> Int? {
        if let index = row.index(ofColumn: name) { return index }
        return name == renamedIdKey ? row.index(ofColumn: "id") : nil
    }

    /// The value of the column `name`, or nil when it is NULL or missing: a
    /// property added in a later version of the entity reads NULL in older
    /// rows, and gets the zero value of its type, as in ObjectBox.
    @inlinable @inline(__always)
    func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, ofColumn name: String) throws -> Value? {
        guard let index = index(ofColumn: name) else { return nil }
        return try unretainedRow.read { try $0.decodeIfPresent(Value.self, atIndex: index) }
    }

    /// The target id in the column of the `ToOne` relation `property`, or
    /// nil when it is NULL or missing.
    @inlinable @inline(__always)
    func targetId(ofRelation property: String) throws -> Id? {
        guard let index = index(ofRelation: property) else { return nil }
        return try unretainedRow.read { try $0.decodeIfPresent(Int64.self, atIndex: index) }.map(Id.init(bitPattern:))
    }

    /// A relation of type `T`, made by `T` from `pending`.
    func decodeRelation<T: Decodable>(_ type: T.Type, _ pending: PendingRelation, _ property: PropertyPlan.Property) throws -> T {
        pendingRelation = pending
        defer { pendingRelation = nil }
        let relation = try T(from: self)
        guard pendingRelation == nil else {
            throw ObjectBoxError.illegalState(message: "could not decode \(T.self) for \(property.key)")
        }
        return relation
    }

    @usableFromInline func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        keptContainer.container(for: Key.self) { KeyedDecodingContainer(Container<Key>(decoder: self)) }
    }

    @usableFromInline func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ObjectBoxError.illegalState(message: "an entity must decode its properties with a keyed container")
    }

    @usableFromInline func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw ObjectBoxError.illegalState(message: "an entity must decode its properties with a keyed container")
    }

    /// The keyed container of an entity. It does not retain the decoder
    /// (see `Unretained`).
    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        private let unretainedDecoder: Unretained<EntityDecoder>
        var codingPath: [any CodingKey] { [] }

        init(decoder: EntityDecoder) {
            unretainedDecoder = Unretained(decoder)
        }

        /// The decoder, for the methods that are not on the hot path of
        /// the properties of an object.
        private var decoder: EntityDecoder { unretainedDecoder.object }
        var allKeys: [Key] { decoder.row.columnNames.compactMap { Key(stringValue: $0) } }
        var row: Row { decoder.row }

        func contains(_ key: Key) -> Bool {
            unretainedDecoder.read { decoder in
                decoder.index(ofColumn: key.stringValue) != nil || decoder.index(ofColumn: key.stringValue + "Id") != nil
            }
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            unretainedDecoder.read { decoder in
                guard let index = decoder.index(ofColumn: key.stringValue) else { return true }
                return decoder.row.hasNull(atIndex: index)
            }
        }

        /// The value of the column `name`, or nil when there is no such column.
        private func databaseValue(ofColumn name: String) -> DatabaseValue? {
            decoder.index(ofColumn: name).map { row.databaseValue(atIndex: $0) }
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try unretainedDecoder.read { try $0.value(Bool.self, ofColumn: key.stringValue) } ?? false
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try unretainedDecoder.read { try $0.value(String.self, ofColumn: key.stringValue) } ?? ""
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try unretainedDecoder.read { try $0.value(Double.self, ofColumn: key.stringValue) } ?? 0
        }

        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try unretainedDecoder.read { try $0.value(Float.self, ofColumn: key.stringValue) } ?? 0
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            try unretainedDecoder.read { try $0.value(Int.self, ofColumn: key.stringValue) } ?? 0
        }

        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            try unretainedDecoder.read { try $0.value(Int64.self, ofColumn: key.stringValue) } ?? 0
        }

        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            // Ids are stored as signed 64-bit integers.
            UInt64(bitPattern: try unretainedDecoder.read { try $0.value(Int64.self, ofColumn: key.stringValue) } ?? 0)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try unretainedDecoder.read { decoder in
                let property = decoder.plan.property(at: decoder.position, type: T.self, key: key.stringValue)
                decoder.position += 1
                switch property.kind {
                case .toOne:
                    // The relation makes itself from the pending values
                    // (see `ToOne.init(from:)`): no cast to `T`.
                    let targetId = try decoder.value(Int64.self, ofColumn: property.column).map(Id.init(bitPattern:))
                    return try decoder.decodeRelation(T.self, .toOne(targetId: targetId), property)
                case .toMany:
                    return try decoder.decodeRelation(T.self, .toMany(ownerId: try decoder.ownerId, property: property.key), property)
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
        }

        @inline(never)
        private func decodeRawValue<T: Decodable>(_ type: T.Type, _ converter: any RawValueConverter, _ property: PropertyPlan.Property) throws -> T {
            let dbValue = databaseValue(ofColumn: property.column) ?? .null
            if let value = converter.value(from: dbValue) as? T { return value }
            // Stored as JSON before raw values had columns.
            if case .string(let text) = dbValue.storage, let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) {
                return value
            }
            throw ObjectBoxError.illegalState(message: "could not decode \(T.self) from \(dbValue), column \(property.column): no \(T.self) has this raw value")
        }

        @inline(never)
        private func decodeBytes<T>(_ type: T.Type, _ property: PropertyPlan.Property) throws -> T {
            let bytes: [UInt8]
            if let index = decoder.index(ofColumn: property.column), !row.hasNull(atIndex: index) {
                if case .string(let text) = row.databaseValue(atIndex: index).storage {
                    // Stored as JSON before bytes were blobs.
                    bytes = try JSONDecoder().decode([UInt8].self, from: Data(text.utf8))
                } else {
                    bytes = Array(try row.decode(Data.self, atIndex: index))
                }
            } else {
                bytes = []
            }
            guard let bytes = bytes as? T else {
                throw ObjectBoxError.illegalState(message: "could not decode \(T.self) from bytes, column \(property.column)")
            }
            return bytes
        }

        // The branches below are apart so that the relations above do not
        // pay for the metadata of `Optional<T>`, which their casts need.

        @inline(never)
        private func decodeValue<T>(_ type: T.Type, _ convertible: any DatabaseValueConvertible.Type, _ property: PropertyPlan.Property) throws -> T {
            guard let dbValue = databaseValue(ofColumn: property.column) else {
                if let missing = convertible.fromMissingColumn() as? T { return missing }
                // A property added in a later version of the entity: the
                // zero of its type, as for `Int` and `String`.
                if let zero = zeroInteger(T.self) { return zero }
                throw ObjectBoxError.illegalState(message: "no column \(property.column) for \(T.self) in table of \(decoder.row)")
            }
            guard let value = convertible.fromStoredDatabaseValue(dbValue) as? T else {
                if dbValue.isNull, let zero = zeroInteger(T.self) { return zero }
                throw ObjectBoxError.illegalState(message: "could not decode \(T.self) from \(dbValue), column \(property.column)")
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
            guard let index = decoder.index(ofColumn: property.column), !row.hasNull(atIndex: index) else {
                throw ObjectBoxError.illegalState(message: "no value for \(property.column) (\(T.self))")
            }
            let text = try row.decode(String.self, atIndex: index)
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
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
            let isNil = try unretainedDecoder.read { decoder in
                let property = decoder.plan.property(at: decoder.position, type: T.self, key: key.stringValue)
                switch property.kind {
                case .toOne, .toMany:
                    // A relation is never nil: its owner attaches it.
                    return false
                case .value, .bytes, .rawValue, .json:
                    guard try decodeNil(forKey: key) else { return false }
                    decoder.position += 1
                    return true
                }
            }
            return isNil ? nil : try decode(T.self, forKey: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(Container<NestedKey>(decoder: decoder))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw ObjectBoxError.illegalState(message: "unsupported nested array for \(key.stringValue)")
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }
}

/// What a relation that the decoder makes reads from it.
enum PendingRelation {
    /// A `ToOne`, with the id of its target.
    case toOne(targetId: Id?)
    /// A `ToMany`, with the id of its owner and its property.
    case toMany(ownerId: Id, property: String)
}
