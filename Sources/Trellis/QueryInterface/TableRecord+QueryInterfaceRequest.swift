// Requests built from a record type: `Player.filter(...)`, `Player.all()`.

extension TableRecord {
    /// A request of all rows of the table.
    ///
    /// ```swift
    /// let players = try Player.all().fetchAll(db)
    /// ```
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(relation: SQLRelation(tableName: databaseTableName, selection: defaultSelection))
    }

    /// A request of no row.
    public static func none() -> QueryInterfaceRequest<Self> { all().none() }

    /// A request of the rows that match `predicate`.
    ///
    /// ```swift
    /// Player.filter(Column("score") > 1000)
    /// ```
    public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> { all().filter(predicate) }

    /// A request of the rows that match the predicate built from the
    /// record's columns.
    ///
    /// ```swift
    /// Player.filter { $0.name == "Arthur" }
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public static func filter(_ predicate: (DatabaseComponents) throws -> some SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        all().filter(try predicate(Columns.self))
    }

    /// A request of the rows that match an SQL condition.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// A request of the rows that match an SQL literal.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> { all().filter(literal: sqlLiteral) }

    /// A request of sorted rows.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> { all().order(orderings) }

    /// A request of sorted rows.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> { all().order(orderings) }

    /// A request of rows sorted by the record's columns.
    ///
    /// ```swift
    /// Player.order { $0.score.desc }
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public static func order(_ orderings: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self> {
        all().order([try orderings(Columns.self)])
    }

    /// A request of rows sorted with SQL.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().order(sql: sql, arguments: arguments)
    }

    /// A request of rows sorted with an SQL literal.
    ///
    /// ```swift
    /// Player.order(literal: "score DESC")
    /// ```
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().order(literal: sqlLiteral)
    }

    /// A request of rows sorted by primary key.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> { all().orderByPrimaryKey() }

    /// A request of rows grouped by primary key.
    public static func groupByPrimaryKey() -> QueryInterfaceRequest<Self> { all().groupByPrimaryKey() }

    /// A request of selected columns.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> { all().select(selection) }

    /// A request of selected columns.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> { all().select(selection) }

    /// A request of selected columns, decoded as `type`.
    ///
    /// ```swift
    /// let names = try Player.select(Column("name"), as: String.self).fetchAll(db)
    /// ```
    public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request of selected columns, decoded as `type`.
    public static func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request of selected SQL.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().select(sql: sql, arguments: arguments)
    }

    /// A request of selected SQL, decoded as `type`.
    public static func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// A request of rows with extra selected columns.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> { all().annotated(with: selection) }

    /// A request of distinct rows.
    public static func distinct() -> QueryInterfaceRequest<Self> { all().distinct() }

    /// A request of grouped rows.
    public static func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<Self> { all().group(expressions) }

    /// A request of a limited number of rows.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> { all().limit(limit, offset: offset) }

    /// A request whose table is aliased.
    public static func aliased<T>(_ alias: TableAlias<T>) -> QueryInterfaceRequest<Self> { all().aliased(alias) }

    /// The number of rows in the table.
    ///
    /// ```swift
    /// let count = try Player.fetchCount(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails.
    public static func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Deletes all rows, and returns how many were deleted.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, or if SQLite
    ///   fails (a foreign key violation, for example).
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// Updates all rows, and returns how many were updated.
    ///
    /// ```swift
    /// try Player.updateAll(db, Column("score").set(to: 0))
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails (a constraint violation, for example).
    @discardableResult
    public static func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows, and returns how many were updated.
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails (a constraint violation, for example).
    @discardableResult
    public static func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension QueryInterfaceRequest {
    /// Sorts by primary key.
    public func orderByPrimaryKey() -> Self {
        order([SQLExpression.primaryKey(table: relation.tableName)])
    }

    /// Groups rows by primary key (the `rowid` of a table without an
    /// explicit primary key).
    ///
    /// ```swift
    /// // SELECT player.*, COUNT(...) FROM player ... GROUP BY player.id
    /// Player.all().annotated(with: count(Column("id"))).groupByPrimaryKey()
    /// ```
    public func groupByPrimaryKey() -> Self {
        group([SQLExpression.primaryKey(table: relation.tableName)])
    }

    /// Deletes the rows of the request, and returns how many were deleted.
    ///
    /// ```swift
    /// try Player.filter(Column("score") < 100).deleteAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled, or if
    ///   SQLite fails (a foreign key violation, for example).
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try deleteSQL(context)
        try db.execute(sql: sql, arguments: StatementArguments(values: context.arguments))
        return db.changesCount
    }

    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        let relation = relation.withUngroupedAggregatesFiltering
        var sql = try SQLQueryGenerator.withClause(relation.commonTableExpressions, context: context)
        sql += "DELETE FROM " + relation.tableName.quotedDatabaseIdentifier
        if relation.selectsRowsBySubquery {
            // DELETE ... LIMIT is not always available: delete by rowid.
            sql += try " WHERE " + rowSelectionSQL(relation, context)
        } else if !relation.filters.isEmpty {
            context.assignNames(to: [relation.alias])
            sql += Self.tableAliasSQL(relation, context)
            sql += " WHERE " + (try SQLQueryGenerator.conjunction(relation.filters.map { $0.qualified(with: relation.alias) }).sql(context))
        }
        return sql
    }

    /// Updates the rows of the request, and returns how many were updated.
    ///
    /// ```swift
    /// try Player.filter(Column("team") == "red").updateAll(db, Column("score") += 10)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails (a constraint violation, for example).
    @discardableResult
    public func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates the rows of the request, and returns how many were updated.
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails (a constraint violation, for example).
    @discardableResult
    public func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]) throws -> Int {
        let context = SQLGenerationContext(db)
        guard let sql = try updateSQL(context, onConflict: conflictResolution, assignments) else { return 0 }
        try db.execute(sql: sql, arguments: StatementArguments(values: context.arguments))
        return db.changesCount
    }

    /// The UPDATE statement, or nil when there is nothing to assign.
    func updateSQL(_ context: SQLGenerationContext, onConflict conflictResolution: Database.ConflictResolution?, _ assignments: [ColumnAssignment]) throws -> String? {
        let assignments = assignments.filter { !$0.isNoOverwrite }
        if assignments.isEmpty { return nil }
        let relation = relation.withUngroupedAggregatesFiltering
        context.assignNames(to: [relation.alias])
        var sql = try SQLQueryGenerator.withClause(relation.commonTableExpressions, context: context)
        sql += "UPDATE "
        if let conflictResolution, conflictResolution != .abort {
            guard context.dialect.engine == .sqlite else { throw context.dialect.unsupported("UPDATE OR \(conflictResolution.rawValue)") }
            sql += "OR \(conflictResolution.rawValue) "
        }
        sql += relation.tableName.quotedDatabaseIdentifier + Self.tableAliasSQL(relation, context) + " SET "
        sql += try assignments.map { try $0.sql(context, alias: relation.alias) }.joined(separator: ", ")
        if relation.selectsRowsBySubquery {
            sql += try " WHERE " + rowSelectionSQL(relation, context)
        } else if !relation.filters.isEmpty {
            sql += " WHERE " + (try SQLQueryGenerator.conjunction(relation.filters.map { $0.qualified(with: relation.alias) }).sql(context))
        }
        return sql
    }

    /// ` AS name` when the request names its table otherwise
    /// (`aliased(_:)`): its columns are written with that name.
    private static func tableAliasSQL(_ relation: SQLRelation, _ context: SQLGenerationContext) -> String {
        guard context.isRenamed(relation.alias), let name = context.name(of: relation.alias) else { return "" }
        return " AS " + name.quotedDatabaseIdentifier
    }

    /// `rowid IN (SELECT rowid ...)`, the condition that matches the rows
    /// of the request (with `_rowid_` or `oid` when a column hides the
    /// rowid); WITHOUT ROWID tables use their primary key.
    private func rowSelectionSQL(_ relation: SQLRelation, _ context: SQLGenerationContext) throws -> String {
        let db = context.db
        // The subquery keeps the alias of the request, which its filters
        // may name (`Player.aliased(alias).filter(alias[...])`): the
        // subquery names it on its own, apart from the outer statement.
        var keyRelation = relation
        keyRelation.children = relation.children.filter { $0.child.kind != .all }
        let lhs: String
        if let rowID = try db.recordStatementCache.rowIDName(db, relation.tableName) {
            // Qualified: the joined tables have a rowid too.
            keyRelation.selection = [SQLExpression(.column(rowID, relation.alias)).sqlSelection]
            lhs = rowID
        } else {
            let columns = try db.primaryKey(relation.tableName).columns
            keyRelation.selection = columns.map { SQLExpression.column($0).sqlSelection }
            let names = columns.map(\.quotedDatabaseIdentifier)
            lhs = names.count == 1 ? names[0] : "(" + names.joined(separator: ", ") + ")"
        }
        return lhs + " IN (" + (try SQLQueryGenerator(relation: keyRelation).subquerySQL(context)) + ")"
    }
}

extension SQLRelation {
    /// Whether a DELETE or UPDATE finds the rows of the relation with a
    /// subquery (`rowid IN (SELECT ...)`): its WHERE clause alone does not
    /// say which rows (joins, limits, groups...), or SQLite has no
    /// `DELETE ... LIMIT`.
    var selectsRowsBySubquery: Bool {
        limit != nil || !children.isEmpty || isDistinct || !groupBy.isEmpty || !having.isEmpty
    }
}
