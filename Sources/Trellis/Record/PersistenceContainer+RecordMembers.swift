import Foundation

// Writing the stored properties of a record, one property at a time, with
// the rules of Encodable records: the `encode(to:)` that the
// `@DatabaseRecord` macro writes.
//
// The type of each property picks the way it is written, at compile time:
// a database value is stored as it is (dates, UUIDs and data after the
// record's encoding strategies), and any other Encodable value as JSON text.
//
// ```swift
// func encode(to container: inout PersistenceContainer) throws {
//     try container.encode(id, forKey: "id", of: Player.self)
//     try container.encode(name, forKey: "name", of: Player.self)
// }
// ```
//
// The macro writes through a `_RecordColumns` of the container, which
// makes the container's storage its own once for all the columns, where
// each write of the container checks it (a check costs about a tenth of
// an insert of ten integer columns).
extension PersistenceContainer {
    /// Writes a database value into its column.
    ///
    /// - Throws: Never: a database value is written as it is.
    @inlinable @inline(__always)
    public mutating func encode<Value: DatabaseValueConvertible, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        try _recordColumns().encode(value, forKey: key, of: Record.self)
    }

    /// Writes a database value that is also Encodable: dates, UUIDs and
    /// data follow the record's strategies.
    ///
    /// - Throws: An `EncodingError` if the record's date, UUID or data strategy
    ///   cannot encode the value.
    @inlinable @inline(__always)
    public mutating func encode<Value: DatabaseValueConvertible & Encodable, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        try _recordColumns().encode(value, forKey: key, of: Record.self)
    }

    /// Writes an Encodable value that is not a database value, as JSON text
    /// (or as its single value, such as an enum with a raw value).
    ///
    /// - Throws: An `EncodingError` if the value cannot be encoded, for example
    ///   by `JSONEncoder`.
    @inlinable
    public mutating func encode<Value: Encodable, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        try _recordColumns().encode(value, forKey: key, of: Record.self)
    }

    /// A property that can not be written into a row.
    @available(*, unavailable, message: "a persisted record property must be DatabaseValueConvertible or Encodable")
    public mutating func encode<Value, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        fatalError("unavailable")  // crash-ok: @available(*, unavailable): no code compiles a call to it
    }

    // MARK: Optional values

    /// Writes an optional database value: NULL for nil.
    ///
    /// - Throws: Never: a database value is written as it is.
    @inlinable @inline(__always)
    public mutating func encodeIfPresent<Value: DatabaseValueConvertible, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        try _recordColumns().encodeIfPresent(value, forKey: key, of: Record.self)
    }

    /// Writes an optional database value that is also Encodable: NULL for
    /// nil.
    ///
    /// - Throws: An `EncodingError` if the record's date, UUID or data strategy
    ///   cannot encode the value.
    @inlinable @inline(__always)
    public mutating func encodeIfPresent<Value: DatabaseValueConvertible & Encodable, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        try _recordColumns().encodeIfPresent(value, forKey: key, of: Record.self)
    }

    /// Writes an optional Encodable value: NULL for nil.
    ///
    /// - Throws: An `EncodingError` if the value cannot be encoded, for example
    ///   by `JSONEncoder`.
    @inlinable
    public mutating func encodeIfPresent<Value: Encodable, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        try _recordColumns().encodeIfPresent(value, forKey: key, of: Record.self)
    }

    /// A property that can not be written into a row.
    @available(*, unavailable, message: "a persisted record property must be DatabaseValueConvertible or Encodable")
    public mutating func encodeIfPresent<Value, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        fatalError("unavailable")  // crash-ok: @available(*, unavailable): no code compiles a call to it
    }

    /// The writer of a record's columns into the container, whose storage
    /// it makes the container's own (copy on write): the `encode(to:)` that
    /// `@DatabaseRecord` writes gets it once for all of its columns.
    ///
    /// The writer refers to the storage without keeping it: use it only
    /// while no other code changes or replaces the container.
    @inlinable @inline(__always)
    public mutating func _recordColumns() -> _RecordColumns {
        makeUnique()
        return _RecordColumns(storage: storage)
    }

    /// The value of a property as an Encodable record stores it.
    @usableFromInline
    static func strategyValue<Value: Encodable, Record: EncodableRecord>(
        _ value: Value, column: String, of record: Record.Type) throws -> DatabaseValue
    {
        try DatabaseRecordEncoder(recordType: Record.self).databaseValue(for: value, column: column, key: column)
    }
}

