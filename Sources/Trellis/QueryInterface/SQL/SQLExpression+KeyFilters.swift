// Conditions on the keys of a table, resolved from its schema when the SQL
// is generated: requests and associations filter by key with them.

extension SQLExpression {
    /// The primary key columns of `table` (its `rowid` without an explicit
    /// primary key), as one ordering or grouping term per column.
    static func primaryKey(table: String) -> SQLExpression {
        SQLExpression(.deferred { context in
            let columns = try context.db.primaryKey(table).columns
            if columns.count == 1 { return SQLExpression.column(columns[0]) }
            // One term per column (see SQLOrdering.sql).
            return SQLExpression(.associative(",", columns.map { SQLExpression.column($0) }))
        })
    }

    /// `primaryKey IN (values)` (`= value` for one value) on the single
    /// column primary key of `table`. A primary key of several columns is
    /// an error when the request runs.
    static func primaryKeyFilter(table: String, values: [DatabaseValue]) -> SQLExpression {
        let expressions = values.map { SQLExpression.value($0) }
        return SQLExpression(.deferred { context in
            let columns = try context.db.primaryKey(table).columns
            guard columns.count == 1 else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(table) has a primary key of \(columns.count) columns: filter with filter(key: [column: value])")
            }
            let column = SQLExpression.column(columns[0])
            if expressions.count == 1 { return column == expressions[0] }
            return SQLExpression(.inList(column, expressions, negated: false))
        })
    }

    /// `column1 = value1 AND ...` on columns that must be a primary or
    /// unique key of `table`, else the request throws when it runs.
    static func uniqueKeyFilter(table: String, key: [String: DatabaseValue]) -> SQLExpression {
        SQLExpression(.deferred { context in
            guard try context.db.table(table, hasUniqueKey: Array(key.keys)) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(table) has no unique key on column(s) \(key.keys.sorted().joined(separator: ", "))")
            }
            return SQLQueryGenerator.conjunction(key.sorted { $0.key < $1.key }.map { column, value in
                SQLExpression.column(column) == value
            })
        })
    }
}
