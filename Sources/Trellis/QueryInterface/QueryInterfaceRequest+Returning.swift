// Batch updates and deletes that return the changed records
// (`UPDATE ... RETURNING`, `DELETE ... RETURNING`).

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
    /// The RETURNING clause of the record's selection.
    private func returningSQL(_ db: Database) throws -> String {
        try returningSQL(db, RowDecoder.defaultSelection)
    }

    /// Deletes the rows of the request and returns the deleted records
    /// (`DELETE ... RETURNING`).
    ///
    /// ```swift
    /// let deletedPlayers = try Player.filter { $0.score < 100 }.deleteAndFetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a deleted row cannot be decoded.
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder] {
        let context = SQLGenerationContext(db)
        let sql = try deleteSQL(context) + returningSQL(db)
        return try RowDecoder.fetchAll(db.makeStatement(sql: sql), arguments: StatementArguments(values: context.arguments))
    }

    /// Deletes the rows of the request and returns the set of deleted
    /// records.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a deleted row cannot be decoded.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder> where RowDecoder: Hashable {
        try Set(deleteAndFetchAll(db))
    }

    /// Updates the rows of the request and returns the updated records
    /// (`UPDATE ... RETURNING`).
    ///
    /// ```swift
    /// let updatedPlayers = try Player.all().updateAndFetchAll(db, [Column("score") += 10])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if an updated row cannot be decoded.
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
    ///
    /// - Throws: The error thrown by the closure; a ``DatabaseError`` if the
    ///   request or an assignment cannot be compiled, or if SQLite fails; a
    ///   ``RowDecodingError``, or the error of `init(row:)`, if an updated row
    ///   cannot be decoded.
    public func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> [RowDecoder]
    {
        try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.Columns.self))
    }

    /// Updates the rows of the request and returns the set of updated
    /// records.
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if an updated row cannot be decoded.
    public func updateAndFetchSet(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Set<RowDecoder> where RowDecoder: Hashable
    {
        try Set(updateAndFetchAll(db, onConflict: conflictResolution, assignments))
    }
}

extension TableRecord where Self: FetchableRecord {
    /// Deletes all rows and returns the deleted records.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a deleted row cannot be decoded.
    public static func deleteAndFetchAll(_ db: Database) throws -> [Self] { try all().deleteAndFetchAll(db) }

    /// Updates all rows and returns the updated records.
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if an updated row cannot be decoded.
    public static func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> [Self]
    {
        try all().updateAndFetchAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows with assignments built from the record's columns,
    /// and returns the updated records.
    ///
    /// - Throws: The error thrown by the closure; a ``DatabaseError`` if the
    ///   request or an assignment cannot be compiled, or if SQLite fails; a
    ///   ``RowDecodingError``, or the error of `init(row:)`, if an updated row
    ///   cannot be decoded.
    public static func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> [Self]
    {
        try all().updateAndFetchAll(db, onConflict: conflictResolution, assignments(Columns.self))
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// The statement of `DELETE ... RETURNING selection`, with its
    /// arguments: fetching from it deletes the rows of the request.
    ///
    /// ```swift
    /// // DELETE FROM player RETURNING name
    /// let statement = try Player.all().deleteAndFetchStatement(db) { [$0.name] }
    /// let deletedNames = try String.fetchSet(statement)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request or the selection cannot be
    ///   compiled.
    public func deleteAndFetchStatement(
        _ db: Database, select selection: (RowDecoder.DatabaseComponents) -> [any SQLSelectable]) throws -> Statement
    {
        try deleteAndFetchStatement(db, selection: selection(RowDecoder.Columns.self))
    }

    /// Deletes the rows of the request and returns the set of their ids
    /// (`DELETE ... RETURNING id`).
    ///
    /// ```swift
    /// let deletedIds = try Player.filter { $0.score < 100 }.deleteAndFetchIds(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the primary key of the table has
    ///   several columns, or if the request cannot be compiled or SQLite fails;
    ///   a ``RowDecodingError`` if an id cannot be decoded.
    public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID>
    where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible
    {
        let primaryKey = try db.primaryKey(relation.tableName)
        guard primaryKey.columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "deleteAndFetchIds needs a single-column primary key; table \(relation.tableName) has \(primaryKey.columns.count)")
        }
        return try RowDecoder.ID.fetchSet(deleteAndFetchStatement(db, selection: [Column(primaryKey.columns[0])]))
    }

    /// The statement of `DELETE ... RETURNING selection`, with its
    /// arguments.
    ///
    /// - Throws: A ``DatabaseError`` if the request or the selection cannot be
    ///   compiled.
    public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
        let context = SQLGenerationContext(db)
        let sql = try deleteSQL(context) + returningSQL(db, selection)
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(StatementArguments(values: context.arguments))
        return statement
    }

    /// The statement of `UPDATE ... RETURNING selection`, with its
    /// arguments: fetching from it updates the rows of the request.
    ///
    /// ```swift
    /// // UPDATE player SET score = score + 10 RETURNING score
    /// let statement = try Player.all().updateAndFetchStatement(db) {
    ///     [$0.score += 10]
    /// } select: {
    ///     [$0.score]
    /// }
    /// let updatedScores = try Int.fetchAll(statement)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if there is nothing to assign, or if the
    ///   request, an assignment or the selection cannot be compiled.
    public func updateAndFetchStatement(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (RowDecoder.DatabaseComponents) -> [ColumnAssignment],
        select selection: (RowDecoder.DatabaseComponents) -> [any SQLSelectable]) throws -> Statement
    {
        try updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments(RowDecoder.Columns.self),
            selection: selection(RowDecoder.Columns.self))
    }

    /// The statement of `UPDATE ... RETURNING selection`, with its
    /// arguments. Throws when there is nothing to assign.
    ///
    /// - Throws: A ``DatabaseError`` if there is nothing to assign, or if the
    ///   request, an assignment or the selection cannot be compiled.
    public func updateAndFetchStatement(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment], selection: [any SQLSelectable]) throws -> Statement
    {
        let context = SQLGenerationContext(db)
        guard let sql = try updateSQL(context, onConflict: conflictResolution, assignments) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "updateAndFetchStatement needs at least one assignment")
        }
        let statement = try db.makeStatement(sql: sql + returningSQL(db, selection))
        try statement.setArguments(StatementArguments(values: context.arguments))
        return statement
    }

    /// ` RETURNING selection`, with values inlined.
    fileprivate func returningSQL(_ db: Database, _ selection: [any SQLSelectable]) throws -> String {
        " RETURNING " + (try SQLSelection.returnedColumnsSQL(db, selection, table: relation.tableName))
    }
}

extension SQLSelection {
    /// The columns of a RETURNING clause of a statement that changes
    /// `table`, with values inlined: `allColumns(excluding:)` lists the
    /// other columns of the table. Throws when there is none.
    static func returnedColumnsSQL(_ db: Database, _ selection: [any SQLSelectable], table: String) throws -> String {
        // The selection of most records, returned by the `…AndFetch`
        // methods without generating SQL.
        if selection.count == 1, case .allColumns(nil) = selection[0].sqlSelection.impl { return "*" }
        let context = SQLGenerationContext(db, inlinesValues: true)
        let alias = AliasIdentity(tableName: table)
        let columns = try selection.map { try $0.sqlSelection.qualified(with: alias).sql(context) }
        guard !columns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "RETURNING needs at least one selected column")
        }
        return columns.joined(separator: ", ")
    }
}

