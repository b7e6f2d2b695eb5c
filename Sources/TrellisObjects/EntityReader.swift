import Trellis

/// Reads the columns of a stored row for ``EntityBinding/init(reading:)``.
///
/// ```swift
/// convenience init(reading reader: EntityReader) throws {
///     self.init()
///     self.id = try reader.read("id")
///     self.name = try reader.read("name")
///     self.nickname = try reader.readIfPresent("nickname")
///     self.spouse = try reader.readRelation("spouse")   // a ToOne, from spouseId
///     self.orders = try reader.readRelation("orders")   // a ToMany, loaded lazily
/// }
/// ```
///
/// A value reads as its `Codable` conformance would: a missing column or
/// NULL gives 0, "" or false to numbers, strings and booleans (a property
/// added in a later version of the entity), and nil with
/// `readIfPresent(_:)`. Column values of other types (`Date`,
/// `UUID`...), enums with raw values, `[UInt8]` and other `Codable` values
/// (as JSON) are supported too.
///
/// A reader is valid during the call it is given to only.
///
/// The reads of values and relations are inlinable, so that they are
/// specialized for the types of the entity's properties where the
/// `@Entity` macro writes them: an unspecialized generic read would make
/// the runtime look up the metadata of `Optional<Value>` or `ToOne<Target>`
/// for each property of each object.
public struct EntityReader {
    @usableFromInline let decoder: Unretained<EntityDecoder>

    init(_ decoder: EntityDecoder) {
        self.decoder = Unretained(decoder)
    }

    /// The object of `row`, read by its binding with this reader.
    @inlinable
    func readObject<B: EntityBinding>(_ type: B.Type, from row: Row) throws -> B {
        decoder.read { $0.startReading(row) }
        return try B(reading: self)
    }

    /// The value of a column that SQLite reads straight (numbers, strings,
    /// data).
    ///
    /// - Throws: A `DecodingError` or ``ObjectBoxError/illegalState(message:)``
    ///   if the column is missing or holds a value that cannot convert to
    ///   `Value`.
    @inlinable @inline(__always)
    public func read<Value: DatabaseValueConvertible & StatementColumnConvertible & Decodable>(_ column: String) throws -> Value {
        if let value = try decoder.read({ try $0.value(Value.self, ofColumn: column) }) { return value }
        return try readMissing(Value.self, column)
    }

    /// The value of a column that SQLite reads straight, nil for NULL or a
    /// missing column.
    ///
    /// - Throws: A `DecodingError` or ``ObjectBoxError/illegalState(message:)``
    ///   if the column holds a value that cannot convert to `Value`.
    @inlinable @inline(__always)
    public func readIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible & Decodable>(_ column: String) throws -> Value? {
        try decoder.read { try $0.value(Value.self, ofColumn: column) }
    }

    /// An unsigned 64-bit integer, such as an ``Id``: the store keeps all
    /// its bits in a signed SQLite integer.
    ///
    /// - Throws: A `DecodingError` or ``ObjectBoxError/illegalState(message:)``
    ///   if the column holds a value that is not an integer.
    @inlinable @inline(__always)
    public func read(_ column: String) throws -> UInt64 {
        try readIfPresent(column) ?? 0
    }

    /// An unsigned 64-bit integer, nil for NULL or a missing column.
    ///
    /// - Throws: A `DecodingError` or ``ObjectBoxError/illegalState(message:)``
    ///   if the column holds a value that is not an integer.
    @inlinable @inline(__always)
    public func readIfPresent(_ column: String) throws -> UInt64? {
        try decoder.read { try $0.value(Int64.self, ofColumn: column) }.map(UInt64.init(bitPattern:))
    }

    /// Any other `Decodable` value: a column value (`Date`, `UUID`...),
    /// the raw value of an enum, a blob for `[UInt8]`, or JSON text.
    ///
    /// - Throws: A `DecodingError` or ``ObjectBoxError/illegalState(message:)``
    ///   if the column is missing or holds a value that cannot convert to
    ///   `Value`.
    public func read<Value: Decodable>(_ column: String) throws -> Value {
        try container.decode(Value.self, forKey: ColumnKey(column))
    }

    /// Any other `Decodable` value, nil for NULL or a missing column.
    ///
    /// - Throws: A `DecodingError` or ``ObjectBoxError/illegalState(message:)``
    ///   if the column holds a value that cannot convert to `Value`.
    public func readIfPresent<Value: Decodable>(_ column: String) throws -> Value? {
        try container.decodeIfPresent(Value.self, forKey: ColumnKey(column))
    }

