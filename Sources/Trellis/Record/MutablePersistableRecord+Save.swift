extension MutablePersistableRecord {
    /// Updates the record's row if it exists, and inserts it otherwise.
    ///
    /// With a null primary key, `save` inserts; else it updates, and
    /// inserts when no row was updated.
    ///
    /// ```swift
    /// try player.save(db)
    /// ```
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performSave(db, onConflict: conflictResolution)
    }

    mutating func performSave(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        let record = self
        try record.aroundSave(db) {
            let success = try saveWithCallbacks(db, onConflict: conflictResolution)
            saved = success
            return success
        }
        guard let saved else { throw RecordError.callbackNotCalled("aroundSave") }
        didSave(saved)
    }

    /// Saves a copy of the record, and returns it.
    @discardableResult
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.performSave(db, onConflict: conflictResolution)
        return record
    }

    private mutating func saveWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> PersistenceSuccess {
        let container = try persistenceContainer()
        let primaryKey = try db.primaryKey(Self.databaseTableName)
        let keyValues = primaryKey.columns.map { container.databaseValue(forColumn: $0) ?? .null }
        if keyValues.contains(where: { !$0.isNull }) {
            do {
                return try updateWithCallbacks(db, onConflict: conflictResolution, columns: nil)
            } catch RecordError.recordNotFound {
                // Not there yet: insert below.
            }
        }
        return PersistenceSuccess(try insertWithCallbacks(db) { record in
            try record.insertWithoutCallbacks(db, onConflict: conflictResolution)
        })
    }
}
