import Foundation
import TrellisSQLite

// MARK: - Date

/// Dates are stored as UTC text, `yyyy-MM-dd HH:mm:ss.SSS`, which sorts and
/// compares correctly in SQL; a date outside the years 0000 to 9999 of that
/// format is stored as its seconds since 1970. They are read from that text (the date alone,
/// minutes, seconds and milliseconds are all optional; a `T` may separate date
/// and time; a trailing `Z` or `±HH:MM` offset is honoured) and from numbers,
/// read as seconds since 1970.
extension Date: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        if let text = DatabaseDateFormat.string(from: self) {
            return DatabaseValue(storage: .string(text))
        }
        // A date read from a number far from today: the number, which
        // reads back as the same date.
        return timeIntervalSince1970.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let value): return Date(timeIntervalSince1970: TimeInterval(value))
        case .double(let value): return Date(timeIntervalSince1970: value)
        case .string(let string): return DatabaseDateFormat.date(from: string)
        // Text stored as a blob, as GRDB reads it.
        case .blob(let data): return String(data: data, encoding: .utf8).flatMap(DatabaseDateFormat.date(from:))
        default: return nil
        }
    }
}

extension Date {
    /// The date of a julian day number, as SQLite's `julianday()` returns
    /// it; nil when the number is not finite.
    ///
    /// ```swift
    /// let date = Date(julianDay: 2457277.26)  // 2015-09-11 18:14:24 UTC
    /// ```
    public init?(julianDay: Double) {
        // Julian day 2451910.5 is 2001-01-01 00:00:00 UTC, the reference
        // date of `Date`: one rounding, where going through 1970 would
        // round twice.
        let interval = (julianDay - 2_451_910.5) * 86_400
        guard interval.isFinite else { return nil }
        self.init(timeIntervalSinceReferenceDate: interval)
    }
}

/// The date text format of SQLite's date functions, without DateFormatter.
enum DatabaseDateFormat {
    /// The first and the last instants of the years 0000 to 9999, as
    /// seconds since 1970.
    static let representableIntervals = -62_167_219_200.0 ..< 253_402_300_800.0

    /// The seconds from 1970-01-01 to 2001-01-01, the reference date of
    /// `Date`.
    static let secondsFrom1970ToReferenceDate: Int64 = 978_307_200

    /// The text of the date; nil outside the years 0000 to 9999, or for a
    /// date that is not a number.
    static func string(from date: Date) -> String? {
        guard representableIntervals.contains(date.timeIntervalSince1970) else { return nil }
        // To the nearest millisecond, as GRDB stores dates: truncating
        // stored a date made by `Date()` one millisecond early half of
        // the time. Computed from the interval that `Date` keeps, since
        // 2001, split exactly into whole seconds and their fraction: the
        // interval since 1970 is rounded already.
        let interval = date.timeIntervalSinceReferenceDate
        let wholeSeconds = interval.rounded(.down)
        var milliseconds = (Int64(wholeSeconds) + secondsFrom1970ToReferenceDate) * 1000
            + Int64(((interval - wholeSeconds) * 1000).rounded(.toNearestOrEven))
        let millisPerDay: Int64 = 86_400_000
        var days = milliseconds / millisPerDay
        milliseconds -= days * millisPerDay
        if milliseconds < 0 {
            milliseconds += millisPerDay
            days -= 1
        }
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        let seconds = milliseconds / 1000
        return String(
            format: "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%03lld",
            year, month, day, seconds / 3600, (seconds / 60) % 60, seconds % 60, milliseconds % 1000)
    }

    static func date(from string: String) -> Date? {
        var parser = DatabaseDateComponentsParser(string)
        guard let components = parser.parse() else { return nil }
        guard components.hasDate else { return nil }
        return components.date
    }

    /// Howard Hinnant's days-from-civil algorithm.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilDate(fromDaysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Parses `YYYY-MM-DD`, `HH:MM[:SS[.SSS]]`, or both, with an optional
/// time zone suffix.
struct DatabaseDateComponentsParser {
    struct Result {
        var hasDate = false
        var hasTime = false
        var year: Int64 = 2000, month: Int64 = 1, day: Int64 = 1
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, nanosecond: Int64 = 0
        var hasSeconds = false
        var hasFraction = false
        /// Whether the text ends with `Z` or an offset.
        var hasTimeZone = false
        var offsetSeconds: Int64 = 0

        var date: Date {
            let days = DatabaseDateFormat.daysSince1970(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
            // Whole seconds since the reference date of `Date` are exact:
            // the fraction is rounded once, to the closest interval.
            let sinceReferenceDate = seconds - DatabaseDateFormat.secondsFrom1970ToReferenceDate
            return Date(timeIntervalSinceReferenceDate: TimeInterval(sinceReferenceDate) + TimeInterval(nanosecond) / 1e9)
        }
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ string: String) {
        bytes = Array(string.utf8)
    }

