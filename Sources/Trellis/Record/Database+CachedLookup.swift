extension Database {
    /// Runs `body` with the statement that the connection keeps for the
    /// lookups of `owner`, prepared from `sql()` the first time.
    ///
    /// For layers built on Trellis whose lookups run in loops, as an
    /// object store's reads by id do: the statement of the last lookup is
    /// found again without its SQL, and lent to `body` without a retain.
    /// A lookup made while `body` decodes the rows of another gets a
    /// statement of its own.
    ///
    /// ```swift
    /// enum PlayerNameLookup {}
    ///
    /// let name = try db.withCachedLookup(for: PlayerNameLookup.self, sql: { "SELECT name FROM player WHERE id = ?" }) { statement in
    ///     try statement.decodeOne(argument: 42.databaseValue) { row in try row.decode(String.self, atIndex: 0) }
    /// }
    /// ```
    ///
    /// The connection keeps one statement per owner type: `sql` must give
    /// the same SQL each time for the same `owner`. The statement is
    /// prepared again when the schema changes.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL can not be prepared; the
    ///   error of `sql` or `body`.
    @inlinable
    public func withCachedLookup<R>(
        for owner: Any.Type, sql: () throws -> String, _ body: (Statement) throws -> R) throws -> R
    {
        let cache = recordStatementCache
        let key = RecordStatementCache.Key(type: ObjectIdentifier(owner), operation: .layerLookup)
        let lent = try cache.lendKeyStatement(self, type: key.type, operation: key.operation) {
            try cache.statement(self, key: key, columns: [], makeSQL: sql)
        }
        defer { cache.endLend() }
        return try lent._withUnsafeGuaranteedRef(body)
    }
}
