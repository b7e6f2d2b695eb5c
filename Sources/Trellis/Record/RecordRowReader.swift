import Foundation

/// Reads the stored properties of a record from a row, one property at a
/// time, with the rules of Decodable records: the `init(row:)` that the
/// `@DatabaseRecord` macro writes.
///
/// The type of each property picks the way it is read, at compile time:
///
/// - a ``DatabaseValueConvertible`` value reads its column (straight from
///   the statement for the standard types); dates and data follow the
///   record's decoding strategies;
/// - a ``FetchableRecord`` reads the scope of its key (a joined
///   association), or else the row itself, as the `book` of
///   `struct BookInfo { var book: Book; var author: Author }`;
/// - an array of records reads the prefetched rows of its key
///   (`including(all:)`);
/// - any other `Decodable` value reads its column as JSON text.
///
/// ```swift
/// init(row: Row) throws {
///     var reader = RecordRowReader<Player>(row: row)
///     id = try reader.decodeIfPresent(forKey: "id")
///     name = try reader.decode(forKey: "name")
/// }
/// ```
///
/// A value that can not be read throws the error a Decodable record throws.
///
/// A reader made with the columns of all the properties, in the order of
/// the reads, reads standard values by position when they are the first
/// columns of the row, as with `SELECT *` on a table that declares its
/// columns in the order of the properties. It compares the columns once
/// per statement, and reads by name otherwise.
public struct RecordRowReader<Record: FetchableRecord> {
    /// The row of the record.
    public let row: Row

    /// The key of the nested record that reads the row itself: only one
    /// may, so that a second record is not silently decoded from the
    /// columns of the first (a forgotten `including`).
    @usableFromInline var keyReadingRow: String?

    /// The number of properties, in the order of the reads, whose columns
    /// start the row: they are read by position.
    @usableFromInline let leadingColumnCount: Int

    /// The position of the property read next: each read moves it.
    @usableFromInline var position = 0

    /// A reader that finds each column by name.
    @inlinable
    public init(row: Row) {
        self.row = row
        leadingColumnCount = 0
    }

    /// A reader that reads by position when the row starts with
    /// `columns`: one column per property, in the order of the reads,
    /// the same for every row of the record type.
    ///
    /// ```swift
    /// init(row: Row) throws {
    ///     var reader = RecordRowReader<Player>(row: row, columns: ["id", "name", "score"])
    ///     id = try reader.decodeIfPresent(forKey: "id")
    ///     name = try reader.decode(forKey: "name")
    ///     score = try reader.decode(forKey: "score")
    /// }
    /// ```
    @inlinable
    public init(row: Row, columns: @autoclosure () -> [String]) {
        self.row = row
        leadingColumnCount = row.leadingColumnCount(of: Record.self, named: columns)
    }

    /// The position of the property being read; moves to the next one.
    @inlinable @inline(__always)
    mutating func nextPosition() -> Int {
        defer { position &+= 1 }
        return position
    }

    // MARK: Database values

