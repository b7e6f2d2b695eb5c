/// The `.mode list` format of the `sqlite3` shell: values separated by
/// `|`, NULL as the empty string, a blob that is not UTF-8 left out.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .list())
/// // 1|Arthur|1000
/// ```
public struct ListDumpFormat: DumpFormat, Sendable {
    /// Whether the column names print before the first row.
    public var header: Bool
    /// What prints between values.
    public var separator: String
    /// What prints for NULL.
    public var nullValue: String
    private var firstRow = true

    /// A format, as ``DumpFormat/list(header:separator:nullValue:)`` makes.
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
        let values = statement.dumpedValues.map { $0.dumpText(binaryAsHex: false) ?? nullValue }
        stream.write(values.joined(separator: separator) + "\n")
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        firstRow = true
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// The `.mode list` format of the `sqlite3` shell.
    ///
    /// ```swift
    /// try db.dumpSQL("SELECT * FROM player", format: .list(separator: ","))
    /// ```
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
