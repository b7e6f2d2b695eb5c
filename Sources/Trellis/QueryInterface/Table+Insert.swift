extension Table {
    // MARK: Inserting rows

    /// Inserts one row.
    ///
    /// ```swift
    /// // INSERT INTO "player" ("name", "score") VALUES (?, ?)
    /// try Table("player").insert(db, values: ["name": "Arthur", "score": 100])
    ///
    /// // INSERT OR IGNORE INTO "tag" ("name") VALUES (?)
    /// try Table("tag").insert(db, values: ["name": "swift"], onConflict: .ignore)
    /// ```
    ///
    /// Columns that `values` does not name get their default values; no
    /// values at all insert a row of defaults. The inserted rowid is
    /// ``Database/lastInsertedRowID``.
    ///
    /// - throws: A ``DatabaseError`` from SQLite: a missing table or column,
    ///   a violated constraint.
    public func insert(
        _ db: Database,
        values: [String: (any DatabaseValueConvertible)?],
        onConflict conflictResolution: Database.ConflictResolution? = nil) throws
    {
        let (columns, arguments) = Self.columnsAndArguments(values)
        try insertStatement(db, columns: columns, onConflict: conflictResolution).execute(arguments: arguments)
    }

    /// Inserts one row, or, when it conflicts with an existing row on the
    /// `conflictTarget` columns (a primary key or a unique index), updates
    /// that row instead.
    ///
    /// ```swift
    /// // INSERT INTO "player" ("id", "name", "score") VALUES (?, ?, ?)
    /// // ON CONFLICT("id") DO UPDATE SET "name" = excluded."name", "score" = excluded."score"
    /// try Table("player").upsert(db, values: ["id": 1, "name": "Arthur", "score": 100], onConflict: ["id"])
    /// ```
    ///
    /// - parameters:
    ///   - db: A connection in a write access.
    ///   - values: The values of the columns.
    ///   - conflictTarget: The columns of the key that detects the conflict.
    ///   - updatedColumns: The columns that the existing row takes from the
    ///     inserted one. By default, the columns of `values` but the
    ///     conflict target. With none, the existing row is left as it is
    ///     (`DO NOTHING`).
    /// - throws: A ``DatabaseError``: no values (SQLite has no upsert of
    ///   default values); or SQLite's, such as a conflict target that is
    ///   no key of the table.
    public func upsert(
        _ db: Database,
        values: [String: (any DatabaseValueConvertible)?],
        onConflict conflictTarget: [String],
        doUpdate updatedColumns: [String]? = nil) throws
    {
        let (columns, arguments) = Self.columnsAndArguments(values)
        try upsertStatement(db, columns: columns, onConflict: conflictTarget, doUpdate: updatedColumns)
            .execute(arguments: arguments)
    }

    /// The statement that inserts one row of `columns`, for inserting
    /// many rows: its arguments are the values of the columns, in order.
    ///
    /// ```swift
    /// let insert = try Table("player").insertStatement(db, columns: ["name", "score"])
    /// for (name, score) in [("Arthur", 100), ("Barbara", 1000)] {
    ///     try insert.execute(arguments: [name, score])
    /// }
    /// ```
    ///
    /// The statement comes from the database's statement cache
    /// (``Database/cachedStatement(sql:)``): asking again for the same
    /// columns returns it without compiling SQL again.
    ///
    /// - throws: A ``DatabaseError`` from the database: a missing table or
    ///   column; on PostgreSQL, a conflict resolution other than `.abort`.
    public func insertStatement(
        _ db: Database,
        columns: [String],
        onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Statement
    {
        let sql = try InsertSQL(table: tableName, columns: columns, conflict: conflictResolution ?? .abort).sql(db)
        return try db.cachedStatement(sql: sql)
    }

    /// The statement of ``upsert(_:values:onConflict:doUpdate:)`` for
    /// `columns`: its arguments are the values of the columns, in order.
    ///
    /// ```swift
    /// let upsert = try Table("player").upsertStatement(db, columns: ["id", "score"], onConflict: ["id"])
    /// try upsert.execute(arguments: [1, 100])
    /// ```
    ///
    /// - throws: A ``DatabaseError``: no columns; or SQLite's, such as a
    ///   conflict target that is no key of the table.
    public func upsertStatement(
        _ db: Database,
        columns: [String],
        onConflict conflictTarget: [String],
        doUpdate updatedColumns: [String]? = nil) throws -> Statement
    {
        guard !columns.isEmpty else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "an upsert into \(tableName) needs at least one column: SQLite has no upsert of default values")
        }
        let conflictColumns = Set(conflictTarget.map { $0.lowercased() })
        let updated = updatedColumns ?? columns.filter { !conflictColumns.contains($0.lowercased()) }
        let sql = try InsertSQL(
            table: tableName, columns: columns,
            upsert: InsertSQL.Upsert(conflictTarget: conflictTarget, updatedColumns: updated)).sql(db)
        return try db.cachedStatement(sql: sql)
    }

    /// The columns of `values` in a stable order, so that the same columns
    /// find the same cached statement, and their values in that order.
    private static func columnsAndArguments(
        _ values: [String: (any DatabaseValueConvertible)?]) -> ([String], StatementArguments)
    {
        let columns = values.keys.sorted()
        let arguments = StatementArguments(columns.map { values[$0] ?? nil })
        return (columns, arguments)
    }
}
