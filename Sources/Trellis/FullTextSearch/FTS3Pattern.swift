/// A valid search pattern for FTS3 and FTS4 tables, for the `MATCH`
/// operator.
///
/// Build one from any string, including the text a user types: the
/// initializers return nil when the string has no word.
///
/// ```swift
/// let query = "SQLite database"
/// FTS3Pattern(matchingAnyTokenIn: query)    // sqlite OR database
/// FTS3Pattern(matchingAllTokensIn: query)   // sqlite database
/// FTS3Pattern(matchingAllPrefixesIn: query) // sqlite* database*
/// FTS3Pattern(matchingPhrase: query)        // "sqlite database"
/// FTS3Pattern(matchingAnyTokenIn: "")       // nil
///
/// let documents = try Document.matching(pattern).fetchAll(db)
/// ```
public struct FTS3Pattern: Hashable, Sendable {
    /// The pattern, as given to `MATCH`.
    ///
    /// ```swift
    /// FTS3Pattern(matchingAllPrefixesIn: "data")?.rawPattern // "data*"
    /// ```
    public let rawPattern: String

    /// A pattern written in the
    /// [full-text query syntax](https://www.sqlite.org/fts3.html#full_text_index_queries)
    /// of FTS3 and FTS4, checked without any database.
    ///
    /// ```swift
    /// let pattern = try FTS3Pattern(rawPattern: "sqlite AND database")
    ///
    /// // DatabaseError: malformed MATCH expression: [AND]
    /// _ = try FTS3Pattern(rawPattern: "AND")
    /// ```
    ///
    /// FTS3 has no unknown column: `title:` filters the column `title` of
    /// a table that has one, and is a word elsewhere. So the pattern is
    /// checked for every set of the names it writes before a colon, and is
    /// valid whatever the columns of the table: `a OR title:` throws, as a
    /// table with a `title` column would.
    ///
    /// - throws: a ``DatabaseError`` with SQLite's message when the
    ///   pattern is not valid, or when it writes more than 6 column names
    ///   before a colon (each doubles the tables the check takes).
    public init(rawPattern: String) throws {
        try FullTextPatternValidator.validateFTS3(rawPattern)
        self.rawPattern = rawPattern
    }

    /// A pattern that matches the documents that contain any word of
    /// `string`: `sqlite OR database`. Nil when `string` has no word.
    ///
    /// ```swift
    /// FTS3Pattern(matchingAnyTokenIn: "SQLite database")?.rawPattern // "sqlite OR database"
    /// ```
    public init?(matchingAnyTokenIn string: String) {
        guard let rawPattern = FullTextTokenPattern.anyToken.rawPattern(for: string) else { return nil }
        self.rawPattern = rawPattern
    }

    /// A pattern that matches the documents that contain all words of
    /// `string`: `sqlite database`. Nil when `string` has no word.
    ///
    /// ```swift
    /// FTS3Pattern(matchingAllTokensIn: "SQLite database")?.rawPattern // "sqlite database"
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
    /// FTS3Pattern(matchingAllPrefixesIn: "SQL data")?.rawPattern // "sql* data*"
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
    /// FTS3Pattern(matchingPhrase: "SQLite database")?.rawPattern // "\"sqlite database\""
    /// ```
    public init?(matchingPhrase string: String) {
        guard let rawPattern = FullTextTokenPattern.phrase.rawPattern(for: string) else { return nil }
        self.rawPattern = rawPattern
    }
}

extension FTS3Pattern: DatabaseValueConvertible {
    /// The raw pattern, as a statement argument.
    ///
    /// ```swift
    /// let documents = try Document.fetchAll(db,
    ///     sql: "SELECT * FROM document WHERE content MATCH ?",
    ///     arguments: [pattern])
    /// ```
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// A pattern from a string that is a valid pattern, or nil.
    ///
    /// ```swift
    /// let pattern = try FTS3Pattern.fetchOne(db, sql: "SELECT pattern FROM savedSearch")
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        guard let string = String.fromDatabaseValue(dbValue) else { return nil }
        return try? FTS3Pattern(rawPattern: string)
    }
}
