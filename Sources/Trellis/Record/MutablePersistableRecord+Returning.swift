// Persistence methods that fetch chosen columns of the written row
// (`INSERT ... RETURNING score`), read from the statement by the caller.

extension MutablePersistableRecord {
    /// Inserts the record, and fetches the selected columns of the inserted
    /// row from the statement of `INSERT ... RETURNING`.
    ///
    /// ```swift
    /// // INSERT INTO player (name) VALUES ('Alice') RETURNING score
    /// let score = try partialPlayer.insertAndFetch(db) { statement in
    ///     try Int.fetchOne(statement)
    /// } select: {
    ///     [$0.score]
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation, or if the selection names an unknown column; a
    ///   ``RowDecodingError`` if the selected values cannot be decoded; the
    ///   error of `encode(to:)` or of a persistence callback.
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select selection: (DatabaseComponents) -> [any SQLSelectable]) throws -> T
    {
        try insertAndFetch(db, onConflict: conflictResolution, selection: selection(Columns.self), fetch: fetch)
    }

    /// Inserts the record, and fetches the `selection` of the inserted row
    /// from the statement of `INSERT ... RETURNING`.
    ///
    /// ```swift
    /// let score = try partialPlayer.insertAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation, or if the selection names an unknown column; a
    ///   ``RowDecodingError`` if the selected values cannot be decoded; the
    ///   error of `encode(to:)` or of a persistence callback.
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        try performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// The insert of `insertAndFetch(_:onConflict:selection:fetch:)`, which
    /// the non-mutating methods of `PersistableRecord` call too.
    mutating func performInsertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        try writeAndFetch(db, selection: selection, fetch: fetch) { record, returning in
            try record.withInsertCallbacks(db) { record in
                try record.insertWithoutCallbacks(db, onConflict: conflictResolution, returning: returning)
            }
        }
    }

    /// Saves the record (see ``save(_:onConflict:)``), and fetches the
    /// `selection` of the saved row from the statement of `UPDATE ...
    /// RETURNING` or `INSERT ... RETURNING`.
    ///
    /// ```swift
    /// let score = try player.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation, or if the selection names an unknown column; a
    ///   ``RowDecodingError`` if the selected values cannot be decoded; the
    ///   error of `encode(to:)` or of a persistence callback.
    public mutating func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        try performSaveAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// The save of `saveAndFetch(_:onConflict:selection:fetch:)`, which the
    /// non-mutating method of `PersistableRecord` calls too.
    mutating func performSaveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        try writeAndFetch(db, selection: selection, fetch: fetch) { record, returning in
            try record.performSave(db, onConflict: conflictResolution, returning: returning)
        }
    }

    /// Updates the record's row, and fetches the selected columns of the
    /// updated row from the statement of `UPDATE ... RETURNING`. Throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when no row
    /// has the record's primary key.
    ///
    /// ```swift
    /// let score = try player.updateAndFetch(db) { try Int.fetchOne($0) } select: { [$0.score] }
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails
    ///   or the selection names an unknown column; a ``RowDecodingError`` if
    ///   the selected values cannot be decoded; the error of `encode(to:)` or
    ///   of a persistence callback.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select selection: (DatabaseComponents) -> [any SQLSelectable]) throws -> T
    {
        try updateAndFetch(db, onConflict: conflictResolution, selection: selection(Columns.self), fetch: fetch)
    }

    /// Updates the record's row, and fetches the `selection` of the updated
    /// row from the statement of `UPDATE ... RETURNING`.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails
    ///   or the selection names an unknown column; a ``RowDecodingError`` if
    ///   the selected values cannot be decoded; the error of `encode(to:)` or
    ///   of a persistence callback.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.writeAndFetch(db, selection: selection, fetch: fetch) { record, returning in
            try record.performUpdate(db, onConflict: conflictResolution, columns: nil, returning: returning)
        }
    }

    /// Updates the given columns of the record's row, and fetches the
    /// `selection` of the updated row from the statement of `UPDATE ...
    /// RETURNING`. Throws ``RecordError/recordNotFound(databaseTableName:key:)``
    /// when no row has the record's primary key.
    ///
    /// ```swift
    /// // UPDATE player SET score = 1000 WHERE id = 1 RETURNING score
    /// player.score = 1000
    /// let score = try player.updateAndFetch(db, columns: ["score"], selection: [Column("score")]) {
    ///     try Int.fetchOne($0)
    /// }
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails
    ///   or the selection names an unknown column; a ``RowDecodingError`` if
    ///   the selected values cannot be decoded; the error of `encode(to:)` or
    ///   of a persistence callback.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: Set<String>, selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.writeAndFetch(db, selection: selection, fetch: fetch) { record, returning in
            try record.performUpdate(db, onConflict: conflictResolution, columns: columns, returning: returning)
        }
    }

    /// Updates the given columns of the record's row, and fetches the
    /// `selection` of the updated row from the statement of `UPDATE ...
    /// RETURNING`.
    ///
    /// ```swift
    /// let score = try player.updateAndFetch(db, columns: [Column("score")], selection: [Column("score")]) {
    ///     try Int.fetchOne($0)
    /// }
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails
    ///   or the selection names an unknown column; a ``RowDecodingError`` if
    ///   the selected values cannot be decoded; the error of `encode(to:)` or
    ///   of a persistence callback.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>, selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try updateAndFetch(
            db, onConflict: conflictResolution, columns: Set(columns.map(\.name)), selection: selection, fetch: fetch)
    }

    /// Runs `write` with the RETURNING clause of `selection`, and returns
    /// what `fetch` read from the statement.
    private mutating func writeAndFetch<T>(
        _ db: Database, selection: [any SQLSelectable], fetch: (Statement) throws -> T,
        write: (inout Self, PersistenceReturning) throws -> Void) throws -> T
    {
        try withoutActuallyEscaping(fetch) { fetch in
            var fetched: T?
            let returning = try PersistenceReturning.selection(db, selection, table: Self.databaseTableName) { fetched = try fetch($0) }
            try write(&self, returning)
            guard let fetched else {
                // `fetch` runs whenever the statement does.
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The RETURNING statement of \(Self.self) did not run")
            }
            return fetched
        }
    }
}

extension PersistableRecord {
    /// Inserts the record, and fetches the selected columns of the inserted
    /// row from the statement of `INSERT ... RETURNING`.
    ///
    /// ```swift
    /// let score = try partialPlayer.insertAndFetch(db) { try Int.fetchOne($0) } select: { [$0.score] }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation, or if the selection names an unknown column; a
    ///   ``RowDecodingError`` if the selected values cannot be decoded; the
    ///   error of `encode(to:)` or of a persistence callback.
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select selection: (DatabaseComponents) -> [any SQLSelectable]) throws -> T
    {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: selection(Columns.self), fetch: fetch)
    }

    /// Inserts the record, and fetches the `selection` of the inserted row
    /// from the statement of `INSERT ... RETURNING`.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation, or if the selection names an unknown column; a
    ///   ``RowDecodingError`` if the selected values cannot be decoded; the
    ///   error of `encode(to:)` or of a persistence callback.
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// Saves the record, and fetches the `selection` of the saved row from
    /// the statement of `UPDATE ... RETURNING` or `INSERT ... RETURNING`.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation, or if the selection names an unknown column; a
    ///   ``RowDecodingError`` if the selected values cannot be decoded; the
    ///   error of `encode(to:)` or of a persistence callback.
    public func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.performSaveAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }
}
