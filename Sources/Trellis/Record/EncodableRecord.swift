import Foundation

/// A type that can encode itself into database columns.
///
/// Encodable types get the conformance for free; others write
/// `encode(to:)`:
///
/// ```swift
/// extension Player: EncodableRecord {
///     func encode(to container: inout PersistenceContainer) {
///         container["id"] = id
///         container["name"] = name
///     }
/// }
/// ```
public protocol EncodableRecord {
    /// Encodes the record's columns.
    ///
    /// - Throws: The error of a value that cannot be encoded, as
    ///   `EncodingError`; an implementation should throw for a value that it
    ///   cannot write into a column.
    func encode(to container: inout PersistenceContainer) throws

    /// The user info of the encoder of Encodable records. Declare it as
    /// `[CodingUserInfoKey: Any]`, or the compiler may miss it.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The encoder of JSON columns (nested Encodable values and arrays).
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How Encodable records store the dates of a column. Default
    /// `.deferredToDate`. (GRDB 7 removed the static properties of
    /// strategies: a `static let` of that name is not read.)
    ///
    /// ```swift
    /// static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
    ///     .timeIntervalSince1970
    /// }
    /// ```
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How Encodable records store the UUIDs of a column. Default
    /// `.deferredToUUID` (16-byte blobs).
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

    /// How Encodable records store the data of a column. Default
    /// `.deferredToData` (blobs).
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How Encodable records map coding keys to columns.
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .deferredToDate }
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .deferredToUUID }
    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .deferredToData }
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }

    /// The encoded columns of the record.
    ///
    /// ```swift
    /// let values = try player.databaseDictionary // ["id": 1, "name": "Arthur"]
    /// ```
    ///
    /// - Throws: The error of `encode(to:)`.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try persistenceContainer()
            return Dictionary(zip(container.columns, container.values)) { _, last in last }
        }
    }

    /// The encoded columns of the record, each once.
    @inlinable
    func persistenceContainer() throws -> PersistenceContainer {
        var container = try encodedContainer()
        container.removeDuplicateColumns()
        return container
    }

    /// The encoded columns of the record, as `encode(to:)` set them: a
    /// column set twice is there twice.
    @inlinable
    func encodedContainer() throws -> PersistenceContainer {
        var container = PersistenceContainer(minimumCapacity: 16)
        try encode(to: &container)
        return container
    }

    /// The encoded columns of the record, as `encode(to:)` set them, in
    /// the connection's spare storage when it is free; when the storage
    /// holds the columns of the insert statement of `key`, their values are
    /// bound to its parameters as they are set.
    @inlinable
    func encodedContainer(_ db: Database, bindingFor key: RecordStatementCache.Key) throws -> PersistenceContainer {
        let cache = db.recordStatementCache
        var container = cache.takeSpareContainer(bindingFor: key)
        do {
            try encode(to: &container)
        } catch {
            cache.endBinding()
            throw error
        }
        // The container lives on with the record's persistence success:
        // it keeps no value of an earlier record.
        container.storage.dropRecycledEntries()
        return container
    }

    /// Whether the record and `other` encode the same values.
    public func databaseEquals(_ other: Self) -> Bool {
        guard let lhs = try? persistenceContainer(), let rhs = try? other.persistenceContainer() else { return false }
        return lhs.columns == rhs.columns && lhs.values == rhs.values
    }

    /// Modifies the record, and returns the columns that changed, with
    /// their old values.
    ///
    /// ```swift
    /// let changes = try player.databaseChanges { $0.score = 1000 }
    /// // ["score": 100]
    /// ```
    ///
    /// - Throws: The error thrown by `modify`, or the error of `encode(to:)`.
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        let old = self
        try modify(&self)
        return try databaseChanges(from: old)
    }

    /// The columns whose values differ from `other`, with the values of
    /// `other`; `other` may be a record of another type, and a column that
    /// it does not encode has the old value NULL.
    ///
    /// ```swift
    /// let oldPlayer = Player(id: 1, name: "Arthur", score: 100)
    /// let newPlayer = Player(id: 1, name: "Arthur", score: 1000)
    /// try newPlayer.databaseChanges(from: oldPlayer) // ["score": 100]
    /// try newPlayer.databaseChanges(from: PartialPlayer(id: 1, name: "Arthur")) // ["score": NULL]
    /// ```
    ///
    /// - Throws: The error of `encode(to:)`, for either record.
    public func databaseChanges<Other: EncodableRecord>(from other: Other) throws -> [String: DatabaseValue] {
        var changes: [String: DatabaseValue] = [:]
        try forEachChange(from: other) { column, oldValue in changes[column] = oldValue ?? .null }
        return changes
    }

    /// The columns whose values differ from `other` (what `updateChanges`
    /// writes), and the record's container, which the update reuses.
    func changes(from other: Self) throws -> (columns: Set<String>, container: PersistenceContainer) {
        var changedColumns: Set<String> = []
        let container = try forEachChange(from: other) { column, _ in changedColumns.insert(column) }
        return (changedColumns, container)
    }

    /// Calls `body` with each column whose value differs from `other`, and
    /// the value of `other` in that column; returns the record's container.
    @discardableResult
    private func forEachChange<Other: EncodableRecord>(
        from other: Other, _ body: (String, DatabaseValue?) -> Void) throws -> PersistenceContainer
    {
        let new = try persistenceContainer()
        let old = try other.persistenceContainer()
        for (column, value) in zip(new.columns, new.values) {
            let oldValue = old.databaseValue(forColumn: column)
            // A column that `other` does not encode compares as NULL.
            if (oldValue ?? .null) != value { body(column, oldValue) }
        }
        return new
    }
}

