// Batch updates and deletes that return the changed records
// (`UPDATE ... RETURNING`, `DELETE ... RETURNING`).

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