    /// An enum stored as its raw value (`// objectbox: convert`): the case
    /// of the stored value, else `defaultValue` when the value is missing
    /// or names no case.
    ///
    /// ```swift
    /// self.custom = try reader.read("custom", default: .unknown)
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the value is
    ///   missing or names no case and `defaultValue` is nil; a
    ///   `DecodingError` if the column holds a value that cannot convert to
    ///   the raw value type.
    public func read<Value: RawRepresentable>(_ column: String, default defaultValue: Value?) throws -> Value
    where Value.RawValue: DatabaseValueConvertible & StatementColumnConvertible & Decodable {
        try RawValueConversion.value(readIfPresent(column) as Value.RawValue?, default: defaultValue, property: column)
    }

    /// An optional enum stored as its raw value: nil for NULL or a missing
    /// column, `defaultValue` for a value that names no case.
    ///
    /// - Throws: A `DecodingError` if the column holds a value that cannot
    ///   convert to the raw value type.
    public func readIfPresent<Value: RawRepresentable>(_ column: String, default defaultValue: Value?) throws -> Value?
    where Value.RawValue: DatabaseValueConvertible & StatementColumnConvertible & Decodable {
        RawValueConversion.valueIfPresent(try readIfPresent(column) as Value.RawValue?, default: defaultValue)
    }

    /// The `ToOne` relation of the property, whose target id is in the
    /// column `<property>Id`. The target loads lazily.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the column of the
    ///   target id holds a value that is not an integer.
    @inlinable
    public func readRelation<Target: Entity & AnyObject>(_ property: String) throws -> ToOne<Target> {
        try decoder.read { decoder in
            ToOne(targetId: try decoder.targetId(ofRelation: property), link: decoder.link)
        }
    }

    /// Reads the `ToOne` relation of the property into `relation`, the
    /// relation that the object's `init()` made, when it points nowhere:
    /// the object then needs no new relation. Returns false, and reads
    /// nothing, when `relation` was set otherwise.
    ///
    /// `relation` must belong to the object alone, which the caller checks
    /// where the property is, so that the check costs no exclusivity check
    /// on every other access to the property. The property keeps it during
    /// the call: it is given unretained, as the ``Entity()`` macro writes
    /// it, so that reading the property costs no retain.
    ///
    /// ```swift
    /// if try !(isKnownUniquelyReferenced(&self.spouse)
    ///     && reader.readRelation("spouse", into: Unmanaged.passUnretained(self.spouse)))
    /// {
    ///     self.spouse = try reader.readRelation("spouse")
    /// }
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the column of the
    ///   target id holds a value that is not an integer.
    @inlinable @inline(__always)
    public func readRelation<Target: Entity & AnyObject>(
        _ property: String, into relation: Unmanaged<ToOne<Target>>) throws -> Bool
    {
        try relation._withUnsafeGuaranteedRef { relation in
            guard relation.isUnset else { return false }
            try decoder.read { decoder in
                relation.attach(targetId: try decoder.targetId(ofRelation: property), link: decoder.link)
            }
            return true
        }
    }

    /// The `ToMany` relation of the property, attached to the object read:
    /// its objects load lazily.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the id of the
    ///   object read is not an integer.
    @inlinable
    public func readRelation<Related: Entity & AnyObject, each Owner>(_ property: String) throws -> ToMany<Related, repeat each Owner> {
        try decoder.read { decoder in
            ToMany(link: decoder.link, ownerType: decoder.entityType, ownerId: try decoder.ownerId, propertyName: property)
        }
    }

    /// The value of a column that is NULL or missing: the zero of numbers,
    /// strings and booleans, or what the `Codable` conformance reads.
    @usableFromInline
    func readMissing<Value: Decodable>(_ type: Value.Type, _ column: String) throws -> Value {
        if let zero = zeroValue(Value.self) { return zero }
        return try container.decode(Value.self, forKey: ColumnKey(column))
    }

    /// The container that the `Codable` conformance of the entity would
    /// read from, for the values that are not plain columns.
    private var container: EntityDecoder.Container<ColumnKey> {
        EntityDecoder.Container(decoder: decoder.object)
    }

    /// What a number, a string or a boolean reads as when its column is
    /// NULL or missing, as with the `Codable` conformance; nil for the
    /// other types, whose reads say why they fail.
    private func zeroValue<Value>(_ type: Value.Type) -> Value? {
        if let zero = "" as? Value { return zero }
        if let zero = false as? Value { return zero }
        if let zero = 0.0 as? Value { return zero }
        if let zero = Float(0) as? Value { return zero }
        func zero<I: BinaryInteger>(_ type: I.Type) -> I { 0 }
        guard let integer = Value.self as? any BinaryInteger.Type else { return nil }
        return zero(integer) as? Value
    }
}
