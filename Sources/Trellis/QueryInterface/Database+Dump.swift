import Foundation

/// How the dump methods of ``Database`` print rows.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player")                              // 1|Arthur|1000
/// try db.dumpSQL("SELECT * FROM player", format: .debug(header: true)) // id|name|score, then rows
/// try db.dumpSQL("SELECT * FROM player", format: .json())
/// ```
public struct DumpFormat: Sendable {
    enum Style: Sendable {
        /// `binaryAsHex`: blobs that are not UTF-8 print as `X'00FF'`, not
        /// as empty text (never as raw bytes, which would reach a terminal).
        case separated(header: Bool, separator: String, nullValue: String, quoted: Bool, binaryAsHex: Bool)
        case line(nullValue: String)
        case json
    }

    let style: Style

    /// Values separated by `|`, text as is, NULL as the empty string: the
    /// format of the `sqlite3` shell, for reading.
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> DumpFormat {
        DumpFormat(style: .separated(header: header, separator: separator, nullValue: nullValue, quoted: false, binaryAsHex: true))
    }

    /// The `.mode list` format of the `sqlite3` shell.
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> DumpFormat {
        DumpFormat(style: .separated(header: header, separator: separator, nullValue: nullValue, quoted: false, binaryAsHex: false))
    }

    /// Values as SQL literals, separated by commas: the `.mode quote`
    /// format of the `sqlite3` shell.
    public static func quote(header: Bool = false, separator: String = ",") -> DumpFormat {
        DumpFormat(style: .separated(header: header, separator: separator, nullValue: "NULL", quoted: true, binaryAsHex: true))
    }

    /// One `column = value` line per column, a blank line between rows.
    public static func line(nullValue: String = "") -> DumpFormat {
        DumpFormat(style: .line(nullValue: nullValue))
    }

    /// A JSON array of objects, one row per line.
    public static func json() -> DumpFormat {
        DumpFormat(style: .json)
    }

    /// The lines that print `rows`.
    func lines(_ rows: [Row]) -> [String] {
        switch style {
        case .separated(let header, let separator, let nullValue, let quoted, let binaryAsHex):
            var lines: [String] = []
            if header, let first = rows.first { lines.append(first.columnNames.joined(separator: separator)) }
            for row in rows {
                lines.append(row.databaseValues.map { value in
                    if quoted { return value.sqlLiteral }
                    return Self.text(value, binaryAsHex: binaryAsHex) ?? nullValue
                }.joined(separator: separator))
            }
            return lines
        case .line(let nullValue):
            var lines: [String] = []
            for (index, row) in rows.enumerated() {
                if index > 0 { lines.append("") }
                let width = row.columnNames.map(\.count).max() ?? 0
                for (name, value) in zip(row.columnNames, row.databaseValues) {
                    lines.append(String(repeating: " ", count: width - name.count) + name + " = " + (Self.text(value, binaryAsHex: false) ?? nullValue))
                }
            }
            return lines
        case .json:
            let objects = rows.map { row in
                "{" + zip(row.columnNames, row.databaseValues).map { name, value in
                    Self.jsonString(name) + ":" + Self.json(value)
                }.joined(separator: ",") + "}"
            }
            if objects.isEmpty { return ["[]"] }
            return objects.enumerated().map { index, object in
                (index == 0 ? "[" : "") + object + (index == objects.count - 1 ? "]" : ",")
            }
        }
    }

