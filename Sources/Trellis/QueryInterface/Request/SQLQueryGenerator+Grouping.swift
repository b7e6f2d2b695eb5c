extension SQLQueryGenerator {
    /// The GROUP BY that gives one row per record to a request with
    /// association aggregates whose joins give several rows for a record
    /// (`joining(required: Author.books)`), as GRDB groups such requests
    /// by primary key.
    ///
    /// SQLite selects the columns of the joined tables from one row of
    /// each group: the primary key of the table is enough, and a table
    /// whose key can not be read is not grouped. PostgreSQL refuses a
    /// column that is neither grouped nor aggregated, unless the primary
    /// key of its table is grouped: the primary keys of the tables joined
    /// by to-one associations are grouped too. Each of those tables has
    /// at most one row for a record, so they do not split its group. The
    /// columns of a to-many association have one value per associated
    /// record, and no row to take them from: selecting them throws there.
    func recordGrouping(
        _ relation: SQLRelation, joins: [(key: String, child: SQLJoinedChild)], context: SQLGenerationContext) throws
        -> [SQLExpression]
    {
        let db = context.db
        if context.dialect.selectsUngroupedColumns {
            guard (try? db.primaryKey(relation.tableName)) != nil else { return [] }
            return [SQLExpression.primaryKey(table: relation.tableName)]
        }
        guard try hasPrimaryKey(relation.tableName, context: context) else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "table \(relation.tableName) has no primary key: \(context.dialect.name) can not give one row per "
                    + "record to a request with association aggregates and a join of a to-many association")
        }
        var keys = [SQLExpression.primaryKey(table: relation.tableName)]
        try appendJoinedKeys(joins, throughToMany: false, to: &keys, context: context)
        return keys
    }

    private func appendJoinedKeys(
        _ joins: [(key: String, child: SQLJoinedChild)], throughToMany: Bool, to keys: inout [SQLExpression],
        context: SQLGenerationContext) throws
    {
        for (key, child) in joins {
            let table = child.relation.tableName
            let isToMany = throughToMany || child.joinsSeveralRows
            if isToMany {
                if child.isSelected {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "\(context.dialect.name) can not select the columns of the to-many association \(key) "
                            + "in a request with association aggregates: they have a value for each \(table), and the "
                            + "request a row for each record. Prefetch them with including(all:), or select their "
                            + "aggregates")
                }
            } else if try hasPrimaryKey(table, context: context) {
                keys.append(SQLExpression.primaryKey(table: table).qualified(with: child.relation.alias))
            } else if child.isSelected {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: "table \(table) has no primary key: \(context.dialect.name) can not select the columns of "
                        + "the association \(key) in a request with association aggregates and a join of a to-many "
                        + "association")
            }
            try appendJoinedKeys(
                child.relation.children.filter { $0.child.kind != .all }, throughToMany: isToMany, to: &keys,
                context: context)
        }
    }

    /// Whether a table of the query has a primary key. A common table
    /// expression has none; a missing table throws.
    private func hasPrimaryKey(_ table: String, context: SQLGenerationContext) throws -> Bool {
        if context.commonTableExpression(named: table) != nil { return false }
        do {
            _ = try context.db.primaryKey(table)
            return true
        } catch {
            guard try context.db.tableExists(table) || context.db.viewExists(table) else { throw error }
            return false
        }
    }
}
