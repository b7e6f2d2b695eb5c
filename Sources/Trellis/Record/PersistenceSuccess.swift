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
    public let rowIDColumn: String?

    /// The inserted values.
    public let persistenceContainer: PersistenceContainer

    @usableFromInline
    init(rowID: Int64, rowIDColumn: String?, persistenceContainer: PersistenceContainer) {
        self.rowID = rowID
        self.rowIDColumn = rowIDColumn
        self.persistenceContainer = persistenceContainer
    }
}

/// The result of a successful update or save.
public struct PersistenceSuccess: Sendable {
    /// The saved values.
    public let persistenceContainer: PersistenceContainer

    init(persistenceContainer: PersistenceContainer) {
        self.persistenceContainer = persistenceContainer
    }

    @usableFromInline
    init(_ inserted: InsertionSuccess) {
        var container = inserted.persistenceContainer
        if let column = inserted.rowIDColumn {
            container[column] = inserted.rowID
        }
        self.persistenceContainer = container
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
