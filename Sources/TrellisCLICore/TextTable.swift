/// A table of text, with aligned columns, for terminal output.
///
/// ```
/// title            author
/// ---------------  -----------
/// Les Misérables   Victor Hugo
/// ```
public struct TextTable {
    public var headers: [String]
    public var rows: [[String]]

    public init(headers: [String], rows: [[String]]) {
        self.headers = headers
        self.rows = rows
    }

    public var rendered: String {
        lines.joined(separator: "\n")
    }

    /// The lines of the table. A cell is written on one line, its control
    /// characters escaped: a newline in a name would break the columns.
    public var lines: [String] {
        let headers = headers.map(\.escapingControlCharacters)
        let rows = rows.map { $0.map(\.escapingControlCharacters) }
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        return [line(headers), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
    }
}

extension String {
    /// The text on one line: control characters (a newline or a tab in a
    /// table or column name) are written as escapes, `\n`, `\t`, `\u{1B}`.
    /// A backslash is kept as is, so that escaping twice changes nothing;
    /// the JSON report has the exact names.
    var escapingControlCharacters: String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            // Printable ASCII, most of a report, without the Unicode tables.
            if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
        guard unicodeScalars.contains(where: needsEscape) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": escaped.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": escaped.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": escaped.append(contentsOf: #"\t"#.unicodeScalars)
            case _ where needsEscape(scalar):
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
