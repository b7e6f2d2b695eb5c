import Foundation

/// The text and JSON forms of a `DatabaseReport`.
public enum ReportRenderer {
    public static func json(_ report: DatabaseReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    public static func text(_ report: DatabaseReport) -> String {
        var output: [String] = ["Database: \(report.path)", ""]
        if report.tables.isEmpty {
            output.append("No table.")
        }
        for table in report.tables {
            let options = table.virtualTableModule.map { ["virtual table, \($0)"] } ?? table.options
            output.append("Table \(table.name)" + (options.isEmpty ? "" : " (\(options.joined(separator: ", ")))"))
            if let error = table.error {
                output.append("Could not be read: \(error)")
                output.append("")
                continue
            }
            // The generated column is only shown for a table that has
            // generated columns.
            let hasGeneratedColumns = table.columns.contains { $0.generated != nil }
            output += TextTable(
                headers: ["column", "type", "not null", "default", "primary key"] + (hasGeneratedColumns ? ["generated"] : []),
                rows: table.columns.map {
                    [$0.name, $0.type, $0.notNull ? "yes" : "", $0.defaultValue ?? "", $0.primaryKeyIndex.map(String.init) ?? ""]
                        + (hasGeneratedColumns ? [$0.generated ?? ""] : [])
                }).lines
            output.append("Primary key: " + (table.hasExplicitPrimaryKey ? table.primaryKey.joined(separator: ", ") : "none (hidden rowid)")
                + (table.isNumberedByCaller ? " (not an alias of the rowid: inserts must give it)" : ""))
            for foreignKey in table.foreignKeys {
                let destinationColumns = foreignKey.destinationColumns.isEmpty
                    ? "" : "(\(foreignKey.destinationColumns.joined(separator: ", ")))"
                let actions = [foreignKey.onDelete.map { " ON DELETE \($0)" }, foreignKey.onUpdate.map { " ON UPDATE \($0)" }]
                    .compactMap { $0 }.joined()
                output.append("Foreign key: (\(foreignKey.columns.joined(separator: ", "))) -> "
                    + "\(foreignKey.destinationTable)\(destinationColumns)\(actions)"
                    + (foreignKey.mismatch.map { " (mismatch: \($0))" } ?? ""))
            }
            for index in table.indexes {
                // A statement written on several lines is shown on one, as
                // the header of a trigger.
                let description = index.definition.map { "on expressions: " + $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                    ?? "(\(index.columns.joined(separator: ", ")))"
                output.append("Index \(index.name): \(description)" + (index.unique ? " unique" : "") + (index.partial ? " partial" : ""))
            }
            for trigger in table.triggers {
                output.append("Trigger \(trigger.name): \(trigger.header)")
            }
            output.append("")
        }
        for view in report.views {
            output.append("View \(view.name)")
            if let error = view.error {
                output.append("Could not be read: \(error)")
            } else {
                output += TextTable(headers: ["column", "type"], rows: view.columns.map { [$0.name, $0.type] }).lines
            }
            for trigger in view.triggers {
                output.append("Trigger \(trigger.name): \(trigger.header)")
            }
            output.append("")
        }
        output.append("Associations")
        if report.associations.isEmpty {
            let hasForeignKeys = report.tables.contains { !$0.foreignKeys.isEmpty }
            output.append(hasForeignKeys ? "None: no foreign key links two tables (see the warnings)." : "None: the schema has no foreign key.")
        } else {
            output += TextTable(
                headers: ["table", "association", "declaration"],
                rows: report.associations.map { [$0.table, $0.kind + " " + $0.destination, $0.declaration] }).lines
        }
        if !report.warnings.isEmpty {
            output.append("")
            output.append("Warnings")
            for warning in report.warnings {
                output.append("- \(warning)")
            }
        }
        if !report.ambiguities.isEmpty {
            output.append("")
            output.append("Needs an explicit ForeignKey")
            for ambiguity in report.ambiguities {
                output.append("- \(ambiguity.advice)")
            }
        }
        // Each entry is one line, whatever the names hold.
        return output.map(\.escapingControlCharacters).joined(separator: "\n")
    }
}

extension DatabaseReport.Table {
    /// Whether the table has a primary key of one column of integer or
    /// numeric type that is not the rowid (`film_id INT PRIMARY KEY`,
    /// `id INTEGER PRIMARY KEY DESC`): SQLite does not number its rows.
    var isNumberedByCaller: Bool {
        guard hasExplicitPrimaryKey, primaryKey.count == 1, rowIDColumn == nil, virtualTableModule == nil,
              !options.contains("WITHOUT ROWID"),
              let column = columns.first(where: { $0.name == primaryKey[0] }) else { return false }
        // SQLite's rules of column affinity: INTEGER, then NUMERIC.
        let type = column.type.uppercased()
        if type.contains("INT") { return true }
        return !["CHAR", "CLOB", "TEXT", "BLOB", "REAL", "FLOA", "DOUB"].contains { type.contains($0) } && !type.isEmpty
    }
}
