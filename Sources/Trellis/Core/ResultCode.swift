import TrellisSQLite

/// An SQLite result code, primary or extended.
///
/// Match errors on their primary code, or on an extended one:
///
/// ```swift
/// do {
///     try player.insert(db)
/// } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
///     // foreign key violation
/// } catch DatabaseError.SQLITE_CONSTRAINT {
///     // any other constraint violation
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary result code: the low byte of an extended code.
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    /// Matches errors with this code: a primary code matches all its
    /// extended codes.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        if pattern.primaryResultCode == pattern {
            return error.resultCode == pattern
        }
        return error.extendedResultCode == pattern
    }

    /// Matches result codes as errors are matched: a primary code matches
    /// all its extended codes, as in GRDB.
    ///
    /// ```swift
    /// switch error.extendedResultCode {
    /// case .SQLITE_CONSTRAINT_FOREIGNKEY: ... // foreign key violation
    /// case .SQLITE_CONSTRAINT: ...            // any other constraint violation
    /// default: ...
    /// }
    /// ```
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        if pattern.primaryResultCode == pattern {
            return code.primaryResultCode == pattern
        }
        return code == pattern
    }

    public static let SQLITE_OK = ResultCode(rawValue: 0)
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: SQLITE_BUSY.rawValue | (2 << 8))
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: SQLITE_BUSY.rawValue | (3 << 8))
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: SQLITE_READONLY.rawValue | (4 << 8))
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (1 << 8))
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (2 << 8))
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (3 << 8))
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (4 << 8))
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (5 << 8))
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (6 << 8))
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (7 << 8))
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (8 << 8))
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (9 << 8))
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (10 << 8))
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (12 << 8))
}
