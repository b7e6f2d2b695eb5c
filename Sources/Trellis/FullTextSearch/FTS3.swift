/// The FTS3 full-text engine, the module of
/// `create(virtualTable:options:using:_:)`.
///
/// ```swift
/// // CREATE VIRTUAL TABLE document USING fts3(content)
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.column("content")
/// }
///
/// let pattern = FTS3Pattern(matchingPhrase: "Moby-Dick")
/// let documents = try Document.matching(pattern).fetchAll(db)
/// ```
public struct FTS3: VirtualTableModule, Sendable {
    /// What the `unicode61` tokenizer does with the diacritics of Latin
    /// letters.
    ///
    /// ```swift
    /// t.tokenizer = .unicode61(diacritics: .keep)
    /// ```
    public enum Diacritics: Hashable, Sendable {
        /// "Jérôme" does not match "Jerome".
        case keep
        /// Diacritics are removed from Latin letters that carry a single
        /// one (SQLite's default, `remove_diacritics=1`).
        case removeLegacy
        /// Diacritics are removed from all Latin letters
        /// (`remove_diacritics=2`, SQLite 3.27+).
        case remove
    }

    /// The FTS3 module.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS3()) { t in t.column("content") }
    /// ```
    public init() {}

    /// `fts3`, the name of the module in SQL.
    ///
    /// ```swift
    /// FTS3().moduleName // "fts3"
    /// ```
    public var moduleName: String { "fts3" }

    /// A new definition for the body of `create(virtualTable:using:_:)`.
    /// You don't call it: `create(virtualTable:using:_:)` does.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS3()) { t in // t: FTS3TableDefinition
    ///     t.column("content")
    /// }
    /// ```
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    /// The columns and the tokenizer of the table. A table without columns
    /// gets FTS3's single `content` column.
    ///
    /// ```swift
    /// // fts3(content, tokenize=porter)
    /// try db.create(virtualTable: "document", using: FTS3()) { t in
    ///     t.column("content")
    ///     t.tokenizer = .porter
    /// }
    /// ```
    ///
    /// - Throws: Never: FTS3 options need no database access.
    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) throws -> [String] {
        var arguments = definition.columns.map(\.moduleArgumentIdentifier)
        if let tokenizer = definition.tokenizer {
            arguments.append("tokenize=" + tokenizer.quotedComponents.joined(separator: " "))
        }
        return arguments
    }

    /// Does nothing: FTS3 tables need nothing after their creation.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS3()) { t in t.column("content") }
    /// ```
    ///
    /// - Throws: Never.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition) throws {}

    /// The tokens of `string`, as `tokenizer` cuts and normalizes them.
    ///
    /// ```swift
    /// try FTS3.tokenize("SQLite database")                            // ["sqlite", "database"]
    /// try FTS3.tokenize("SQLite database", withTokenizer: .porter)    // ["sqlite", "databas"]
    /// try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61())  // ["gustave", "dore"]
    /// ```
    ///
    /// - throws: a ``DatabaseError`` when SQLite does not know the
    ///   tokenizer or its arguments.
    public static func tokenize(_ string: String, withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) throws -> [String] {
        // SQLite's fts3tokenize table, on a private connection: tokenizing
        // needs no database of the caller.
        let db = try Database(path: ":memory:", configuration: Configuration(), label: "FTS3 tokenization")
        // The connection's cached statements refer to it: only closing it
        // frees it.
        defer { db.close() }
        try db.execute(sql: "CREATE VIRTUAL TABLE tokenizer USING fts3tokenize(\(tokenizer.quotedComponents.joined(separator: ", ")))")
        return try String.fetchAll(db, sql: "SELECT token FROM tokenizer WHERE input = ? ORDER BY position", arguments: [string])
    }
}
