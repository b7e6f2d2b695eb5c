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
    public static func order(_ orderings: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self> {
        all().order([try orderings(Columns.self)])
    }

    /// A request of rows sorted with SQL.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().order(sql: sql, arguments: arguments)
    }

    /// A request of rows sorted by primary key.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> { all().orderByPrimaryKey() }

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
    public static func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Deletes all rows, and returns how many were deleted.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// Updates all rows, and returns how many were updated.
    ///
    /// ```swift
    /// try Player.updateAll(db, Column("score").set(to: 0))
    /// ```
    @discardableResult
    public static func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows, and returns how many were updated.
    @discardableResult
    public static func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension QueryInterfaceRequest {
    /// Sorts by primary key.
    public func orderByPrimaryKey() -> Self {
        let table = relation.tableName
        return order([SQLExpression(.deferred { context in
            let columns = try context.db.primaryKey(table).columns
            if columns.count == 1 { return SQLExpression.column(columns[0]) }
            // One ordering term per column (see SQLOrdering.sql).
            return SQLExpression(.associative(",", columns.map { SQLExpression.column($0) }))
        })])
    }

    /// Deletes the rows of the request, and returns how many were deleted.
    ///
    /// ```swift
    /// try Player.filter(Column("score") < 100).deleteAll(db)
    /// ```
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try deleteSQL(context)
        try db.execute(sql: sql, arguments: StatementArguments(values: context.arguments))
        return db.changesCount
    }

    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        var sql = "DELETE FROM " + relation.tableName.quotedDatabaseIdentifier
        if relation.limit != nil || !relation.children.isEmpty || relation.isDistinct || !relation.groupBy.isEmpty {
            // DELETE ... LIMIT is not always available: delete by rowid.
            sql += try " WHERE " + rowSelectionSQL(context)
        } else if !relation.filters.isEmpty {
            context.assignNames(to: [relation.alias])
            sql += " WHERE " + (try SQLQueryGenerator.conjunction(relation.filters.map { $0.qualified(with: relation.alias) }).sql(context))
        }
        return sql
    }

    /// Updates the rows of the request, and returns how many were updated.
    ///
    /// ```swift
    /// try Player.filter(Column("team") == "red").updateAll(db, Column("score") += 10)
    /// ```
    @discardableResult
    public func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates the rows of the request, and returns how many were updated.
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
        context.assignNames(to: [relation.alias])
        var sql = "UPDATE "
        if let conflictResolution, conflictResolution != .abort { sql += "OR \(conflictResolution.rawValue) " }
        sql += relation.tableName.quotedDatabaseIdentifier + " SET "
        sql += try assignments.map { try $0.sql(context, alias: relation.alias) }.joined(separator: ", ")
        if relation.limit != nil || !relation.children.isEmpty || relation.isDistinct || !relation.groupBy.isEmpty {
            sql += try " WHERE " + rowSelectionSQL(context)
        } else if !relation.filters.isEmpty {
            sql += " WHERE " + (try SQLQueryGenerator.conjunction(relation.filters.map { $0.qualified(with: relation.alias) }).sql(context))
        }
        return sql
    }

    /// `rowid IN (SELECT rowid ...)`, the condition that matches the rows
    /// of the request; WITHOUT ROWID tables use their primary key.
    private func rowSelectionSQL(_ context: SQLGenerationContext) throws -> String {
        let db = context.db
        var keyRelation = relation
        keyRelation.alias = AliasIdentity(tableName: relation.tableName)
        keyRelation.children = relation.children.filter { $0.child.kind != .all }
        let lhs: String
        if db.recordStatementCache.tableHasRowID(db, relation.tableName) {
            keyRelation.selection = [SQLExpression(.rowID(nil)).sqlSelection]
            lhs = "rowid"
        } else {
            let columns = try db.primaryKey(relation.tableName).columns
            keyRelation.selection = columns.map { SQLExpression.column($0).sqlSelection }
            let names = columns.map(\.quotedDatabaseIdentifier)
            lhs = names.count == 1 ? names[0] : "(" + names.joined(separator: ", ") + ")"
        }
        return lhs + " IN (" + (try SQLQueryGenerator(relation: keyRelation).subquerySQL(context)) + ")"
    }

}

// MARK: - Requests built from the record's columns

// GRDB's closure forms: the closure receives the record's `Columns`, and
// key paths such as `\.score.desc` stand for such closures.

extension TableRecord {
    /// A request of rows sorted by the record's columns.
    ///
    /// ```swift
    /// Player.order { [$0.score.desc, $0.name] }
    /// ```
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self> {
        all().order(try orderings(Columns.self))
    }

