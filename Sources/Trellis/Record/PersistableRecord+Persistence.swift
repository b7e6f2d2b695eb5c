// Non-mutating persistence methods of records that do not change when
// they are inserted (classes, and structs without auto-incremented ids).

extension PersistableRecord {
    /// Inserts the record.
    ///
    /// ```swift
    /// try Country(code: "FR", name: "France").insert(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation; the error of `encode(to:)` or of a persistence
    ///   callback.
    @inlinable
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.performInsert(db, onConflict: conflictResolution)
    }

    /// Updates the record's row if it exists, and inserts it otherwise.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation; the error of `encode(to:)` or of a persistence
    ///   callback.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.performSave(db, onConflict: conflictResolution)
    }

    /// Inserts the record, or updates the existing row that has the same
    /// primary key or unique key.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation that is not about the primary key; the error of
    ///   `encode(to:)` or of a persistence callback.
    public func upsert(_ db: Database) throws {
        var record = self
        try record.performUpsert(db)
    }
}

extension PersistableRecord where Self: FetchableRecord {
    /// Inserts the record and returns the inserted row.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if a conflict
    ///   policy ignored the insert; a ``RowDecodingError`` if the inserted row
    ///   cannot be decoded; the error of `encode(to:)` or of a persistence
    ///   callback.
    public func insertAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Inserts or updates the record, and returns the stored row.
    ///
    /// ```swift
    /// let upserted = try vocabulary.upsertAndFetch(
    ///     db, onConflict: ["word"],
    ///     doUpdate: { _ in [Column("count") += 1, Column("isTainted").noOverwrite] })
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation that is not about the primary key; a
    ///   ``RowDecodingError`` if the stored row cannot be decoded; the error of
    ///   `encode(to:)` or of a persistence callback.
    public func upsertAndFetch(
        _ db: Database, onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> Self
    {
        var record = self
        return try record.performUpsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: doUpdate)
    }
}

extension PersistableRecord where Self: FetchableRecord {
    /// Saves the record, and returns the saved row.
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

extension PersistableRecord {
    /// Saves the record, and returns the saved row decoded as
    /// `returnedType`.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if a conflict
    ///   policy ignored the write; a ``RowDecodingError`` if the saved row
    ///   cannot be decoded; the error of `encode(to:)` or of a persistence
    ///   callback.
    public func saveAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type) throws -> T
    {
        var record = self
        return try record.performSaveAndFetch(db, onConflict: conflictResolution, as: T.self)
    }

    /// Inserts the record and returns the inserted row decoded as
    /// `returnedType`, with its default and generated values.
    ///
    /// ```swift
    /// let player = try PartialPlayer(name: "Alice").insertAndFetch(db, as: Player.self)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if a conflict
    ///   policy ignored the insert; a ``RowDecodingError`` if the inserted row
    ///   cannot be decoded; the error of `encode(to:)` or of a persistence
    ///   callback.
    public func insertAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type) throws -> T
    {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, as: T.self)
    }

    /// Inserts or updates the record, and returns the stored row decoded
    /// as `returnedType`.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation that is not about the primary key; a
    ///   ``RowDecodingError`` if the stored row cannot be decoded; the error of
    ///   `encode(to:)` or of a persistence callback.
    public func upsertAndFetch<T: FetchableRecord>(
        _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> T
    {
        var record = self
        return try record.performUpsertAndFetch(db, as: T.self, onConflict: conflictTarget, updating: strategy, doUpdate: doUpdate)
    }
}

extension FetchableRecord where Self: TableRecord {
    /// A cursor over all records of the table.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> { try all().fetchCursor(db) }

    /// All records of the table.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    @inlinable
    public static func fetchAll(_ db: Database) throws -> [Self] {
        try db.fetchAll(tableStatement(db, operation: .selectAll), arguments: nil) { try Self(row: $0) }
    }

    /// The first record of the table, or nil.
    ///
    /// ```swift
    /// let config = try AppConfiguration.fetchOne(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    @inlinable
    public static func fetchOne(_ db: Database) throws -> Self? {
        try db.fetchOne(tableStatement(db, operation: .selectOne), arguments: nil) { try Self(row: $0) }
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// All records of the table, in a set.
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchSet(_ db: Database) throws -> Set<Self> { try all().fetchSet(db) }
}