/// Writes the columns of a record into a ``PersistenceContainer`` whose
/// storage is the container's own: the `encode(to:)` that
/// `@DatabaseRecord` writes.
///
/// ```swift
/// func encode(to container: inout PersistenceContainer) throws {
///     let columns = container._recordColumns()
///     try columns.encode(self.id, forKey: "id", of: Self.self)
///     try columns.encode(self.name, forKey: "name", of: Self.self)
/// }
/// ```
///
/// Not for hand-written records: the writer refers to the storage without
/// keeping it, and without the copy-on-write check of each write of the
/// container. Write `container["name"] = name` instead.
public struct _RecordColumns {
    @usableFromInline let storage: Unmanaged<PersistenceContainerStorage>

    @inlinable @inline(__always)
    init(storage: PersistenceContainerStorage) {
        self.storage = Unmanaged.passUnretained(storage)
    }

    @inlinable @inline(__always)
    func write(_ value: DatabaseValue, forColumn column: String) {
        storage._withUnsafeGuaranteedRef { $0.append(column, value) }
    }

    /// Writes a database value into its column.
    ///
    /// - Throws: Never: a database value is written as it is.
    @inlinable @inline(__always)
    public func encode<Value: DatabaseValueConvertible, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        write(value.databaseValue, forColumn: key)
    }

    /// Writes a database value that is also Encodable: dates, UUIDs and
    /// data follow the record's strategies.
    ///
    /// - Throws: An `EncodingError` if the record's date, UUID or data strategy
    ///   cannot encode the value.
    @inlinable @inline(__always)
    public func encode<Value: DatabaseValueConvertible & Encodable, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        if Value.self == Date.self || Value.self == Data.self || Value.self == UUID.self {
            write(try PersistenceContainer.strategyValue(value, column: key, of: Record.self), forColumn: key)
        } else {
            write(value.databaseValue, forColumn: key)
        }
    }

    /// Writes an Encodable value that is not a database value, as JSON text
    /// (or as its single value, such as an enum with a raw value).
    ///
    /// - Throws: An `EncodingError` if the value cannot be encoded, for example
    ///   by `JSONEncoder`.
    @inlinable
    public func encode<Value: Encodable, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        write(try PersistenceContainer.strategyValue(value, column: key, of: Record.self), forColumn: key)
    }

    /// A property that can not be written into a row.
    @available(*, unavailable, message: "a persisted record property must be DatabaseValueConvertible or Encodable")
    public func encode<Value, Record: EncodableRecord>(
        _ value: Value, forKey key: String, of record: Record.Type) throws
    {
        fatalError("unavailable")  // crash-ok: @available(*, unavailable): no code compiles a call to it
    }

    // MARK: Optional values

    /// Writes an optional database value: NULL for nil.
    ///
    /// - Throws: Never: a database value is written as it is.
    @inlinable @inline(__always)
    public func encodeIfPresent<Value: DatabaseValueConvertible, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        write(value?.databaseValue ?? .null, forColumn: key)
    }

    /// Writes an optional database value that is also Encodable: NULL for
    /// nil.
    ///
    /// - Throws: An `EncodingError` if the record's date, UUID or data strategy
    ///   cannot encode the value.
    @inlinable @inline(__always)
    public func encodeIfPresent<Value: DatabaseValueConvertible & Encodable, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        if let value {
            try encode(value, forKey: key, of: Record.self)
        } else {
            write(.null, forColumn: key)
        }
    }

    /// Writes an optional Encodable value: NULL for nil.
    ///
    /// - Throws: An `EncodingError` if the value cannot be encoded, for example
    ///   by `JSONEncoder`.
    @inlinable
    public func encodeIfPresent<Value: Encodable, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        if let value {
            try encode(value, forKey: key, of: Record.self)
        } else {
            write(.null, forColumn: key)
        }
    }

    /// A property that can not be written into a row.
    @available(*, unavailable, message: "a persisted record property must be DatabaseValueConvertible or Encodable")
    public func encodeIfPresent<Value, Record: EncodableRecord>(
        _ value: Value?, forKey key: String, of record: Record.Type) throws
    {
        fatalError("unavailable")  // crash-ok: @available(*, unavailable): no code compiles a call to it
    }
}
