import Foundation
import TrellisSQLite

/// The Decoder of Decodable records: it reads the columns of a row by
/// coding key, straight from the statement, with no intermediate
/// dictionary.
///
/// A key that is not a column decodes a nested record: from the scope of
/// that name (a joined association), from the prefetched rows of that name
/// (a to-many association), or else from the row itself.
///
/// It is not generic over the record type, so that its containers are
/// generic over their coding keys only: their methods run without generic
/// record metadata. The record type is kept for its strategies and for
/// error messages. The rows of a fetch share one decoder per record type
/// (see ``Row/beginReuse()``), which keeps its keyed container from one
/// record to the next: no allocation and no metadata lookup per record.
@usableFromInline
final class DatabaseRowDecoder: Decoder, RowReusable {
    /// The decoded row: a reused decoder moves to the next row when the
    /// rows are copies (the prefetched rows of a to-many association).
    @usableFromInline @exclusivity(unchecked) private(set) var row: Row
    let recordType: any FetchableRecord.Type
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?
    let usesDefaultKeys: Bool

    // The state below is only touched by the fetch that uses the decoder,
    // on the connection's thread: exclusivity is not checked at run time
    // (each check cost more than the access it guards).

    /// Whether a record is being decoded: a record that decodes a record
    /// of its own type from the same row gets a decoder of its own.
    @usableFromInline @exclusivity(unchecked) var isDecoding = false

    /// Whether the decoder keeps its keyed container for the next record:
    /// only a decoder shared by the rows of a fetch does, until the fetch
    /// ends.
    @exclusivity(unchecked) private var keepsContainer = false

    /// The decoders of the nested containers of the current record, which
    /// do not retain them.
    @exclusivity(unchecked) private var nestedDecoders: [DatabaseRowDecoder] = []

    /// Which decoded types are FetchableRecords.
    @exclusivity(unchecked) private var fetchableTypes = FetchableTypeCache()

    /// The key of the nested record that reads the row itself (no column,
    /// scope or prefetched rows of its name): only one key may, as in GRDB,
    /// so that a second record is not silently decoded from the columns
    /// of the first (a forgotten `including`, or a scope of another name).
    @exclusivity(unchecked) private var keyDecodedFromRow: String?

    /// How the keys of the nested records of the previous records of the
    /// fetch resolved, for the rows of one shape (see `RowShape`): they
    /// resolve the same way in each row of that shape.
    @exclusivity(unchecked) private var nestedKeys = NestedKeyResolutions()

    /// The kept keyed container, in a `KeptKeyedContainer` of its key
    /// type, and that key type.
    @exclusivity(unchecked) private var keptContainer: (keyType: ObjectIdentifier, box: AnyObject)?
    /// A decoder of a record of `recordType` that is the whole of `row`.
    @inlinable
    convenience init<Record: FetchableRecord>(row: Row, recordType: Record.Type) {
        // Read in the caller, where the record type is concrete.
        let usesDefaultKeys = if case .useDefaultKeys = Record.databaseColumnDecodingStrategy { true } else { false }
        self.init(row: row, recordType: recordType, parentPath: [], key: nil, usesDefaultKeys: usesDefaultKeys)
    }

    /// A decoder of `row`, for the value of `key` in a container whose
    /// path is `parentPath`, with the strategies of `recordType`. The path
    /// is only built when an error needs it.
    convenience init(row: Row, recordType: any FetchableRecord.Type, parentPath: [any CodingKey], key: (any CodingKey)?) {
        let usesDefaultKeys = if case .useDefaultKeys = recordType.databaseColumnDecodingStrategy { true } else { false }
        self.init(row: row, recordType: recordType, parentPath: parentPath, key: key, usesDefaultKeys: usesDefaultKeys)
    }

