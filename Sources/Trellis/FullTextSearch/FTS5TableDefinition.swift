/// The definition of an FTS5 table: its columns and options.
///
/// You get one from `create(virtualTable:options:using:_:)`:
///
/// ```swift
/// // CREATE VIRTUAL TABLE document USING fts5(
/// //   content, uuid UNINDEXED, content='table', content_rowid='id',
/// //   prefix='2 4', columnSize=0, detail=column)
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.column("content")
///     t.column("uuid").notIndexed()
///     t.content = "table"
///     t.contentRowID = "id"
///     t.prefixes = [2, 4]
///     t.columnSize = 0
///     t.detail = "column"
/// }
/// ```
public final class FTS5TableDefinition {
    let configuration: VirtualTableConfiguration
    private(set) var columns: [FTS5ColumnDefinition] = []
    private(set) var synchronization: ExternalContentSynchronization?
    private var explicitContent: String?
    private var explicitContentRowID: String?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// The tokenizer; nil uses FTS5's default, `unicode61`.
    ///
    /// ```swift
    /// t.tokenizer = .porter(wrapping: .ascii())
    /// ```
    public var tokenizer: FTS5TokenizerDescriptor?

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

    /// The `content_rowid` option: the integer primary key of the content
    /// table. `synchronize(withTable:)` finds it in the schema; setting it
    /// stops the synchronization.
    ///
    /// ```swift
    /// t.contentRowID = "id"
    /// ```
    public var contentRowID: String? {
        get { explicitContentRowID }
        set {
            synchronization = nil
            explicitContentRowID = newValue
        }
    }

    /// The `prefix` option: the lengths of the prefix indexes, which make
    /// prefix queries (`data*`) faster.
    ///
    /// ```swift
    /// t.prefixes = [2, 4]
    /// ```
    public var prefixes: Set<Int>?

    /// The `columnsize` option: 0 does not store the size of each value.
    ///
    /// ```swift
    /// t.columnSize = 0
    /// ```
    public var columnSize: Int?

    /// The `detail` option: `full`, `column` or `none`.
    ///
    /// ```swift
    /// t.detail = "column"
    /// ```
    public var detail: String?

    /// A column. All columns of a full-text table hold text.
    ///
    /// ```swift
    /// t.column("title")
    /// t.column("uuid").notIndexed()
    /// ```
    @discardableResult
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
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
    /// try db.create(table: "book") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("title", .text)
    /// }
    /// try db.create(virtualTable: "book_ft", using: FTS5()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    /// }
    /// ```
    ///
    /// Dropping the full-text table leaves the triggers: drop them with
    /// `dropFTS5SynchronizationTriggers(forTable:)`.
    public func synchronize(withTable tableName: String) {
        explicitContent = nil
        explicitContentRowID = nil
        synchronization = ExternalContentSynchronization(contentTable: tableName)
    }
}

/// A column of an FTS5 table.
///
/// ```swift
/// t.column("uuid").notIndexed()
/// ```
public final class FTS5ColumnDefinition {
    let name: String
    private(set) var isIndexed = true

    init(name: String) {
        self.name = name
    }

    /// Excludes the column from the full-text index (`UNINDEXED`): its
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
}
