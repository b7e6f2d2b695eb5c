import Trellis

/// Writes the columns of an object for ``EntityBinding/write(to:)``.
///
/// ```swift
/// func write(to writer: EntityWriter) throws {
///     try writer.write(self.id, to: "id")
///     try writer.write(self.name, to: "name")
///     try writer.writeIfPresent(self.nickname, to: "nickname")
///     try writer.writeRelation(self.spouse, to: "spouse")   // the column spouseId
///     try writer.writeRelation(self.orders, to: "orders")   // no column: its links
/// }
/// ```
///
/// Values are stored as their `Codable` conformance would store them: a
/// column value as itself, an `UInt64` with all its bits, an enum as its
/// raw value, `[UInt8]` as a blob, another `Codable` value as JSON text.
///
/// A writer is valid during the call it is given to only.
public struct EntityWriter {
    private let encoder: Unretained<EntityEncoder>

    init(_ encoder: EntityEncoder) {
        self.encoder = Unretained(encoder)
    }

    /// A column value (numbers, strings, dates...).
    ///
    /// - Throws: An `EncodingError` or
    ///   ``ObjectBoxError/illegalState(message:)`` if the value cannot be
    ///   encoded for its column.
    public func write<Value: DatabaseValueConvertible & Encodable>(_ value: Value, to column: String) throws {
        encoder.read { $0.append(column, value.databaseValue) }
    }

    /// A column value, or NULL.
    ///
    /// - Throws: An `EncodingError` or
    ///   ``ObjectBoxError/illegalState(message:)`` if the value cannot be
    ///   encoded for its column.
    public func writeIfPresent<Value: DatabaseValueConvertible & Encodable>(_ value: Value?, to column: String) throws {
        encoder.read { $0.append(column, value?.databaseValue ?? .null) }
    }

    /// An unsigned 64-bit integer, such as an ``Id``, with all its bits.
    ///
    /// - Throws: Never: an integer is always written.
    public func write(_ value: UInt64, to column: String) throws {
        encoder.read { $0.append(column, value.storedDatabaseValue) }
    }

    /// An unsigned 64-bit integer with all its bits, or NULL.
    ///
    /// - Throws: Never: an integer is always written.
    public func writeIfPresent(_ value: UInt64?, to column: String) throws {
        encoder.read { $0.append(column, value?.storedDatabaseValue ?? .null) }
    }

    /// Any other `Encodable` value: an enum as its raw value, `[UInt8]` as
    /// a blob, another value as JSON text.
    ///
    /// - Throws: An `EncodingError` or
    ///   ``ObjectBoxError/illegalState(message:)`` if the value cannot be
    ///   encoded for its column.
    public func write<Value: Encodable>(_ value: Value, to column: String) throws {
        var container = self.container
        try container.encode(value, forKey: ColumnKey(column))
    }

    /// Any other `Encodable` value, or NULL.
    ///
    /// - Throws: An `EncodingError` or
    ///   ``ObjectBoxError/illegalState(message:)`` if the value cannot be
    ///   encoded for its column.
    public func writeIfPresent<Value: Encodable>(_ value: Value?, to column: String) throws {
        var container = self.container
        try container.encodeIfPresent(value, forKey: ColumnKey(column))
    }

    /// A `ToOne` relation: the target id, in the column `<property>Id`. A
    /// new target is put before the object.
    ///
    /// - Throws: Never: the relation is written with the object.
    public func writeRelation<Target: Entity & AnyObject>(_ relation: ToOne<Target>, to property: String) throws {
        encoder.read { encoder in
            encoder.appendToOne(property, encoder.columnOfNextRelation(property), relation)
        }
    }

    /// A `ToMany` relation: no column, but its changes are written once the
    /// object is.
    ///
    /// - Throws: Never: the relation is written with the object.
    public func writeRelation<Related: Entity & AnyObject, each Owner>(_ relation: ToMany<Related, repeat each Owner>, to property: String) throws {
        encoder.read { $0.toManys.append((property, relation)) }
    }

    /// The container that the `Codable` conformance of the entity would
    /// write to, for the values that are not plain columns.
    private var container: EntityEncoder.Container<ColumnKey> {
        EntityEncoder.Container(encoder: encoder.object)
    }
}
