import Foundation
import TrellisSQLite

/// A value stored in a database table, in one of SQLite's five storage classes.
///
/// `DatabaseValue` is the intermediate type between SQLite and Swift values:
///
/// ```swift
/// let dbValue: DatabaseValue = row[0]
/// switch dbValue.storage {
/// case .null:                 print("NULL")
/// case .int64(let int64):     print("Int64: \(int64)")
/// case .double(let double):   print("Double: \(double)")
/// case .string(let string):   print("String: \(string)")
/// case .blob(let data):       print("Data: \(data)")
/// }
/// ```
public struct DatabaseValue: Hashable, Sendable {
    /// The SQLite storage of a database value.
    public enum Storage: Hashable, Sendable {
        case null
        case int64(Int64)
        case double(Double)
        case string(String)
        case blob(Data)

        /// The stored value: `Int64`, `Double`, `String`, `Data`, or nil.
        public var value: (any DatabaseValueConvertible & Sendable)? {
            switch self {
            case .null: return nil
            case .int64(let value): return value
            case .double(let value): return value
            case .string(let value): return value
            case .blob(let value): return value
            }
        }
    }

    /// The SQLite storage.
    public let storage: Storage

    /// The NULL database value.
    public static let null = DatabaseValue(storage: .null)

    @inlinable
    init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a database value from a value, or returns nil when the value
    /// is not a `DatabaseValueConvertible`.
    public init?(value: Any) {
        guard let convertible = value as? any DatabaseValueConvertible else { return nil }
        self = convertible.databaseValue
    }

    /// Whether this value is NULL.
    @inlinable
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    /// Reads the value at `index` of the current row of a stepped statement.
    ///
    /// ```swift
    /// let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: 0)
    /// ```
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        // One call into SQLite's column API, then cheap reads of the value.
        self.init(sqliteValue: sqlite3_column_value(sqliteStatement, index))
    }

    /// Reads an SQLite value (`sqlite3_value*`): a column of a stepped
    /// statement, or the argument of a function.
    @inlinable
    init(sqliteValue: OpaquePointer?) {
        guard let sqliteValue else {
            self.init(storage: .null)
            return
        }
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_INTEGER:
            self.init(storage: .int64(sqlite3_value_int64(sqliteValue)))
        case SQLITE_FLOAT:
            self.init(storage: .double(sqlite3_value_double(sqliteValue)))
        case SQLITE_TEXT:
            self.init(storage: .string(String(sqliteValue: sqliteValue)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(sqliteValue))
            if let bytes = sqlite3_value_blob(sqliteValue) {
                self.init(storage: .blob(Data(bytes: bytes, count: count)))
            } else {
                self.init(storage: .blob(Data()))
            }
        default:
            self.init(storage: .null)
        }
    }

    /// Whether the value is a number or NULL: its storage holds no
    /// reference to release.
    @inlinable @inline(__always)
    var holdsNoReference: Bool {
        switch storage {
        case .int64, .double, .null: return true
        case .string, .blob: return false
        }
    }

    /// Binds the value to the parameter `index` (1-based) of a statement.
    @inlinable @inline(__always)
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        // Numbers and NULL bind inline: they fill the hot loops of
        // inserts. Text and blobs go through a call. The cases are tested
        // one by one: a `switch` copies the value, and destroys the copy
        // through a call.
        if case .int64(let value) = storage {
            return sqlite3_bind_int64(sqliteStatement, index, value)
        }
        if case .double(let value) = storage {
            return sqlite3_bind_double(sqliteStatement, index, value)
        }
        if case .null = storage {
            return sqlite3_bind_null(sqliteStatement, index)
        }
        return bindBytes(to: sqliteStatement, at: index)
    }

    @usableFromInline
    func bindBytes(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .string(let value):
            var value = value
            return value.withUTF8 { buffer in
                guard let base = buffer.baseAddress, !buffer.isEmpty else {
                    return sqlite3_bind_text(sqliteStatement, index, "", 0, SQLITE_TRANSIENT)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                    sqlite3_bind_text(sqliteStatement, index, chars, CInt(buffer.count), SQLITE_TRANSIENT)
                }
            }
        case .blob(let data):
            return data.withUnsafeBytes { buffer in
                if let base = buffer.baseAddress {
                    return sqlite3_bind_blob(sqliteStatement, index, base, CInt(buffer.count), SQLITE_TRANSIENT)
                }
                return sqlite3_bind_zeroblob(sqliteStatement, index, 0)
            }
        case .null, .int64, .double:
            return bind(to: sqliteStatement, at: index)
        }
    }
}

