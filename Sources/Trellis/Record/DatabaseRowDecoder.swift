import Foundation

/// The Decoder of Decodable records: it reads the columns of a row by
/// coding key, straight from the statement, with no intermediate
/// dictionary.
///
/// A key that is not a column decodes a nested record: from the scope of
/// that name (a joined association), from the prefetched rows of that name
/// (a to-many association), or else from the row itself.
///
/// It is a class, so that its containers share it with one reference, and
/// it reads the record's column strategy once.
@usableFromInline
final class DatabaseRowDecoder<Record: FetchableRecord>: Decoder {
    @usableFromInline let row: Row
    @usableFromInline let parentPath: [any CodingKey]
    @usableFromInline let key: (any CodingKey)?
    @usableFromInline let usesDefaultKeys: Bool

    /// A decoder of `row`, for the value of `key` in a container whose
    /// path is `parentPath`. The path is only built when an error needs it.
    @inlinable
    init(row: Row, parentPath: [any CodingKey] = [], key: (any CodingKey)? = nil) {
        self.row = row
        self.parentPath = parentPath
        self.key = key
        if case .useDefaultKeys = Record.databaseColumnDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
    }

    @usableFromInline
    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(decoder: self))
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "a database row can not be decoded as an array (\(Record.self))"))
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        // A single value record reads the first column.
        ColumnDecoder<Record>(row: row, index: 0, column: row.columnNames.first ?? "", parentPath: codingPath, key: nil)
    }

    @usableFromInline
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        @usableFromInline let decoder: DatabaseRowDecoder

        @inlinable
        init(decoder: DatabaseRowDecoder) {
            self.decoder = decoder
        }

        @usableFromInline var codingPath: [any CodingKey] { decoder.codingPath }
        @inlinable var row: Row { decoder.row }

        @usableFromInline
        var allKeys: [Key] {
            let columnKeys: [String]
            switch Record.databaseColumnDecodingStrategy {
            case .useDefaultKeys: columnKeys = row.columnNames
            case .convertFromSnakeCase: columnKeys = row.columnNames.map(\.camelCasedFromSnakeCase)
            case .custom(let keyForColumn): columnKeys = row.columnNames.map { keyForColumn($0).stringValue }
            }
            let names = columnKeys + row.scopes.names + row.prefetchedRows.keys
            return names.compactMap { Key(stringValue: $0) }
        }

        @inlinable
        func column(for key: Key) -> String {
            decoder.usesDefaultKeys ? key.stringValue : columnName(for: key)
        }

        @usableFromInline
        func columnName(for key: Key) -> String {
            switch Record.databaseColumnDecodingStrategy {
            case .useDefaultKeys:
                return key.stringValue
            case .convertFromSnakeCase:
                return key.stringValue.snakeCased
            case .custom(let keyForColumn):
                return row.columnNames.first { keyForColumn($0).stringValue == key.stringValue } ?? key.stringValue
            }
        }

        @usableFromInline
        func contains(_ key: Key) -> Bool {
            let name = column(for: key)
            return row.index(ofColumn: name) != nil || row.scopes[name] != nil || row.prefetchedRows[name] != nil
        }

        @usableFromInline
        func decodeNil(forKey key: Key) throws -> Bool {
            let name = column(for: key)
            if let index = row.index(ofColumn: name) { return row.hasNull(atIndex: index) }
            if let scope = row.scopes[name] { return !scope.containsNonNullValue }
            if row.prefetchedRows[name] != nil { return false }
            return true
        }

        // MARK: Values read straight from the statement

        /// The index of the column of `key`, or a thrown error naming it.
        @usableFromInline
        func columnIndex(forKey key: Key, type: Any.Type) throws -> Int {
            let name = column(for: key)
            guard let index = row.index(ofColumn: name) else {
                throw RowDecodingError.columnNotFound(name, type: type, row: row).forRecord(Record.self)
            }
            return index
        }

        /// The index of the column of `key`, or nil when it is missing or
        /// NULL.
        @usableFromInline
        func presentColumnIndex(forKey key: Key) -> Int? {
            guard let index = row.index(ofColumn: column(for: key)), !row.hasNull(atIndex: index) else { return nil }
            return index
        }

        @usableFromInline
        func int64(atIndex index: Int, as type: Any.Type) throws -> Int64 {
            try row.fastInt64(atIndex: index, as: type, record: Record.self)
        }

        @usableFromInline
        func outOfRange(_ type: Any.Type, _ value: Int64, atIndex index: Int) -> RowDecodingError {
            RowDecodingError.valueMismatch(type, value: DatabaseValue(storage: .int64(value)), index: index, row: row)
                .forRecord(Record.self)
        }

        @usableFromInline func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            let index = try columnIndex(forKey: key, type: type)
            return try row.fastBool(atIndex: index, record: Record.self)
        }
        @usableFromInline func decode(_ type: String.Type, forKey key: Key) throws -> String {
            let index = try columnIndex(forKey: key, type: type)
            return try row.fastString(atIndex: index, record: Record.self)
        }
        @usableFromInline func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let index = try columnIndex(forKey: key, type: type)
            return try row.fastDouble(atIndex: index, record: Record.self)
        }
        @usableFromInline func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            let index = try columnIndex(forKey: key, type: type)
            return Float(try row.fastDouble(atIndex: index, record: Record.self))
        }
        @usableFromInline func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            return try row.fastBool(atIndex: index, record: Record.self)
        }
        @usableFromInline func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            return try row.fastString(atIndex: index, record: Record.self)
        }
        @usableFromInline func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            return try row.fastDouble(atIndex: index, record: Record.self)
        }
        @usableFromInline func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            return Float(try row.fastDouble(atIndex: index, record: Record.self))
        }
        @usableFromInline func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            return Int(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            return Int(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(Int8.min) && value <= Int64(Int8.max) else { throw outOfRange(Int8.self, value, atIndex: index) }
            return Int8(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(Int8.min) && value <= Int64(Int8.max) else { throw outOfRange(Int8.self, value, atIndex: index) }
            return Int8(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(Int16.min) && value <= Int64(Int16.max) else { throw outOfRange(Int16.self, value, atIndex: index) }
            return Int16(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(Int16.min) && value <= Int64(Int16.max) else { throw outOfRange(Int16.self, value, atIndex: index) }
            return Int16(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(Int32.min) && value <= Int64(Int32.max) else { throw outOfRange(Int32.self, value, atIndex: index) }
            return Int32(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(Int32.min) && value <= Int64(Int32.max) else { throw outOfRange(Int32.self, value, atIndex: index) }
            return Int32(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            return value
        }
        @usableFromInline func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            return value
        }
        @usableFromInline func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt.min) else { throw outOfRange(UInt.self, value, atIndex: index) }
            return UInt(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt.min) else { throw outOfRange(UInt.self, value, atIndex: index) }
            return UInt(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt8.min) && value <= Int64(UInt8.max) else { throw outOfRange(UInt8.self, value, atIndex: index) }
            return UInt8(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt8.min) && value <= Int64(UInt8.max) else { throw outOfRange(UInt8.self, value, atIndex: index) }
            return UInt8(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt16.min) && value <= Int64(UInt16.max) else { throw outOfRange(UInt16.self, value, atIndex: index) }
            return UInt16(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt16.min) && value <= Int64(UInt16.max) else { throw outOfRange(UInt16.self, value, atIndex: index) }
            return UInt16(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt32.min) && value <= Int64(UInt32.max) else { throw outOfRange(UInt32.self, value, atIndex: index) }
            return UInt32(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt32.min) && value <= Int64(UInt32.max) else { throw outOfRange(UInt32.self, value, atIndex: index) }
            return UInt32(truncatingIfNeeded: value)
        }
        @usableFromInline func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            let index = try columnIndex(forKey: key, type: type)
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt64.min) else { throw outOfRange(UInt64.self, value, atIndex: index) }
            return UInt64(truncatingIfNeeded: value)
        }
        @usableFromInline func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
            guard let index = presentColumnIndex(forKey: key) else { return nil }
            let value = try int64(atIndex: index, as: type)
            guard value >= Int64(UInt64.min) else { throw outOfRange(UInt64.self, value, atIndex: index) }
            return UInt64(truncatingIfNeeded: value)
        }

        // MARK: Other values, nested records, associations

        @usableFromInline
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let name = column(for: key)
            if let index = row.index(ofColumn: name) {
                if row.hasNull(atIndex: index) { return nil }
                return try ColumnDecoder<Record>(row: row, index: index, column: name, parentPath: codingPath, key: key)
                    .decode(T.self)
            }
            if let scope = row.scopes[name] {
                if !scope.containsNonNullValue { return nil }
                return try decodeRecord(T.self, from: scope, key: key)
            }
            if row.prefetchedRows[name] != nil {
                return try decode(T.self, forKey: key)
            }
            if let scope = row.scopesTree[name] {
                if !scope.containsNonNullValue { return nil }
                return try decodeRecord(T.self, from: scope, key: key)
            }
            return nil
        }

        @usableFromInline
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let name = column(for: key)
            if let scope = row.scopes[name] {
                return try decodeRecord(T.self, from: scope, key: key)
            }
            if let index = row.index(ofColumn: name) {
                return try ColumnDecoder<Record>(row: row, index: index, column: name, parentPath: codingPath, key: key)
                    .decode(T.self)
            }
            if let rows = row.prefetchedRows[name] {
                return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]))
            }
            if T.self is any DatabaseValueConvertible.Type {
                throw RowDecodingError.columnNotFound(name, type: T.self, row: row).forRecord(Record.self)
            }
            // The scope of a nested association, such as the `country` of
            // `Book.including(required: Book.author.including(optional: Author.country))`.
            if let scope = row.scopesTree[name] {
                return try decodeRecord(T.self, from: scope, key: key)
            }
            // A nested record that reads the same row, such as the `book`
            // of `struct BookInfo { var book: Book; var author: Author }`.
            return try decodeRecord(T.self, from: row, key: key)
        }

        private func decodeRecord<T: Decodable>(_ type: T.Type, from row: Row, key: Key) throws -> T {
            try decodeNestedRecord(T.self, in: Record.self, from: row, parentPath: codingPath, key: key)
        }

        @usableFromInline
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            let name = column(for: key)
            let nestedRow = row.scopes[name] ?? row
            return KeyedDecodingContainer(DatabaseRowDecoder.KeyedContainer<NestedKey>(
                decoder: DatabaseRowDecoder(row: nestedRow, parentPath: codingPath, key: key)))
        }

        @usableFromInline
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            let name = column(for: key)
            guard let rows = row.prefetchedRows[name] else {
                throw DecodingError.keyNotFound(key, DecodingError.Context(
                    codingPath: codingPath, debugDescription: "no prefetched rows for key \"\(name)\" in \(Record.self)"))
            }
            return try PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]).unkeyedContainer()
        }

        @usableFromInline
        func superDecoder() throws -> any Decoder { decoder }

        @usableFromInline
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }
}

