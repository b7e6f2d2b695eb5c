// A well-defined order for the rows of a request, for tests and for any
// code that compares fetched arrays.

extension QueryInterfaceRequest {
    /// The request ordered in a well-defined way: its own ordering, then
    /// the primary key (the `rowid` of a table without an explicit primary
    /// key, all columns of a view without a primary key). Joined tables
    /// are not involved.
    ///
    /// ```swift
    /// // SELECT * FROM player ORDER BY score DESC, id
    /// let players = try Player.order(Column("score").desc).withStableOrder().fetchAll(db)
    /// ```
    ///
    /// A reversed request without ordering is ordered by descending primary
    /// key.
    public func withStableOrder() -> Self {
        var request = self
        let table = relation.tableName
        let key = SQLExpression(.deferred { context in
            let db = context.db
            let columns: [String]
            if try db.tableExists(table) {
                columns = try db.primaryKey(table).columns
            } else if try db.viewExists(table) {
                // A view without primary key is ordered by all its columns.
                let view = DatabaseObjectID(name: table, schemaID: .main)
                if let keyColumns = try db.schemaSource?.columnsForPrimaryKey(db, inView: view), !keyColumns.isEmpty {
                    columns = try db.primaryKey(table).columns
                } else {
                    columns = try db.columns(in: table).map(\.name)
                }
            } else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "withStableOrder() needs a table or a view, and \(table) is neither")
            }
            // One ordering term per column (see SQLOrdering.sql).
            let terms = columns.map { SQLExpression.column($0) }
            return terms.count == 1 ? terms[0] : SQLExpression(.associative(",", terms))
        })
        if relation.isReversed && relation.orderings.isEmpty {
            request.relation.orderings = [key.desc]
        } else {
            request.relation.orderings = relation.effectiveOrderings + [key.sqlOrdering]
        }
        request.relation.isReversed = false
        return request
    }
}