extension DatabaseValue {
    /// Two database values compare equal when SQLite would consider them
    /// identical: integers and doubles compare by numeric value.
    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.null, .null): return true
        case let (.int64(l), .int64(r)): return l == r
        case let (.double(l), .double(r)): return l == r
        case let (.int64(l), .double(r)): return Double(l) == r && Int64(exactly: r) == l
        case let (.double(l), .int64(r)): return l == Double(r) && Int64(exactly: l) == r
        case let (.string(l), .string(r)): return l == r
        case let (.blob(l), .blob(r)): return l == r
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .null: hasher.combine(0)
        case .int64(let value): hasher.combine(Double(value))
        case .double(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .blob(let value): hasher.combine(value)
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { self }

    @inlinable
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

extension DatabaseValue {
    /// The database value of `value`, if it is a database value: a value
    /// whose type is known only at run time, such as decoded JSON.
    init?(anyValue value: Any) {
        guard let convertible = value as? any DatabaseValueConvertible else { return nil }
        self = convertible.databaseValue
    }
}

extension DatabaseValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as GRDB prints it: `NULL`, `1`, `1.5`, `"text"`,
    /// `Data(2 bytes)`.
    public var description: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return String(reflecting: value)
        case .blob(let data): return "Data(\(data.count) bytes)"
        }
    }

    /// The value as an SQL literal: `NULL`, `1`, `1.5`, `'text'`, `X'00FF'`.
    var sqlLiteral: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value.sqlQuotedLiteral
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    public var debugDescription: String { description }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self.init(storage: .int64(value)) }
    public init(floatLiteral value: Double) { self.init(storage: .double(value)) }
    public init(stringLiteral value: String) { self.init(storage: .string(value)) }
    public init(booleanLiteral value: Bool) { self.init(storage: .int64(value ? 1 : 0)) }
}

extension String {
    /// The string as an SQL string literal, with single quotes doubled.
    var sqlQuotedLiteral: String {
        quoted(by: "'")
    }

    /// The string as a quoted SQL identifier: `"name"`.
    public var quotedDatabaseIdentifier: String {
        quoted(by: "\"")
    }

    /// The string as is when it is a plain identifier (`swiftLocalizedCompare`), else quoted: the
    /// way GRDB writes collation names, without letting an odd name change the statement.
    var databaseIdentifierQuotedIfNeeded: String {
        let isPlain = !isEmpty && utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        } && !(utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false)
        return isPlain ? self : quotedDatabaseIdentifier
    }

    /// The string between quotes, with inner quotes doubled.
    ///
    /// Quotes are found among the Unicode scalars, as SQLite reads them:
    /// a quote followed by a combining mark (`"\u{301}`) is one Swift
    /// `Character` that is not equal to the quote, yet it ends the name.
    private func quoted(by quote: Unicode.Scalar) -> String {
        var result = String(quote)
        result.reserveCapacity(utf8.count + 2)
        if utf8.contains(UInt8(quote.value)) {
            for scalar in unicodeScalars {
                if scalar == quote { result.unicodeScalars.append(quote) }
                result.unicodeScalars.append(scalar)
            }
        } else {
            result += self
        }
        result.unicodeScalars.append(quote)
        return result
    }
}
