import NIOConcurrencyHelpers
import Trellis

/// Makes the accesses of a database read times without a zone as UTC.
///
/// Trellis writes a `Date` as UTC text with no zone (`2024-01-02
/// 03:04:05.000`), the format it stores in SQLite. A `TIMESTAMPTZ` column
/// reads such text in the session's `TimeZone`: on a server, database or
/// role set to another zone, a stored `Date` would be off by the zone's
/// offset, and comparisons with one too. The first access asks the
/// server for the zone of its sessions; when it is not UTC, each access
/// sets it for its transaction (`SET LOCAL`), at the cost of one more
/// round trip. Sessions in UTC, the usual setting of servers, pay nothing.
final class PostgresSessionTimeZone: Sendable {
    private enum State {
        case unknown
        case utc
        case other
    }

    private let state = NIOLockedValueBox(State.unknown)

    /// Sets the zone of the transaction that `db` runs, when needed.
    func prepare(_ db: Database) throws {
        switch state.withLockedValue({ $0 }) {
        case .utc:
            return
        case .other:
            try db.execute(sql: "SET LOCAL TimeZone = 'UTC'")
        case .unknown:
            let zone = try String.fetchOne(db, sql: "SELECT current_setting('TimeZone')") ?? ""
            let isUTC = Self.isUTC(zone)
            state.withLockedValue { $0 = isUTC ? .utc : .other }
            if !isUTC { try db.execute(sql: "SET LOCAL TimeZone = 'UTC'") }
        }
    }

    /// Whether `zone`, a value of the `TimeZone` setting, is UTC at every
    /// date. A zone whose offset is 0 part of the year only (`Europe/London`)
    /// is not.
    static func isUTC(_ zone: String) -> Bool {
        var name = zone.uppercased()
        if name.hasPrefix("ETC/") { name.removeFirst(4) }
        return ["UTC", "UCT", "GMT", "GMT0", "GMT+0", "GMT-0", "UNIVERSAL", "ZULU", "GREENWICH", "Z"].contains(name)
    }
}
