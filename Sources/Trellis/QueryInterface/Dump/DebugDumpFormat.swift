/// The default format of the dump methods: values separated by `|`, text
/// as is, NULL as the empty string, a blob that is not UTF-8 as hex.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .debug(header: true))
/// // id|name|score
/// // 1|Arthur|1000
/// ```
public struct DebugDumpFormat: DumpFormat, Sendable {
    /// Whether the column names print before the first row.
    public var header: Bool
    /// What prints between values.
    public var separator: String
    /// What prints for NULL.
    public var nullValue: String
    private var firstRow = true

    /// A format, as ``DumpFormat/debug(header:separator:nullValue:)`` makes.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }

    /// Prints the values of the row, separated by the format's separator.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read a value of the
    ///   row.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        if firstRow {
            firstRow = false
            if header { stream.write(statement.columnNames.joined(separator: separator) + "\n") }
        }
        let values = statement.dumpedValues.map { $0.dumpText(binaryAsHex: true) ?? nullValue }
        stream.write(values.joined(separator: separator) + "\n")
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        firstRow = true
    }
}

extension DumpFormat where Self == DebugDumpFormat {
    /// Values separated by `|`, text as is, NULL as the empty string: the
    /// format of the `sqlite3` shell, for reading.
    ///
    /// ```swift
    /// try db.dumpTables(["player"], format: .debug(nullValue: "NULL"))
    /// ```
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
