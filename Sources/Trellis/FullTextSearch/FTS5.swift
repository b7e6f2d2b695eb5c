/// The FTS5 full-text engine, the module of
/// `create(virtualTable:options:using:_:)`.
///
/// ```swift
/// // CREATE VIRTUAL TABLE book USING fts5(title, author UNINDEXED, tokenize='''porter''')
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.column("title")
///     t.column("author").notIndexed()
///     t.tokenizer = .porter()
/// }
///
/// let pattern = FTS5Pattern(matchingAllTokensIn: "moby dick")
/// let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
/// ```
///
/// The system SQLite of Linux and Apple platforms has FTS5.
public struct FTS5: VirtualTableModule, Sendable {
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

    /// The FTS5 module.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
    /// ```
    public init() {}

    /// `fts5`, the name of the module in SQL.
    ///
    /// ```swift
    /// FTS5().moduleName // "fts5"
    /// ```
    public var moduleName: String { "fts5" }

    /// A new definition for the body of `create(virtualTable:using:_:)`.
    /// You don't call it: `create(virtualTable:using:_:)` does.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS5()) { t in // t: FTS5TableDefinition
    ///     t.column("content")
    /// }
    /// ```
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
        FTS5TableDefinition(configuration: configuration)
    }

    /// The columns and options of the table.
    ///
    /// ```swift
    /// // fts5(title, author UNINDEXED, tokenize='''porter''', content='book', content_rowid='id')
    /// try db.create(virtualTable: "book_ft", using: FTS5()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    ///     t.column("author").notIndexed()
    ///     t.tokenizer = .porter()
    /// }
    /// ```
    ///
    /// Throws when the table has no column, when a temporary table is
    /// synchronized with a content table, and when the content table lacks
    /// a column of the full-text table.
    ///
    /// - Throws: Never: FTS5 options need no database access.
    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        guard !definition.columns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "FTS5 virtual table requires at least one column.")
        }
        var arguments = definition.columns.map { column in
            column.name.moduleArgumentIdentifier + (column.isIndexed ? "" : " UNINDEXED")
        }
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.moduleArgument)
        }
        var contentRowID = definition.contentRowID
        if let synchronization = definition.synchronization {
            guard !definition.configuration.temporary else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Temporary external content FTS5 tables are not supported.")
            }
            try synchronization.checkContentTable(hasColumns: definition.columns.map(\.name), db)
            contentRowID = try synchronization.contentRowIDColumn(db)
        }
        if let content = definition.content {
            arguments.append("content=" + content.sqlQuotedLiteral)
        }
        if let contentRowID {
            arguments.append("content_rowid=" + contentRowID.sqlQuotedLiteral)
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=" + prefixes.sorted().map(String.init).joined(separator: " ").sqlQuotedLiteral)
        }
        if let columnSize = definition.columnSize {
            arguments.append("columnSize=\(columnSize)")
        }
        if let detail = definition.detail {
            arguments.append("detail=" + detail.moduleArgumentValue)
        }
        return arguments
    }

    /// Creates the synchronization triggers of a table defined with
    /// `synchronize(withTable:)`, and indexes the rows of its content
    /// table.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS5()) { t in
    ///     t.synchronize(withTable: "book") // the triggers __book_ft_ai, _ad, _au
    ///     t.column("title")
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to create or run the
    ///   triggers, such as when the synchronized table does not exist.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard let synchronization = definition.synchronization else { return }
        let statements = try synchronization.fts5Statements(
            tableName, columns: definition.columns.map(\.name),
            ifNotExists: definition.configuration.ifNotExists, db: db)
        for sql in statements {
            try db.execute(sql: sql)
        }
    }

    static let synchronizationTriggerSuffixes = ["ai", "ad", "au"]
}
