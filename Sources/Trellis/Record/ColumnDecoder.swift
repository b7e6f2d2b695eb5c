import Foundation

/// Decodes one column of a row: database values, dates and data with the
/// record's strategies, and other Decodable values from JSON text.
struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
    let row: Row
    let index: Int
    let column: String
    /// The record whose strategies apply.
    let recordType: any FetchableRecord.Type
    /// The coding path of the record, and the key of the column: the full
    /// path is only built for errors.
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?

    init(row: Row, index: Int, column: String, recordType: any FetchableRecord.Type,
         parentPath: [any CodingKey], key: (any CodingKey)?)
    {
        self.row = row
        self.index = index
        self.column = column
        self.recordType = recordType
        self.parentPath = parentPath
        self.key = key
    }

    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

    private var dbValue: DatabaseValue { row.databaseValue(atIndex: index) }

    /// Thrown when the decoded type asks for a keyed or unkeyed container:
    /// the column holds a nested value as JSON.
    struct NotASingleValue: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NotASingleValue()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw NotASingleValue()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let dbValue = self.dbValue
        if T.self == Date.self, let date = try decodeDate(dbValue) as? T {
            return date
        }
        if T.self == Data.self, case .custom(let convert) = recordType.databaseDataDecodingStrategy(for: column) {
            guard let data = convert(dbValue) as? T else { throw valueMismatch(T.self, dbValue) }
            return data
        }
        // Bound before the cast: `nil as? T` succeeds when T is an optional.
        if let fast = T.self as? any StatementColumnConvertible.Type, let converted = statementValue(fast),
           let value = converted as? T
        {
            return value
        }
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) as? T else {
                throw valueMismatch(T.self, dbValue)
            }
            return value
        }
        // A value built on a single primitive, such as an enum with a raw
        // value.
        do {
            return try T(from: self)
        } catch is NotASingleValue {
            // A nested value, stored as JSON text below.
        } catch is DecodingError {
            throw valueMismatch(T.self, dbValue)
        } catch is RowDecodingError {
            throw valueMismatch(T.self, dbValue)
        }
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: throw valueMismatch(T.self, dbValue)
        }
        do {
            // As in GRDB, the decoder is asked for the coding key, and it
            // shares the record's user info with the nested values.
            let jsonDecoder = recordType.databaseJSONDecoder(for: key?.stringValue ?? column)
            jsonDecoder.userInfo.merge(sendableUserInfo(recordType.databaseDecodingUserInfo)) { own, _ in own }
            return try jsonDecoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            // GRDB's error, so that `catch DecodingError.keyNotFound` works,
            // which names what failed, as decoding errors of Trellis do.
            throw error.appendingDescription(" (decoding \(T.self) from JSON column \"\(column)\" of \(recordType))")
        }
    }

    private func decodeDate(_ dbValue: DatabaseValue) throws -> Date? {
        let date: Date?
        switch recordType.databaseDateDecodingStrategy(for: column) {
        case .deferredToDate:
            date = Date.fromDatabaseValue(dbValue)
        case .timeIntervalSince1970:
            date = Self.number(dbValue).map { Date(timeIntervalSince1970: $0) }
        case .timeIntervalSinceReferenceDate:
            date = Self.number(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .millisecondsSince1970:
            date = Self.number(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            date = String.fromDatabaseValue(dbValue).flatMap { ISO8601DateFormatter().date(from: $0) }
        case .formatted(let formatter):
            date = String.fromDatabaseValue(dbValue).flatMap { formatter.date(from: $0) }
        case .custom(let convert):
            date = convert(dbValue)
        }
        guard let date else { throw valueMismatch(Date.self, dbValue) }
        return date
    }

    /// A number, or text that is one (`'1000'`), as GRDB reads the numbers
    /// of a date strategy.
    private static func number(_ dbValue: DatabaseValue) -> Double? {
        Double.fromDatabaseValue(dbValue)
    }

    /// A value read straight from the statement: nil for NULL, a copied
    /// row, or a value that does not convert without a loss.
    private func statementValue<Value: StatementColumnConvertible>(_ type: Value.Type) -> Value? {
        guard let sqliteStatement = row.sqliteStatement, !row.hasNull(atIndex: index) else { return nil }
        return Value(sqliteStatement: sqliteStatement, index: CInt(row.offset + index))
    }

    private func valueMismatch(_ type: Any.Type, _ dbValue: DatabaseValue) -> RowDecodingError {
        RowDecodingError.valueMismatch(type, value: dbValue, index: index, row: row).forRecord(recordType)
    }

    // Single value decoding of primitives, for Decodable types built on them
    // (such as enums with a raw value).
    func decode(_ type: Bool.Type) throws -> Bool { try decodeConvertible(type) }
    func decode(_ type: String.Type) throws -> String { try decodeConvertible(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeConvertible(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeConvertible(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeConvertible(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeConvertible(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeConvertible(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeConvertible(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeConvertible(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeConvertible(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeConvertible(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeConvertible(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeConvertible(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeConvertible(type) }

    /// A primitive converts as the same value does in a property of its
    /// own: an enum whose raw value is an `Int` reads the text `'2'` as 2,
    /// as in GRDB.
    private func decodeConvertible<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type) throws -> T {
        if let value = statementValue(T.self) { return value }
        guard let value = T.fromDatabaseValue(dbValue) else { throw valueMismatch(T.self, dbValue) }
        return value
    }
}

/// Decodes an array of records from the rows of a to-many association.
struct PrefetchedRowsDecoder: Decoder {
    let rows: [Row]
    /// The record whose strategies apply to records that are not
    /// FetchableRecords themselves.
    let recordType: any FetchableRecord.Type
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as an array, not a keyed value"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        Container(rows: rows, recordType: recordType, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as an array, not a single value"))
    }

    struct Container: UnkeyedDecodingContainer {
        let rows: [Row]
        let recordType: any FetchableRecord.Type
        let codingPath: [any CodingKey]
        var currentIndex = 0
        /// The rows share their decoders, as the rows of a fetch do.
        private let reuse = RowReuse.forCopiedRows()
        private var fetchableTypes = FetchableTypeCache()

        init(rows: [Row], recordType: any FetchableRecord.Type, codingPath: [any CodingKey]) {
            self.rows = rows
            self.recordType = recordType
            self.codingPath = codingPath
        }

        var count: Int? { rows.count }
        var isAtEnd: Bool { currentIndex >= rows.count }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, DecodingError.Context(
                    codingPath: codingPath, debugDescription: "no more prefetched rows"))
            }
            let row = rows[currentIndex]
            let key = IndexCodingKey(index: currentIndex)
            currentIndex += 1
            let fetchableType = fetchableTypes.fetchableType(of: T.self)
            // The rows of a batch share a lookup memo, as the rows of a
            // statement do.
            row.batch?.columnLookup.startRow()
            let record = try row.withReuse(reuse) {
                try decodeNestedRecord(T.self, fetchableType: fetchableType, in: recordType, from: row,
                                       parentPath: codingPath, key: key)
            }
            // The failure of a non-throwing accessor of a hand-written record.
            try row.checkRecordedDecodingError()
            return record
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, DecodingError.Context(
                    codingPath: codingPath, debugDescription: "no more prefetched rows"))
            }
            let row = rows[currentIndex]
            currentIndex += 1
            return try DatabaseRowDecoder(row: row, recordType: recordType, parentPath: codingPath, key: nil)
                .container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "a prefetched row is not an array"))
        }

        mutating func superDecoder() throws -> any Decoder {
            PrefetchedRowsDecoder(rows: rows, recordType: recordType, codingPath: codingPath)
        }
    }
}

extension DecodingError {
    /// The same error, with `text` after its debug description.
    func appendingDescription(_ text: String) -> DecodingError {
        func extended(_ context: Context) -> Context {
            Context(codingPath: context.codingPath, debugDescription: context.debugDescription + text,
                    underlyingError: context.underlyingError)
        }
        switch self {
        case let .typeMismatch(type, context): return .typeMismatch(type, extended(context))
        case let .valueNotFound(type, context): return .valueNotFound(type, extended(context))
        case let .keyNotFound(key, context): return .keyNotFound(key, extended(context))
        case let .dataCorrupted(context): return .dataCorrupted(extended(context))
        @unknown default: return self
        }
    }
}
