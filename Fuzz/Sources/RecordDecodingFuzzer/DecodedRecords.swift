import Foundation
import Trellis

/// A value of a closed set, stored as its raw text.
enum Kind: String, Codable, DatabaseValueConvertible {
    case player, coach
}

/// A value stored as JSON.
struct Nested: Codable {
    var x: Int
    var y: String?
}

/// A Codable record with a column of each kind of value Trellis converts.
struct CodableRecord: Codable, FetchableRecord {
    var id: Int64
    var name: String
    var score: Int?
    var ratio: Double
    var flag: Bool
    var tiny: Int8
    var small: UInt16?
    var data: Data?
    var date: Date?
    var uuid: UUID?
    var kind: Kind
    var nested: Nested?
    var tags: [String]?
    var single: Float
}

/// A record that reads its row by hand: through the subscripts, which
/// record their failures, and the throwing accessors.
struct HandWrittenRecord: FetchableRecord {
    var id: Int64
    var name: String?
    var score: Int
    var ratio: Double?
    var flag: Bool
    var data: Data
    var date: Date?
    var kind: Kind?
    var tiny: Int8
    var first: DatabaseValue

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = try row.decode(forColumn: "score")
        ratio = try row.decodeIfPresent(forColumn: "ratio")
        flag = row[Column("flag")]
        data = try row.decode(Data.self, forColumn: "data")
        date = row["date"]
        kind = row["kind"]
        tiny = try row.decode(atIndex: row.count - 1)
        first = row[0]
    }
}
