/// Turns a relation into the SQL of a SELECT statement, the layout of its
/// rows (the scopes of joined associations), and the prefetches of to-many
/// associations.
struct SQLQueryGenerator {
    let relation: SQLRelation

    /// The compiled statement of the relation.
    ///
    /// - parameter wrap: turns the generated SELECT into the final SQL (the
    ///   prefetch of to-many associations limited per parent wraps it in a
    ///   window query).
    func makePreparedRequest(_ db: Database, singleResult: Bool, wrap: ((String) -> String)? = nil) throws -> PreparedRequest {
        let context = SQLGenerationContext(db)
        var relation = relation
        if singleResult && relation.limit == nil && !hasToManyJoin(relation) && !selectsAtMostOneRow(relation, context) {
            relation.limit = (1, nil)
        }
        var (sql, layout) = try generate(relation, context: context)
        if let wrap { sql = wrap(sql) }
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(StatementArguments(values: context.arguments))
        let prefetches = collectPrefetches(relation, path: [])
        let supplementaryFetch: PreparedRequest.SupplementaryFetch?
        if prefetches.isEmpty {
            supplementaryFetch = nil
        } else {
            supplementaryFetch = { db, rows, plan in
                for (path, key, prefetch, childRelation) in prefetches {
                    if path.isEmpty {
                        try prefetch(db, rows, key, childRelation, plan?.decoder(forKey: key))
                        continue
                    }
                    // A to-many association of a joined to-one association:
                    // its parents are the scopes of the fetched rows, which
                    // the record type reads through nested records.
                    let scopes = rows.compactMap { row in
                        path.reduce(Optional(row)) { row, key in row?.scopes[key] }
                    }
                    try prefetch(db, scopes, key, childRelation, nil)
                    for scope in scopes {
                        scope.storePrefetchedRowsInRoot()
                    }
                }
            }
        }
        return PreparedRequest(statement: statement, layout: layout, supplementaryFetch: supplementaryFetch)
    }

    /// The SQL of the relation as a subquery of `context`.
    func subquerySQL(_ context: SQLGenerationContext) throws -> String {
        let subcontext = SQLGenerationContext(context.db, parent: context)
        let (sql, _) = try generate(relation, context: subcontext)
        context.arguments.append(contentsOf: subcontext.arguments)
        return sql
    }

