// The rows of a region: a request that filters its table by rowid (by
// primary key, for a table whose primary key is its rowid) only reads those
// rows of the table, and the changes of other rows do not impact it.

extension SQLRelation {
    /// The rowids that the filters of the relation keep, or nil when they
    /// keep rows that are not known by rowid, or when the request may read
    /// other rows of its table (a join, a subquery or a common table
    /// expression may read the table again).
    func filteredRowIDs(_ db: Database) throws -> Set<Int64>? {
        guard !filters.isEmpty, commonTableExpressions.isEmpty, children.isEmpty, groupBy.isEmpty, having.isEmpty
        else { return nil }
        guard try db.tableExists(tableName) else { return nil }
        let primaryKey = try db.primaryKey(tableName)
        guard primaryKey.isRowID else { return nil }
        let context = SQLGenerationContext(db)
        var rowIDColumns: Set<String> = []
        if let column = primaryKey.rowIDColumn { rowIDColumns.insert(column.lowercased()) }
        rowIDColumns.formUnion(try db.freeRowIDNames(in: tableName))
        let rowIDs = RowIDAnalysis(context: context, alias: alias, rowIDColumns: rowIDColumns)
        for selected in selection {
            if case .expression(let expression, _) = selected.impl, try rowIDs.mayReadOtherRows(expression) { return nil }
        }
        var result: Set<Int64>?
        for filter in filters {
            if try rowIDs.mayReadOtherRows(filter) { return nil }
            // Filters are joined with AND: the rows of each known one.
            if let ids = try rowIDs.rowIDs(filter) {
                result = result.map { $0.intersection(ids) } ?? ids
            }
        }
        return result
    }
}

/// Finds the rowids that a filter keeps, in the expressions of a relation.
private struct RowIDAnalysis {
    let context: SQLGenerationContext
    let alias: AliasIdentity
    /// The lowercased names that are the rowid in the table.
    let rowIDColumns: Set<String>

    /// The rowids that `expression` keeps, or nil when it may keep other
    /// rows.
    func rowIDs(_ expression: SQLExpression) throws -> Set<Int64>? {
        switch expression.impl {
        case .deferred(let resolve):
            return try rowIDs(resolve(context))
        case .binary(let op, let lhs, let rhs) where op == "=" || op == "IS":
            if isRowID(lhs), let id = integer(rhs) { return [id] }
            if isRowID(rhs), let id = integer(lhs) { return [id] }
            return nil
        case .inList(let element, let values, negated: false):
            guard isRowID(element) else { return nil }
            var ids: Set<Int64> = []
            for value in values {
                guard let id = integer(value) else { return nil }
                ids.insert(id)
            }
            return ids
        case .associative(let op, let operands) where op.uppercased() == "AND":
            var result: Set<Int64>?
            for operand in operands {
                if let ids = try rowIDs(operand) {
                    result = result.map { $0.intersection(ids) } ?? ids
                }
            }
            return result
        case .associative(let op, let operands) where op.uppercased() == "OR":
            var result: Set<Int64> = []
            for operand in operands {
                guard let ids = try rowIDs(operand) else { return nil }
                result.formUnion(ids)
            }
            return result
        default:
            return nil
        }
    }

    /// Whether `expression` may read rows of the table other than those
    /// the filters keep: a subquery, or SQL that Trellis does not read.
    func mayReadOtherRows(_ expression: SQLExpression) throws -> Bool {
        switch expression.impl {
        case .value, .constantCondition, .column, .rowID, .countAll:
            return false
        case .literal, .exists, .subquery, .inSubquery, .correlated:
            return true
        case .deferred(let resolve):
            return try mayReadOtherRows(resolve(context))
        case .unary(_, let x), .isNull(let x, _), .collated(let x, _), .customCollated(let x, _), .cast(let x, _),
             .json(let x, _):
            return try mayReadOtherRows(x)
        case .binary(_, let x, let y):
            return try mayReadOtherRows(x) || mayReadOtherRows(y)
        case .associative(_, let xs), .function(_, let xs, _):
            return try xs.contains { try mayReadOtherRows($0) }
        case .filteredAggregate(_, let xs, let filter):
            return try mayReadOtherRows(filter) || xs.contains { try mayReadOtherRows($0) }
        case .inList(let x, let xs, _):
            return try mayReadOtherRows(x) || xs.contains { try mayReadOtherRows($0) }
        case .between(let x, let low, let high, _):
            return try mayReadOtherRows(x) || mayReadOtherRows(low) || mayReadOtherRows(high)
        }
    }

    private func isRowID(_ expression: SQLExpression) -> Bool {
        switch expression.impl {
        case .rowID(let identity):
            return identity == nil || identity === alias
        case .column(let name, let identity):
            return (identity == nil || identity === alias) && rowIDColumns.contains(name.lowercased())
        default:
            return false
        }
    }

    private func integer(_ expression: SQLExpression) -> Int64? {
        guard case .value(let value) = expression.impl, case .int64(let id) = value.storage else { return nil }
        return id
    }
}
