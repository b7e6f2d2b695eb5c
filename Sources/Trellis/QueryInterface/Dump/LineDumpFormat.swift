/// The `.mode line` format of the `sqlite3` shell: one `column = value`
/// line per column, an empty line between rows.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .line())
/// //    id = 1
/// //  name = Arthur
/// // score = 1000
/// ```
public struct LineDumpFormat: DumpFormat, Sendable {
    /// What prints for NULL.
    public var nullValue: String
    private var firstRow = true

    /// A format, as ``DumpFormat/line(nullValue:)`` makes.
    public init(nullValue: String = "") {
        self.nullValue = nullValue
    }

    /// Prints each value of the row on a line of its own, after its column
    /// name.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read a value of the
    ///   row.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        if firstRow {
            firstRow = false
        } else {
            stream.write("\n")
        }
        let names = statement.columnNames
        let width = names.map(\.count).max() ?? 0
        for (name, value) in zip(names, statement.dumpedValues) {
            let padding = String(repeating: " ", count: width - name.count)
            stream.write(padding + name + " = " + (value.dumpText(binaryAsHex: false) ?? nullValue) + "\n")
        }
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        firstRow = true
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// One `column = value` line per column, an empty line between rows.
    ///
    /// ```swift
    /// try db.dumpTables(["player"], format: .line(nullValue: "NULL"))
    /// ```
    public static func line(nullValue: String = "") -> Self {
        LineDumpFormat(nullValue: nullValue)
    }
}
