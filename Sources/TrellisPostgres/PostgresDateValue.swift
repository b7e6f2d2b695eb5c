import Foundation
import NIOCore
import Trellis

/// The Trellis value of a binary `DATE`, `TIMESTAMP` or `TIMESTAMPTZ`:
/// the text that Trellis writes for a `Date` (UTC, milliseconds), the
/// day alone for a `DATE`, as Trellis writes a `DatabaseDateComponents`
/// of the `YMD` format, and the text `infinity` or `-infinity` for the
/// infinite values, which no `Date` stands for.
///
/// The binary forms count from 2000-01-01 00:00:00 UTC: microseconds in
/// 64 bits for a timestamp, days in 32 bits for a date, the largest and
/// smallest integers standing for the infinities.
enum PostgresDateValue {
    /// The object identifiers of the types.
    static let date: UInt32 = 1082
    static let timestamp: UInt32 = 1114
    static let timestamptz: UInt32 = 1184

    private static let start = Date(timeIntervalSince1970: 946_684_800)

    /// Nil for bytes that are not a value of `type`, or for another type.
    static func value(of bytes: ByteBuffer, type: UInt32) -> DatabaseValue? {
        switch type {
        case timestamp, timestamptz:
            guard bytes.readableBytes == 8, let microseconds = bytes.getInteger(at: bytes.readerIndex, as: Int64.self)
            else { return nil }
            switch microseconds {
            case .max: return "infinity".databaseValue
            case .min: return "-infinity".databaseValue
            default: return Date(timeInterval: Double(microseconds) / 1_000_000, since: start).databaseValue
            }
        case date:
            guard bytes.readableBytes == 4, let days = bytes.getInteger(at: bytes.readerIndex, as: Int32.self)
            else { return nil }
            switch days {
            case .max: return "infinity".databaseValue
            case .min: return "-infinity".databaseValue
            default:
                let value = Date(timeInterval: Double(Int64(days) * 86_400), since: start).databaseValue
                return String.fromDatabaseValue(value).map { String($0.prefix(10)).databaseValue } ?? value
            }
        default:
            return nil
        }
    }
}
