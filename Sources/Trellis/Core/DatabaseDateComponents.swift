import Foundation

/// Date components stored in one of SQLite's date formats, from `HH:MM` to
/// `YYYY-MM-DD HH:MM:SS.SSS`: a date without a time, a time without a date.
///
/// ```swift
/// var components = DateComponents()
/// components.year = 1973
/// components.month = 9
/// components.day = 18
///
/// // Stores "1973-09-18"
/// try db.execute(sql: "INSERT INTO player (birthDate) VALUES (?)",
///                arguments: [DatabaseDateComponents(components, format: .YMD)])
///
/// // Reads "1973-09-18"
/// let dbComponents: DatabaseDateComponents = row["birthDate"]
/// dbComponents.format          // .YMD, the format found in the database
/// dbComponents.dateComponents  // year 1973, month 9, day 18
/// ```
///
/// Components read from text with a time zone (`Z`, `+01:00`) have it.
public struct DatabaseDateComponents: DatabaseValueConvertible, Sendable {
    /// The formats of SQLite's date functions.
    public enum Format: String, Sendable, CaseIterable {
        /// `YYYY-MM-DD`
        case YMD = "yyyy-MM-dd"
        /// `YYYY-MM-DD HH:MM`
        case YMD_HM = "yyyy-MM-dd HH:mm"
        /// `YYYY-MM-DD HH:MM:SS`
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"
        /// `YYYY-MM-DD HH:MM:SS.SSS`
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"
        /// `HH:MM`
        case HM = "HH:mm"
        /// `HH:MM:SS`
        case HMS = "HH:mm:ss"
        /// `HH:MM:SS.SSS`
        case HMSS = "HH:mm:ss.SSS"

        var hasDate: Bool { [.YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS].contains(self) }
        var hasTime: Bool { self != .YMD }
        var hasSeconds: Bool { [.YMD_HMS, .YMD_HMSS, .HMS, .HMSS].contains(self) }
        var hasFraction: Bool { self == .YMD_HMSS || self == .HMSS }
    }

    /// The date components.
    public let dateComponents: DateComponents

    /// The format: the one given, or the one found in the database.
    public let format: Format

    /// Components to store in `format`; missing components are written as
    /// zero.
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    public var databaseValue: DatabaseValue {
        let components = dateComponents
        var parts: [String] = []
        if format.hasDate {
            // Missing fields read as GRDB writes them: 0000-01-01.
            parts.append(String(format: "%04d-%02d-%02d", components.year ?? 0, components.month ?? 1, components.day ?? 1))
        }
        if format.hasTime {
            var time = String(format: "%02d:%02d", components.hour ?? 0, components.minute ?? 0)
            if format.hasSeconds {
                time += String(format: ":%02d", components.second ?? 0)
            }
            if format.hasFraction {
                time += String(format: ".%03d", (components.nanosecond ?? 0) / 1_000_000)
            }
            parts.append(time)
        }
        return parts.joined(separator: " ").databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard case .string(let string) = dbValue.storage else { return nil }
        var parser = DatabaseDateComponentsParser(string)
        guard let parsed = parser.parse() else { return nil }
        var components = DateComponents()
        if parsed.hasDate {
            components.year = Int(parsed.year)
            components.month = Int(parsed.month)
            components.day = Int(parsed.day)
        }
        if parsed.hasTime {
            components.hour = Int(parsed.hour)
            components.minute = Int(parsed.minute)
            if parsed.hasSeconds {
                components.second = Int(parsed.second)
            }
            if parsed.hasFraction {
                components.nanosecond = Int(parsed.nanosecond)
            }
        }
        if parsed.hasTimeZone {
            components.timeZone = TimeZone(secondsFromGMT: Int(parsed.offsetSeconds))
        }
        let format: Format
        switch (parsed.hasDate, parsed.hasSeconds, parsed.hasFraction) {
        case (true, _, _) where !parsed.hasTime: format = .YMD
        case (true, false, _): format = .YMD_HM
        case (true, true, false): format = .YMD_HMS
        case (true, true, true): format = .YMD_HMSS
        case (false, false, _): format = .HM
        case (false, true, false): format = .HMS
        case (false, true, true): format = .HMSS
        }
        return DatabaseDateComponents(components, format: format)
    }
}

/// Date components encode as their database text (`"1973-09-18"`), in a
/// JSON column as in a record's column, and decode from it.
extension DatabaseDateComponents: Codable {
    /// Decodes the components from their database text, such as `"1973-09-18"`.
    ///
    /// - Throws: A `DecodingError` if the value is not text, or not a date or
    ///   time in one of SQLite's formats.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let components = DatabaseDateComponents.fromDatabaseValue(text.databaseValue) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Not a date in one of SQLite's formats: \(text)")
        }
        self = components
    }

    /// Encodes the components as their database text, such as `"1973-09-18"`.
    ///
    /// - Throws: The error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        // databaseValue is always text.
        try container.encode(String.fromDatabaseValue(databaseValue) ?? "")
    }
}
