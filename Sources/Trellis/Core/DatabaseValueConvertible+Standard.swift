import Foundation
import TrellisSQLite

// Conversions of the standard library's values. A value converts from
// another storage class only without a loss (see the ValueConversions
// article): integers from reals without a fraction and from text that
// spells a number, never the way SQLite's column functions convert
// (`'abc'` as 0, 3.7 as 3). The fast paths test the storage class first,
// and read a column of the expected class with a single SQLite call.

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }

    /// Zero is the only false number; text converts when it spells a
    /// number.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let value): return value != 0
        case .double(let value): return value != 0
        case .string: return dbValue.losslessDouble().map { $0 != 0 }
        case .null, .blob: return nil
        }
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_INTEGER {
            self = sqlite3_column_int64(sqliteStatement, index) != 0
            return
        }
        guard let value = Self._fromColumnOfOtherStorageClass(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension Int: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? {
        dbValue.losslessInteger(Int.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension Int8: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int8?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? {
        dbValue.losslessInteger(Int8.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension Int16: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int16?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? {
        dbValue.losslessInteger(Int16.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension Int32: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int32?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? {
        dbValue.losslessInteger(Int32.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int64?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
        dbValue.losslessInteger(Int64.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension UInt: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    /// SQLite integers are signed 64-bit: values above `Int64.max` are
    /// stored as REAL, and lose precision, as with `UInt64`.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let value = Int64(exactly: self) { return DatabaseValue(storage: .int64(value)) }
        return DatabaseValue(storage: .double(Double(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? {
        dbValue.losslessInteger(UInt.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension UInt8: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt8?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? {
        dbValue.losslessInteger(UInt8.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension UInt16: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt16?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? {
        dbValue.losslessInteger(UInt16.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension UInt32: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt32?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? {
        dbValue.losslessInteger(UInt32.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension UInt64: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt64?? {
        _decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
    }

    /// SQLite integers are signed 64-bit: values above `Int64.max` are
    /// stored as REAL, and lose precision.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let value = Int64(exactly: self) { return DatabaseValue(storage: .int64(value)) }
        return DatabaseValue(storage: .double(Double(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? {
        dbValue.losslessInteger(UInt64.self)
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let value)) = Self._decodeIntegerColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        dbValue.losslessDouble()
    }

    /// Reads reals and integers straight.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        let type = sqlite3_value_type(value)
        if type == SQLITE_FLOAT || type == SQLITE_INTEGER {
            self = sqlite3_value_double(value)
            return
        }
        guard let value = Self._fromColumnOfOtherStorageClass(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = value
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        dbValue.losslessDouble().flatMap(Float.init(convertingDouble:))
    }

    /// Reads reals and integers straight.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let type = sqlite3_column_type(sqliteStatement, index)
        let value = type == SQLITE_FLOAT || type == SQLITE_INTEGER
            ? Float(convertingDouble: sqlite3_column_double(sqliteStatement, index))
            : Self._fromColumnOfOtherStorageClass(sqliteStatement: sqliteStatement, index: index)
        guard let value else { return nil }
        self = value
    }

    /// The nearest float, or nil for a finite number too large for a
    /// `Float`.
    @inlinable
    init?(convertingDouble double: Double) {
        let value = Float(double)
        if value.isInfinite && double.isFinite { return nil }
        self = value
    }
}

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    /// Text converts to a string, and so do a blob of valid UTF-8, as in
    /// GRDB, an integer (its decimal digits), and a real whose text, as
    /// SQLite writes it, reads back as the same number (`0.99`, not
    /// `0.1 + 0.2`).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let value): return value
        case .blob(let data): return String(data: data, encoding: .utf8)
        case .int64(let value): return String(value)
        case .double(let value):
            let text = sqliteText(of: value)
            return Double(text) == value ? text : nil
        case .null: return nil
        }
    }

    /// The text of a real as SQLite writes it (`printf("%!.15g")`): 15
    /// significant digits, and always a decimal point (`1.0`, `1.0e+20`).
    private static func sqliteText(of value: Double) -> String {
        let text = String(format: "%.15g", value)
        guard !text.contains("."), value.isFinite else { return text }
        if let exponent = text.firstIndex(of: "e") {
            return String(text[..<exponent]) + ".0" + String(text[exponent...])
        }
        return text + ".0"
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard case .some(.some(let string)) = Self._decodeColumn(sqliteStatement: sqliteStatement, index: index)
        else { return nil }
        self = string
    }

    /// Reads text with one lookup of the column, which also tells NULL and
    /// the other storage classes apart.
    @inlinable @inline(__always)
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> String?? {
        guard let value = sqlite3_column_value(sqliteStatement, index) else { return nil }
        switch sqlite3_value_type(value) {
        case SQLITE_TEXT: return .some(String(sqliteValue: value))
        case SQLITE_NULL: return nil
        default: return .some(_fromColumnOfOtherStorageClass(sqliteStatement: sqliteStatement, index: index))
        }
    }
}

extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }

    /// Blobs convert to data, and so do strings (their UTF-8 bytes).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let data): return data
        case .string(let string): return Data(string.utf8)
        case .int64, .double, .null: return nil
        }
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_BLOB else {
            guard let value = Self._fromColumnOfOtherStorageClass(sqliteStatement: sqliteStatement, index: index)
            else { return nil }
            self = value
            return
        }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        if let bytes = sqlite3_column_blob(sqliteStatement, index) {
            self.init(bytes: bytes, count: count)
        } else {
            self.init()
        }
    }
}