    @usableFromInline
    init(row: Row, recordType: any FetchableRecord.Type, parentPath: [any CodingKey], key: (any CodingKey)?,
         usesDefaultKeys: Bool)
    {
        self.row = row
        self.recordType = recordType
        self.parentPath = parentPath
        self.key = key
        self.usesDefaultKeys = usesDefaultKeys
    }

    @usableFromInline
    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    /// Runs `body` with the decoded row, which is not retained for the
    /// call: the decoder keeps it, and only replaces it between records
    /// (see `reused(for:recordType:)`). A retained row cost a retain and a
    /// release for each column that a call reads.
    @inline(__always)
    private func withRow<T>(_ body: (Row) throws -> T) rethrows -> T {
        try Unmanaged.passUnretained(row)._withUnsafeGuaranteedRef(body)
    }

    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

    /// The decoder that the rows of a fetch share for `recordType`, or nil
    /// when the row is not stepped by a fetch, or when the decoder is busy
    /// decoding an enclosing record.
    ///
    /// The decoder is not retained: the row's reuse keeps it until the
    /// fetch ends.
    @usableFromInline
    static func reused<Record: FetchableRecord>(for row: Row, recordType: Record.Type) -> Unmanaged<DatabaseRowDecoder>? {
        guard let reuse = row.reuse else { return nil }
        let key = ObjectIdentifier(Record.self)
        if let kept = reuse.object(forKey: key) {
            // Only decoders are kept under the identifier of a record type.
            let unretained = Unmanaged<DatabaseRowDecoder>.fromOpaque(kept.toOpaque())
            let available = unretained._withUnsafeGuaranteedRef { decoder in
                if decoder.isDecoding { return false }
                // A new record: the nested containers of the previous one are gone.
                if !decoder.nestedDecoders.isEmpty { decoder.nestedDecoders.removeAll() }
                if decoder.row !== row { decoder.row = row }
                return true
            }
            return available ? unretained : nil
        }
        let decoder = DatabaseRowDecoder(row: row, recordType: Record.self)
        decoder.keepsContainer = true
        reuse.keep(decoder, forKey: key)
        return .passUnretained(decoder)
    }

    @usableFromInline
    func endReuse() {
        keepsContainer = false
        keptContainer = nil
        nestedDecoders = []
        nestedKeys = NestedKeyResolutions()
    }

