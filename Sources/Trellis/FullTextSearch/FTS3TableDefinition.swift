/// The definition of an FTS3 table: its columns and tokenizer.
///
/// ```swift
/// // CREATE VIRTUAL TABLE book USING fts3(author, title, tokenize=porter)
/// try db.create(virtualTable: "book", using: FTS3()) { t in
///     t.tokenizer = .porter
///     t.column("author")
///     t.column("title")
/// }
/// ```
public final class FTS3TableDefinition {
    private(set) var columns: [String] = []

    init() {}

    /// The tokenizer; nil uses FTS3's default, `simple`.
    ///
    /// ```swift
    /// t.tokenizer = .unicode61()
    /// ```
    public var tokenizer: FTS3TokenizerDescriptor?

    /// A column. All columns of a full-text table hold text.
    ///
    /// ```swift
    /// t.column("content")
    /// ```
    public func column(_ name: String) {
        columns.append(name)
    }
}
