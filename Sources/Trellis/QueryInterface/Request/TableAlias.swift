/// A name for a table in a request, so that its columns can be used in
/// other parts of the query: filters on joined tables, correlated
/// subqueries.
///
/// ```swift
/// let authorAlias = TableAlias<Author>()
/// let request = Book
///     .joining(required: Book.author.aliased(authorAlias))
///     .filter(authorAlias[Column("name")] == "Orwell")
/// ```
@dynamicMemberLookup
public final class TableAlias<RowDecoder>: @unchecked Sendable {
    let identity: AliasIdentity

    /// An alias whose table is known when a request adopts it. Give it a
    /// `name` to refer to the table in raw SQL.
    public init(name: String? = nil) {
        identity = AliasIdentity(tableName: "", userName: name, isExplicit: true)
    }

    init(identity: AliasIdentity) {
        self.identity = identity
    }

    /// The column `name` of the aliased table.
    public subscript(_ name: String) -> SQLExpression {
        SQLExpression(.column(name, identity))
    }

    /// The column of the aliased table.
    public subscript(_ column: some ColumnExpression) -> SQLExpression {
        SQLExpression(.column(column.name, identity))
    }

    /// A selection of the aliased table: `alias[AllColumns()]` selects its
    /// columns, an expression its columns in the expression.
    ///
    /// ```swift
    /// let authorAlias = TableAlias()
    /// let request = Book
    ///     .joining(required: Book.author.aliased(authorAlias))
    ///     .select(Column("title"), authorAlias[AllColumns()])
    /// ```
    public subscript(_ selectable: some SQLSelectable) -> SQLSelection {
        selectable.sqlSelection.qualified(with: identity)
    }

    /// An expression whose columns are those of the aliased table, for
    /// filters and computed selections on several columns.
    ///
    /// ```swift
    /// let playerAlias = TableAlias()
    /// let request = Team
    ///     .joining(required: Team.players.aliased(playerAlias))
    ///     .filter(playerAlias[Column("score") + Column("bonus")] > 100)
    /// ```
    public subscript(_ expression: some SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm) -> SQLExpression {
        expression.sqlExpression.qualified(with: identity)
    }

    /// An ordering whose columns are those of the aliased table.
    ///
    /// ```swift
    /// let authorAlias = TableAlias()
    /// let request = Book
    ///     .joining(required: Book.author.aliased(authorAlias))
    ///     .order(authorAlias[Column("name").desc], Column("title"))
    /// ```
    public subscript(_ ordering: some SQLOrderingTerm) -> SQLOrdering {
        ordering.sqlOrdering.qualified(with: identity)
    }

    /// The `rowid` of the aliased table.
    public var rowID: SQLExpression { SQLExpression(.rowID(identity)) }

    /// All columns of the aliased table.
    public var allColumns: SQLSelection { .allColumns(identity) }

    /// An expression that is true when the aliased table has a row: its
    /// primary key is not NULL. With an optional join, it tells whether
    /// the associated record exists.
    ///
    /// ```swift
    /// // Books without any author
    /// let authorAlias = TableAlias<Author>()
    /// let anonymousBooks = Book
    ///     .joining(optional: Book.author.aliased(authorAlias))
    ///     .filter(!authorAlias.exists)
    /// ```
    ///
    /// Using the expression before a request adopts the alias throws an
    /// error when the request runs.
    public var exists: SQLExpression {
        let identity = self.identity
        return SQLExpression(.deferred { context in
            guard !identity.tableName.isEmpty else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "TableAlias.exists is used in a request that does not alias any table with it")
            }
            let primaryKey = try context.db.primaryKey(identity.tableName)
            let conditions = primaryKey.columns.map { column in
                SQLExpression(.column(column, identity)) != nil
            }
            return SQLQueryGenerator.conjunction(conditions)
        })
    }
}

extension TableAlias where RowDecoder == Void {
    /// An alias that is not tied to a record type: `TableAlias()`. Its
    /// table is known when a request adopts it with `aliased(_:)`.
    ///
    /// ```swift
    /// let authorAlias = TableAlias()
    /// let request = Book
    ///     .joining(required: Book.author.aliased(authorAlias))
    ///     .filter(Column("year") >= authorAlias[Column("deathYear")])
    /// ```
    public convenience init(name: String? = nil) {
        self.init(identity: AliasIdentity(tableName: "", userName: name, isExplicit: true))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// An alias for the table of `RowDecoder`.
    public convenience init(name: String? = nil) {
        self.init(identity: AliasIdentity(tableName: RowDecoder.databaseTableName, userName: name, isExplicit: true))
    }

    /// A column of the aliased table, from the record's `Columns`:
    /// `authorAlias.name`.
    public subscript(dynamicMember keyPath: KeyPath<RowDecoder.Columns.Type, some ColumnExpression>) -> SQLExpression {
        SQLExpression(.column(RowDecoder.Columns.self[keyPath: keyPath].name, identity))
    }
}