    /// Inlinable, so that a record whose `init(from:)` the compiler
    /// inlines where the decoder's type is known gets its container
    /// without looking up the metadata of `KeyedDecodingContainer<Key>`,
    /// which an unspecialized call does for each record (about 460
    /// instructions).
    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if let kept = keptContainerBox(forKeyType: ObjectIdentifier(Key.self)) {
            // Only a `KeptKeyedContainer<Key>` is kept with the identifier
            // of `Key`.
            return kept._withUnsafeGuaranteedRef { unsafeDowncast($0, to: KeptKeyedContainer<Key>.self).container }
        }
        return makeContainer(keyedBy: type)
    }

    /// The kept keyed container of the key type, in its
    /// `KeptKeyedContainer`, if any, unretained: the decoder keeps it.
    @usableFromInline
    func keptContainerBox(forKeyType keyType: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        guard let keptContainer, keptContainer.keyType == keyType else { return nil }
        return .passUnretained(keptContainer.box)
    }

    /// A new keyed container, kept for the next records when a fetch keeps
    /// the decoder.
    @usableFromInline
    func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        guard keepsContainer else {
            // A decoder that no fetch keeps (one made for a single record)
            // is kept alive by its container.
            return KeyedDecodingContainer(OwningKeyedContainer<Key>(decoder: self))
        }
        let container = KeyedDecodingContainer(KeyedContainer<Key>(decoder: self))
        keptContainer = (ObjectIdentifier(Key.self), KeptKeyedContainer(container))
        return container
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        // An array decodes from the prefetched rows of a to-many
        // association: a property that asks for one here has a key that
        // matches none of them.
        if let key = codingPath.last {
            let available = row.prefetchedRows.keys.sorted().map { "\"\($0)\"" }
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: Array(codingPath.dropLast()),
                debugDescription: "No prefetched rows for key \"\(key.stringValue)\" in \(recordType)"
                    + (available.isEmpty
                        ? " (include a to-many association with including(all:))"
                        : " (prefetched: \(available.joined(separator: ", ")); name the association with forKey(\"\(key.stringValue)\"))")))
        }
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "a database row can not be decoded as an array (\(recordType))"))
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        // A single value record reads the first column.
        ColumnDecoder(row: row, index: 0, column: row.columnNames.first ?? "", recordType: recordType,
                      parentPath: codingPath, key: nil)
    }

    // MARK: Columns

    /// The column of a coding key, after the record's column strategy.
    @inline(__always)
    func column(forKey key: String) -> String {
        usesDefaultKeys ? key : columnName(forKey: key)
    }

    private func columnName(forKey key: String) -> String {
        switch recordType.databaseColumnDecodingStrategy {
        case .useDefaultKeys:
            return key
        case .convertFromSnakeCase:
            let column = key.snakeCased
            if row.index(ofColumn: column) != nil { return column }
            // GRDB converts the column names: a column whose converted name
            // is the key (`playerName` itself, `player__name`) matches too.
            return row.columnNames.first { $0.camelCasedFromSnakeCase == key } ?? column
        case .custom(let keyForColumn):
            return row.columnNames.first { keyForColumn($0).stringValue == key } ?? key
        }
    }

    /// The coding keys of the row's columns, scopes and prefetched rows.
    var allKeys: [String] {
        let columnKeys: [String]
        switch recordType.databaseColumnDecodingStrategy {
        case .useDefaultKeys: columnKeys = row.columnNames
        case .convertFromSnakeCase: columnKeys = row.columnNames.map(\.camelCasedFromSnakeCase)
        case .custom(let keyForColumn): columnKeys = row.columnNames.map { keyForColumn($0).stringValue }
        }
        return columnKeys + row.scopes.names + row.prefetchedRows.keys
    }

    /// The index of a column, or a thrown error naming it.
    @inline(__always)
    func index(ofColumn name: String, type: Any.Type) throws -> Int {
        guard let index = row.index(ofColumn: name) else { throw columnNotFound(name, type) }
        return index
    }

    /// The index of a column, or nil when it is missing or NULL.
    @inline(__always)
    func presentIndex(ofColumn name: String) -> Int? {
        guard let index = row.index(ofColumn: name), !row.hasNull(atIndex: index) else { return nil }
        return index
    }

    // MARK: Values read straight from the statement

    /// Reads an integer column: the common case, an integer that fits,
    /// inlines into the containers' methods.
    @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type, atIndex index: Int) throws -> T {
        let value: Int64
        if let sqliteStatement = row.sqliteStatement {
            // Another storage class converts only without a loss: the
            // text "12" reads as 12, "abc" throws.
            let column = CInt(truncatingIfNeeded: row.offset &+ index)
            let columnValue = sqlite3_column_value(sqliteStatement, column)
            guard sqlite3_value_type(columnValue) == SQLITE_INTEGER else {
                return try convertedInteger(T.self, atIndex: index)
            }
            value = sqlite3_value_int64(columnValue)
        } else {
            // A copied row, such as the rows of a to-many association.
            guard case .int64(let storedValue) = row.storedValues[row.valuesOffset + index].storage
            else { return try convertedInteger(T.self, atIndex: index) }
            value = storedValue
        }
        guard let integer = T(exactly: value) else { return try convertedInteger(T.self, atIndex: index) }
        return integer
    }

    /// Reads an integer column that is not an integer that fits: a
    /// convertible value, or a thrown error.
    @inline(never)
    func convertedInteger<T: FixedWidthInteger>(_ type: T.Type, atIndex index: Int) throws -> T {
        let dbValue = row.databaseValue(atIndex: index)
        guard let integer = dbValue.losslessInteger(T.self) else {
            throw RowDecodingError.valueMismatch(T.self, value: dbValue, index: index, row: row).forRecord(recordType)
        }
        return integer
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type, column name: String) throws -> T {
        try integer(T.self, atIndex: index(ofColumn: name, type: T.self))
    }

    func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, column name: String) throws -> T? {
        guard let index = presentIndex(ofColumn: name) else { return nil }
        return try integer(T.self, atIndex: index)
    }

    func bool(column name: String) throws -> Bool {
        let index = try index(ofColumn: name, type: Bool.self)
        return try withRow { try $0.fastBool(atIndex: index, record: recordType) }
    }

    func boolIfPresent(column name: String) throws -> Bool? {
        guard let index = presentIndex(ofColumn: name) else { return nil }
        return try withRow { try $0.fastBool(atIndex: index, record: recordType) }
    }

    func string(column name: String) throws -> String {
        let index = try index(ofColumn: name, type: String.self)
        return try withRow { try $0.fastString(atIndex: index, record: recordType) }
    }

    func stringIfPresent(column name: String) throws -> String? {
        guard let index = presentIndex(ofColumn: name) else { return nil }
        return try withRow { try $0.fastString(atIndex: index, record: recordType) }
    }

    /// A `Double`, or a `Float` (`valueType`), as errors name it.
    func double(column name: String, as valueType: Any.Type = Double.self) throws -> Double {
        let index = try index(ofColumn: name, type: valueType)
        return try withRow { try $0.fastDouble(atIndex: index, record: recordType, as: valueType) }
    }

    func doubleIfPresent(column name: String, as valueType: Any.Type = Double.self) throws -> Double? {
        guard let index = presentIndex(ofColumn: name) else { return nil }
        return try withRow { try $0.fastDouble(atIndex: index, record: recordType, as: valueType) }
    }

    // MARK: Other values, nested records, associations

    func contains(column name: String) -> Bool {
        row.index(ofColumn: name) != nil || row.scope(forKey: name) != nil || row.prefetched[name] != nil
    }

    func decodeNil(column name: String) -> Bool {
        if let index = row.index(ofColumn: name) { return row.hasNull(atIndex: index) }
        if let scope = row.scope(forKey: name) { return !scope.containsNonNullValue }
        if row.prefetched[name] != nil { return false }
        return true
    }

    func decodeIfPresent<T: Decodable, Key: CodingKey>(_ type: T.Type, column name: String, key: Key) throws -> T? {
        if let index = row.index(ofColumn: name) {
            if row.hasNull(atIndex: index) { return nil }
            return try decodeColumn(T.self, at: index, column: name, key: key)
        }
        if let scope = row.scope(forKey: name) {
            if !scope.containsNonNullValue { return nil }
            return try decodeRecord(T.self, from: scope, key: key)
        }
        if row.prefetched[name] != nil {
            return try decode(T.self, column: name, key: key)
        }
        if let scope = row.scopesTree[name] {
            if !scope.containsNonNullValue { return nil }
            return try decodeRecord(T.self, from: scope, key: key)
        }
        // An optional record whose association has another key by case
        // or separators only (`customer` and the key `Customer` of the
        // table `Customers`) would be nil for every row: an error.
        if !fetchableTypes.isDatabaseValueType(T.self), let similar = row.associationKey(resembling: name) {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No such key: \(name), but the row has the association key \(similar): "
                    + "give the association the key \"\(name)\" (forKey(\"\(name)\")) in \(recordType)"))
        }
        return nil
    }

    func decode<T: Decodable, Key: CodingKey>(_ type: T.Type, column name: String, key: Key) throws -> T {
        let valueType = ObjectIdentifier(T.self)
        if let resolution = withRow({ nestedKeys.resolution(of: name, valueType: valueType, in: $0) }) {
            switch resolution {
            case .scope(let fetchableType):
                if let scope = withRow({ $0.reusedScope(forKey: name) }) {
                    return try scope._withUnsafeGuaranteedRef { scope in
                        try decodeNestedRecord(T.self, fetchableType: fetchableType, in: recordType, from: scope,
                                               parentPath: codingPath, key: key)
                    }
                }
                if let scope = withRow({ $0.scope(forKey: name) }) {
                    return try decodeNestedRecord(T.self, fetchableType: fetchableType, in: recordType, from: scope,
                                                  parentPath: codingPath, key: key)
                }
            case .row(let fetchableType):
                return try withRow { row in
                    try decodeNestedRecord(T.self, fetchableType: fetchableType, in: recordType, from: row,
                                           parentPath: codingPath, key: key)
                }
            }
        }
        // A column first, then a scope of the same name, as in GRDB.
        if let index = row.index(ofColumn: name) {
            return try decodeColumn(T.self, at: index, column: name, key: key)
        }
        if let scope = row.scope(forKey: name) {
            let fetchableType = fetchableTypes.fetchableType(of: T.self)
            nestedKeys.remember(.scope(fetchableType), of: name, valueType: valueType, in: row)
            return try decodeNestedRecord(T.self, fetchableType: fetchableType, in: recordType, from: scope,
                                          parentPath: codingPath, key: key)
        }
        if let prefetched = row.prefetchedRows[prefetched: name] {
            return try decodePrefetched(T.self, from: prefetched, column: name, key: key)
        }
        // The scope of a nested association, such as the `country` of
        // `Book.including(required: Book.author.including(optional: Author.country))`.
        if let scope = row.scopesTree[name] {
            guard !fetchableTypes.isDatabaseValueType(T.self) else { throw columnNotFound(name, T.self) }
            return try decodeRecord(T.self, from: scope, key: key)
        }
        guard !fetchableTypes.isDatabaseValueType(T.self) else { throw columnNotFound(name, T.self) }
        // A nested record that reads the same row, such as the `book`
        // of `struct BookInfo { var book: Book; var author: Author }`.
        if let first = keyDecodedFromRow, first != name {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No such key: \(first) or \(name): two records can not both decode the columns of \(recordType)"
                    + row.associationKeysHint))
        }
        keyDecodedFromRow = name
        let fetchableType = fetchableTypes.fetchableType(of: T.self)
        nestedKeys.remember(.row(fetchableType), of: name, valueType: valueType, in: row)
        return try decodeNestedRecord(T.self, fetchableType: fetchableType, in: recordType, from: row,
                                      parentPath: codingPath, key: key)
    }

    /// Decodes the prefetched rows of a to-many association.
    ///
    /// A function of its own, so that `decode(_:column:key:)` does not look
    /// up the metadata of `T?` at each call: it would for the optional
    /// below, in any branch.
    @inline(never)
    private func decodePrefetched<T: Decodable, Key: CodingKey>(
        _ type: T.Type, from prefetched: PrefetchedRows, column name: String, key: Key) throws -> T
    {
        // The records that the prefetch decoded for the `init(row:)` of a
        // record that contains this one: the same array type reads them.
        if let value = prefetched.records?.value(as: T.self) { return value }
        if let learning = PrefetchedRecordsLearning.current(for: row, key: name),
           let arrayType = T.self as? any PrefetchableRecordArray.Type, let decoder = arrayType.prefetchedRecordsDecoder
        {
            learning.learn(decoder, forKey: name)
        }
        return try T(from: PrefetchedRowsDecoder(
            rows: prefetched.rows(forKey: name, as: T.self), recordType: recordType, codingPath: codingPath + [key]))
    }

    /// Decodes a column. A record that can not be read from it, when the
    /// row also has an association of the same key (a `parent` column
    /// and a `parent` association), fails with an error that says the
    /// column hides the association.
    private func decodeColumn<T: Decodable, Key: CodingKey>(_ type: T.Type, at index: Int, column name: String, key: Key) throws -> T {
        do {
            return try ColumnDecoder(row: row, index: index, column: name, recordType: recordType, parentPath: codingPath, key: key)
                .decode(T.self)
        } catch let error as RowDecodingError
            where !(T.self is any DatabaseValueConvertible.Type)
            && (row.scopesTree[name] != nil || row.prefetchedRows[prefetched: name] != nil)
        {
            throw RowDecodingError(
                reason: error.reason,
                message: error.message + " - the column \"\(name)\" hides the association of the same key: give the association another key")
        }
    }

    private func columnNotFound(_ name: String, _ type: Any.Type) -> RowDecodingError {
        RowDecodingError.columnNotFound(name, type: type, row: row).forRecord(recordType, valueType: type)
    }

    private func decodeRecord<T: Decodable, Key: CodingKey>(_ type: T.Type, from row: Row, key: Key) throws -> T {
        try decodeNestedRecord(T.self, fetchableType: fetchableTypes.fetchableType(of: T.self), in: recordType, from: row,
                               parentPath: codingPath, key: key)
    }

    func nestedContainer<NestedKey: CodingKey, Key: CodingKey>(
        keyedBy type: NestedKey.Type, column name: String, key: Key) -> KeyedDecodingContainer<NestedKey>
    {
        let nestedDecoder = DatabaseRowDecoder(
            row: row.scope(forKey: name) ?? row, recordType: recordType, parentPath: codingPath, key: key)
        // The container does not retain its decoder.
        nestedDecoders.append(nestedDecoder)
        return KeyedDecodingContainer(KeyedContainer<NestedKey>(decoder: nestedDecoder))
    }

    func nestedUnkeyedContainer<Key: CodingKey>(column name: String, key: Key) throws -> any UnkeyedDecodingContainer {
        guard let prefetched = row.prefetchedRows[prefetched: name] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "no prefetched rows for key \"\(name)\" in \(recordType)"))
        }
        return try PrefetchedRowsDecoder(
            rows: prefetched.rows(forKey: name, as: [Row].self), recordType: recordType, codingPath: codingPath + [key]
        ).unkeyedContainer()
    }

    /// The keyed container of a record: each method turns the key into a
    /// column name and asks the decoder, which does the work without
    /// generic metadata. It does not retain the decoder (see
    /// ``Unretained``): the standard library copies the container at each
    /// decoded key, and a copy of this one retains nothing.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        private let decoder: Unretained<DatabaseRowDecoder>

        init(decoder: DatabaseRowDecoder) {
            self.decoder = Unretained(decoder)
        }

        var codingPath: [any CodingKey] { decoder.read { $0.codingPath } }

        var allKeys: [Key] { decoder.read { $0.allKeys.compactMap { Key(stringValue: $0) } } }

        /// Runs `body` with the decoder and the column of `key`.
        @inline(__always)
        private func read<T>(_ key: Key, _ body: (DatabaseRowDecoder, String) throws -> T) rethrows -> T {
            try decoder.read { try body($0, $0.column(forKey: key.stringValue)) }
        }

        func contains(_ key: Key) -> Bool { read(key) { $0.contains(column: $1) } }
        func decodeNil(forKey key: Key) throws -> Bool { read(key) { $0.decodeNil(column: $1) } }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key) { try $0.bool(column: $1) } }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(key) { try $0.string(column: $1) } }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(key) { try $0.double(column: $1) } }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try read(key) { try $0.double(column: $1, as: Float.self) }) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key) { try $0.integer(type, column: $1) } }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key) { try $0.integer(type, column: $1) } }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try read(key) { try $0.boolIfPresent(column: $1) } }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try read(key) { try $0.stringIfPresent(column: $1) } }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try read(key) { try $0.doubleIfPresent(column: $1) } }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            try read(key) { try $0.doubleIfPresent(column: $1, as: Float.self) }.map { Float($0) }
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try read(key) { try $0.integerIfPresent(type, column: $1) } }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try read(key) { try $0.integerIfPresent(type, column: $1) } }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try read(key) { try $0.decode(T.self, column: $1, key: key) }
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try read(key) { try $0.decodeIfPresent(T.self, column: $1, key: key) }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            read(key) { $0.nestedContainer(keyedBy: NestedKey.self, column: $1, key: key) }
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try read(key) { try $0.nestedUnkeyedContainer(column: $1, key: key) }
        }

        func superDecoder() throws -> any Decoder { decoder.object }

        func superDecoder(forKey key: Key) throws -> any Decoder { decoder.object }
    }
}

