import Foundation

/// The clock that gives ``Database/transactionDate``.
///
/// Tests and previews control the dates that records store with a custom
/// clock:
///
/// ```swift
/// var config = Configuration()
/// config.transactionClock = .custom { db in
///     Date(timeIntervalSince1970: 1_700_000_000)
/// }
/// let dbQueue = try DatabaseQueue(configuration: config)
/// ```
public protocol TransactionClock: Sendable {
    /// The current date.
    ///
    /// - Throws: The error of the clock: a clock that cannot tell the date
    ///   should throw.
    func now(_ db: Database) throws -> Date
}

/// The default transaction clock: the current date of the system.
///
/// ```swift
/// var config = Configuration()
/// config.transactionClock = .default
/// ```
public struct DefaultTransactionClock: TransactionClock {
    /// The current date of the system.
    ///
    /// - Throws: Never.
    public func now(_ db: Database) throws -> Date { Date() }
}

/// A transaction clock that runs a function.
///
/// ```swift
/// var config = Configuration()
/// config.transactionClock = .custom { db in
///     Date(timeIntervalSince1970: 1_700_000_000)
/// }
/// ```
public struct CustomTransactionClock: TransactionClock {
    private let _now: @Sendable (Database) throws -> Date

    /// A clock that returns the dates of `now`.
    ///
    /// ```swift
    /// let clock = CustomTransactionClock { _ in Date(timeIntervalSince1970: 0) }
    /// ```
    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        _now = now
    }

    /// The date that the clock's function returns.
    ///
    /// - Throws: The error thrown by the clock's function.
    public func now(_ db: Database) throws -> Date {
        try _now(db)
    }
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The current date of the system.
    ///
    /// ```swift
    /// config.transactionClock = .default
    /// ```
    public static var `default`: DefaultTransactionClock { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that returns the dates of `now`.
    ///
    /// ```swift
    /// config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 1_700_000_000) }
    /// ```
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> CustomTransactionClock {
        CustomTransactionClock(now)
    }
}