    /// A request of the selected columns.
    ///
    /// ```swift
    /// let maxScore = try Int.fetchOne(db, Player.select { max($0.score) })
    /// ```
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        all().select([try selection(Columns.self)])
    }

    /// A request of the selected columns.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Player.select { [min($0.score), max($0.score)] })
    /// ```
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        all().select(try selection(Columns.self))
    }

    /// A request of the selected column, decoded as `type`.
    ///
    /// ```swift
    /// let names = try Player.select(\.name, as: String.self).fetchAll(db)
    /// let maxScore = try Player.select({ max($0.score) }, as: Int.self).fetchOne(db)
    /// ```
    public static func select<T>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        all().select([try selection(Columns.self)], as: T.self)
    }

    /// A request of the selected columns, decoded as `type`.
    public static func select<T>(
        _ selection: (DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        all().select(try selection(Columns.self), as: T.self)
    }

    /// A request of an SQL literal selection.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> { all().select(literal: sqlLiteral) }

    /// A request of an SQL literal selection, decoded as `type`.
    ///
    /// ```swift
    /// let name = try Player.select(literal: "IFNULL(name, \(defaultName))", as: String.self).fetchOne(db)
    /// ```
    public static func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: T.self)
    }

    /// A request of rows with extra selected columns.
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> { all().annotated(with: selection) }

    /// A request of rows with an extra selected column.
    ///
    /// ```swift
    /// Player.annotated { ($0.score + $0.bonus).forKey("total") }
    /// ```
    public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        all().annotated(with: [try selection(Columns.self)])
    }

    /// A request of rows with extra selected columns.
    public static func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        all().annotated(with: try selection(Columns.self))
    }

    /// A request of grouped rows.
    public static func group(_ expressions: [any SQLExpressible]) -> QueryInterfaceRequest<Self> { all().group(expressions) }

    /// A request of rows grouped by the record's columns.
    ///
    /// ```swift
    /// Player.select { [$0.team, max($0.score)] }.group(\.team)
    /// ```
    public static func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        all().group([try expression(Columns.self)])
    }

    /// A request of rows grouped by the record's columns.
    public static func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> QueryInterfaceRequest<Self> {
        all().group(try expressions(Columns.self))
    }

    /// A request of rows grouped with SQL.
    public static func group(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().group(sql: sql, arguments: arguments)
    }

    /// Updates all rows with assignments built from the record's columns,
    /// and returns how many were updated.
    ///
    /// ```swift
    /// try Player.updateAll(db) { $0.score += 1 }
    /// ```
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, [assignment(Columns.self)])
    }

    /// Updates all rows with assignments built from the record's columns,
    /// and returns how many were updated.
    ///
    /// ```swift
    /// try Player.updateAll(db) { [$0.score.set(to: 0), $0.bonus.set(to: nil)] }
    /// ```
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments(Columns.self))
    }

    /// A request of the primary key, decoded as `type`.
    ///
    /// ```swift
    /// let ids = try Player.selectPrimaryKey(as: Int64.self).fetchAll(db)
    /// let keys = try Citizenship.selectPrimaryKey(as: Row.self).fetchAll(db)
    /// ```
    public static func selectPrimaryKey<T>(as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().selectPrimaryKey(as: T.self)
    }
}

extension TableRecord where Self: Identifiable {
    /// A request of the ids of the records.
    ///
    /// ```swift
    /// let ids = try Player.selectID().fetchAll(db)
    /// ```
    public static func selectID() -> QueryInterfaceRequest<ID> { all().selectID() }
}