    /// The value as text; nil for NULL. A blob prints as its text when it
    /// is UTF-8, else as hex or not at all, as in GRDB.
    private static func text(_ value: DatabaseValue, binaryAsHex: Bool) -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(let int): return String(int)
        case .double(let double): return String(double)
        case .string(let string): return string
        case .blob(let data):
            if let string = String(data: data, encoding: .utf8) { return string }
            return binaryAsHex ? value.sqlLiteral : ""
        }
    }

    private static func json(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "null"
        case .int64(let int): return String(int)
        case .double(let double): return double.isFinite ? String(double) : "null"
        case .string(let string): return jsonString(string)
        case .blob(let data): return jsonString(data.base64EncodedString())
        }
    }

    private static func jsonString(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Printing the content of the database, for debugging: each method prints
/// to the standard output, or to `stream`.
extension Database {
    /// Prints the rows of `sql`.
    ///
    /// ```swift
    /// try db.dumpSQL("SELECT type, sql FROM sqlite_schema WHERE tbl_name = 'player'")
    /// ```
    public func dumpSQL(_ sql: SQL, format: DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        let (sql, arguments) = try sql.build(self)
        try dump(Row.fetchAll(self, sql: sql, arguments: arguments), format: format, to: stream)
    }

    /// Prints the rows of a request.
    ///
    /// ```swift
    /// try db.dumpRequest(Player.order(Column("score").desc))
    /// ```
    public func dumpRequest(_ request: some FetchRequest, format: DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        try dump(Row.fetchAll(self, request), format: format, to: stream)
    }

    /// Prints the rows of tables, sorted by primary key, each under its
    /// name when there are several.
    ///
    /// ```swift
    /// try db.dumpTables(["team", "player"])
    /// ```
    public func dumpTables(
        _ tables: [String], format: DumpFormat = .debug(), stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil) throws
    {
        var output = DumpOutput(stream: stream)
        for (index, table) in tables.enumerated() {
            if index > 0 { output.write("") }
            if tables.count > 1 { output.write(table) }
            for line in format.lines(try tableRows(table, stableOrder: stableOrder)) { output.write(line) }
        }
    }

    /// Prints the schema, then the rows of every table.
    public func dumpContent(format: DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpOutput(stream: stream)
        try writeSchema(to: &output)
        for table in try userTableNames() {
            output.write("")
            output.write(table)
            for line in format.lines(try tableRows(table, stableOrder: true)) { output.write(line) }
        }
    }

    /// Prints the schema: the SQL of tables, indexes, views and triggers.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpOutput(stream: stream)
        try writeSchema(to: &output)
    }

    private func dump(_ rows: [Row], format: DumpFormat, to stream: (any TextOutputStream)?) {
        var output = DumpOutput(stream: stream)
        for line in format.lines(rows) { output.write(line) }
    }

    private func writeSchema(to output: inout DumpOutput) throws {
        output.write("sqlite_master")
        let shadowTables = try shadowTableNames()
        let rows = try Row.fetchAll(self, sql: """
            SELECT tbl_name, sql || ';' AS sql FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY tbl_name COLLATE NOCASE, type = 'table' DESC, name COLLATE NOCASE
            """)
        for row in rows where !shadowTables.contains((row["tbl_name"] as String).lowercased()) {
            output.write(row["sql"])
        }
    }

    private func userTableNames() throws -> [String] {
        let shadowTables = try shadowTableNames()
        return try String.fetchAll(self, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY name COLLATE NOCASE
            """).filter { !shadowTables.contains($0.lowercased()) }
    }

    /// The lowercased names of the tables that store virtual tables
    /// (`document_content` of a full-text `document` table): GRDB leaves
    /// them out of dumps. SQLite 3.37+ tells them apart.
    private func shadowTableNames() throws -> Set<String> {
        guard let names = try? String.fetchAll(self, sql: "SELECT name FROM pragma_table_list WHERE type = 'shadow'") else {
            return []
        }
        return Set(names.map { $0.lowercased() })
    }

    /// The rows of a table, by primary key (or rowid). A view has none:
    /// its rows come in their own order, or in every column when
    /// `stableOrder` asks for an order that does not depend on the view.
    /// Ordering a table by key needs no collation that the connection may
    /// lack (Android databases declare `COLLATE LOCALIZED` columns).
    private func tableRows(_ table: String, stableOrder: Bool) throws -> [Row] {
        let quoted = table.quotedDatabaseIdentifier
        let ordering: String
        if try viewExists(table) {
            guard stableOrder else { return try Row.fetchAll(self, sql: "SELECT * FROM \(quoted)") }
            let count = try columns(in: table).count
            ordering = (1...max(1, count)).map(String.init).joined(separator: ", ")
        } else if let rowID = try recordStatementCache.rowIDName(self, table) {
            let primaryKey = try primaryKey(table)
            ordering = primaryKey.isRowID ? rowID : primaryKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        } else {
            ordering = try primaryKey(table).columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        }
        return try Row.fetchAll(self, sql: "SELECT * FROM \(quoted) ORDER BY \(ordering)")
    }
}

/// Where dumps go: a stream, or the standard output.
private struct DumpOutput {
    var stream: (any TextOutputStream)?

    mutating func write(_ line: String) {
        if stream != nil {
            stream!.write(line + "\n")
        } else {
            print(line)
        }
    }
}
