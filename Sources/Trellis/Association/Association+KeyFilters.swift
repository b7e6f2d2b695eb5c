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
        let table = impl.destination.tableName
        let value = key.databaseValue
        return filter(SQLExpression(.deferred { context in
            try SQLExpression.column(Self.singlePrimaryKeyColumn(context.db, table: table)) == value
        }))
    }

    /// Keeps the associated records with the given primary keys.
    ///
    /// ```swift
    /// Author.including(all: Author.books.filter(keys: [1, 2, 3]))
    /// ```
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> Self {
        let table = impl.destination.tableName
        let values = keys.map { SQLExpression.value($0.databaseValue) }
        return filter(SQLExpression(.deferred { context in
            let column = try Self.singlePrimaryKeyColumn(context.db, table: table)
            return SQLExpression(.inList(SQLExpression.column(column), values, negated: false))
        }))
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
        let table = impl.destination.tableName
        let values = key.mapValues { $0?.databaseValue ?? .null }
        return filter(SQLExpression(.deferred { context in
            guard try context.db.table(table, hasUniqueKey: Array(values.keys)) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(table) has no unique key on column(s) \(values.keys.sorted().joined(separator: ", "))")
            }
            return SQLQueryGenerator.conjunction(values.sorted { $0.key < $1.key }.map { column, value in
                SQLExpression.column(column) == value
            })
        }))
    }

    private static func singlePrimaryKeyColumn(_ db: Database, table: String) throws -> String {
        let columns = try db.primaryKey(table).columns
        guard columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(table) has a primary key of \(columns.count) columns: filter with filter(key: [column: value])")
        }
        return columns[0]
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
