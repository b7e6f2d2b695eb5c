extension TableRequest where Self: FilteredRequest {
    /// Keeps the rows of an FTS3 or FTS4 table that match `pattern`, in
    /// any column. A nil pattern matches no row.
    ///
    /// ```swift
    /// // SELECT * FROM document WHERE document MATCH 'sqlite database'
    /// let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
    /// let documents = try Document.all().matching(pattern).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        filter(SQLExpression.tableMatch(pattern?.databaseValue))
    }
}

extension TableRecord {
    /// The records of an FTS3 or FTS4 table that match `pattern`, in any
    /// column. A nil pattern matches no record.
    ///
    /// ```swift
    /// // SELECT * FROM document WHERE document MATCH 'sqlite database'
    /// let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
    /// let documents = try Document.matching(pattern).fetchAll(db)
    /// ```
    public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension Table {
    /// The rows of an FTS3 or FTS4 table that match `pattern`, in any
    /// column. A nil pattern matches no row. (GRDB spells it
    /// `Table("document").all().matching(pattern)`, which Trellis accepts
    /// too.)
    ///
    /// ```swift
    /// let rows = try Table("document").matching(pattern).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<RowDecoder> {
        all().matching(pattern)
    }
}

extension ColumnExpression {
    /// `column MATCH pattern`: true for the rows of an FTS3 or FTS4 table
    /// whose column matches `pattern`. A nil pattern is `MATCH NULL`, which
    /// matches no row.
    ///
    /// ```swift
    /// // SELECT * FROM document WHERE content MATCH 'sqlite database'
    /// let documents = try Document.filter(Column("content").match(pattern)).fetchAll(db)
    /// ```
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        SQLExpression(.binary("MATCH", sqlExpression, pattern?.sqlExpression ?? .value(.null)))
    }
}
