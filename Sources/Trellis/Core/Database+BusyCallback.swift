import TrellisSQLite

extension Database {
    /// What `Configuration.busyMode = .callback(...)` calls when the
    /// database is locked by another connection: it receives the number of
    /// times it was called before for the same lock, and returns whether to
    /// try again.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.busyMode = .callback { numberOfTries in
    ///     numberOfTries < 10
    /// }
    /// ```
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool
}

/// The busy handler that SQLite calls, for the lifetime of a connection:
/// the connection keeps it, and SQLite refers to it without retaining it.
final class BusyHandler {
    let callback: Database.BusyCallback

    init(connection: SQLiteConnection, callback: @escaping Database.BusyCallback) {
        self.callback = callback
        sqlite3_busy_handler(
            connection,
            { context, numberOfTries in
                guard let context else { return 0 }
                let handler = Unmanaged<BusyHandler>.fromOpaque(context).takeUnretainedValue()
                return handler.callback(Int(numberOfTries)) ? 1 : 0
            },
            Unmanaged.passUnretained(self).toOpaque())
    }
}
