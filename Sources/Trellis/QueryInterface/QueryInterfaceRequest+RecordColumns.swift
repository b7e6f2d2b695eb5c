// GRDB's closure forms: the closure receives the record's `Columns`, and
// key paths such as `\.score.desc` stand for such closures.

extension TableRecord {
    /// A request of rows sorted by the record's columns.
    ///
    /// ```swift
    /// Player.order { [$0.score.desc, $0.name] }
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self> {
        all().order(try orderings(Columns.self))
    }

    /// A request of the selected columns.
    ///
    /// ```swift
    /// let maxScore = try Int.fetchOne(db, Player.select { max($0.score) })
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        all().select([try selection(Columns.self)])
    }

    /// A request of the selected columns.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Player.select { [min($0.score), max($0.score)] })
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        all().select(try selection(Columns.self))
    }

    /// A request of the selected column, decoded as `type`.
    ///
    /// ```swift
    /// let names = try Player.select(\.name, as: String.self).fetchAll(db)
    /// let maxScore = try Player.select({ max($0.score) }, as: Int.self).fetchOne(db)
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public static func select<T>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        all().select([try selection(Columns.self)], as: T.self)
    }

    /// A request of the selected columns, decoded as `type`.
    ///
    /// - Throws: The error thrown by the closure.
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
    ///
    /// - Throws: The error thrown by the closure.
    public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        all().annotated(with: [try selection(Columns.self)])
    }

    /// A request of rows with extra selected columns.
    ///
    /// - Throws: The error thrown by the closure.
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
    ///
    /// - Throws: The error thrown by the closure.
    public static func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        all().group([try expression(Columns.self)])
    }

    /// A request of rows grouped by the record's columns.
    ///
    /// - Throws: The error thrown by the closure.
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
    ///
    /// - Throws: The error thrown by the closure; a ``DatabaseError`` if the
    ///   request or an assignment cannot be compiled, or if SQLite fails (a
    ///   constraint violation, for example).
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
    ///
    /// - Throws: The error thrown by the closure; a ``DatabaseError`` if the
    ///   request or an assignment cannot be compiled, or if SQLite fails (a
    ///   constraint violation, for example).
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
    ///
    /// - Throws: The error thrown by the closure.
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
    ///
    /// - Throws: The error thrown by the closure.
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
    ///
    /// - Throws: The error thrown by the closure.
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        select([try selection(RowDecoder.Columns.self)], as: T.self)
    }

    /// Selects columns, decoded as `type`.
    ///
    /// - Throws: The error thrown by the closure.
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable], as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        select(try selection(RowDecoder.Columns.self), as: T.self)
    }

    /// Appends a column built from the record's columns to the selection.
    ///
    /// - Throws: The error thrown by the closure.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        annotated(with: [try selection(RowDecoder.Columns.self)])
    }

    /// Appends columns built from the record's columns to the selection.
    ///
    /// - Throws: The error thrown by the closure.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        annotated(with: try selection(RowDecoder.Columns.self))
    }

    /// Groups rows by the record's columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func group(_ expression: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        group([try expression(RowDecoder.Columns.self)])
    }

    /// Groups rows by the record's columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func group(_ expressions: (RowDecoder.DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        group(try expressions(RowDecoder.Columns.self))
    }

    /// Updates the rows of the request with an assignment built from the
    /// record's columns, and returns how many were updated.
    ///
    /// ```swift
    /// try Player.filter { $0.team == "red" }.updateAll(db) { $0.score += 1 }
    /// ```
    ///
    /// - Throws: The error thrown by the closure; a ``DatabaseError`` if the
    ///   request or an assignment cannot be compiled, or if SQLite fails (a
    ///   constraint violation, for example).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.Columns.self)])
    }

    /// Updates the rows of the request with assignments built from the
    /// record's columns, and returns how many were updated.
    ///
    /// - Throws: The error thrown by the closure; a ``DatabaseError`` if the
    ///   request or an assignment cannot be compiled, or if SQLite fails (a
    ///   constraint violation, for example).
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.Columns.self))
    }
}
