/// A base class for records that tracks its changes since it was last
/// fetched or saved.
///
/// Subclassing `Record` is a legacy practice, kept so that code written
/// for GRDB compiles: prefer structs that adopt the record protocols.
/// Subclasses override the table name, `init(row:)`, `encode(to:)`, and
/// the persistence callbacks they need, calling `super`:
///
/// ```swift
/// class Player: Record {
///     var id: Int64?
///     var name: String
///
///     override class var databaseTableName: String { "player" }
///
///     init(id: Int64? = nil, name: String) {
///         self.id = id
///         self.name = name
///         super.init()
///     }
///
///     required init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///         try super.init(row: row)
///     }
///
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///     }
///
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///     }
/// }
///
/// if let player = try Player.fetchOne(db, key: 1) {
///     player.name = "Barbara"
///     try player.updateChanges(db) // UPDATE player SET name = 'Barbara' WHERE id = 1
/// }
/// ```
///
/// A record has no changes after it is decoded from a row, inserted, or
/// updated; it has changes after it is deleted. Like GRDB's, the class is
/// not `Sendable`: its instances are mutable.
open class Record: FetchableRecord, TableRecord, PersistableRecord {
    /// The values of the record in the database, as it was last decoded
    /// from a row, inserted or updated; nil when they are unknown (all
    /// columns are changes).
    private var referenceRow: Row?

    /// Creates a record that has changes in all its columns.
    public init() {}

    /// Creates a record from a row. Subclasses decode their properties,
    /// then call `super.init(row:)`; the record then has no changes.
    ///
    /// - Throws: A subclass throws a ``RowDecodingError`` (from
    ///   `row.decode(_:forColumn:)`, for example) when its values cannot be
    ///   decoded; this base initializer throws nothing.
    public required init(row: Row) throws {
        referenceRow = Row(columns: Array(zip(row.columnNames, row.databaseValues)))
    }

    /// The name of the table. Default: the class name with a lowercase
    /// first letter, as for other record types (`Player` → `player`).
    open class var databaseTableName: String {
        DefaultTableNames.shared.name(for: self)
    }

