import Foundation
import TrellisSQLite

// Conversions of the standard library's values. Integers convert from every
// numeric storage class when the value fits; a value out of range does not
// convert (a fetch throws, an argument never silently wraps).

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let value): return value != 0
        case .double(let value): return value != 0
        default: return nil
        }
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_int64(sqliteStatement, index) != 0
    }
}

extension Int: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(Int(exactly: value))
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? {
        switch dbValue.storage {
        case .int64(let value): return Int(exactly: value)
        case .double(let value): return value.isFinite ? Int(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = Int(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension Int8: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int8?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(Int8(exactly: value))
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? {
        switch dbValue.storage {
        case .int64(let value): return Int8(exactly: value)
        case .double(let value): return value.isFinite ? Int8(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = Int8(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension Int16: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int16?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(Int16(exactly: value))
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? {
        switch dbValue.storage {
        case .int64(let value): return Int16(exactly: value)
        case .double(let value): return value.isFinite ? Int16(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = Int16(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension Int32: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int32?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(Int32(exactly: value))
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? {
        switch dbValue.storage {
        case .int64(let value): return Int32(exactly: value)
        case .double(let value): return value.isFinite ? Int32(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = Int32(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> Int64?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(value)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
        switch dbValue.storage {
        case .int64(let value): return Int64(exactly: value)
        case .double(let value): return value.isFinite ? Int64(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_int64(sqliteStatement, index)
    }
}

extension UInt: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(UInt(exactly: value))
    }

    /// SQLite integers are signed 64-bit: values above `Int64.max` are
    /// stored as REAL, and lose precision, as with `UInt64`.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let value = Int64(exactly: self) { return DatabaseValue(storage: .int64(value)) }
        return DatabaseValue(storage: .double(Double(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? {
        switch dbValue.storage {
        case .int64(let value): return UInt(exactly: value)
        case .double(let value): return value.isFinite ? UInt(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = UInt(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension UInt8: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt8?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(UInt8(exactly: value))
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? {
        switch dbValue.storage {
        case .int64(let value): return UInt8(exactly: value)
        case .double(let value): return value.isFinite ? UInt8(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = UInt8(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension UInt16: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt16?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(UInt16(exactly: value))
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? {
        switch dbValue.storage {
        case .int64(let value): return UInt16(exactly: value)
        case .double(let value): return value.isFinite ? UInt16(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = UInt16(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension UInt32: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt32?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(UInt32(exactly: value))
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? {
        switch dbValue.storage {
        case .int64(let value): return UInt32(exactly: value)
        case .double(let value): return value.isFinite ? UInt32(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = UInt32(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension UInt64: DatabaseValueConvertible, StatementColumnConvertible {
    /// NULL reads as 0: only a 0 needs a second call to tell them apart.
    @inlinable
    public static func _decodeColumn(sqliteStatement: SQLiteStatement, index: CInt) -> UInt64?? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        if value == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return .some(UInt64(exactly: value))
    }

    /// SQLite integers are signed 64-bit: values above `Int64.max` are
    /// stored as REAL, and lose precision.
    @inlinable
    public var databaseValue: DatabaseValue {
        if let value = Int64(exactly: self) { return DatabaseValue(storage: .int64(value)) }
        return DatabaseValue(storage: .double(Double(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? {
        switch dbValue.storage {
        case .int64(let value): return UInt64(exactly: value)
        case .double(let value): return value.isFinite ? UInt64(exactly: value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    /// Reads integers, and converts reals and text the way SQLite's CAST
    /// does; nil when the value does not fit.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let converted = UInt64(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = converted
    }
}

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let value): return Double(value)
        case .double(let value): return Double(value)
        default: return nil
        }
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self = Double(sqlite3_column_double(sqliteStatement, index))
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        switch dbValue.storage {
        case .int64(let value): return Float(value)
        case .double(let value): return Float(value)
        default: return nil
        }
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self = Float(sqlite3_column_double(sqliteStatement, index))
    }
}

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    /// Text converts to a string, and so does a blob of valid UTF-8, as in
    /// GRDB.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let value): return value
        case .blob(let data): return String(data: data, encoding: .utf8)
        default: return nil
        }
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(sqliteText: sqliteStatement, index: index)
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
        default: return nil
        }
    }

    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        if let bytes = sqlite3_column_blob(sqliteStatement, index) {
            self.init(bytes: bytes, count: count)
        } else {
            self.init()
        }
    }
}
