extension MutablePersistableRecord {
    /// Inserts the record, or, when a row with the same primary key or
    /// unique key exists, overwrites all its columns but the primary key.
    /// Callbacks run as for an insert.
    ///
    /// ```swift
    /// // INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 1000)
    /// // ON CONFLICT DO UPDATE SET name = excluded.name, score = excluded.score
    /// try player.upsert(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation that is not about the primary key; the error of
    ///   `encode(to:)` or of a persistence callback.
    public mutating func upsert(_ db: Database) throws {
        try performUpsert(db)
    }

    mutating func performUpsert(_ db: Database) throws {
        try withInsertCallbacks(db) { record in
            try record.upsertWithoutCallbacks(db, onConflict: [], updating: .allColumns, doUpdate: nil, returning: nil).0
        }
    }

    /// Runs `INSERT ... ON CONFLICT DO UPDATE ... RETURNING rowid[, *]`.
    func upsertWithoutCallbacks(
        _ db: Database, onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?,
        returning fetchType: (any FetchableRecord.Type)?) throws -> (InsertionSuccess, Row?)
    {
        let container = try persistenceContainer()
        let table = Self.databaseTableName
        let primaryKey = try db.primaryKey(table)
        let context = SQLGenerationContext(db)
        // A server has no rowid: a NULL key of one column is left to the
        // column's default, as an insert does (see `insertOnServer`), and
        // the conflict target is the primary key unless told otherwise.
        let serverKey = db.usesServer && primaryKey.columns.count == 1 ? primaryKey.columns[0] : nil
        var columns = container.columns
        if let serverKey, container.databaseValue(forColumn: serverKey)?.isNull ?? true {
            columns.removeAll { $0.isEqualIgnoringASCIICase(serverKey) }
        }
        var sql = try Self.insertSQL(db, columns: columns, conflict: .abort)
        context.arguments = columns.map { container.databaseValue(forColumn: $0) ?? .null }
        let target = context.dialect.upsertConflictTarget(conflictTarget) { primaryKey.columns }
        sql += target.isEmpty
            ? " ON CONFLICT"
            : " ON CONFLICT(" + target.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        let excluded = TableAlias<Self>(name: "excluded")
        // Unqualified columns refer to the existing row, the columns of
        // `excluded` to the inserted one. The dialect tells whether the
        // existing row's columns need the table's name.
        let existing = AliasIdentity(tableName: table)
        context.assignNames(to: [excluded.identity, existing])
        context.qualifiesColumns = context.dialect.qualifiesUpsertTargetColumns
        let assignments = doUpdate?(excluded) ?? []
        let assignedColumns = Set(assignments.map { $0.columnName.lowercased() })
        let keyColumns = Set((primaryKey.columns + conflictTarget).map { $0.lowercased() })
        var clauses = try assignments.filter { !$0.isNoOverwrite }.map { try $0.sql(context, alias: existing) }
        if strategy == .allColumns {
            for column in container.columns where !keyColumns.contains(column.lowercased()) && !assignedColumns.contains(column.lowercased()) {
                clauses.append("\(column.quotedDatabaseIdentifier) = excluded.\(column.quotedDatabaseIdentifier)")
            }
        }
        if clauses.isEmpty {
            // Nothing to overwrite: touch the key so that RETURNING gives
            // the existing row.
            let column = primaryKey.columns[0]
            clauses.append(try ColumnAssignment(columnName: column, value: .column(column)).sql(context, alias: existing))
        }
        sql += " DO UPDATE SET " + clauses.joined(separator: ", ")
        // WITHOUT ROWID tables have no rowid to return.
        let rowIDName = try serverKey?.quotedDatabaseIdentifier ?? db.recordStatementCache.rowIDName(db, table)
        sql += " RETURNING " + (rowIDName ?? "NULL")
        if let fetchType {
            // The columns that the fetched type selects, as in GRDB.
            let selection = (fetchType as? any TableRecord.Type)?.databaseSelection ?? [AllColumns()]
            sql += ", " + (try SQLSelection.returnedColumnsSQL(db, selection, table: table))
        }
        let statement = try db.makeStatement(sql: sql)
        guard let row = try Row.fetchOne(statement, arguments: StatementArguments(values: context.arguments)) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "upsert returned no row", sql: sql)
        }
        let success: InsertionSuccess
        if let serverKey {
            // The key is the row id when it is an integer.
            let key: DatabaseValue = row[0]
            if case .int64(let rowID) = key.storage {
                db.serverLastInsertedRowID = rowID
                success = InsertionSuccess(rowID: rowID, rowIDColumn: serverKey, persistenceContainer: container)
            } else {
                success = InsertionSuccess(rowID: 0, rowIDColumn: nil, persistenceContainer: container)
            }
        } else {
            let rowID: Int64 = rowIDName != nil ? try row.decode(atIndex: 0) : db.lastInsertedRowID
            success = InsertionSuccess(rowID: rowID, rowIDColumn: primaryKey.rowIDColumn, persistenceContainer: container)
        }
        if fetchType != nil {
            let fetched = Row(columns: Array(zip(row.columnNames.dropFirst(), row.databaseValues.dropFirst())))
            return (success, fetched)
        }
        return (success, nil)
    }
}

