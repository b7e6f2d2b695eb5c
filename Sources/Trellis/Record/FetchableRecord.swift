import Foundation

/// A type that can be decoded from a database row.
///
/// Decodable types get the conformance for free; others write
/// `init(row:)`:
///
/// ```swift
/// struct Player: FetchableRecord {
///     var id: Int64
///     var name: String
///     init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///     }
/// }
///
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
public protocol FetchableRecord {
    /// Decodes a record from a row.
    ///
    /// - Throws: A `RowDecodingError` or `DecodingError` if a value is missing
    ///   or cannot be converted; an implementation should throw, not stop the
    ///   program, for a row it cannot decode.
    init(row: __shared Row) throws

    /// The user info of the decoder of Decodable records. Declare it as
    /// `[CodingUserInfoKey: Any]`, or the compiler may miss it.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The decoder of JSON columns (nested Decodable values and arrays).
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How Decodable records read the dates of a column. Default
    /// `.deferredToDate`. (GRDB 7 removed the static properties of
    /// strategies: a `static let` of that name is not read.)
    ///
    /// ```swift
    /// static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
    ///     .timeIntervalSince1970
    /// }
    /// ```
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How Decodable records read the data of a column. Default
    /// `.deferredToData`.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How Decodable records map coding keys to columns. Default
    /// `.useDefaultKeys`.
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

extension FetchableRecord {
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        return decoder
    }

    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .deferredToDate }
    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy { .deferredToData }
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }
}

/// How Decodable records read dates.
public enum DatabaseDateDecodingStrategy: Sendable {
    /// Dates as `Date` stores them: text, or seconds since 1970.
    case deferredToDate
    /// Seconds since 1970 (`timeIntervalSince1970`).
    case timeIntervalSince1970
    /// Seconds since 2001 (`timeIntervalSinceReferenceDate`).
    case timeIntervalSinceReferenceDate
    /// Milliseconds since 1970.
    case millisecondsSince1970
    /// ISO 8601 text.
    case iso8601
    /// Text read by a formatter.
    case formatted(DateFormatter)
    /// A custom conversion; nil means the value can not be decoded.
    case custom(@Sendable (DatabaseValue) -> Date?)
}

/// How Decodable records read data.
public enum DatabaseDataDecodingStrategy: Sendable {
    /// Blobs, or the UTF-8 bytes of text.
    case deferredToData
    /// A custom conversion.
    case custom(@Sendable (DatabaseValue) -> Data?)
}

/// How Decodable records map coding keys to column names.
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// Coding keys are column names.
    case useDefaultKeys
    /// `playerID` reads the column `player_id`.
    case convertFromSnakeCase
    /// A custom mapping from column names to coding keys.
    case custom(@Sendable (String) -> any CodingKey)
}

extension FetchableRecord where Self: Decodable {
    /// Decodes the record with its Decodable implementation, straight from
    /// the row.
    ///
    /// - Throws: A `RowDecodingError` or `DecodingError` if a column is
    ///   missing, or if a value cannot be converted to the type of its
    ///   property.
    @inlinable
    public init(row: __shared Row) throws {
        self = try Self.decode(from: row)
    }
}

extension FetchableRecord {
    /// Decodes a Decodable record from a row.
    @inlinable
    static func decode(from row: Row) throws -> Self where Self: Decodable {
        // The rows of a fetch share one decoder per record type.
        if let reused = DatabaseRowDecoder.reused(for: row, recordType: Self.self) {
            return try reused._withUnsafeGuaranteedRef { decoder in
                decoder.isDecoding = true
                defer { decoder.isDecoding = false }
                return try Self(from: decoder)
            }
        }
        return try Self(from: DatabaseRowDecoder(row: row, recordType: Self.self))
    }
}
