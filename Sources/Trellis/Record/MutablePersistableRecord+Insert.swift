import TrellisSQLite

extension MutablePersistableRecord {
    /// Inserts the record, and calls `didInsert` with its rowid.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// try player.insert(db)
    /// ```
    ///
    /// An insert that inserts nothing (`onConflict: .ignore` and a
    /// conflict, or a trigger's `RAISE(IGNORE)`) calls neither `didInsert`
    /// nor `didSave`: the record keeps its nil id.
    ///
    /// - parameter db: the connection that writes.
    /// - parameter conflictResolution: overrides
    ///   `persistenceConflictPolicy` (`INSERT OR REPLACE`...).
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation; the error of `encode(to:)` or of a persistence
    ///   callback.
    @inlinable
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performInsert(db, onConflict: conflictResolution)
    }

    /// The insert with all callbacks; `PersistableRecord` calls it from
    /// its non-mutating `insert`.
    @inlinable
    mutating func performInsert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        try withInsertCallbacks(db) { record in
            try record.insertWithoutCallbacks(db, onConflict: conflictResolution)
        }
    }

    /// Runs the callbacks of an insert (`willSave`, `aroundSave`,
    /// `willInsert`, `aroundInsert`, `didInsert`, `didSave`) around
    /// `insert`, which writes the row: inserts and upserts share them.
    @inlinable
    mutating func withInsertCallbacks(_ db: Database, _ insert: (Self) throws -> InsertionSuccess) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        let record = self
        try record.aroundSave(db) {
            let success = PersistenceSuccess(try insertWithCallbacks(db, insert))
            saved = success
            return success
        }
        guard let saved else { throw DatabaseError.callbackNotCalled("aroundSave", of: Self.self) }
        if !saved.insertedNothing { didSave(saved) }
        db.recordStatementCache.spareStorage = saved.savedContainer.storage
    }

    /// Inserts a copy of the record, and returns it after `didInsert`.
    ///
    /// ```swift
    /// let player = try Player(id: nil, name: "Arthur").inserted(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation; the error of `encode(to:)` or of a persistence
    ///   callback.
    @inlinable @discardableResult
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.performInsert(db, onConflict: conflictResolution)
        return record
    }

    /// The insert callbacks (`willInsert`, `aroundInsert`, `didInsert`)
    /// around `insert`.
    @inlinable
    mutating func insertWithCallbacks(_ db: Database, _ insert: (Self) throws -> InsertionSuccess) throws -> InsertionSuccess {
        try willInsert(db)
        var inserted: InsertionSuccess?
        let record = self
        try record.aroundInsert(db) {
            let success = try insert(record)
            inserted = success
            return success
        }
        guard let inserted else { throw DatabaseError.callbackNotCalled("aroundInsert", of: Self.self) }
        // An ignored insert has no rowid to give: the connection's last
        // one is another row's.
        if !inserted.insertedNothing { didInsert(inserted) }
        return inserted
    }

    /// Runs the INSERT statement; with `returning`, reads what it returns
    /// (`INSERT ... RETURNING`).
    @usableFromInline
    func insertWithoutCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        returning: PersistenceReturning?) throws -> InsertionSuccess
    {
        if db.usesServer { return try insertOnServer(db, onConflict: conflictResolution, returning: returning) }
        guard let returning else {
            return try insertWithoutCallbacks(db, onConflict: conflictResolution)
        }
        let container = try persistenceContainer()
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
        let statement = try db.recordStatementCache.statement(
            db,
            key: .init(type: ObjectIdentifier(Self.self),
                       operation: .custom("INSERT RETURNING \(conflict.rawValue) \(returning.selectionSQL)")),
            columns: container.columns)
        {
            try Self.insertSQL(db, columns: container.columns, conflict: conflict, returning: returning.selectionSQL)
        }
        try statement.setArguments(StatementArguments(values: container.values))
        guard try returning.fetch(statement) else {
            // INSERT OR IGNORE did not insert.
            let keyColumns = try db.primaryKey(Self.databaseTableName).columns
            var key: [String: DatabaseValue] = [:]
            for column in keyColumns { key[column] = container.databaseValue(forColumn: column) ?? .null }
            throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: key)
        }
        return InsertionSuccess(
            rowID: db.lastInsertedRowID,
            rowIDColumn: try Self.rowIDColumn(db),
            persistenceContainer: container)
    }

    /// Runs the INSERT statement.
    @inlinable
    func insertWithoutCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> InsertionSuccess {
        if db.usesServer { return try insertOnServer(db, onConflict: conflictResolution, returning: nil) }
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
        let key = RecordStatementCache.Key(type: ObjectIdentifier(Self.self), operation: .insert(conflict))
        let cache = db.recordStatementCache
        var container = try encodedContainer(db, bindingFor: key)
        let statement: Statement
        if let bound = cache.boundStatement(for: key, container: &container) {
            statement = bound
        } else {
            statement = try cache.statement(db, key: key, container: &container) {
                try Self.insertSQL(db, columns: $0, conflict: conflict)
            }
            try statement.bind(container)
        }
        try statement.executeBoundStatement(arguments: container.values)
        if db.changesCount == 0, try Self.insertedNothing(db) {
            return InsertionSuccess(rowID: 0, rowIDColumn: try Self.rowIDColumn(db), persistenceContainer: container, insertedNothing: true)
        }
        return InsertionSuccess(
            rowID: db.lastInsertedRowID,
            rowIDColumn: try Self.rowIDColumn(db),
            persistenceContainer: container)
    }

    /// Whether an INSERT that changed no row inserted nothing: true for
    /// a table (`INSERT OR IGNORE`, a trigger's `RAISE(IGNORE)`), false
    /// for a view, whose INSTEAD OF trigger's writes do not count as the
    /// statement's changes.
    @usableFromInline
    static func insertedNothing(_ db: Database) throws -> Bool {
        try !db.viewExists(databaseTableName)
    }

    /// The column that aliases the rowid of the table, cached per
    /// connection by record type.
    @inlinable
    static func rowIDColumn(_ db: Database) throws -> String? {
        let key = ObjectIdentifier(Self.self)
        let cache = db.recordStatementCache
        if cache.lastRowIDColumnType == key { return cache.lastRowIDColumn }
        let column: String?
        if let known = cache.rowIDColumns[key] {
            column = known
        } else {
            column = try db.primaryKey(databaseTableName).rowIDColumn
            cache.rowIDColumns[key] = column
        }
        cache.lastRowIDColumnType = key
        cache.lastRowIDColumn = column
        return column
    }

    @usableFromInline
    static func insertSQL(
        _ db: Database, columns: [String], conflict: Database.ConflictResolution, rowCount: Int = 1,
        returning: String? = nil) throws -> String
    {
        try checkTableExists(db)
        var sql = try InsertSQL(table: databaseTableName, columns: columns, conflict: conflict, rowCount: rowCount).sql(db)
        if let returning { sql += " RETURNING " + returning }
        return sql
    }
}