    /// Reads a database value from its column.
    ///
    /// - Throws: A ``RowDecodingError`` if the column is missing, or if its
    ///   value is NULL or cannot convert to `Value`.
    @inlinable
    public mutating func decode<Value: DatabaseValueConvertible>(forKey key: String) throws -> Value {
        position &+= 1
        do {
            return try row.decode(Value.self, forColumn: key)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a database value straight from the statement.
    ///
    /// - Throws: A ``RowDecodingError`` if the column is missing, or if its
    ///   value is NULL or cannot convert to `Value`.
    @inlinable @inline(__always)
    public mutating func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        forKey key: String) throws -> Value
    {
        let position = nextPosition()
        do {
            if position < leadingColumnCount { return try row.decodeColumn(Value.self, atIndex: position) }
            return try row.decode(Value.self, forColumn: key)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a database value that is also Decodable: dates and data
    /// follow the record's strategies.
    ///
    /// - Throws: A ``RowDecodingError`` if the column is missing, or if its
    ///   value is NULL or cannot convert to `Value`.
    @inlinable
    public mutating func decode<Value: DatabaseValueConvertible & Decodable>(forKey key: String) throws -> Value {
        position &+= 1
        if Value.self == Date.self || Value.self == Data.self {
            return try decodeWithStrategy(Value.self, forKey: key)
        }
        do {
            return try row.decode(Value.self, forColumn: key)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a standard database value that is also Decodable, straight
    /// from the statement.
    ///
    /// - Throws: A ``RowDecodingError`` if the column is missing, or if its
    ///   value is NULL or cannot convert to `Value`.
    @inlinable @inline(__always)
    public mutating func decode<Value: DatabaseValueConvertible & StatementColumnConvertible & Decodable>(
        forKey key: String) throws -> Value
    {
        let position = nextPosition()
        if Value.self == Date.self || Value.self == Data.self {
            return try decodeWithStrategy(Value.self, forKey: key)
        }
        do {
            if position < leadingColumnCount { return try row.decodeColumn(Value.self, atIndex: position) }
            return try row.decode(Value.self, forColumn: key)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a Decodable value that is not a database value: JSON text in
    /// its column, or a nested value in the scope of its key.
    ///
    /// - Throws: A ``RowDecodingError`` if the column is missing or NULL, or if
    ///   its JSON cannot be decoded as `Value`.
    @inlinable
    public mutating func decode<Value: Decodable>(forKey key: String) throws -> Value {
        position &+= 1
        return try decodeDecodable(Value.self, forKey: key)
    }

    // MARK: Nested records

    /// Reads a nested record: from the scope of its key, or else from the
    /// row itself.
    ///
    /// - Throws: The error of `Value`'s `init(row:)`; a ``RowDecodingError`` if
    ///   the nested row cannot be found or decoded.
    @inlinable
    public mutating func decode<Value: FetchableRecord>(forKey key: String) throws -> Value {
        position &+= 1
        return try decodeNested(Value.self, forKey: key)
    }

    /// Reads a nested record that is also Decodable: from JSON text in the
    /// column of its key, the scope of its key, or else the row itself.
    ///
    /// - Throws: A ``RowDecodingError`` if the JSON of the column cannot be
    ///   decoded, or if the nested row cannot be found; the error of `Value`'s
    ///   `init(row:)`.
    @inlinable
    public mutating func decode<Value: FetchableRecord & Decodable>(forKey key: String) throws -> Value {
        position &+= 1
        if row.index(ofColumn: key) != nil {
            return try decodeDecodable(Value.self, forKey: key)
        }
        return try decodeNested(Value.self, forKey: key)
    }

    /// Reads the records of a prefetched to-many association.
    ///
    /// - Throws: A ``RowDecodingError`` if the association was not prefetched
    ///   under this key; the error of `Value`'s `init(row:)`.
    @inlinable
    public mutating func decode<Value: FetchableRecord>(forKey key: String) throws -> [Value] {
        position &+= 1
        return try decodePrefetched(Value.self, forKey: key)
    }

    /// Reads the records of a prefetched to-many association, or JSON text
    /// in the column of its key.
    ///
    /// - Throws: A ``RowDecodingError`` if the JSON of the column cannot be
    ///   decoded, or if the association was not prefetched under this key; the
    ///   error of `Value`'s `init(row:)`.
    @inlinable
    public mutating func decode<Value: FetchableRecord & Decodable>(forKey key: String) throws -> [Value] {
        position &+= 1
        if row.index(ofColumn: key) != nil {
            return try decodeDecodable([Value].self, forKey: key)
        }
        return try decodePrefetched(Value.self, forKey: key)
    }

    /// A property that can not be read from a row.
    @available(*, unavailable, message: "a record property must be DatabaseValueConvertible, Decodable, or a FetchableRecord")
    public mutating func decode<Value>(forKey key: String) throws -> Value {
        fatalError("unavailable")  // crash-ok: @available(*, unavailable): no code compiles a call to it
    }

    // MARK: Optional values

    /// Reads a database value from its column: nil when the column is NULL
    /// or missing.
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable
    public mutating func decodeIfPresent<Value: DatabaseValueConvertible>(forKey key: String) throws -> Value? {
        position &+= 1
        guard let index = row.index(ofColumn: key), !row.hasNull(atIndex: index) else { return nil }
        do {
            return try row.decode(Value.self, atIndex: index)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a standard database value from its column: nil when the column
    /// is NULL or missing.
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable @inline(__always)
    public mutating func decodeIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        forKey key: String) throws -> Value?
    {
        let position = nextPosition()
        do {
            if position < leadingColumnCount { return try row.decodeIfPresent(Value.self, atIndex: position) }
            guard let index = row.index(ofColumn: key), !row.hasNull(atIndex: index) else { return nil }
            return try row.decode(Value.self, atIndex: index)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a database value that is also Decodable: nil when the column
    /// is NULL or missing.
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable
    public mutating func decodeIfPresent<Value: DatabaseValueConvertible & Decodable>(forKey key: String) throws -> Value? {
        position &+= 1
        guard let index = row.index(ofColumn: key), !row.hasNull(atIndex: index) else { return nil }
        if Value.self == Date.self || Value.self == Data.self {
            return try decodeWithStrategy(Value.self, forKey: key)
        }
        do {
            return try row.decode(Value.self, atIndex: index)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a standard database value that is also Decodable: nil when the
    /// column is NULL or missing.
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable @inline(__always)
    public mutating func decodeIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible & Decodable>(
        forKey key: String) throws -> Value?
    {
        let position = nextPosition()
        if Value.self == Date.self || Value.self == Data.self {
            guard let index = row.index(ofColumn: key), !row.hasNull(atIndex: index) else { return nil }
            return try decodeWithStrategy(Value.self, forKey: key)
        }
        do {
            if position < leadingColumnCount { return try row.decodeIfPresent(Value.self, atIndex: position) }
            guard let index = row.index(ofColumn: key), !row.hasNull(atIndex: index) else { return nil }
            return try row.decode(Value.self, atIndex: index)
        } catch let error as RowDecodingError {
            throw Self.recordError(error, Value.self)
        }
    }

    /// Reads a Decodable value: nil when its column is NULL, or when there
    /// is neither a column nor a scope of its key.
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor JSON
    ///   that decodes as `Value`.
    @inlinable
    public mutating func decodeIfPresent<Value: Decodable>(forKey key: String) throws -> Value? {
        position &+= 1
        return try decodeDecodableIfPresent(Value.self, forKey: key)
    }

    /// Reads an optional nested record: nil when its scope is missing or
    /// all its columns are NULL.
    ///
    /// - Throws: The error of `Value`'s `init(row:)`; a ``RowDecodingError`` if
    ///   the nested row exists but cannot be decoded.
    @inlinable
    public mutating func decodeIfPresent<Value: FetchableRecord>(forKey key: String) throws -> Value? {
        position &+= 1
        guard let scope = row.nearestScope(forKey: key), scope.containsNonNullValue else { return nil }
        return try Value(row: scope)
    }

    /// Reads an optional nested record that is also Decodable: JSON text in
    /// its column, or its scope.
    ///
    /// - Throws: A ``RowDecodingError`` if the JSON of the column cannot be
    ///   decoded; the error of `Value`'s `init(row:)`.
    @inlinable
    public mutating func decodeIfPresent<Value: FetchableRecord & Decodable>(forKey key: String) throws -> Value? {
        position &+= 1
        if row.index(ofColumn: key) != nil {
            return try decodeDecodableIfPresent(Value.self, forKey: key)
        }
        guard let scope = row.nearestScope(forKey: key), scope.containsNonNullValue else { return nil }
        return try Value(row: scope)
    }

    /// A property that can not be read from a row.
    @available(*, unavailable, message: "a record property must be DatabaseValueConvertible, Decodable, or a FetchableRecord")
    public mutating func decodeIfPresent<Value>(forKey key: String) throws -> Value? {
        fatalError("unavailable")  // crash-ok: @available(*, unavailable): no code compiles a call to it
    }

    // MARK: Implementation

    /// The error of a value, as a Decodable record reports it: a missing
    /// column names the type of the value.
    @usableFromInline
    static func recordError(_ error: RowDecodingError, _ valueType: Any.Type) -> RowDecodingError {
        if case .columnNotFound = error.reason {
            return error.forRecord(Record.self, valueType: valueType)
        }
        return error.forRecord(Record.self)
    }

    /// A nested record: from the scope of its key, or else from the row
    /// itself, for one key only. The rows are given to `init(row:)`
    /// without a retain where they can be: the scope row that the fetch
    /// reuses, which the row keeps, and the row itself.
    @inlinable
    mutating func decodeNested<Value: FetchableRecord>(_ type: Value.Type, forKey key: String) throws -> Value {
        if let scope = row.reusedNearestScope(forKey: key) {
            return try scope._withUnsafeGuaranteedRef { try Value(row: $0) }
        }
        if let scope = row.nearestScope(forKey: key) {
            return try Value(row: scope)
        }
        try readRow(forKey: key)
        return try Value(row: row)
    }

    /// Records that the nested record of `key` reads the row itself.
    ///
    /// - Throws: A ``RowDecodingError`` if a nested record of another key
    ///   reads it already.
    @usableFromInline
    mutating func readRow(forKey key: String) throws {
        if let first = keyReadingRow, first != key {
            throw RowDecodingError(
                reason: .columnNotFound,
                message: "No such key: \(first) or \(key): two records can not both decode the columns of \(Record.self)"
                    + row.associationKeysHint)
        }
        keyReadingRow = key
    }

    // Inlinable, so that the loop over the rows is specialized for the
    // record type: unspecialized, it looked up the metadata of `[Value]`
    // for each record it appended.
    @inlinable
    func decodePrefetched<Value: FetchableRecord>(_ type: Value.Type, forKey key: String) throws -> [Value] {
        do {
            return try row.decode([Value].self, forKey: key)
        } catch let error as RowDecodingError {
            throw error.forRecord(Record.self, valueType: [Value].self)
        }
    }

    /// A date or data, with the record's strategies.
    @usableFromInline
    func decodeWithStrategy<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value {
        guard let index = row.index(ofColumn: key) else {
            throw RowDecodingError.columnNotFound(key, type: Value.self, row: row).forRecord(Record.self, valueType: Value.self)
        }
        return try ColumnDecoder(row: row, index: index, column: key, recordType: Record.self, parentPath: [],
                                 key: RecordMemberKey(key)).decode(Value.self)
    }

    /// Any other Decodable value, with the rules of Decodable records.
    @usableFromInline
    func decodeDecodable<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value {
        try DatabaseRowDecoder(row: row, recordType: Record.self, parentPath: [], key: nil)
            .decode(Value.self, column: key, key: RecordMemberKey(key))
    }

    @usableFromInline
    func decodeDecodableIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
        try DatabaseRowDecoder(row: row, recordType: Record.self, parentPath: [], key: nil)
            .decodeIfPresent(Value.self, column: key, key: RecordMemberKey(key))
    }
}

/// The coding key of a record property, in the errors of its decoding.
@usableFromInline
struct RecordMemberKey: CodingKey {
    @usableFromInline let stringValue: String
    @usableFromInline var intValue: Int? { nil }

    @usableFromInline
    init(_ stringValue: String) {
        self.stringValue = stringValue
    }

    @usableFromInline
    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    @usableFromInline
    init?(intValue: Int) {
        nil
    }
}
