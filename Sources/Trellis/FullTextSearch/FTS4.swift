/// The FTS4 full-text engine, the module of
/// `create(virtualTable:options:using:_:)`.
///
/// ```swift
/// // CREATE VIRTUAL TABLE book USING fts4(author, title, body, tokenize=porter)
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .porter
///     t.column("author")
///     t.column("title")
///     t.column("body")
/// }
///
/// let pattern = FTS3Pattern(matchingAllTokensIn: "moby dick")
/// let books = try Book.matching(pattern).fetchAll(db)
/// ```
///
/// FTS4 tables are searched with ``FTS3Pattern``.
public struct FTS4: VirtualTableModule, Sendable {
    /// The FTS4 module.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS4()) { t in t.column("content") }
    /// ```
    public init() {}

    /// `fts4`, the name of the module in SQL.
    ///
    /// ```swift
    /// FTS4().moduleName // "fts4"
    /// ```
    public var moduleName: String { "fts4" }

    /// A new definition for the body of `create(virtualTable:using:_:)`.
    /// You don't call it: `create(virtualTable:using:_:)` does.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS4()) { t in // t: FTS4TableDefinition
    ///     t.column("content")
    /// }
    /// ```
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition(configuration: configuration)
    }

    /// The columns and options of the table. A table without columns gets
    /// FTS4's single `content` column.
    ///
    /// ```swift
    /// // fts4(content, uuid, notindexed=uuid, languageid="lid", tokenize=porter)
    /// try db.create(virtualTable: "document", using: FTS4()) { t in
    ///     t.column("content")
    ///     t.column("uuid").notIndexed()
    ///     t.column("lid").asLanguageId()
    ///     t.tokenizer = .porter
    /// }
    /// ```
    ///
    /// Throws when a temporary table is synchronized with a content table,
    /// and when the content table lacks a column of the full-text table.
    ///
    /// - Throws: Never: FTS4 options need no database access.
    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) throws -> [String] {
        var arguments: [String] = []
        for column in definition.columns {
            if column.isLanguageID {
                arguments.append("languageid=" + column.name.quotedDatabaseIdentifier)
                continue
            }
            arguments.append(column.name.moduleArgumentIdentifier)
            if !column.isIndexed {
                arguments.append("notindexed=" + column.name.moduleArgumentIdentifier)
            }
        }
        if let tokenizer = definition.tokenizer {
            arguments.append("tokenize=" + tokenizer.quotedComponents.joined(separator: " "))
        }
        if let content = definition.content {
            if let synchronization = definition.synchronization {
                guard !definition.configuration.temporary else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Temporary external content FTS4 tables are not supported.")
                }
                try synchronization.checkContentTable(hasColumns: definition.columns.map(\.name), db)
            }
            arguments.append("content=" + content.quotedDatabaseIdentifier)
        }
        let options: [(String, String?)] = [
            ("compress", definition.compress),
            ("uncompress", definition.uncompress),
            ("matchinfo", definition.matchinfo),
        ]
        for case let (name, value?) in options {
            arguments.append(name + "=" + value.quotedDatabaseIdentifier)
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=" + prefixes.sorted().map(String.init).joined(separator: ",").quotedDatabaseIdentifier)
        }
        return arguments
    }

    /// Creates the synchronization triggers of a table defined with
    /// `synchronize(withTable:)`, and indexes the rows of its content
    /// table.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS4()) { t in
    ///     t.synchronize(withTable: "book") // the triggers __book_ft_bu, _bd, _au, _ai
    ///     t.column("title")
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to create or run the
    ///   triggers, such as when the synchronized table does not exist.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard let synchronization = definition.synchronization else { return }
        // The language id is a column of the content table too.
        let statements = try synchronization.fts4Statements(
            tableName, columns: definition.columns.map(\.name), ifNotExists: definition.configuration.ifNotExists, db: db)
        for sql in statements {
            try db.execute(sql: sql)
        }
    }

    static let synchronizationTriggerSuffixes = ["bu", "bd", "au", "ai"]
}
