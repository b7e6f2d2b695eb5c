// SQLite date and time functions: https://www.sqlite.org/lang_datefunc.html

/// A modifier of the SQLite date and time functions.
///
/// ```swift
/// // SELECT JULIANDAY(date, 'start of year') FROM game
/// Game.select { julianDay($0.date, .startOfYear) }
/// ```
public enum SQLDateModifier: Sendable, Hashable {
    /// `'NNN days'`
    case day(Int)
    /// `'NNN hours'`
    case hour(Int)
    /// `'NNN minutes'`
    case minute(Int)
    /// `'NNN.NNNN seconds'`
    case second(Double)
    /// `'NNN months'`
    case month(Int)
    /// `'NNN years'`
    case year(Int)
    /// `'start of month'`
    case startOfMonth
    /// `'start of year'`
    case startOfYear
    /// `'start of day'`
    case startOfDay
    /// `'weekday N'`: advances to the next day whose weekday is N (0 is
    /// Sunday).
    case weekday(Int)
    /// `'unixepoch'`: the value is a number of seconds since 1970.
    case unixEpoch
    /// `'julianday'`: the value is a Julian day number.
    case julianDay
    /// `'auto'`: the value is a Julian day number or a Unix timestamp.
    case auto
    /// `'localtime'`
    case localTime
    /// `'utc'`
    case utc

    /// The modifier, as SQLite writes it.
    public var rawValue: String {
        switch self {
        case .day(let value): return "\(value) days"
        case .hour(let value): return "\(value) hours"
        case .minute(let value): return "\(value) minutes"
        case .second(let value): return "\(value) seconds"
        case .month(let value): return "\(value) months"
        case .year(let value): return "\(value) years"
        case .startOfMonth: return "start of month"
        case .startOfYear: return "start of year"
        case .startOfDay: return "start of day"
        case .weekday(let value): return "weekday \(value)"
        case .unixEpoch: return "unixepoch"
        case .julianDay: return "julianday"
        case .auto: return "auto"
        case .localTime: return "localtime"
        case .utc: return "utc"
        }
    }
}

private func dateFunction(_ name: String, _ value: some SQLSpecificExpressible, _ modifiers: [SQLDateModifier]) -> SQLExpression {
    SQLExpression(.function(
        name,
        [value.sqlExpression] + modifiers.map { SQLExpression.value($0.rawValue.databaseValue) },
        distinct: false))
}

/// `DATETIME(x, modifiers...)`: the date as `YYYY-MM-DD HH:MM:SS`.
///
/// ```swift
/// Game.select { dateTime($0.date, .startOfDay, .hour(12)) }
/// ```
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    dateFunction("DATETIME", value, modifiers)
}

/// `JULIANDAY(x, modifiers...)`: the Julian day number.
///
/// ```swift
/// Game.select { julianDay($0.date, .startOfYear) }
/// ```
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    dateFunction("JULIANDAY", value, modifiers)
}
