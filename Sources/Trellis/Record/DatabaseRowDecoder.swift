import Foundation

/// The Decoder of Decodable records: it reads the columns of a row by
/// coding key, straight from the statement, with no intermediate
/// dictionary.
///
/// A key that is not a column decodes a nested record: from the scope of
/// that name (a joined association), from the prefetched rows of that name
/// (a to-many association), or else from the row itself.
@usableFromInline
struct DatabaseRowDecoder<Record: FetchableRecord>: Decoder {
    @usableFromInline let row: Row
    @usableFromInline let codingPath: [any CodingKey]

    @inlinable
    init(row: Row, codingPath: [any CodingKey]) {
        self.row = row
        self.codingPath = codingPath
    }

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
        ColumnDecoder<Record>(row: row, index: 0, column: row.columnNames.first ?? "", codingPath: codingPath)
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
            let names = row.columnNames + row.scopes.names + row.prefetchedRows.keys
            return names.compactMap { Key(stringValue: $0) }
        }

        @inlinable
        func column(for key: Key) -> String {
            switch Record.databaseColumnDecodingStrategy {
            case .useDefaultKeys: return key.stringValue
            default: return columnName(for: key)
            }
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

        @inlinable
        func decodeColumn<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, forKey key: Key) throws -> T {
            let name = column(for: key)
            guard let index = row.index(ofColumn: name) else {
                throw RowDecodingError.columnNotFound(name, type: T.self, row: row).forRecord(Record.self)
            }
            do {
                return try row.decode(T.self, atIndex: index)
            } catch let error as RowDecodingError {
                throw error.forRecord(Record.self)
            }
        }

        @inlinable
        func decodeColumnIfPresent<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let index = row.index(ofColumn: column(for: key)) else { return nil }
            if row.hasNull(atIndex: index) { return nil }
            do {
                return try row.decode(T.self, atIndex: index)
            } catch let error as RowDecodingError {
                throw error.forRecord(Record.self)
            }
        }

        @inlinable func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeColumn(type, forKey: key) }
        @inlinable func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeColumn(type, forKey: key) }

        @inlinable func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeColumnIfPresent(type, forKey: key) }
        @inlinable func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeColumnIfPresent(type, forKey: key) }

        // MARK: Other values, nested records, associations

        @usableFromInline
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let name = column(for: key)
            if let index = row.index(ofColumn: name) {
                if row.hasNull(atIndex: index) { return nil }
                return try ColumnDecoder<Record>(row: row, index: index, column: name, codingPath: codingPath + [key])
                    .decode(T.self)
            }
            if let scope = row.scopes[name] {
                if !scope.containsNonNullValue { return nil }
                return try decodeRecord(T.self, from: scope, key: key)
            }
            if row.prefetchedRows[name] != nil {
                return try decode(T.self, forKey: key)
            }
            return nil
        }

        @usableFromInline
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let name = column(for: key)
            if let index = row.index(ofColumn: name) {
                return try ColumnDecoder<Record>(row: row, index: index, column: name, codingPath: codingPath + [key])
                    .decode(T.self)
            }
            if let scope = row.scopes[name] {
                return try decodeRecord(T.self, from: scope, key: key)
            }
            if let rows = row.prefetchedRows[name] {
                return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]))
            }
            if T.self is any DatabaseValueConvertible.Type {
                throw RowDecodingError.columnNotFound(name, type: T.self, row: row).forRecord(Record.self)
            }
            // A nested record that reads the same row, such as the `book`
            // of `struct BookInfo { var book: Book; var author: Author }`.
            return try decodeRecord(T.self, from: row, key: key)
        }

        private func decodeRecord<T: Decodable>(_ type: T.Type, from row: Row, key: Key) throws -> T {
            if let recordType = T.self as? any FetchableRecord.Type, let record = try recordType.init(row: row) as? T {
                return record
            }
            return try T(from: DatabaseRowDecoder(row: row, codingPath: codingPath + [key]))
        }

        @usableFromInline
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            let name = column(for: key)
            let nestedRow = row.scopes[name] ?? row
            return KeyedDecodingContainer(DatabaseRowDecoder.KeyedContainer<NestedKey>(
                decoder: DatabaseRowDecoder(row: nestedRow, codingPath: codingPath + [key])))
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
