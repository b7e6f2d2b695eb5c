/// The definition of an FTS4 table: its columns and
/// [options](https://www.sqlite.org/fts3.html#fts4_options).
///
/// You get one from `create(virtualTable:options:using:_:)`:
///
/// ```swift
/// // CREATE VIRTUAL TABLE document USING fts4(
/// //   content, uuid, notindexed=uuid, languageid="lid",
/// //   content="", compress="zip", uncompress="unzip", prefix="2,4")
/// try db.create(virtualTable: "document", using: FTS4()) { t in
///     t.content = ""
///     t.compress = "zip"
///     t.uncompress = "unzip"
///     t.prefixes = [2, 4]
///     t.column("content")
///     t.column("uuid").notIndexed()
///     t.column("lid").asLanguageId()
/// }
/// ```
public final class FTS4TableDefinition {
    let configuration: VirtualTableConfiguration
    private(set) var columns: [FTS4ColumnDefinition] = []
    private(set) var synchronization: ExternalContentSynchronization?
    private var explicitContent: String?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// The tokenizer; nil uses FTS4's default, `simple`.
    ///
    /// ```swift
    /// t.tokenizer = .porter
    /// ```
    public var tokenizer: FTS3TokenizerDescriptor?

    /// The `content` option: the table that holds the indexed text (an
    /// "external content" table), or `""` for a contentless table.
    /// `synchronize(withTable:)` sets it; setting it stops the
    /// synchronization.
    ///
    /// ```swift
    /// t.content = ""
    /// ```
    public var content: String? {
        get { synchronization?.contentTable ?? explicitContent }
        set {
            synchronization = nil
            explicitContent = newValue
        }
    }

    /// The `compress` option: the SQL function that compresses the
    /// indexed text.
    ///
    /// ```swift
    /// t.compress = "zip"
    /// ```
    public var compress: String?

    /// The `uncompress` option: the SQL function that uncompresses the
    /// indexed text.
    ///
    /// ```swift
    /// t.uncompress = "unzip"
    /// ```
    public var uncompress: String?

    /// The `matchinfo` option: `fts3` stores less data for the
    /// `matchinfo()` function.
    ///
    /// ```swift
    /// t.matchinfo = "fts3"
    /// ```
    public var matchinfo: String?

    /// The `prefix` option: the lengths of the prefix indexes, which make
    /// prefix queries (`data*`) faster.
    ///
    /// ```swift
    /// t.prefixes = [2, 4]
    /// ```
    public var prefixes: Set<Int>?

    /// A column. All columns of a full-text table hold text.
    ///
    /// ```swift
    /// t.column("content")
    /// t.column("uuid").notIndexed()
    /// ```
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, kept up
    /// to date by triggers: the rows already in `tableName` are indexed,
    /// and each insert, update and delete in it is applied to the
    /// full-text index. The columns of the full-text table are columns of
    /// `tableName`.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS4()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("author")
    ///     t.column("title")
    /// }
    /// ```
    ///
    /// Dropping the full-text table leaves the triggers: drop them with
    /// `dropFTS4SynchronizationTriggers(forTable:)`.
    public func synchronize(withTable tableName: String) {
        explicitContent = nil
        synchronization = ExternalContentSynchronization(contentTable: tableName)
    }
}

/// A column of an FTS4 table.
///
/// ```swift
/// t.column("uuid").notIndexed()
/// t.column("lid").asLanguageId()
/// ```
public final class FTS4ColumnDefinition {
    let name: String
    private(set) var isIndexed = true
    private(set) var isLanguageID = false

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the full-text index (`notindexed=`): its
    /// values are stored, not searched.
    ///
    /// ```swift
    /// t.column("uuid").notIndexed()
    /// ```
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }

    /// Makes the column the language id of each row (`languageid=`), an
    /// integer that the tokenizer may use.
    ///
    /// ```swift
    /// t.column("lid").asLanguageId()
    /// ```
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageID = true
        return self
    }
}
