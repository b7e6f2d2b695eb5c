import Foundation
import TrellisSQLite

extension Database {
    /// A function that receives SQLite's error log: the result code and
    /// the message of each error and warning SQLite reports.
    public typealias LogErrorFunction = @Sendable (_ resultCode: ResultCode, _ message: String) -> Void

    /// The function that receives SQLite's [error log](https://sqlite.org/errlog.html),
    /// or nil.
    ///
    /// ```swift
    /// Database.logError = { resultCode, message in
    ///     print("SQLite error \(resultCode): \(message)")
    /// }
    /// ```
    ///
    /// Set it before any connection opens, in this process (third-party
    /// libraries included): SQLite refuses the setting afterwards, and then
    /// it has no effect.
    public static var logError: LogErrorFunction? {
        get { ErrorLog.shared.function }
        set { ErrorLog.shared.function = newValue }
    }
}

/// The receiver of SQLite's error log, for the whole process.
private final class ErrorLog: @unchecked Sendable {
    static let shared = ErrorLog()

    // SQLite may log from any thread: `function` is read under the lock.
    private let lock = NSLock()
    private var _function: Database.LogErrorFunction?

    var function: Database.LogErrorFunction? {
        get { lock.withLock { _function } }
        set {
            lock.withLock { _function = newValue }
            if newValue == nil {
                trellis_sqlite_config_log(nil, nil)
            } else {
                trellis_sqlite_config_log({ _, code, message in
                    guard let function = ErrorLog.shared.function else { return }
                    function(ResultCode(rawValue: code), message.map { String(cString: $0) } ?? "")
                }, nil)
            }
        }
    }
}