extension QueryInterfaceRequest {
    /// Selects an SQL literal, decoded as `type`.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select([sqlLiteral], as: T.self)
    }

    /// Selects the primary key, decoded as `type`.
    public func selectPrimaryKey<T>(as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        let table = relation.tableName
        return select([SQLExpression(.deferred { context in
            let columns = try context.db.primaryKey(table).columns
            if columns.count == 1 { return SQLExpression.column(columns[0]) }
            // Several selected columns, joined with commas.
            return SQLExpression(.literal(SQL(elements: columns.enumerated().flatMap { index, column -> [SQL.Element] in
                index == 0 ? [.expression(.column(column))] : [.sql(", ", StatementArguments()), .expression(.column(column))]
            })))
        })], as: T.self)
    }

    /// Keeps the groups that match a predicate built from the record's
    /// columns.
    public func having(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self
    where RowDecoder: TableRecord {
        having(try predicate(RowDecoder.Columns.self))
    }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable {
    /// Selects the ids of the records.
    ///
    /// ```swift
    /// let ids = try Player.filter { $0.name != nil }.selectID().fetchAll(db)
    /// ```
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> { selectPrimaryKey(as: RowDecoder.ID.self) }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Selects a column, replacing any previous selection.
    ///
    /// ```swift
    /// Player.all().select { max($0.score) }
    /// ```
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        select([try selection(RowDecoder.Columns.self)])
    }

    /// Selects a column, decoded as `type`.
    ///
    /// ```swift
    /// extension QueryInterfaceRequest<Author> {
    ///     func selectName() -> QueryInterfaceRequest<String> { select(\.name) }
    /// }
    /// ```
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        select([try selection(RowDecoder.Columns.self)], as: T.self)
    }

    /// Selects columns, decoded as `type`.
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        select(try selection(RowDecoder.Columns.self), as: T.self)
    }

    /// Appends a column built from the record's columns to the selection.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        annotated(with: [try selection(RowDecoder.Columns.self)])
    }

    /// Appends columns built from the record's columns to the selection.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        annotated(with: try selection(RowDecoder.Columns.self))
    }

    /// Groups rows by the record's columns.
    public func group(_ expression: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        group([try expression(RowDecoder.Columns.self)])
    }

    /// Groups rows by the record's columns.
    public func group(_ expressions: (RowDecoder.DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        group(try expressions(RowDecoder.Columns.self))
    }

    /// Updates the rows of the request with an assignment built from the
    /// record's columns, and returns how many were updated.
    ///
    /// ```swift
    /// try Player.filter { $0.team == "red" }.updateAll(db) { $0.score += 1 }
    /// ```
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.Columns.self)])
    }

    /// Updates the rows of the request with assignments built from the
    /// record's columns, and returns how many were updated.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.Columns.self))
    }
}

// MARK: - Batch operations that return rows

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
    /// The RETURNING clause of the record's selection.
    private func returningSQL(_ db: Database) throws -> String {
        let context = SQLGenerationContext(db, inlinesValues: true)
        return " RETURNING " + (try RowDecoder.defaultSelection.map { try $0.sql(context) }.joined(separator: ", "))
    }

    /// Deletes the rows of the request and returns the deleted records
    /// (`DELETE ... RETURNING`).
    ///
    /// ```swift
    /// let deletedPlayers = try Player.filter { $0.score < 100 }.deleteAndFetchAll(db)
    /// ```
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder] {
        let context = SQLGenerationContext(db)
        let sql = try deleteSQL(context) + returningSQL(db)
        return try RowDecoder.fetchAll(db.makeStatement(sql: sql), arguments: StatementArguments(values: context.arguments))
    }

    /// Deletes the rows of the request and returns the set of deleted
    /// records.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder> where RowDecoder: Hashable {
        try Set(deleteAndFetchAll(db))
    }

    /// Updates the rows of the request and returns the updated records
    /// (`UPDATE ... RETURNING`).
    ///
    /// ```swift
    /// let updatedPlayers = try Player.all().updateAndFetchAll(db, [Column("score") += 10])
    /// ```
    public func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> [RowDecoder]
    {
        let context = SQLGenerationContext(db)
        guard let sql = try updateSQL(context, onConflict: conflictResolution, assignments) else {
            // Nothing to assign: nothing is updated.
            return []
        }
        return try RowDecoder.fetchAll(
            db.makeStatement(sql: sql + returningSQL(db)), arguments: StatementArguments(values: context.arguments))
    }

    /// Updates the rows of the request with assignments built from the
    /// record's columns, and returns the updated records.
    ///
    /// ```swift
    /// let updatedPlayers = try Player.all().updateAndFetchAll(db) { [$0.score += 10] }
    /// ```
    public func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> [RowDecoder]
    {
        try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.Columns.self))
    }

    /// Updates the rows of the request and returns the set of updated
    /// records.
    public func updateAndFetchSet(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Set<RowDecoder> where RowDecoder: Hashable
    {
        try Set(updateAndFetchAll(db, onConflict: conflictResolution, assignments))
    }
}

extension TableRecord where Self: FetchableRecord {
    /// Deletes all rows and returns the deleted records.
    public static func deleteAndFetchAll(_ db: Database) throws -> [Self] { try all().deleteAndFetchAll(db) }

    /// Updates all rows and returns the updated records.
    public static func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> [Self]
    {
        try all().updateAndFetchAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows with assignments built from the record's columns,
    /// and returns the updated records.
    public static func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> [Self]
    {
        try all().updateAndFetchAll(db, onConflict: conflictResolution, assignments(Columns.self))
    }
}
