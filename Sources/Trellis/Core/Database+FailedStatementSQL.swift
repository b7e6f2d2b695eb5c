import Foundation
import TrellisSQLite

extension Database {
    /// The SQL of the statement that starts at `start`, which SQLite could
    /// not prepare: up to the semicolon that ends it (the shortest text
    /// that SQLite sees as a complete statement), without the statements
    /// that follow. All the text when no semicolon ends it.
    ///
    /// For `INSERT ...; SELEC 1; INSERT ...` the error of the second
    /// statement names `SELEC 1;`, not the statements after it.
    static func failedStatementSQL(from start: UnsafePointer<CChar>, end: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeBufferPointer(start: start, count: end - start)
        var prefix = ContiguousArray<CChar>()
        prefix.reserveCapacity(bytes.count + 1)
        var length = bytes.count
        for (index, byte) in bytes.enumerated() {
            prefix.append(byte)
            guard byte == CChar(UInt8(ascii: ";")), index < bytes.count - 1 else { continue }
            prefix.append(0)
            let isComplete = prefix.withUnsafeBufferPointer { sqlite3_complete($0.baseAddress) != 0 }
            prefix.removeLast()
            if isComplete {
                length = index + 1
                break
            }
        }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
