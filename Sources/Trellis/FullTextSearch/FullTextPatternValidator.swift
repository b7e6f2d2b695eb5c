/// Checks raw full-text patterns against SQLite's query grammar, on a
/// private in-memory connection: a pattern needs no database of the
/// caller to be checked, and checking it leaves the caller's schema as it
/// is.
enum FullTextPatternValidator {
    /// The most column names an FTS3 pattern may write before a colon:
    /// its check takes a table for each set of them.
    static let maximumFTS3FilterNames = 6

    /// Throws the error of FTS5 for an invalid pattern, given the column
    /// names that column filters (`title: sqlite`) may use.
    static func validateFTS5(_ rawPattern: String, allowedColumns: [String]) throws {
        var seen = Set<String>()
        var columns = allowedColumns.filter { seen.insert($0.lowercased()).inserted }
        // FTS5 needs a column: one whose name no filter can use.
        if columns.isEmpty { columns = ["__trellis_no_column"] }
        let definition = columns.map(\.moduleArgumentIdentifier).joined(separator: ", ")
        try withConnection { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE pattern USING fts5(\(definition))")
            try db.execute(sql: "SELECT * FROM pattern WHERE pattern MATCH ?", arguments: [rawPattern])
        }
    }

    /// Throws the error of FTS3 for a pattern that some table refuses.
    ///
    /// FTS3 knows no unknown column: `title:` filters the column `title`
    /// of a table that has one, and is the word `title` in any other. A
    /// filter followed by no word matches nothing, and leaves the operator
    /// before it without an operand: `a OR title:` is valid on a table
    /// without a `title` column and malformed on one with it. So the
    /// pattern is checked on a table for each set of the names it writes
    /// before a colon (`(body:) OR title:` is malformed on a table with
    /// `title` alone).
    static func validateFTS3(_ rawPattern: String) throws {
        let names = fts3FilterNames(in: rawPattern)
        guard names.count <= maximumFTS3FilterNames else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "FTS3 pattern with \(names.count) column names before a colon, "
                    + "more than the \(maximumFTS3FilterNames) that can be checked: \(rawPattern)")
        }
        try withConnection { db in
            for set in 0..<(1 << names.count) {
                // Neither the table nor its column without a filter can
                // have a filter's name: those have no space.
                let table = "pattern \(set)".quotedDatabaseIdentifier
                let columns = names.indices.filter { set & (1 << $0) != 0 }.map { names[$0].moduleArgumentIdentifier }
                let definition = columns.isEmpty ? "no column".quotedDatabaseIdentifier : columns.joined(separator: ", ")
                try db.execute(sql: "CREATE VIRTUAL TABLE \(table) USING fts3(\(definition))")
                try db.execute(sql: "SELECT * FROM \(table) WHERE \(table) MATCH ?", arguments: [rawPattern])
            }
        }
    }

    /// The names that may filter a column in an FTS3 pattern: each run of
    /// letters, digits and underscores right before a colon, lowercased
    /// (FTS3 compares column names without ASCII case). `docid` and
    /// `__langid` are left out: no table has such a column.
    private static func fts3FilterNames(in rawPattern: String) -> [String] {
        var names: [String] = []
        var name = String.UnicodeScalarView()
        for scalar in rawPattern.unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9", "_", "\u{80}"...:
                name.append(scalar)
            case "A"..."Z":
                name.append(Unicode.Scalar(scalar.value + 32) ?? scalar)
            default:
                let candidate = String(name)
                if scalar == ":", !candidate.isEmpty, candidate != "docid", candidate != "__langid", !names.contains(candidate) {
                    names.append(candidate)
                }
                name = String.UnicodeScalarView()
            }
        }
        return names
    }

    /// Runs `check` on a new in-memory connection, and throws its error
    /// as one about the pattern.
    private static func withConnection(_ check: (Database) throws -> Void) throws {
        do {
            let db = try Database(path: ":memory:", configuration: Configuration(), label: "full-text pattern validation")
            // The connection's cached statements refer to it: only closing
            // it frees it.
            defer { db.close() }
            try check(db)
        } catch let error as DatabaseError {
            // The error is about the pattern, not the statement that
            // checked it.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
    }
}