extension RowDecodingError {
    /// The error, followed by what was decoded: GRDB's message names the
    /// column only, and a record's names its type too, so that the
    /// culprit of a failed fetch is clear.
    @usableFromInline
    func forRecord(_ recordType: Any.Type, valueType: Any.Type? = nil) -> RowDecodingError {
        let decoded = valueType.map { "\($0) of \(recordType)" } ?? "\(recordType)"
        return RowDecodingError(reason: reason, message: message + " (decoding \(decoded))")
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

/// Decodes a record nested in a record of type `recordType`: with its own
/// `init(row:)` when it is a FetchableRecord (so that its own strategies
/// apply), or else with a decoder that follows the strategies of
/// `recordType`.
///
/// `fetchableType` is `T` as a FetchableRecord type, when it is one. The
/// key stays generic, and the path is built, only when a decoder needs
/// them.
func decodeNestedRecord<T: Decodable, Key: CodingKey>(
    _ type: T.Type, fetchableType: (any FetchableRecord.Type)?, in recordType: any FetchableRecord.Type, from row: Row,
    parentPath: @autoclosure () -> [any CodingKey], key: Key) throws -> T
{
    if let fetchableType {
        return try decodeFetchable(fetchableType, as: T.self, in: recordType, from: row, parentPath: parentPath(), key: key)
    }
    return try decodeWithRowDecoder(T.self, in: recordType, from: row, parentPath: parentPath(), key: key)
}

private func decodeFetchable<R: FetchableRecord, T: Decodable, Key: CodingKey>(
    _ fetchableType: R.Type, as type: T.Type, in recordType: any FetchableRecord.Type, from row: Row,
    parentPath: @autoclosure () -> [any CodingKey], key: Key) throws -> T
{
    guard R.self == T.self else {
        return try decodeWithRowDecoder(T.self, in: recordType, from: row, parentPath: parentPath(), key: key)
    }
    // R and T are the same type, checked above: the record's memory holds a
    // T, which is copied out. A dynamic cast would ask the runtime to
    // compare the types again, and cost more than the record's init(row:).
    let record = try R(row: row)
    return withUnsafePointer(to: record) { UnsafeRawPointer($0).load(as: T.self) }
}

@inline(never)
private func decodeWithRowDecoder<T: Decodable, Key: CodingKey>(
    _ type: T.Type, in recordType: any FetchableRecord.Type, from row: Row, parentPath: [any CodingKey], key: Key) throws -> T
{
    try T(from: DatabaseRowDecoder(row: row, recordType: recordType, parentPath: parentPath, key: key))
}

/// How the keys of nested records resolved in the rows of one shape: the
/// rows of a statement, or of a batch of copied rows, with one layout of
/// scopes. Their columns, scopes and prefetched keys are the same, so a
/// key that names no column resolves the same way in each: to a scope, or
/// to the row itself (the `book` of `struct BookInfo { var book: Book;
/// var author: Author }`). The lookups of a column, of scopes and of
/// prefetched rows, which a key that is not a column goes through before,
/// then run for the first row only.
struct NestedKeyResolutions {
    enum Resolution {
        /// The scope of the key, decoded as the FetchableRecord type if any.
        case scope((any FetchableRecord.Type)?)
        /// The row itself, decoded as the FetchableRecord type if any.
        case row((any FetchableRecord.Type)?)
    }

    /// The identity of the columns and the layout of a row: those of its
    /// statement or of its batch, the window of a scope over them, and the
    /// scopes inside. Nil for a row with values of its own.
    private struct RowShape: Equatable {
        let columns: UnsafeMutableRawPointer
        let offset: Int
        let count: Int
        let layout: ObjectIdentifier?

        init?(_ row: Row) {
            guard let lookup = row.columnLookup else { return nil }
            columns = lookup.toOpaque()
            offset = row.offset
            count = row.count
            layout = row.layout.map(ObjectIdentifier.init)
        }
    }

    private var shape: RowShape?
    private var resolutions: [(name: String, valueType: ObjectIdentifier, resolution: Resolution)] = []

    /// How `name` resolved for a value of the type `valueType` in a row of
    /// the shape of `row`, if it did.
    mutating func resolution(of name: String, valueType: ObjectIdentifier, in row: Row) -> Resolution? {
        guard !resolutions.isEmpty else { return nil }
        // Unwrapped before they are compared: `==` on optionals is generic,
        // and would look up the metadata of `RowShape?` at each call.
        guard let shape, let rowShape = RowShape(row), shape == rowShape else {
            resolutions.removeAll()
            return nil
        }
        for entry in resolutions where entry.valueType == valueType && entry.name == name {
            return entry.resolution
        }
        return nil
    }

    /// Remembers how `name` resolved for a value of the type `valueType` in
    /// `row`.
    mutating func remember(_ resolution: Resolution, of name: String, valueType: ObjectIdentifier, in row: Row) {
        guard let rowShape = RowShape(row) else { return }
        if let shape, shape == rowShape {
            // The resolutions of other keys in rows of this shape stay.
        } else {
            shape = rowShape
            resolutions.removeAll()
        }
        resolutions.append((name, valueType, resolution))
    }
}

/// Remembers which types are FetchableRecords: the runtime answers such
/// a question with a search of its conformance tables, which a decoder
/// would otherwise pay for each nested record of each row.
struct FetchableTypeCache {
    private struct Entry {
        let type: ObjectIdentifier
        let fetchable: (any FetchableRecord.Type)?
        let isDatabaseValue: Bool
    }

    // The two most recent types: a record nests a few record types. A
    // conformance check costs hundreds of instructions, more than the
    // decoding of a column: each row of a joined record would pay one.
    private var first: Entry?
    private var second: Entry?

    /// `type` as a FetchableRecord type, or nil when it is not one.
    mutating func fetchableType<T>(of type: T.Type) -> (any FetchableRecord.Type)? {
        entry(of: T.self).fetchable
    }

    /// Whether `type` is a DatabaseValueConvertible type.
    mutating func isDatabaseValueType<T>(_ type: T.Type) -> Bool {
        entry(of: T.self).isDatabaseValue
    }

    private mutating func entry<T>(of type: T.Type) -> Entry {
        let identifier = ObjectIdentifier(T.self)
        if let first, first.type == identifier { return first }
        if let second, second.type == identifier { return second }
        let entry = Entry(
            type: identifier, fetchable: T.self as? any FetchableRecord.Type,
            isDatabaseValue: T.self is any DatabaseValueConvertible.Type)
        second = first
        first = entry
        return entry
    }
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

/// The keyed container that a decoder keeps for the next records of a
/// fetch, in a class of its own: the decoder holds it as `AnyObject`, and
/// gets it back with the type that the identifier of `Key` proves.
@usableFromInline
final class KeptKeyedContainer<Key: CodingKey> {
    @usableFromInline let container: KeyedDecodingContainer<Key>

    @usableFromInline
    init(_ container: KeyedDecodingContainer<Key>) {
        self.container = container
    }
}