    /// The columns selected by requests. Default: all columns.
    open class var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    /// The conflict resolution of inserts and updates. Default: abort.
    open class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy()
    }

    /// Encodes the record's columns. Subclasses override it; the default
    /// encodes no column.
    ///
    /// - Throws: An error if a value cannot be encoded: subclasses throw it;
    ///   this default throws nothing.
    open func encode(to container: inout PersistenceContainer) throws {}

    // MARK: - Copy

    /// A copy of the record, made from the values it encodes with
    /// `init(row:)`, with the same changes.
    ///
    /// ```swift
    /// let copy = try player.copy()
    /// ```
    ///
    /// It throws the errors of `encode(to:)` and `init(row:)`.
    ///
    /// - Throws: The error of `encode(to:)` or of `init(row:)`.
    open func copy() throws -> Self {
        let container = try persistenceContainer()
        let copy = try Self(row: Row(columns: Array(zip(container.columns, container.values))))
        copy.referenceRow = referenceRow
        return copy
    }

    // MARK: - Changes

    /// Whether the record has changes that are not saved: columns whose
    /// encoded value differs from the last fetched or saved one.
    ///
    /// Setting it to false makes the current values the saved ones;
    /// setting it to true makes all columns changes, so that
    /// ``updateChanges(_:onConflict:)`` writes them all.
    ///
    /// ```swift
    /// player.score = 1000
    /// player.hasDatabaseChanges // true
    /// ```
    ///
    /// A record whose encoding fails has changes.
    public final var hasDatabaseChanges: Bool {
        get {
            guard let referenceRow, let container = try? persistenceContainer() else { return true }
            return Self.changedColumns(in: container, from: referenceRow).isEmpty == false
        }
        set {
            if newValue {
                referenceRow = nil
            } else {
                referenceRow = (try? persistenceContainer()).map(Self.row(from:))
            }
        }
    }

    /// The columns that have changes, with their last fetched or saved
    /// values; a value is nil when it is not known (the record was not
    /// fetched or saved, or its row had no such column).
    ///
    /// ```swift
    /// player.score = 1000
    /// for (column, oldValue) in try player.databaseChanges {
    ///     print("\(column) was \(oldValue.map { "\($0)" } ?? "unknown")")
    /// }
    /// // prints "score was 100"
    /// ```
    ///
    /// - Throws: The error of `encode(to:)`.
    public final var databaseChanges: [String: DatabaseValue?] {
        get throws {
            let container = try persistenceContainer()
            var changes: [String: DatabaseValue?] = [:]
            guard let referenceRow else {
                for column in container.columns { changes.updateValue(nil, forKey: column) }
                return changes
            }
            for column in Self.changedColumns(in: container, from: referenceRow) {
                changes.updateValue(Self.value(of: column, in: referenceRow), forKey: column)
            }
            return changes
        }
    }

    /// Updates the columns that have changes, and returns whether there
    /// was one; writes nothing when there is none. Throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when no row
    /// has the record's primary key.
    ///
    /// ```swift
    /// player.score = 1000
    /// try player.updateChanges(db) // UPDATE player SET score = 1000 WHERE id = 1
    /// try player.updateChanges(db) // no change: no statement
    /// ```
    ///
    /// - Throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if no
    ///   row has the record's primary key; a ``DatabaseError`` if SQLite fails,
    ///   for example on a constraint violation; the error of `encode(to:)` or
    ///   of a persistence callback.
    @discardableResult
    public final func updateChanges(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Bool
    {
        let container = try persistenceContainer()
        let columns = referenceRow.map { Self.changedColumns(in: container, from: $0) } ?? container.columns
        if columns.isEmpty { return false }
        // Through the dynamic type: the update reads the table name and
        // the conflict policy of the subclass, not those of `Record`.
        let dynamicType: any MutablePersistableRecord.Type = type(of: self)
        try dynamicType.performUpdate(
            of: self, db, onConflict: conflictResolution, columns: Set(columns), container: container)
        return true
    }

    /// The encoded columns whose value differs from the reference row,
    /// or that the reference row lacks.
    private static func changedColumns(in container: PersistenceContainer, from referenceRow: Row) -> [String] {
        zip(container.columns, container.values).compactMap { column, newValue in
            Self.value(of: column, in: referenceRow) == newValue ? nil : column
        }
    }

    private static func value(of column: String, in row: Row) -> DatabaseValue? {
        row.index(ofColumn: column).map { row.databaseValue(atIndex: $0) }
    }

    private static func row(from container: PersistenceContainer) -> Row {
        Row(columns: Array(zip(container.columns, container.values)))
    }

    // MARK: - Persistence callbacks

    // Subclasses that override `didInsert`, `didUpdate` or `didDelete`
    // call `super`, which keeps the changes up to date.

    /// Called before the record is inserted; subclasses override it.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    open func willInsert(_ db: Database) throws {}

    /// Wraps the insertion, and records the inserted values as unchanged;
    /// subclasses override it and call `super`.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        _ = try insert()
    }

    /// Makes the inserted values, with the inserted rowid, the saved ones.
    open func didInsert(_ inserted: InsertionSuccess) {
        referenceRow = Self.row(from: inserted.persistenceContainer)
    }

    /// Called before the record's row is updated; subclasses override it.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    open func willUpdate(_ db: Database, columns: Set<String>) throws {}

    /// Wraps the update, and records the updated values as unchanged;
    /// subclasses override it and call `super`.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try update()
    }

    /// Makes the updated values the saved ones.
    open func didUpdate(_ updated: PersistenceSuccess) {
        referenceRow = Self.row(from: updated.persistenceContainer)
    }

    /// Called before the record is inserted or updated; subclasses override it.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    open func willSave(_ db: Database) throws {}

    /// Wraps the insertion or update; subclasses override it and call `super`.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    open func didSave(_ saved: PersistenceSuccess) {}

    /// Called before the record's row is deleted; subclasses override it.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    open func willDelete(_ db: Database) throws {}

    /// Wraps the deletion, after which all columns are changes; subclasses
    /// override it and call `super`.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
    }

    /// After a deletion, all columns are changes: saving the record
    /// inserts it again.
    open func didDelete(deleted: Bool) {
        if deleted { referenceRow = nil }
    }
}

extension MutablePersistableRecord {
    /// Updates `record`, an instance of this type, as an instance of this
    /// type: called on the dynamic type of a ``Record``, it reads the
    /// static properties of the subclass.
    fileprivate static func performUpdate(
        of record: any MutablePersistableRecord, _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>,
        container: PersistenceContainer) throws
    {
        guard let record = record as? Self else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(type(of: record)) is not a \(Self.self)")
        }
        try record.performUpdate(db, onConflict: conflictResolution, columns: columns, container: container, returning: nil)
    }
}
