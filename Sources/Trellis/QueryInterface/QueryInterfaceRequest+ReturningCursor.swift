// Batch updates and deletes that return a cursor of the changed records
// (`UPDATE ... RETURNING`, `DELETE ... RETURNING`).
//
// SQLite makes all the changes of such a statement when the cursor is
// first stepped: a cursor that is never iterated changes nothing.

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
    /// Deletes the rows of the request and returns a cursor over the
    /// deleted records (`DELETE ... RETURNING`). The rows are deleted when
    /// the cursor is first iterated.
    ///
    /// ```swift
    /// let cursor = try Player.filter { $0.score < 100 }.deleteAndFetchCursor(db)
    /// while let player = try cursor.next() {
    ///     print("deleted \(player.name)")
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled;
    ///   iterating the cursor throws what `deleteAndFetchAll(_:)` throws.
    public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request and returns a cursor over the
    /// updated records (`UPDATE ... RETURNING`). The rows are updated when
    /// the cursor is first iterated. Throws when there is nothing to
    /// assign.
    ///
    /// ```swift
    /// let cursor = try Player.all().updateAndFetchCursor(db, [Column("score") += 10])
    /// while let player = try cursor.next() { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled; iterating the cursor throws what
    ///   `updateAndFetchAll(_:onConflict:_:)` throws.
    public func updateAndFetchCursor(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> RecordCursor<RowDecoder>
    {
        try RowDecoder.fetchCursor(updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request with assignments built from the
    /// record's columns, and returns a cursor over the updated records.
    ///
    /// ```swift
    /// let cursor = try Player.all().updateAndFetchCursor(db) { [$0.score += 10] }
    /// ```
    ///
    /// - Throws: The error thrown by the closure; a ``DatabaseError`` if the
    ///   request or an assignment cannot be compiled.
    public func updateAndFetchCursor(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> RecordCursor<RowDecoder>
    {
        try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.Columns.self))
    }
}

extension TableRecord where Self: FetchableRecord {
    /// Deletes all rows and returns a cursor over the deleted records.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled;
    ///   iterating the cursor throws what `deleteAndFetchAll(_:)` throws.
    public static func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<Self> {
        try all().deleteAndFetchCursor(db)
    }

    /// Updates all rows and returns a cursor over the updated records.
    ///
    /// - Throws: A ``DatabaseError`` if the request or an assignment cannot be
    ///   compiled; iterating the cursor throws what
    ///   `updateAndFetchAll(_:onConflict:_:)` throws.
    public static func updateAndFetchCursor(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> RecordCursor<Self>
    {
        try all().updateAndFetchCursor(db, onConflict: conflictResolution, assignments)
    }
}