extension RowDecodingError {
    /// The error, with the record type that was decoded.
    @usableFromInline
    func forRecord(_ type: Any.Type) -> RowDecodingError {
        RowDecodingError(reason: reason, message: message + " (decoding \(type))")
    }
}

extension String {
    /// `player_id` → `playerId`; leading and trailing underscores are
    /// kept, as JSONDecoder does.
    var camelCasedFromSnakeCase: String {
        guard contains("_") else { return self }
        let leading = prefix { $0 == "_" }
        let trailing = reversed().prefix { $0 == "_" }
        guard leading.count + trailing.count < count else { return self }
        let core = dropFirst(leading.count).dropLast(trailing.count)
        let words = core.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = words.first else { return self }
        let rest = words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        return String(leading) + first.lowercased() + rest.joined() + String(trailing)
    }

    /// `playerID` → `player_id`, `HTTPRequest` → `http_request`.
    @usableFromInline
    var snakeCased: String {
        var result = ""
        let characters = Array(self)
        for (index, character) in characters.enumerated() {
            if character.isUppercase {
                let previous = index > 0 ? characters[index - 1] : nil
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if let previous, previous != "_", previous.isLowercase || previous.isNumber || (next?.isLowercase ?? false) {
                    result.append("_")
                }
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Decodes a record nested in a `Record`: with its own `init(row:)` when it
/// is a FetchableRecord (so that its own strategies apply), or else with a
/// decoder of `Record`.
///
/// A free function: a static method of the generic decoder would look up
/// the decoder's metadata on each call. The key stays generic until an
/// error path or a decoder needs it as an existential.
func decodeNestedRecord<Record: FetchableRecord, T: Decodable, Key: CodingKey>(
    _ type: T.Type, in recordType: Record.Type, from row: Row, parentPath: [any CodingKey], key: Key) throws -> T
{
    if let fetchableType = T.self as? any FetchableRecord.Type {
        return try decodeFetchable(fetchableType, as: T.self, in: Record.self, from: row, parentPath: parentPath, key: key)
    }
    return try decodeWithRowDecoder(T.self, in: Record.self, from: row, parentPath: parentPath, key: key)
}

private func decodeFetchable<R: FetchableRecord, T: Decodable, Record: FetchableRecord, Key: CodingKey>(
    _ fetchableType: R.Type, as type: T.Type, in recordType: Record.Type, from row: Row,
    parentPath: [any CodingKey], key: Key) throws -> T
{
    guard R.self == T.self else {
        return try decodeWithRowDecoder(T.self, in: Record.self, from: row, parentPath: parentPath, key: key)
    }
    // R and T are the same type: a bit cast is exact, where a dynamic cast
    // would look the types up for every row.
    return unsafeBitCast(try R(row: row), to: T.self)
}

@inline(never)
private func decodeWithRowDecoder<Record: FetchableRecord, T: Decodable, Key: CodingKey>(
    _ type: T.Type, in recordType: Record.Type, from row: Row, parentPath: [any CodingKey], key: Key) throws -> T
{
    try T(from: DatabaseRowDecoder<Record>(row: row, parentPath: parentPath, key: key))
}

/// The key of an element of an array, in coding paths.
struct IndexCodingKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map { "Index \($0)" } ?? "" }

    init(index: Int) {
        intValue = index
    }

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        self.intValue = intValue
    }
}
