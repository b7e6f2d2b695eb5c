import Foundation
import FuzzSupport
import Trellis

private let dbQueue: DatabaseQueue = {
    do {
        return try DatabaseQueue()
    } catch {
        fuzzFailure("can not open an in-memory database: \(error)")
    }
}()

private let columnNames = [
    "id", "name", "score", "ratio", "flag", "tiny", "small", "data", "date", "uuid", "kind", "nested", "tags",
    "single",
]

/// Reads the fuzzer's bytes as the values of a row.
private struct ValueReader {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    mutating func word() -> UInt64 {
        (0..<8).reduce(0) { word, _ in word << 8 | UInt64(byte()) }
    }

    mutating func chunk() -> [UInt8] {
        let count = min(Int(byte()), bytes.count)
        defer { bytes = bytes.dropFirst(count) }
        return Array(bytes.prefix(count))
    }

    /// The SQL expression of one column, and its argument: `nil` when
    /// the row has no such column.
    mutating func column() -> (sql: String, argument: DatabaseValue)? {
        switch byte() % 8 {
        case 0: return ("?", .null)
        case 1: return ("?", Int64(bitPattern: word()).databaseValue)
        case 2: return ("?", Double(bitPattern: word()).databaseValue)
        case 3: return ("?", String(decoding: chunk(), as: UTF8.self).databaseValue)
        case 4: return ("?", Data(chunk()).databaseValue)
        // Text that may not be UTF-8, as another program can store it.
        case 5: return ("CAST(? AS TEXT)", Data(chunk()).databaseValue)
        case 6: return nil
        default: return ("?", Int64(Int8(bitPattern: byte())).databaseValue)
        }
    }
}

/// A decoding that throws or succeeds, and its result as text: two ways to
/// decode the same row must agree.
private func outcome(_ decode: () throws -> Any?) -> String {
    do {
        return "value " + String(describing: try decode())
    } catch {
        return "error"
    }
}

/// Records and values decoded from rows of arbitrary values: each decoding
/// throws or succeeds, never crashes, and a row read from its statement
/// decodes as its copy does.
@_cdecl("LLVMFuzzerTestOneInput")
public func recordDecodingFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var reader = ValueReader(bytes: fuzzInput(data, size)[...])
    var expressions: [String] = []
    var arguments: [DatabaseValue] = []
    for name in columnNames {
        // A high bit repeats the column: SQLite allows two columns of a name.
        let repeats = (reader.bytes.first ?? 0) >= 0x80 ? 2 : 1
        guard let (sql, argument) = reader.column() else { continue }
        for _ in 0..<repeats {
            expressions.append("\(sql) AS \(name)")
            arguments.append(argument)
        }
    }
    if expressions.isEmpty { expressions = ["1 AS one"] }
    let sql = "SELECT " + expressions.joined(separator: ", ")
    let statementArguments = StatementArguments(arguments)
    do {
        try dbQueue.read { db in
            let copy = try Row.fetchOne(db, sql: sql, arguments: statementArguments)
            let codable = outcome { try CodableRecord.fetchOne(db, sql: sql, arguments: statementArguments) }
            let codableCopy = outcome { try copy.map { try CodableRecord(row: $0) } }
            if codable != codableCopy {
                fuzzFailure("\(sql) \(arguments): statement gives \(codable), copied row \(codableCopy)")
            }
            _ = outcome { try HandWrittenRecord.fetchAll(db, sql: sql, arguments: statementArguments) }
            _ = outcome { try copy.map { try HandWrittenRecord(row: $0) } }
            let first = arguments.first ?? .null
            let value: StatementArguments = [first]
            _ = outcome { try Int.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try Int8.fetchAll(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try UInt32.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try Bool.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try Float.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try String.fetchOne(db, sql: "SELECT CAST(? AS TEXT)", arguments: value) }
            _ = outcome { try Data.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try Date.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try UUID.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try Kind.fetchOne(db, sql: "SELECT ?", arguments: value) }
            _ = outcome { try Decimal.fetchOne(db, sql: "SELECT ?", arguments: value) }
        }
    } catch {
        // The access reports the failures of row subscripts.
    }
    return 0
}

/// The entry point, in the file of the test function, which it refers
/// to as a C function: SwiftPM links the executable's `main` to
/// `RecordDecodingFuzzer_main` on Linux, and `-parse-as-library` leaves Swift from
/// defining one.
@_cdecl("RecordDecodingFuzzer_main")
public func recordDecodingFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(recordDecodingFuzzer)
}
