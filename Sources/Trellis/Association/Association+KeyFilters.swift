// Key filters on associations: `Book.author.filter(key: 1)`,
// `Author.books.filter(ids: [1, 2])`.

extension Association {
    /// Keeps the associated record with the given primary key.
    ///
    /// ```swift
    /// // Books by the author 1
    /// let request = Book.joining(required: Book.author.filter(key: 1))
    /// ```
    ///
    /// A table whose primary key spans several columns makes the request
    /// throw an error when it runs: use `filter(key: [column: value])`.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        filter(SQLExpression.primaryKeyFilter(table: impl.destination.tableName, values: [key.databaseValue]))
    }

    /// Keeps the associated records with the given primary keys.
    ///
    /// ```swift
    /// Author.including(all: Author.books.filter(keys: [1, 2, 3]))
    /// ```
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> Self {
        filter(SQLExpression.primaryKeyFilter(table: impl.destination.tableName, values: keys.map(\.databaseValue)))
    }

    /// Keeps the associated record with the given key (primary or unique).
    ///
    /// ```swift
    /// Book.joining(required: Book.author.filter(key: ["email": "victor@example.com"]))
    /// ```
    ///
    /// Columns that are not a primary or unique key make the request throw
    /// an error when it runs.
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> Self {
        filter(SQLExpression.uniqueKeyFilter(table: impl.destination.tableName, key: key.mapValues { $0?.databaseValue ?? .null }))
    }

    /// Keeps the associated records with the given keys (primary or
    /// unique).
    ///
    /// ```swift
    /// Team.including(all: Team.memberships.filter(keys: [["teamId": 1, "playerId": 2]]))
    /// ```
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        filter(SQLExpression.uniqueKeysFilter(table: impl.destination.tableName, keys: keys))
    }
}

extension Association where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Keeps the associated record with the given id.
    ///
    /// ```swift
    /// Book.joining(required: Book.author.filter(id: 1))
    /// ```
    public func filter(id: RowDecoder.ID) -> Self { filter(key: id) }

    /// Keeps the associated records with the given ids.
    ///
    /// ```swift
    /// Author.including(all: Author.books.filter(ids: [1, 2]))
    /// ```
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}
