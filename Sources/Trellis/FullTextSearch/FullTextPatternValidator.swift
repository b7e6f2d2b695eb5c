/// Checks raw full-text patterns against SQLite's query grammar, on a
/// private in-memory connection: a pattern needs no database of the
/// caller to be checked, and checking it leaves the caller's schema as it
/// is.
enum FullTextPatternValidator {
    /// Throws the error of FTS5 for an invalid pattern, given the column
    /// names that column filters (`title: sqlite`) may use.
    static func validateFTS5(_ rawPattern: String, allowedColumns: [String]) throws {
        var seen = Set<String>()
        var columns = allowedColumns.filter { seen.insert($0.lowercased()).inserted }
        // FTS5 needs a column: one whose name no filter can use.
        if columns.isEmpty { columns = ["__trellis_no_column"] }
        let definition = columns.map(\.moduleArgumentIdentifier).joined(separator: ", ")
        try validate(rawPattern, createSQL: "CREATE VIRTUAL TABLE pattern USING fts5(\(definition))")
    }

    /// Throws the error of FTS3 for an invalid pattern.
    static func validateFTS3(_ rawPattern: String) throws {
        try validate(rawPattern, createSQL: "CREATE VIRTUAL TABLE pattern USING fts3(content)")
    }

    private static func validate(_ rawPattern: String, createSQL: String) throws {
        do {
            let db = try Database(path: ":memory:", configuration: Configuration(), label: "full-text pattern validation")
            // The connection's cached statements refer to it: only closing
            // it frees it.
            defer { db.close() }
            try db.execute(sql: createSQL)
            try db.execute(sql: "SELECT * FROM pattern WHERE pattern MATCH ?", arguments: [rawPattern])
        } catch let error as DatabaseError {
            // The error is about the pattern, not the statement that
            // checked it.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
    }
}
