import Foundation

/// How the dump methods of ``Database`` and ``DatabaseReader`` print rows.
///
/// Trellis comes with the formats of the `sqlite3` shell:
/// ``DebugDumpFormat`` (the default), ``ListDumpFormat``,
/// ``QuoteDumpFormat``, ``LineDumpFormat`` and ``JSONDumpFormat``.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player")                               // 1|Arthur|1000
/// try db.dumpSQL("SELECT * FROM player", format: .debug(header: true))  // id|name|score, then rows
/// try db.dumpSQL("SELECT * FROM player", format: .json())
/// ```
///
/// A format of your own prints each row of a statement, then ends the
/// statement's output:
///
/// ```swift
/// struct CountDumpFormat: DumpFormat {
///     var count = 0
///     mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
///         count += 1
///     }
///     mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         stream.write("\(count) rows\n")
///         count = 0
///     }
/// }
/// ```
public protocol DumpFormat {
    /// Prints the current row of `statement`, which was just stepped.
    ///
    /// - Throws: An error to stop the dump, which the dump method throws; a
    ///   format that reads the row throws a ``DatabaseError`` if SQLite fails.
    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws

    /// Ends the output of `statement`, after its last row. A format that
    /// prints statements one after the other resets its state here.
    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream)
}

extension Statement {
    /// The values of the current row of the stepped statement.
    var dumpedValues: [DatabaseValue] {
        (0..<columnCount).map { DatabaseValue(sqliteStatement: sqliteStatement, index: CInt($0)) }
    }
}

extension DatabaseValue {
    /// The value as the `sqlite3` shell prints it; nil for NULL. A blob
    /// prints as its text when it is UTF-8, else as hex or not at all: raw
    /// bytes could reach a terminal.
    func dumpText(binaryAsHex: Bool) -> String? {
        switch storage {
        case .null: return nil
        case .int64(let int): return String(int)
        case .double(let double): return String(double)
        case .string(let string): return string
        case .blob(let data):
            if let string = String(data: data, encoding: .utf8) { return string }
            return binaryAsHex ? sqlLiteral : ""
        }
    }
}
