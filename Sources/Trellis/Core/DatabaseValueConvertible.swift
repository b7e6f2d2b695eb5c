import Foundation
import TrellisSQLite

/// A type that can convert itself into and out of a database value.
///
/// Adopt it for your own types to store them in a column and bind them
/// as statement arguments:
///
/// ```swift
/// struct Celsius: DatabaseValueConvertible {
///     var degrees: Double
///     var databaseValue: DatabaseValue { degrees.databaseValue }
///     static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Celsius? {
///         Double.fromDatabaseValue(dbValue).map(Celsius.init)
///     }
/// }
///
/// let temperature = try Celsius.fetchOne(db, sql: "SELECT temperature FROM weather")
/// ```
///
/// String-backed and integer-backed enums get the conformance for free:
///
/// ```swift
/// enum Color: String, DatabaseValueConvertible { case red, green }
/// ```
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
    /// The value as stored in the database.
    var databaseValue: DatabaseValue { get }

    /// Returns a value initialized from a database value, or nil when the
    /// conversion is not possible.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// Returns the value that a row gives for a missing column, or nil when
    /// a missing column is an error. Optional types return `.some(nil)`.
    static func fromMissingColumn() -> Self?

    /// The decoder of the JSON text of Codable values.
    static func databaseJSONDecoder() -> JSONDecoder

    /// The encoder of the JSON text of Codable values.
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    public static func fromMissingColumn() -> Self? { nil }

    public var sqlExpression: SQLExpression { .value(databaseValue) }

    public func bindingDatabaseValue() -> DatabaseValue { databaseValue }
}

/// A type that reads itself straight from the column of a stepped SQLite
/// statement, without building a ``DatabaseValue`` first: the fast path of
/// fetching.
///
/// Trellis checks for NULL before it calls this initializer.
public protocol StatementColumnConvertible {
    /// Reads a non-NULL value at `index`, or returns nil when the conversion
    /// is not possible.
    ///
    /// Test the storage class (`sqlite3_column_type`) before you read:
    /// SQLite's column functions convert any value, with a loss when they
    /// must (`sqlite3_column_int64` reads the text `'abc'` as 0).
    init?(sqliteStatement: SQLiteStatement, index: CInt)

    /// Reads the value at `index`: nil for NULL, `.some(nil)` when the
    /// conversion is not possible. You don't implement it: integers use it
    /// to read with a single SQLite call.
    static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Self??
}

extension StatementColumnConvertible {
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Self?? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(Self(sqliteStatement: sqliteStatement, index: index))
    }
}

extension DatabaseValueConvertible {
    /// The value of a column whose storage class is not the one the type
    /// reads straight: converted by ``fromDatabaseValue(_:)``, which
    /// refuses a conversion with a loss, where SQLite's column functions
    /// would make it (`'abc'` reads as the integer 0).
    ///
    /// Inlinable although never inlined: the optimizer of a client module
    /// calls a witness of ``StatementColumnConvertible`` directly only when
    /// the generic functions it calls have their bodies visible, and a
    /// direct call lets the read of a column inline into `init(row:)`.
    @inlinable @inline(never)
    static func _fromColumnOfOtherStorageClass(sqliteStatement: SQLiteStatement, index: CInt) -> Self? {
        fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index))
    }
}

extension FixedWidthInteger where Self: DatabaseValueConvertible {
    /// Reads an integer column with one call after the type test; converts
    /// other columns without a loss: nil for NULL, `.some(nil)` when the
    /// value does not convert.
    @inlinable @inline(__always)
    static func _decodeIntegerColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Self?? {
        // One lookup of the column gives its value, whose storage class and
        // integer are then read for a few instructions each: as cheap as
        // the single, lossy `sqlite3_column_int64`.
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .some(Self(exactly: sqlite3_value_int64(value)))
        case SQLITE_NULL: return nil
        default: return .some(_fromColumnOfOtherStorageClass(sqliteStatement: sqliteStatement, index: index))
        }
    }
}

/// A value that can be bound as a statement argument.
public protocol StatementBinding {
    /// The database value to bind.
    func bindingDatabaseValue() -> DatabaseValue
}

// MARK: - Optional

extension Optional: StatementBinding where Wrapped: DatabaseValueConvertible {}

extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    public var sqlExpression: SQLExpression {
        switch self {
        case .none: return .value(.null)
        case .some(let wrapped): return wrapped.sqlExpression
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.databaseValue
        }
    }

    /// The wrapped value; NULL is `.some(nil)` unless the wrapped type
    /// makes a value of it, as `DatabaseValue` does, as in GRDB:
    ///
    /// ```swift
    /// try Optional<DatabaseValue>.fetchOne(db, sql: "SELECT NULL") // .some(.some(.null))
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
        if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(.some(value)) }
        return dbValue.isNull ? .some(nil) : nil
    }

    public static func fromMissingColumn() -> Wrapped?? { .some(nil) }
}

/// Optionals of values read straight from the statement read the same way,
/// with the same conversions:
///
/// ```swift
/// try Optional<Int>.fetchOne(db, sql: "SELECT '12'") // .some(.some(12))
/// ```
extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }

    /// NULL is a value of an optional: `.some(nil)`.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Wrapped??? {
        switch Wrapped._decodeColumn(sqliteStatement: sqliteStatement, index: index) {
        case .none: return .some(.some(.none))
        case .some(.none): return .some(.none)
        case .some(.some(let value)): return .some(.some(.some(value)))
        }
    }
}

// MARK: - RawRepresentable

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
    }

    // Restated so that the defaults of raw-representable types below do
    // not compete with those of all convertible types.
    public var sqlExpression: SQLExpression { .value(databaseValue) }

    public func bindingDatabaseValue() -> DatabaseValue { databaseValue }
}

/// Raw-representable wrappers, such as the values of the Tagged library,
/// are expressions, arguments and fast columns when their raw values are:
///
/// ```swift
/// extension Tagged: @retroactive SQLExpressible where RawValue: SQLExpressible { }
/// extension Tagged: @retroactive StatementBinding where RawValue: StatementBinding { }
/// extension Tagged: @retroactive StatementColumnConvertible where RawValue: StatementColumnConvertible { }
/// extension Tagged: @retroactive DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }
/// ```
extension SQLExpressible where Self: RawRepresentable, RawValue: SQLExpressible {
    public var sqlExpression: SQLExpression { rawValue.sqlExpression }
}

extension StatementBinding where Self: RawRepresentable, RawValue: StatementBinding {
    public func bindingDatabaseValue() -> DatabaseValue { rawValue.bindingDatabaseValue() }
}

extension StatementColumnConvertible where Self: RawRepresentable, RawValue: StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }
}

// MARK: - Placeholders

extension DatabaseValueConvertible {
    /// A value of this type for a non-throwing accessor to return after it
    /// recorded a decoding failure (the failure is thrown by the fetch that
    /// reads the row, so the value never reaches the caller's results).
    ///
    /// It is the first value that one of a few basic database values
    /// converts to; else, for a trivial type (an enum without payloads,
    /// such as `enum Color: String` whose stored value is not a case, or a
    /// struct of numbers), the value whose bytes are all zero: the first
    /// case of an enum, zeros for numbers; else, for a `Decodable` type,
    /// the value it decodes from empty answers (see `StandInDecoder`).
    static func _decodingPlaceholder() -> Self? {
        if let value = _basicPlaceholder() { return value }
        guard let decodable = Self.self as? any Decodable.Type else { return nil }
        return StandInDecoder.value(of: decodable) as? Self
    }

    /// The placeholder made of a basic database value, or of zero bytes.
    static func _basicPlaceholder() -> Self? {
        // Basic values, then text in the formats that custom types often
        // validate (identifiers, dates, JSON, e-mail addresses, URLs).
        let candidates: [DatabaseValue] = [.null, 0, "", 0.0, DatabaseValue(storage: .blob(.init())),
                                           "00000000-0000-0000-0000-000000000000", "1970-01-01", "0",
                                           1, "a", "A", "{}", "[]", "true", "1970-01-01T00:00:00Z",
                                           "a@example.com", "https://example.com"]
        for candidate in candidates {
            if let value = fromDatabaseValue(candidate) { return value }
        }
        guard _isPOD(Self.self) else { return nil }
        return withUnsafeTemporaryAllocation(
            byteCount: Swift.max(MemoryLayout<Self>.size, 1), alignment: MemoryLayout<Self>.alignment)
        { bytes in
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            return bytes.load(as: Self.self)
        }
    }
}
