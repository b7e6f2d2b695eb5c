extension MutablePersistableRecord {
    /// Updates the row of the record, all columns or the given ones.
    /// Throws ``RecordError/recordNotFound(databaseTableName:key:)`` when
    /// no row has the record's primary key.
    ///
    /// ```swift
    /// player.score = 1000
    /// try player.update(db)
    /// try player.update(db, columns: ["score"])
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; the error of `encode(to:)` or
    ///   of a persistence callback.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: Set<String>? = nil) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: columns, returning: nil)
    }

    /// The update with all callbacks. With `returning`, the statement
    /// returns the updated row (`UPDATE ... RETURNING *`), given to
    /// `returning`.
    ///
    /// - parameter container: the record's `persistenceContainer()`, when
    ///   the caller has it already (callbacks can not modify the record).
    func performUpdate(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?,
        container: PersistenceContainer? = nil, returning: PersistenceReturning?) throws
    {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            let success = try updateWithCallbacks(
                db, onConflict: conflictResolution, columns: columns, container: container, returning: returning)
            saved = success
            return success
        }
        guard let saved else { throw DatabaseError.callbackNotCalled("aroundSave", of: Self.self) }
        didSave(saved)
    }

    /// Updates the given columns of the record's row.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; the error of `encode(to:)` or
    ///   of a persistence callback.
    public func update(_ db: Database, columns: some Collection<some ColumnExpression>) throws {
        try update(db, onConflict: nil, columns: Set(columns.map(\.name)))
    }

    /// Updates the given columns of the record's row.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; the error of `encode(to:)` or
    ///   of a persistence callback.
    public func update(_ db: Database, columns: some Collection<String>) throws {
        try update(db, onConflict: nil, columns: Set(columns))
    }

    func updateWithCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?,
        container: PersistenceContainer? = nil, returning: PersistenceReturning? = nil) throws -> PersistenceSuccess
    {
        let container = try container ?? persistenceContainer()
        // Without explicit columns, the callbacks get all the columns of the
        // table, as in GRDB, even those that the record does not encode.
        let updatedColumns = try columns ?? Set(db.columns(in: Self.databaseTableName).map(\.name))
        try willUpdate(db, columns: updatedColumns)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: updatedColumns) {
            let success = try updateWithoutCallbacks(
                db, onConflict: conflictResolution, columns: columns, container: container, returning: returning)
            updated = success
            return success
        }
        guard let updated else { throw DatabaseError.callbackNotCalled("aroundUpdate", of: Self.self) }
        didUpdate(updated)
        return updated
    }

    /// Runs the UPDATE statement; throws `recordNotFound` when no row
    /// changed.
    func updateWithoutCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?,
        container: PersistenceContainer, returning: PersistenceReturning? = nil) throws -> PersistenceSuccess
    {
        let (table, primaryKey) = try Self.tableAndPrimaryKey(db)
        let keyValues = primaryKeyValues(primaryKey, container: container)
        // Column names compare as SQLite compares them: ignoring ASCII case.
        // Encoded values that are no column of the table are not written,
        // as in GRDB.
        let cache = db.recordStatementCache
        var setColumns = try container.columns.filter { column in
            try !primaryKey.columns.contains { $0.isEqualIgnoringASCIICase(column) }
                && (columns.map { set in set.contains(column) || set.contains { $0.isEqualIgnoringASCIICase(column) } } ?? true)
                && cache.table(db, table, hasColumn: column)
        }
        // With nothing to change, the key sets itself, so that a missing
        // row is still reported.
        var setValues = setColumns.map { container.databaseValue(forColumn: $0) ?? .null }
        if setColumns.isEmpty {
            setColumns = primaryKey.columns
            setValues = keyValues
        }
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForUpdate
        let operation: RecordStatementCache.Operation = returning.map {
            .custom("UPDATE RETURNING \(conflict.rawValue) \($0.selectionSQL)")
        } ?? .update(conflict)
        let statement = try db.recordStatementCache.statement(
            db, key: .init(type: ObjectIdentifier(Self.self), operation: operation), columns: setColumns)
        {
            guard conflict == .abort || !db.usesServer else { throw db.dialect.unsupported("UPDATE OR \(conflict.rawValue)") }
            var sql = conflict == .abort ? "UPDATE " : "UPDATE OR \(conflict.rawValue) "
            sql += table.quotedDatabaseIdentifier + " SET "
            sql += setColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
            sql += " WHERE " + primaryKey.columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
            if let returning { sql += " RETURNING " + returning.selectionSQL }
            return sql
        }
        func notFound() -> RecordError {
            RecordError.recordNotFound(
                databaseTableName: table,
                key: Dictionary(zip(primaryKey.columns, keyValues)) { _, last in last })
        }
        if let returning {
            try statement.setArguments(StatementArguments(values: setValues + keyValues))
            guard try returning.fetch(statement), db.changesCount > 0 else { throw notFound() }
        } else {
            let values = setValues + keyValues
            try statement.bind(values)
            guard try statement.executeRowChange(arguments: values, primaryKey: primaryKey) else { throw notFound() }
        }
        return PersistenceSuccess(persistenceContainer: container)
    }

    /// The values of the primary key in the encoded columns. A key column
    /// that the record does not encode (the hidden rowid, most often) is
    /// NULL, as in GRDB: such a record matches no row.
    func primaryKeyValues(_ primaryKey: PrimaryKeyInfo, container: PersistenceContainer) -> [DatabaseValue] {
        primaryKey.columns.map { container.databaseValue(forColumn: $0) ?? .null }
    }

    /// Updates the columns that differ from `record`. Returns whether a
    /// column changed; writes nothing when none did.
    ///
    /// ```swift
    /// let old = player
    /// player.score = 1000
    /// let changed = try player.updateChanges(db, from: old)
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; the error of `encode(to:)` or
    ///   of a persistence callback.
    @discardableResult
    public func updateChanges(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, from record: Self) throws -> Bool
    {
        let changes = try changes(from: record)
        if changes.columns.isEmpty { return false }
        try performUpdate(db, onConflict: conflictResolution, columns: changes.columns, container: changes.container, returning: nil)
        return true
    }

    /// Modifies the record, then updates the columns that changed. Returns
    /// whether a column changed; writes nothing when none did.
    ///
    /// ```swift
    /// try config.updateChanges(db) {
    ///     $0.flag = true
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `modify`;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if no row has
    ///   the record's primary key; a ``DatabaseError`` if SQLite fails; the
    ///   error of `encode(to:)` or of a persistence callback.
    @discardableResult
    public mutating func updateChanges(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void) throws -> Bool
    {
        let old = self
        try modify(&self)
        return try updateChanges(db, onConflict: conflictResolution, from: old)
    }
}

