/// The `.mode quote` format of the `sqlite3` shell: values as SQL
/// literals, separated by commas.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .quote())
/// // 1,'Arthur',1000
/// ```
public struct QuoteDumpFormat: DumpFormat, Sendable {
    /// Whether the column names print before the first row.
    public var header: Bool
    /// What prints between values.
    public var separator: String
    private var firstRow = true

    /// A format, as ``DumpFormat/quote(header:separator:)`` makes.
    public init(header: Bool = false, separator: String = ",") {
        self.header = header
        self.separator = separator
    }

    /// Prints the values of the row as SQL literals.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read a value of the
    ///   row.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        if firstRow {
            firstRow = false
            if header {
                stream.write(statement.columnNames.map { $0.databaseValue.sqlLiteral }.joined(separator: separator) + "\n")
            }
        }
        stream.write(statement.dumpedValues.map(\.sqlLiteral).joined(separator: separator) + "\n")
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        firstRow = true
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// Values as SQL literals, separated by commas: the `.mode quote`
    /// format of the `sqlite3` shell.
    ///
    /// ```swift
    /// try db.dumpSQL("SELECT * FROM player", format: .quote(header: true))
    /// ```
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}
