// Conditions on the keys of a table, resolved from its schema when the SQL
// is generated: requests and associations filter by key with them.
//
// A NULL key value identifies no row: SQL never finds NULL equal to
// anything, and a key column holding NULL (possible in a primary key that
// is not an INTEGER one, or in a unique index) is no key. So a key with a
// NULL value matches nothing (`WHERE 0`), rather than the rows whose key
// IS NULL.

extension SQLExpression {
    /// A condition that no row matches.
    static let matchesNothing = SQLExpression(.constantCondition(false))

    /// `column = value`, or a condition that matches nothing when the
    /// value is NULL (see above).
    static func keyEquality(_ column: SQLExpression, _ value: DatabaseValue) -> SQLExpression {
        value.isNull ? matchesNothing : column == value
    }

    /// `column IN (values)` (`= value` for one value) without the NULL
    /// values, which match no row; a condition that matches nothing when
    /// there is no other value.
    static func keyMembership(_ column: SQLExpression, _ values: [DatabaseValue]) -> SQLExpression {
        let values = values.filter { !$0.isNull }
        switch values.count {
        case 0: return matchesNothing
        case 1: return column == values[0]
        default: return SQLExpression(.inList(column, values.map { SQLExpression.value($0) }, negated: false))
        }
    }

    /// `column1 = value1 AND ...`, or a condition that matches nothing when
    /// one of the values is NULL.
    static func keyConjunction(_ key: [String: DatabaseValue]) -> SQLExpression {
        if key.values.contains(where: \.isNull) { return matchesNothing }
        return SQLQueryGenerator.conjunction(key.sorted { $0.key < $1.key }.map { column, value in
            SQLExpression.column(column) == value
        })
    }

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
        SQLExpression(.deferred { context in
            let columns = try context.db.primaryKey(table).columns
            guard columns.count == 1 else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(table) has a primary key of \(columns.count) columns: filter with filter(key: [column: value])")
            }
            return keyMembership(SQLExpression.column(columns[0]), values)
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
            return keyConjunction(key)
        })
    }

    /// The rows that match any of the keys (see `uniqueKeyFilter`); no row
    /// for an empty list.
    static func uniqueKeysFilter(table: String, keys: [[String: (any DatabaseValueConvertible)?]]) -> SQLExpression {
        if keys.isEmpty { return matchesNothing }
        let filters = keys.map { key in uniqueKeyFilter(table: table, key: key.mapValues { $0?.databaseValue ?? .null }) }
        return filters.count == 1 ? filters[0] : SQLExpression(.associative("OR", filters))
    }
}
