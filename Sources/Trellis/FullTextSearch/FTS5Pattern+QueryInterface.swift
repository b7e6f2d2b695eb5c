extension TableRequest where Self: FilteredRequest {
    /// Keeps the rows of an FTS5 table that match `pattern`, in any
    /// column. A nil pattern matches no row.
    ///
    /// ```swift
    /// // SELECT * FROM book WHERE book MATCH 'moby dick'
    /// let pattern = FTS5Pattern(matchingAllTokensIn: "Moby Dick")
    /// let books = try Book.all().matching(pattern).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        filter(SQLExpression.tableMatch(pattern?.databaseValue))
    }
}

extension TableRecord {
    /// The records of an FTS5 table that match `pattern`, in any column.
    /// A nil pattern matches no record.
    ///
    /// ```swift
    /// // SELECT * FROM book WHERE book MATCH 'moby dick' ORDER BY rank
    /// let pattern = FTS5Pattern(matchingAllTokensIn: "Moby Dick")
    /// let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
    /// ```
    public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension Table {
    /// The rows of an FTS5 table that match `pattern`, in any column. A nil
    /// pattern matches no row. (GRDB spells it `Table("book").all().matching(pattern)`,
    /// which Trellis accepts too.)
    ///
    /// ```swift
    /// let rows = try Table("book").matching(pattern).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<RowDecoder> {
        all().matching(pattern)
    }
}

extension ColumnExpression {
    /// `column MATCH pattern`: true for the rows of an FTS5 table whose
    /// column matches `pattern`.
    ///
    /// ```swift
    /// // SELECT * FROM book WHERE title MATCH 'moby'
    /// let books = try Book.filter(Column("title").match(pattern)).fetchAll(db)
    /// ```
    public func match(_ pattern: FTS5Pattern) -> SQLExpression {
        SQLExpression(.binary("MATCH", sqlExpression, pattern.sqlExpression))
    }
}

extension Column {
    /// The hidden `rank` column of FTS5 tables: sort by it to get the most
    /// relevant rows first.
    ///
    /// ```swift
    /// // SELECT * FROM book WHERE book MATCH ? ORDER BY rank
    /// let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
    /// ```
    public static let rank = Column("rank")
}

extension SQLExpression {
    /// `<table> MATCH pattern`, where `<table>` is the hidden column that
    /// FTS3, FTS4 and FTS5 tables name after themselves. It is written
    /// when the request is compiled, since only then the name of the table
    /// in the query is known: `"book"`, or `"b"."book"` when the request is
    /// aliased. A nil pattern is false, as GRDB writes it.
    static func tableMatch(_ pattern: DatabaseValue?) -> SQLExpression {
        guard let pattern else { return .value(false.databaseValue) }
        return SQLExpression(.correlated({ alias in
            SQLExpression(.binary("MATCH", SQLExpression(.column(alias.tableName, alias)), .value(pattern)))
        }, aggregate: nil))
    }
}
