/// The result of a successful insertion, given to `didInsert`.
///
/// ```swift
/// mutating func didInsert(_ inserted: InsertionSuccess) {
///     id = inserted.rowID
/// }
/// ```
public struct InsertionSuccess: Sendable {
    /// The rowid of the inserted row.
    public let rowID: Int64

    /// The column that aliases the rowid (`INTEGER PRIMARY KEY`), if any.
    public var rowIDColumn: String? { hasRowIDColumn ? rowIDColumnName : nil }

    // A name and a flag rather than an optional: an optional string is
    // destroyed through the generic witnesses of `Optional`, at a cost that
    // shows in a loop of inserts.
    @usableFromInline let rowIDColumnName: String
    @usableFromInline let hasRowIDColumn: Bool

    /// The inserted values, as encoded: without the rowid that SQLite chose.
    @usableFromInline
    let insertedContainer: PersistenceContainer

    /// The inserted values, with the inserted rowid in the rowid column.
    ///
    /// ```swift
    /// mutating func didInsert(_ inserted: InsertionSuccess) {
    ///     inserted.persistenceContainer["id"]  // the new id, not NULL
    /// }
    /// ```
    public var persistenceContainer: PersistenceContainer {
        // Built on demand, as the container of `PersistenceSuccess`.
        guard hasRowIDColumn else { return insertedContainer }
        var container = insertedContainer
        container.replaceValue(rowID.databaseValue, forColumn: rowIDColumnName)
        return container
    }

    /// Whether the statement inserted no row: an `INSERT OR IGNORE` that
    /// met a conflict, or a `BEFORE INSERT` trigger that raised IGNORE.
    /// `didInsert` and `didSave` are not called then, since the rowid of
    /// the connection is not the record's.
    @usableFromInline
    let insertedNothing: Bool

    @usableFromInline
    init(rowID: Int64, rowIDColumn: String?, persistenceContainer: PersistenceContainer, insertedNothing: Bool = false) {
        self.rowID = rowID
        self.rowIDColumnName = rowIDColumn ?? ""
        self.hasRowIDColumn = rowIDColumn != nil
        self.insertedContainer = persistenceContainer
        self.insertedNothing = insertedNothing
    }
}

/// The result of a successful update or save.
public struct PersistenceSuccess: Sendable {
    /// The saved values, without the rowid of an insert.
    @usableFromInline
    let savedContainer: PersistenceContainer

    /// The rowid column of an insert, and its value (see
    /// `InsertionSuccess` for why there is no optional).
    private let insertedRowIDColumn: String
    private let hasInsertedRowID: Bool
    private let insertedRowID: Int64

    /// Whether the save was an insert that inserted no row.
    @usableFromInline
    let insertedNothing: Bool

    /// The saved values; after an insert, with the inserted rowid.
    public var persistenceContainer: PersistenceContainer {
        // Built on demand: most records never read it, and setting the
        // rowid in a container that `InsertionSuccess` shares would copy
        // its storage.
        guard hasInsertedRowID else { return savedContainer }
        var container = savedContainer
        container.replaceValue(insertedRowID.databaseValue, forColumn: insertedRowIDColumn)
        return container
    }

    init(persistenceContainer: PersistenceContainer) {
        self.savedContainer = persistenceContainer
        self.insertedRowIDColumn = ""
        self.hasInsertedRowID = false
        self.insertedRowID = 0
        self.insertedNothing = false
    }

    @usableFromInline
    init(_ inserted: InsertionSuccess) {
        self.savedContainer = inserted.insertedContainer
        self.insertedRowIDColumn = inserted.rowIDColumnName
        self.hasInsertedRowID = inserted.hasRowIDColumn
        self.insertedRowID = inserted.rowID
        self.insertedNothing = inserted.insertedNothing
    }
}

/// The conflict resolution of record inserts and updates.
///
/// ```swift
/// struct Player: PersistableRecord {
///     static let persistenceConflictPolicy = PersistenceConflictPolicy(
///         insert: .replace, update: .replace)
/// }
/// ```
public struct PersistenceConflictPolicy: Sendable {
    /// The conflict resolution of inserts (`INSERT OR REPLACE`...).
    public let conflictResolutionForInsert: Database.ConflictResolution
    /// The conflict resolution of updates.
    public let conflictResolutionForUpdate: Database.ConflictResolution

    public init(insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort) {
        conflictResolutionForInsert = insert
        conflictResolutionForUpdate = update
    }
}