    mutating func parse() -> Result? {
        var result = Result()
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-") {
            guard let year = number(4), expect("-"), let month = number(2), expect("-"),
                  let day = number(2), (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            result.hasDate = true
            (result.year, result.month, result.day) = (year, month, day)
            if position == bytes.count { return result }
            guard expect(" ") || expect("T") else { return nil }
        }
        guard let hour = number(2), expect(":"), let minute = number(2), hour < 24, minute < 60 else { return nil }
        result.hasTime = true
        (result.hour, result.minute) = (hour, minute)
        if expect(":") {
            guard let second = number(2), second < 61 else { return nil }
            result.second = second
            result.hasSeconds = true
            if expect(".") {
                result.hasFraction = true
                var digits: Int64 = 0
                var scale: Int64 = 1_000_000_000
                // Digits after the milliseconds are read and dropped, as in
                // GRDB: "05.6789" is 5.678 seconds.
                while position < bytes.count, let digit = digitValue(bytes[position]) {
                    if scale > 1_000_000 {
                        scale /= 10
                        digits += digit * scale
                    }
                    position += 1
                }
                result.nanosecond = digits
            }
        }
        if position == bytes.count { return result }
        result.hasTimeZone = true
        if expect("Z") { return position == bytes.count ? result : nil }
        let sign: Int64
        if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
        guard let offsetHour = number(2) else { return nil }
        _ = expect(":")
        guard let offsetMinute = number(2), position == bytes.count else { return nil }
        result.offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        return result
    }

    private func digitValue(_ byte: UInt8) -> Int64? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    private mutating func number(_ count: Int) -> Int64? {
        guard position + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for _ in 0..<count {
            guard let digit = digitValue(bytes[position]) else { return nil }
            value = value * 10 + digit
            position += 1
        }
        return value
    }

    private mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }
}

// MARK: - UUID, URL, Decimal, NSNumber

/// UUIDs are stored as 16-byte blobs, and read from blobs or text.
extension UUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data) where data.count == 16:
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: data) }
            return UUID(uuid: uuid)
        case .string(let string):
            return UUID(uuidString: string)
        default:
            return nil
        }
    }
}

/// URLs are stored as their absolute string.
extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(absoluteString)) }

    /// Text, and blobs of UTF-8 text, convert to URLs.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        String.fromDatabaseValue(dbValue).flatMap { URL(string: $0) }
    }
}

/// Decimals are stored as text, so that no digit is lost, and read from
/// text, integers and doubles.
extension Decimal: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(NSDecimalNumber(decimal: self).description(withLocale: Locale(identifier: "en_US_POSIX"))))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let value): return Decimal(value)
        // The shortest decimal text of the double, as SQLite and Swift
        // print it: `Decimal(19.99)` is 19.98999999999999488, and a
        // `decimal(10,2)` column stores 19.99 as a double.
        case .double(let value):
            guard value.isFinite else { return nil }
            return Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX"))
        // Only text that is a number in full: `Decimal(string:)` reads a
        // prefix ('20 small cigars' as 20).
        case .string(let string):
            guard NumericText.number(in: string) != nil else { return nil }
            return Decimal(string: string.trimmingCharacters(in: .whitespacesAndNewlines),
                           locale: Locale(identifier: "en_US_POSIX"))
        default: return nil
        }
    }
}

/// Numbers are stored as integers when they hold one that fits 64 bits,
/// else as doubles (a non-integer `NSDecimalNumber` loses digits: store a
/// `Decimal` to keep them). They read from integers and doubles, and from
/// decimal text as an `NSDecimalNumber`.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [NSNumber(value: 10)])  // 10
/// try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'")                                   // 1.23
/// ```
extension NSNumber: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        if let decimal = self as? NSDecimalNumber {
            // Its text is exact: whole numbers that fit are integers.
            if let int64 = Int64(decimal.stringValue) { return DatabaseValue(storage: .int64(int64)) }
            return decimal.decimalValue.isNaN ? .null : DatabaseValue(storage: .double(decimal.doubleValue))
        }
        switch UInt8(bitPattern: objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            return DatabaseValue(storage: .double(doubleValue))
        case UInt8(ascii: "Q"), UInt8(ascii: "L"):
            let value = uint64Value
            if let int64 = Int64(exactly: value) { return DatabaseValue(storage: .int64(int64)) }
            return DatabaseValue(storage: .double(Double(value)))
        default:
            return DatabaseValue(storage: .int64(int64Value))
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let wantsDecimal = self is NSDecimalNumber.Type
        let number: NSNumber
        switch dbValue.storage {
        case .int64(let value):
            number = wantsDecimal ? NSDecimalNumber(value: value) : NSNumber(value: value)
        case .double(let value):
            if wantsDecimal {
                // Through its shortest decimal text, as a Decimal reads it.
                guard let decimal = Decimal.fromDatabaseValue(dbValue) else { return nil }
                number = NSDecimalNumber(decimal: decimal)
            } else {
                number = NSNumber(value: value)
            }
        case .string:
            guard let decimal = Decimal.fromDatabaseValue(dbValue), !decimal.isNaN else { return nil }
            number = NSDecimalNumber(decimal: decimal)
        default:
            return nil
        }
        return number as? Self
    }
}

// MARK: - NSString, NSDate, NSData, NSNull, CGFloat

/// Strings are stored as text.
extension NSString: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { (self as String).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        String.fromDatabaseValue(dbValue).flatMap { NSString(string: $0) as? Self }
    }
}

/// Dates are stored as `Date` stores them.
///
/// ```swift
/// try NSDate.fetchOne(db, sql: "SELECT '2015-09-11 18:14:15'")
/// ```
extension NSDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { (self as Date).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Date.fromDatabaseValue(dbValue).flatMap { NSDate(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) as? Self }
    }
}

/// Data is stored as a blob, as `Data` is.
extension NSData: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { (self as Data).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Data.fromDatabaseValue(dbValue).flatMap { NSData(data: $0) as? Self }
    }
}

/// `NSNull` is NULL.
extension NSNull: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .null }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        dbValue.isNull ? NSNull() as? Self : nil
    }
}

/// Floats of CoreGraphics are stored as doubles.
extension CGFloat: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { Double(self).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CGFloat? {
        Double.fromDatabaseValue(dbValue).map { CGFloat($0) }
    }
}