extension EncodableRecord {
    /// A date, as the record stores it in `column`.
    static func databaseValue(date: Date, column: String) -> DatabaseValue {
        switch databaseDateEncodingStrategy(for: column) {
        case .deferredToDate: return date.databaseValue
        case .timeIntervalSince1970: return date.timeIntervalSince1970.databaseValue
        case .timeIntervalSinceReferenceDate: return date.timeIntervalSinceReferenceDate.databaseValue
        case .millisecondsSince1970: return integerDatabaseValue((date.timeIntervalSince1970 * 1000).rounded(.down))
        case .secondsSince1970: return integerDatabaseValue(date.timeIntervalSince1970.rounded(.down))
        case .iso8601: return ISO8601DateFormatter().string(from: date).databaseValue
        case .formatted(let formatter): return formatter.string(from: date).databaseValue
        case .custom(let convert): return convert(date)?.databaseValue ?? .null
        }
    }

    /// An integer when the value fits, so that dates far in time do not
    /// trap.
    private static func integerDatabaseValue(_ value: Double) -> DatabaseValue {
        Int64(exactly: value)?.databaseValue ?? value.databaseValue
    }

    /// A UUID, as the record stores it in `column`.
    static func databaseValue(uuid: UUID, column: String) -> DatabaseValue {
        switch databaseUUIDEncodingStrategy(for: column) {
        case .deferredToUUID: return uuid.databaseValue
        case .uppercaseString: return uuid.uuidString.databaseValue
        case .lowercaseString: return uuid.uuidString.lowercased().databaseValue
        }
    }

    /// Data, as the record stores it in `column`.
    static func databaseValue(data: Data, column: String) -> DatabaseValue {
        switch databaseDataEncodingStrategy(for: column) {
        case .deferredToData: return data.databaseValue
        case .text: return String(data: data, encoding: .utf8)?.databaseValue ?? .null
        case .custom(let convert): return convert(data)?.databaseValue ?? .null
        }
    }

    /// A value of a key column, with the strategies of the record: dates,
    /// UUIDs and data are looked up as the record stores them.
    static func databaseValue(forKey value: some DatabaseValueConvertible, column: String) -> DatabaseValue {
        switch value {
        case let uuid as UUID: return databaseValue(uuid: uuid, column: column)
        case let date as Date: return databaseValue(date: date, column: column)
        case let data as Data: return databaseValue(data: data, column: column)
        default: return value.databaseValue
        }
    }
}

/// How Encodable records store dates.
public enum DatabaseDateEncodingStrategy: Sendable {
    /// As `Date` stores itself: `yyyy-MM-dd HH:mm:ss.SSS` UTC text.
    case deferredToDate
    /// Seconds since 1970, as a double.
    case timeIntervalSince1970
    /// Seconds since 2001, as a double.
    case timeIntervalSinceReferenceDate
    /// Milliseconds since 1970, as an integer.
    case millisecondsSince1970
    /// Seconds since 1970, as an integer.
    case secondsSince1970
    /// ISO 8601 text.
    case iso8601
    /// Text from a formatter.
    case formatted(DateFormatter)
    /// A custom conversion.
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)
}

/// How Encodable records store UUIDs.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// 16-byte blobs.
    case deferredToUUID
    /// Upper-case text (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
    case uppercaseString
    /// Lower-case text.
    case lowercaseString
}

/// How Encodable records store data.
public enum DatabaseDataEncodingStrategy: Sendable {
    /// Blobs.
    case deferredToData
    /// UTF-8 text. Encoding a record whose data is not valid UTF-8 throws
    /// an `EncodingError`; as a key value, such data matches no row.
    case text
    /// A custom conversion.
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)
}

/// How Encodable records map coding keys to column names.
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// Coding keys are column names.
    case useDefaultKeys
    /// `playerID` writes the column `player_id`.
    case convertToSnakeCase
    /// A custom mapping.
    case custom(@Sendable (any CodingKey) -> String)
}

extension EncodableRecord where Self: Encodable {
    /// Encodes the record with its Encodable implementation.
    ///
    /// - Throws: An `EncodingError` if a value cannot be encoded, for example a
    ///   nested value that `JSONEncoder` rejects.
    @inlinable
    public func encode(to container: inout PersistenceContainer) throws {
        // The encoder writes into the storage of `container`. A storage
        // that a connection recycles from one insert to the next keeps the
        // encoder of its last record, for the next one of the same type.
        let encoder = container.takeKeptEncoder(for: Self.self) ?? DatabaseRecordEncoder(recordType: Self.self)
        swap(&container, &encoder.container)
        encoder.container.makeUnique()
        encoder.ownsStorage = true
        defer {
            encoder.ownsStorage = false
            swap(&container, &encoder.container)
            container.keep(encoder)
        }
        try self.encode(to: encoder)
    }
}