extension MutablePersistableRecord where Self: FetchableRecord {
    /// Inserts or updates the record, and returns the stored row.
    ///
    /// ```swift
    /// let upserted = try vocabulary.upsertAndFetch(
    ///     db, onConflict: ["word"],
    ///     doUpdate: { _ in [Column("count") += 1, Column("isTainted").noOverwrite] })
    /// ```
    ///
    /// - parameter db: the connection that writes.
    /// - parameter conflictTarget: the columns of the unique key that
    ///   triggers the update; empty means any.
    /// - parameter strategy: whether the columns that `doUpdate` does not
    ///   assign are overwritten with the inserted values (the default,
    ///   `.allColumns`, but the key), or kept (`.noColumnUnlessSpecified`).
    /// - parameter doUpdate: assignments on conflict.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation that is not about the primary key; a
    ///   ``RowDecodingError`` if the stored row cannot be decoded; the error of
    ///   `encode(to:)` or of a persistence callback.
    public mutating func upsertAndFetch(
        _ db: Database, onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> Self
    {
        try performUpsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: doUpdate)
    }
}

extension MutablePersistableRecord {
    /// Inserts or updates the record, and returns the stored row decoded
    /// as `returnedType`.
    ///
    /// ```swift
    /// let player = try partialPlayer.upsertAndFetch(db, as: Player.self)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails, for example on a
    ///   constraint violation that is not about the primary key; a
    ///   ``RowDecodingError`` if the stored row cannot be decoded; the error of
    ///   `encode(to:)` or of a persistence callback.
    public mutating func upsertAndFetch<T: FetchableRecord>(
        _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> T
    {
        try performUpsertAndFetch(db, as: T.self, onConflict: conflictTarget, updating: strategy, doUpdate: doUpdate)
    }

    mutating func performUpsertAndFetch<T: FetchableRecord>(
        _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?) throws -> T
    {
        var fetched: T?
        try withInsertCallbacks(db) { record in
            let (success, row) = try record.upsertWithoutCallbacks(
                db, onConflict: conflictTarget, updating: strategy, doUpdate: doUpdate, returning: T.self)
            if let row { fetched = try T(row: row) }
            return success
        }
        guard let fetched else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "upsert returned no row")
        }
        return fetched
    }
}

/// Which columns an upsert overwrites when the row exists, besides those
/// its `doUpdate` closure assigns.
///
/// ```swift
/// // Keeps the stored values: only `count` changes on conflict.
/// let word = try vocabulary.upsertAndFetch(
///     db, onConflict: ["word"], updating: .noColumnUnlessSpecified,
///     doUpdate: { _ in [Column("count") += 1] })
/// ```
public struct UpsertUpdateStrategy: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Only the columns that `doUpdate` assigns change.
    public static let noColumnUnlessSpecified = UpsertUpdateStrategy(rawValue: 0)

    /// All inserted columns but the primary key and the conflict target
    /// are overwritten with the inserted values, unless `doUpdate` assigns
    /// them otherwise.
    public static let allColumns = UpsertUpdateStrategy(rawValue: 1)
}