    /// `SELECT COUNT(*) ...`: the number of rows of the relation.
    func fetchCount(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        var counted = relation.withUngroupedAggregatesFiltering
        counted.orderings = []
        counted.children = counted.children.filter { $0.child.kind != .all }
        let sql: String
        let isSimple = counted.groupBy.isEmpty && counted.having.isEmpty && counted.limit == nil && counted.children.isEmpty
        if isSimple && !counted.isDistinct && counted.selection.allSatisfy(\.isAllColumns) {
            counted.selection = [SQLExpression.countAll.sqlSelection]
            sql = try generate(counted, context: context).sql
        } else if isSimple && counted.isDistinct, counted.selection.count == 1,
                  let expression = counted.selection[0].countableExpression
        {
            // `SELECT COUNT(DISTINCT name)`, as GRDB counts: NULL is not
            // counted.
            counted.isDistinct = false
            counted.selection = [SQLExpression(.function("COUNT", [expression], distinct: true)).sqlSelection]
            sql = try generate(counted, context: context).sql
        } else {
            sql = "SELECT COUNT(*) FROM (" + (try generate(counted, context: context).sql) + ")"
                + context.dialect.subqueryName("trellis_counted")
        }
        return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values: context.arguments)) ?? 0
    }

    /// Whether the filters of a request without joins compare a unique
    /// key of its table with values (`WHERE id = ?`): such a request needs
    /// no `LIMIT 1` to fetch one row, as GRDB writes it.
    private func selectsAtMostOneRow(_ relation: SQLRelation, _ context: SQLGenerationContext) -> Bool {
        guard relation.children.isEmpty, relation.groupBy.isEmpty, relation.having.isEmpty, !relation.tableName.isEmpty,
              relation.commonTableExpressions.isEmpty
        else { return false }
        var columns: [String] = []
        func collect(_ expression: SQLExpression) throws {
            switch expression.impl {
            case .deferred(let resolve):
                try collect(resolve(context))
            case .associative("AND", let operands):
                for operand in operands { try collect(operand) }
            case .binary("=", let lhs, let rhs):
                switch (lhs.impl, rhs.impl) {
                case (.column(let name, _), .value), (.value, .column(let name, _)):
                    columns.append(name)
                default:
                    break
                }
            default:
                break
            }
        }
        // A filter that can not be resolved here fails the generation
        // below, with its error: keep LIMIT 1 until then.
        guard (try? relation.filters.forEach(collect)) != nil, !columns.isEmpty else { return false }
        return (try? context.db.table(relation.tableName, hasUniqueKey: columns)) ?? false
    }

    private func hasSelectedJoin(_ joins: [(key: String, child: SQLJoinedChild)]) -> Bool {
        joins.contains { $0.child.isSelected || hasSelectedJoin($0.child.relation.children.filter { $0.child.kind != .all }) }
    }

    private func hasToManyJoin(_ relation: SQLRelation) -> Bool {
        relation.children.contains { $0.child.kind == .all || hasToManyJoin($0.child.relation) }
    }

    private typealias Prefetch = (
        path: [String], key: String, prefetch: SQLJoinedChild.PrefetchFunction,
        relation: SQLRelation)

    private func collectPrefetches(_ relation: SQLRelation, path: [String]) -> [Prefetch] {
        var result: [Prefetch] = []
        for (key, child) in relation.children {
            if child.kind == .all {
                if let prefetch = child.prefetch {
                    result.append((path, key, prefetch, child.relation))
                }
            } else {
                result += collectPrefetches(child.relation, path: path + [key])
            }
        }
        return result
    }

    /// The aliases of the tables joined in one SELECT (to-many associations
    /// are fetched by their own queries).
    private func joinedAliases(_ relation: SQLRelation) -> [AliasIdentity] {
        [relation.alias] + relation.children.filter { $0.child.kind != .all }.flatMap { joinedAliases($0.child.relation) }
    }

    /// The common table expressions of the relation, and those of the
    /// associations it joins in its SELECT (`Author.books.with(cte)`):
    /// one `WITH` clause defines them all, each name once, the request's
    /// own first.
    private static func commonTableExpressions(of relation: SQLRelation) -> [SQLCommonTableExpression] {
        var result = relation.commonTableExpressions
        func addJoined(of relation: SQLRelation) {
            for (_, child) in relation.children where child.kind != .all {
                for cte in child.relation.commonTableExpressions
                where !result.contains(where: { $0.tableName.lowercased() == cte.tableName.lowercased() }) {
                    result.append(cte)
                }
                addJoined(of: child.relation)
            }
        }
        addJoined(of: relation)
        return result
    }

    func generate(_ relation: SQLRelation, context: SQLGenerationContext) throws -> (sql: String, layout: RowLayout?) {
        if let error = relation.buildError { throw error }
        var relation = relation.withUngroupedAggregatesFiltering
        let db = context.db
        var joins = relation.children.filter { $0.child.kind != .all }
        context.assignNames(to: joinedAliases(relation))
        context.qualifiesColumns = !joins.isEmpty

        // WITH (first, so that its arguments come first)
        let commonTableExpressions = Self.commonTableExpressions(of: relation)
        for cte in commonTableExpressions {
            context.commonTableExpressions[cte.tableName.lowercased()] = cte
        }
        let withSQL = try Self.withClause(commonTableExpressions, context: context)

        // Association aggregates
        let aggregateSources = relation.aggregateSources
        if !aggregateSources.isEmpty {
            // The aggregates of one key aggregate one population.
            context.setAggregateFilters(SQLAggregateSource.merge(aggregateSources, into: &relation), for: relation.alias)
            // One row per record of the table, whatever the joins, as in
            // GRDB's requests grouped by primary key. Joins of to-one
            // associations give one row per record already.
            if relation.groupBy.isEmpty, relation.joinsSeveralRows,
               context.commonTableExpression(named: relation.tableName) == nil
            {
                relation.groupBy = try recordGrouping(relation, joins: joins, context: context)
            }
            // With the filters of the aggregates of their association.
            joins = relation.children.filter { $0.child.kind != .all }
        }

        // SELECT
        var selectionSQL: [String] = []
        let rootSelection = relation.selection.map { $0.qualified(with: relation.alias) }
        for selection in rootSelection {
            selectionSQL.append(try selection.sql(context))
        }
        var layout: RowLayout?
        if hasSelectedJoin(joins) {
            var columnCount = try Self.columnCount(rootSelection, tableName: relation.tableName, context: context)
            let baseCount = columnCount
            let scopes = try appendSelections(of: joins, to: &selectionSQL, columnCount: &columnCount, context: context)
            layout = RowLayout(scopes: scopes, baseCount: baseCount)
        }
        var sql = withSQL + "SELECT " + (relation.isDistinct ? "DISTINCT " : "") + selectionSQL.joined(separator: ", ")

        // FROM
        sql += " FROM " + tableSQL(relation, context: context)

        // JOIN
        for (_, child) in joins {
            sql += try joinSQL(child, parent: relation, context: context)
        }

        // WHERE
        let filters = relation.filters.map { $0.qualified(with: relation.alias) }
        if !filters.isEmpty {
            sql += " WHERE " + (try Self.conjunction(filters).sql(context))
        }

        // GROUP BY, HAVING
        if !relation.groupBy.isEmpty {
            sql += " GROUP BY " + (try relation.groupBy.map { try $0.qualified(with: relation.alias).sql(context) }
                .joined(separator: ", "))
        }
        if !relation.having.isEmpty {
            sql += " HAVING " + (try Self.conjunction(relation.having.map { $0.qualified(with: relation.alias) }).sql(context))
        }

        // ORDER BY
        var orderings = relation.effectiveOrderings.map { $0.qualified(with: relation.alias) }
        orderings += try joinedOrderings(joins, db: db)
        if !orderings.isEmpty {
            sql += " ORDER BY " + (try orderings.map { try $0.sql(context) }.joined(separator: ", "))
        }

        // LIMIT
        if let limit = relation.limit {
            sql += " LIMIT \(limit.count)"
            if let offset = limit.offset { sql += " OFFSET \(offset)" }
        }
        return (sql, layout)
    }

    private func tableSQL(_ relation: SQLRelation, context: SQLGenerationContext) -> String {
        var sql = relation.tableName.quotedDatabaseIdentifier
        if let name = context.name(of: relation.alias), name != relation.tableName {
            sql += " " + name.quotedDatabaseIdentifier
        }
        return sql
    }

    private func appendSelections(
        of joins: [(key: String, child: SQLJoinedChild)], to selectionSQL: inout [String],
        columnCount: inout Int, context: SQLGenerationContext) throws -> [(key: String, range: Range<Int>, layout: RowLayout?)]
    {
        var scopes: [(key: String, range: Range<Int>, layout: RowLayout?)] = []
        for (key, child) in joins {
            guard child.isSelected else {
                // A table that is only joined has no columns, but a scope
                // when it has selected descendants, as in GRDB: the
                // intermediate table of `Book.joining(required:
                // Book.author.including(optional: Person.country))`, the
                // pivot of a `through` association.
                let nestedJoins = child.relation.children.filter { $0.child.kind != .all }
                var nestedCount = 0
                let nestedScopes = try appendSelections(
                    of: nestedJoins, to: &selectionSQL, columnCount: &nestedCount, context: context)
                if !nestedScopes.isEmpty {
                    let start = columnCount
                    columnCount += nestedCount
                    scopes.append((key: key, range: start..<columnCount, layout: RowLayout(scopes: nestedScopes, baseCount: 0)))
                }
                continue
            }
            let start = columnCount
            let selection = child.relation.selection.map { $0.qualified(with: child.relation.alias) }
            for item in selection {
                selectionSQL.append(try item.sql(context))
            }
            let ownCount = try Self.columnCount(selection, tableName: child.relation.tableName, context: context)
            columnCount += ownCount
            let nestedJoins = child.relation.children.filter { $0.child.kind != .all }
            var nestedCount = 0
            let nestedScopes = try appendSelections(
                of: nestedJoins, to: &selectionSQL, columnCount: &nestedCount, context: context)
            columnCount += nestedCount
            let nestedLayout = nestedScopes.isEmpty ? nil : RowLayout(scopes: nestedScopes.map {
                (key: $0.key, range: ($0.range.lowerBound + ownCount)..<($0.range.upperBound + ownCount), layout: $0.layout)
            }, baseCount: ownCount)
            scopes.append((key: key, range: start..<columnCount, layout: nestedLayout))
        }
        return scopes
    }

    private func joinSQL(_ child: SQLJoinedChild, parent: SQLRelation, context: SQLGenerationContext) throws -> String {
        var relation = child.relation
        if let error = relation.buildError { throw error }
        if relation.limit != nil || relation.isDistinct || !relation.groupBy.isEmpty {
            // A join can not limit, deduplicate or group the rows of one
            // table only: such associations are prefetched.
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "An association to \(relation.tableName) refined with limit, distinct or group can only be used with including(all:)")
        }
        // Without grouping, HAVING conditions (association aggregates)
        // filter the joined rows.
        relation.filters += relation.having
        var sql = child.kind == .oneRequired ? " JOIN " : " LEFT JOIN "
        sql += tableSQL(relation, context: context)
        let pairs = try child.condition(context.db)
        let collations = try child.collations?(context.db) ?? []
        var conditions: [SQLExpression] = pairs.enumerated().map { index, pair in
            SQLExpression.linkComparison(
                SQLExpression(.column(pair.child, relation.alias)), SQLExpression(.column(pair.parent, parent.alias)),
                collation: index < collations.count ? collations[index] : nil)
        }
        if let onCondition = child.onCondition {
            conditions.append(onCondition(parent.alias, relation.alias))
        }
        conditions += relation.filters.map { $0.qualified(with: relation.alias) }
        if !conditions.isEmpty {
            sql += " ON " + (try Self.conjunction(conditions).sql(context))
        }
        for (_, grandchild) in relation.children where grandchild.kind != .all {
            if child.kind == .oneOptional && grandchild.kind == .oneRequired {
                // A required association behind an optional one: the
                // grandchild must exist only when the child does.
                var optional = grandchild
                optional.kind = .oneOptional
                sql += try joinSQL(optional, parent: relation, context: context)
            } else {
                sql += try joinSQL(grandchild, parent: relation, context: context)
            }
        }
        return sql
    }

    private func joinedOrderings(_ joins: [(key: String, child: SQLJoinedChild)], db: Database) throws -> [SQLOrdering] {
        var result: [SQLOrdering] = []
        for (_, child) in joins {
            result += child.relation.effectiveOrderings.map { $0.qualified(with: child.relation.alias) }
            result += try joinedOrderings(child.relation.children.filter { $0.child.kind != .all }, db: db)
        }
        return result
    }

    /// `WITH [RECURSIVE] name(columns) AS (...), ... `, or the empty string.
    static func withClause(_ ctes: [SQLCommonTableExpression], context: SQLGenerationContext) throws -> String {
        if ctes.isEmpty { return "" }
        var sql = ctes.contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH "
        sql += try ctes.map { try $0.definitionSQL(context) }.joined(separator: ", ")
        return sql + " "
    }

    static func conjunction(_ expressions: [SQLExpression]) -> SQLExpression {
        expressions.count == 1 ? expressions[0] : SQLExpression(.associative("AND", expressions))
    }

    /// The number of columns a selection produces, in a query that may
    /// define common table expressions.
    static func columnCount(_ selection: [SQLSelection], tableName: String, context: SQLGenerationContext) throws -> Int {
        guard let cte = context.commonTableExpression(named: tableName) else {
            return try columnCount(selection, tableName: tableName, db: context.db)
        }
        var count = 0
        for item in selection {
            switch item.impl {
            case .expression: count += 1
            case .allColumns: count += try cte.columnNames(context.db).count
            case .allColumnsExcluding(let excluded, _):
                count += try cte.columnNames(context.db).filter { !excluded.contains($0.lowercased()) }.count
            }
        }
        return count
    }

    /// The number of columns a selection produces.
    static func columnCount(_ selection: [SQLSelection], tableName: String, db: Database) throws -> Int {
        var count = 0
        for item in selection {
            if item.isAllColumns {
                count += try db.columns(in: tableName).count
            } else if case .allColumnsExcluding = item.impl {
                count += try item.qualified(with: AliasIdentity(tableName: tableName)).includedColumns(db).count
            } else {
                count += 1
            }
        }
        return count
    }
}

extension SQLSelection {
    var isAllColumns: Bool {
        if case .allColumns = impl { return true }
        return false
    }

    /// The selected expression, which `COUNT(DISTINCT ...)` can count.
    var countableExpression: SQLExpression? {
        if case .expression(let expression, _) = impl { return expression }
        return nil
    }
}
