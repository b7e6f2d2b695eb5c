/// A valid FTS5 search pattern, for the `MATCH` operator.
///
/// Build one from any string, including the text a user types: the
/// initializers return nil when the string has no word.
///
/// ```swift
/// let query = "SQLite database"
/// FTS5Pattern(matchingAnyTokenIn: query)    // sqlite OR database
/// FTS5Pattern(matchingAllTokensIn: query)   // sqlite database
/// FTS5Pattern(matchingAllPrefixesIn: query) // sqlite* database*
/// FTS5Pattern(matchingPhrase: query)        // "sqlite database"
/// FTS5Pattern(matchingPrefixPhrase: query)  // ^"sqlite database"
/// FTS5Pattern(matchingAnyTokenIn: "")       // nil
///
/// let books = try Book.matching(pattern).fetchAll(db)
/// ```
///
/// A raw pattern is checked against the
/// [FTS5 query syntax](https://www.sqlite.org/fts5.html#full_text_query_syntax):
/// see ``init(rawPattern:allowedColumns:)`` and
/// `Database.makeFTS5Pattern(rawPattern:forTable:)`.
public struct FTS5Pattern: Hashable, Sendable {
    /// The pattern, as given to `MATCH`.
    ///
    /// ```swift
    /// FTS5Pattern(matchingAllPrefixesIn: "data")?.rawPattern // "data*"
    /// ```
    public let rawPattern: String

    /// A pattern written in the FTS5 query syntax, checked without any
    /// database. Column filters (`title: sqlite`) may only name
    /// `allowedColumns`.
    ///
    /// ```swift
    /// let pattern = try FTS5Pattern(rawPattern: "sqlite AND database")
    /// let titles = try FTS5Pattern(rawPattern: "title: moby", allowedColumns: ["title"])
    ///
    /// // DatabaseError: fts5: syntax error near "AND"
    /// _ = try FTS5Pattern(rawPattern: "AND")
    /// ```
    ///
    /// - throws: a ``DatabaseError`` with SQLite's message when the
    ///   pattern is not valid.
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        try FullTextPatternValidator.validateFTS5(rawPattern, allowedColumns: allowedColumns)
        self.rawPattern = rawPattern
    }

    /// A pattern that matches the documents that contain any word of
    /// `string`: `sqlite OR database`. Nil when `string` has no word.
    ///
    /// ```swift
    /// FTS5Pattern(matchingAnyTokenIn: "SQLite database")?.rawPattern // "sqlite OR database"
    /// ```
    public init?(matchingAnyTokenIn string: String) {
        guard let rawPattern = FullTextTokenPattern.anyToken.rawPattern(for: string) else { return nil }
        self.rawPattern = rawPattern
    }

    /// A pattern that matches the documents that contain all words of
    /// `string`: `sqlite database`. Nil when `string` has no word.
    ///
    /// ```swift
    /// FTS5Pattern(matchingAllTokensIn: "SQLite database")?.rawPattern // "sqlite database"
    /// ```
    public init?(matchingAllTokensIn string: String) {
        guard let rawPattern = FullTextTokenPattern.allTokens.rawPattern(for: string) else { return nil }
        self.rawPattern = rawPattern
    }

    /// A pattern that matches the documents that contain words that start
    /// with each word of `string`: `sqlite* database*`. Nil when `string`
    /// has no word.
    ///
    /// ```swift
    /// FTS5Pattern(matchingAllPrefixesIn: "SQL data")?.rawPattern // "sql* data*"
    /// ```
    public init?(matchingAllPrefixesIn string: String) {
        guard let rawPattern = FullTextTokenPattern.allPrefixes.rawPattern(for: string) else { return nil }
        self.rawPattern = rawPattern
    }

    /// A pattern that matches the documents that contain the words of
    /// `string` in a row: `"sqlite database"`. Nil when `string` has no
    /// word.
    ///
    /// ```swift
    /// FTS5Pattern(matchingPhrase: "SQLite database")?.rawPattern // "\"sqlite database\""
    /// ```
    public init?(matchingPhrase string: String) {
        guard let rawPattern = FullTextTokenPattern.phrase.rawPattern(for: string) else { return nil }
        self.rawPattern = rawPattern
    }

    /// A pattern that matches the documents that start with the words of
    /// `string`: `^"sqlite database"`. Nil when `string` has no word.
    ///
    /// ```swift
    /// FTS5Pattern(matchingPrefixPhrase: "SQLite database")?.rawPattern // "^\"sqlite database\""
    /// ```
    public init?(matchingPrefixPhrase string: String) {
        guard let rawPattern = FullTextTokenPattern.prefixPhrase.rawPattern(for: string) else { return nil }
        self.rawPattern = rawPattern
    }
}

extension FTS5Pattern: DatabaseValueConvertible {
    /// The raw pattern, as a statement argument.
    ///
    /// ```swift
    /// let books = try Book.fetchAll(db,
    ///     sql: "SELECT * FROM book WHERE book MATCH ?",
    ///     arguments: [pattern])
    /// ```
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// A pattern from a string that is a valid pattern without column
    /// filters, or nil.
    ///
    /// ```swift
    /// let pattern = try FTS5Pattern.fetchOne(db, sql: "SELECT pattern FROM savedSearch")
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        guard let string = String.fromDatabaseValue(dbValue) else { return nil }
        return try? FTS5Pattern(rawPattern: string)
    }
}