extension Statement {
    /// Binds the values of a container to the parameters, in order.
    @inlinable
    func bind(_ container: PersistenceContainer) throws {
        reset()
        // The values of a container that an insert's record encodes are
        // no longer those of the parameters.
        PersistenceContainerStorage.endBinding(of: self)
        try bind(container, from: 1)
    }

    /// Binds the values of containers to the parameters, in order: the
    /// rows of a multi-row INSERT.
    @usableFromInline
    func bind(_ containers: ArraySlice<PersistenceContainer>) throws {
        reset()
        PersistenceContainerStorage.endBinding(of: self)
        var index: CInt = 1
        for container in containers {
            try bind(container, from: index)
            index += CInt(container.storage.count)
        }
    }

    @inlinable
    func bind(_ container: PersistenceContainer, from firstIndex: CInt) throws {
        let storage = container.storage
        var entry = storage.entries
        for index in firstIndex..<(firstIndex + CInt(storage.count)) {
            let code = entry.pointee.value.bind(to: sqliteStatement, at: index)
            if code != SQLITE_OK { try check(code) }
            entry += 1
        }
    }

    /// Runs a statement whose arguments are already bound: `arguments`
    /// are the bound values, which an error reports (the statement keeps
    /// only the arguments of `setArguments`).
    @inlinable
    func executeBoundStatement(arguments: @autoclosure () -> [DatabaseValue]) throws {
        try database.willExecute(self)
        if server != nil {
            // The server's errors report the bound values.
            try database.executeOnServer(self)
            return
        }
        do {
            while try step() {}
        } catch {
            reset()
            throw DatabaseError.reporting(error, arguments: arguments())
        }
    }

    /// Executes the bound UPDATE or DELETE of the row of a primary key, and
    /// tells whether it changed the row. Only the statement's own change
    /// counts, not the writes of its triggers: a trigger that writes
    /// elsewhere, then ignores the change with `RAISE(IGNORE)`, changed no
    /// row, as in GRDB. The row of a view is changed by its INSTEAD OF
    /// trigger, whose writes count.
    func executeRowChange(arguments: [DatabaseValue], primaryKey: PrimaryKeyInfo) throws -> Bool {
        guard primaryKey.isViewKey else {
            try executeBoundStatement(arguments: arguments)
            return database.changesCount > 0
        }
        let totalChanges = database.totalChangesCount
        try executeBoundStatement(arguments: arguments)
        return database.totalChangesCount > totalChanges
    }
}

extension MutablePersistableRecord where Self: FetchableRecord {
    /// Inserts the record and returns the inserted row, with its default
    /// and generated values (`INSERT ... RETURNING *`). The record itself
    /// is left as it is, as in GRDB: the returned one has the new id.
    ///
    /// ```swift
    /// let player = try partialPlayer.insertAndFetch(db)
    /// ```
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
}

extension MutablePersistableRecord {
    /// Inserts the record and returns the inserted row decoded as
    /// `returnedType`.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation;
    ///   ``RecordError/recordNotFound(databaseTableName:key:)`` if a conflict
    ///   policy ignored the insert; a ``RowDecodingError`` if the inserted row
    ///   cannot be decoded; the error of `encode(to:)` or of a persistence
    ///   callback.
    public mutating func insertAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type) throws -> T
    {
        try performInsertAndFetch(db, onConflict: conflictResolution, as: T.self)
    }

    mutating func performInsertAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, as returnedType: T.Type) throws -> T
    {
        var fetched: T?
        try withInsertCallbacks(db) { record in
            try record.insertWithoutCallbacks(
                db, onConflict: conflictResolution,
                returning: .row(db, of: T.self, table: Self.databaseTableName) { fetched = try T(row: $0) })
        }
        guard let fetched else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "INSERT ... RETURNING returned no row")
        }
        return fetched
    }
}