extension MutablePersistableRecord where Self: FetchableRecord {
    /// Updates the row of the record and returns the updated row
    /// (`UPDATE ... RETURNING *`).
    ///
    /// ```swift
    /// let updated = try player.updateAndFetch(db)
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; a ``RowDecodingError`` if the
    ///   updated row cannot be decoded; the error of `encode(to:)` or of a
    ///   persistence callback.
    public func updateAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        try updateAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Modifies the record, then updates the columns that changed and
    /// returns the updated row; returns nil and writes nothing when no
    /// column changed.
    ///
    /// ```swift
    /// if let updated = try player.updateChangesAndFetch(db, modify: { $0.score = 1000 }) { ... }
    /// ```
    ///
    /// - Throws: The error thrown by `modify`;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if no row has
    ///   the record's primary key; a ``DatabaseError`` if SQLite fails; a
    ///   ``RowDecodingError`` if the updated row cannot be decoded; the error
    ///   of `encode(to:)` or of a persistence callback.
    public mutating func updateChangesAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void) throws -> Self?
    {
        let old = self
        try modify(&self)
        return try updateChangesAndFetch(db, onConflict: conflictResolution, from: old)
    }

    /// Updates the columns that differ from `record` and returns the
    /// updated row; returns nil and writes nothing when no column changed.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; a ``RowDecodingError`` if the
    ///   updated row cannot be decoded; the error of `encode(to:)` or of a
    ///   persistence callback.
    public func updateChangesAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, from record: Self) throws -> Self?
    {
        let changes = try changes(from: record)
        if changes.columns.isEmpty { return nil }
        var fetched: Self?
        try performUpdate(
            db, onConflict: conflictResolution, columns: changes.columns, container: changes.container,
            returning: .row(db, of: Self.self, table: Self.databaseTableName) { fetched = try Self(row: $0) })
        return fetched
    }
}

extension MutablePersistableRecord {
    /// Updates the row of the record and returns the updated row decoded
    /// as `returnedType`.
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; a ``RowDecodingError`` if the
    ///   updated row cannot be decoded; the error of `encode(to:)` or of a
    ///   persistence callback.
    public func updateAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type) throws -> T
    {
        var fetched: T?
        try performUpdate(
            db, onConflict: conflictResolution, columns: nil,
            returning: .row(db, of: T.self, table: Self.databaseTableName) { fetched = try T(row: $0) })
        guard let fetched else {
            // Not reached: a missing row throws recordNotFound.
            throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: [:])
        }
        return fetched
    }
}
