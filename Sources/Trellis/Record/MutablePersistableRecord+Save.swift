extension MutablePersistableRecord {
    /// Updates the record's row if it exists, and inserts it otherwise.
    ///
    /// With a null primary key, `save` inserts; else it updates, and
    /// inserts when no row was updated.
    ///
    /// ```swift
    /// try player.save(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation; the error of `encode(to:)` or of a persistence
    ///   callback.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performSave(db, onConflict: conflictResolution)
    }

    mutating func performSave(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        returning: PersistenceReturning? = nil) throws
    {
        try willSave(db)
        var saved: PersistenceSuccess?
        let record = self
        try record.aroundSave(db) {
            let success = try saveWithCallbacks(db, onConflict: conflictResolution, returning: returning)
            saved = success
            return success
        }
        guard let saved else { throw DatabaseError.callbackNotCalled("aroundSave", of: Self.self) }
        if !saved.insertedNothing { didSave(saved) }
    }

    /// Saves a copy of the record, and returns it.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation; the error of `encode(to:)` or of a persistence
    ///   callback.
    @discardableResult
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.performSave(db, onConflict: conflictResolution)
        return record
    }

    private mutating func saveWithCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        returning: PersistenceReturning?) throws -> PersistenceSuccess
    {
        let container = try persistenceContainer()
        let primaryKey = try Self.tableAndPrimaryKey(db).primaryKey
        let keyValues = primaryKey.columns.map { container.databaseValue(forColumn: $0) ?? .null }
        if keyValues.contains(where: { !$0.isNull }) {
            do {
                return try updateWithCallbacks(
                    db, onConflict: conflictResolution, columns: nil, container: container, returning: returning)
            } catch RecordError.recordNotFound {
                // Not there yet: insert below.
            }
        }
        return PersistenceSuccess(try insertWithCallbacks(db) { record in
            try record.insertWithoutCallbacks(db, onConflict: conflictResolution, returning: returning)
        })
    }
}

extension MutablePersistableRecord where Self: FetchableRecord {
    /// Saves the record (see ``save(_:onConflict:)``), and returns the
    /// saved row, with its default and generated values. The record itself
    /// is left as it is, as in GRDB: the returned one has the new id.
    ///
    /// ```swift
    /// let savedPlayer = try player.saveAndFetch(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if a conflict
    ///   policy ignored the write; a ``RowDecodingError`` if the saved row
    ///   cannot be decoded; the error of `encode(to:)` or of a persistence
    ///   callback.
    public func saveAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        return try record.performSaveAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }
}

extension MutablePersistableRecord {
    /// Saves the record, and returns the saved row decoded as
    /// `returnedType`.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if a conflict
    ///   policy ignored the write; a ``RowDecodingError`` if the saved row
    ///   cannot be decoded; the error of `encode(to:)` or of a persistence
    ///   callback.
    public mutating func saveAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type) throws -> T
    {
        try performSaveAndFetch(db, onConflict: conflictResolution, as: T.self)
    }

    mutating func performSaveAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, as returnedType: T.Type) throws -> T
    {
        var fetched: T?
        try performSave(
            db, onConflict: conflictResolution,
            returning: .row(db, of: T.self, table: Self.databaseTableName) { fetched = try T(row: $0) })
        guard let fetched else {
            throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: [:])
        }
        return fetched
    }
}
