/// A type that can insert, update and delete its row, and that may change
/// itself when it is inserted (an auto-incremented id).
///
/// ```swift
/// struct Player: Codable, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
///
/// var player = Player(id: nil, name: "Arthur")
/// try player.insert(db)
/// print(player.id!) // the new id
/// ```
///
/// Callbacks run in this order. Insert: `willSave`, `aroundSave`,
/// `willInsert`, `aroundInsert`, `didInsert`, `didSave`. Update: `willSave`,
/// `aroundSave`, `willUpdate`, `aroundUpdate`, `didUpdate`, `didSave`.
/// Delete: `willDelete`, `aroundDelete`, `didDelete`.
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// The conflict resolution of inserts and updates.
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    /// Called before the record is inserted: a place to set a creation date or
    /// check a value.
    ///
    /// ```swift
    /// mutating func willInsert(_ db: Database) throws {
    ///     creationDate = try db.transactionDate
    /// }
    /// ```
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    mutating func willInsert(_ db: Database) throws

    /// Wraps the insertion: call `insert` once, and do what you need before and
    /// after.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
    mutating func didInsert(_ inserted: InsertionSuccess)

    /// Called before the record's row is updated, with the columns to update.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    func willUpdate(_ db: Database, columns: Set<String>) throws

    /// Wraps the update: call `update` once, and do what you need before and
    /// after.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
    func didUpdate(_ updated: PersistenceSuccess)

    /// Called before the record is inserted or updated.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    func willSave(_ db: Database) throws

    /// Wraps the insertion or update: call `save` once, and do what you need
    /// before and after.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
    func didSave(_ saved: PersistenceSuccess)

    /// Called before the record's row is deleted.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    func willDelete(_ db: Database) throws

    /// Wraps the deletion: call `delete` once, and do what you need before and
    /// after.
    ///
    /// - Throws: The error thrown by the operation closure, or an error of the
    ///   callback's own; the calling method throws it.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws
    func didDelete(deleted: Bool)
}

/// A persistable record that does not change when it is inserted: a class,
/// or a struct whose table has no auto-incremented id.
///
/// ```swift
/// struct Country: Codable, PersistableRecord {
///     var code: String
///     var name: String
/// }
/// try Country(code: "FR", name: "France").insert(db)
/// ```
public protocol PersistableRecord: MutablePersistableRecord {
    /// Called before the record is inserted: a record that does not change
    /// itself when inserted.
    ///
    /// - Throws: Any error, to stop the operation: the calling method
    ///   (`insert`, `update`, `save` or `delete`) throws it, and nothing is
    ///   written.
    func willInsert(_ db: Database) throws
    func didInsert(_ inserted: InsertionSuccess)
}

extension MutablePersistableRecord {
    public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    /// Does nothing by default.
    ///
    /// - Throws: Nothing, in this default implementation, which does nothing.
    public mutating func willInsert(_ db: Database) throws {}

    /// Runs the insertion by default.
    ///
    /// - Throws: The error thrown by the operation closure.
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try insert() }
    public mutating func didInsert(_ inserted: InsertionSuccess) {}

    /// Does nothing by default.
    ///
    /// - Throws: Nothing, in this default implementation, which does nothing.
    public func willUpdate(_ db: Database, columns: Set<String>) throws {}

    /// Runs the update by default.
    ///
    /// - Throws: The error thrown by the operation closure.
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws { _ = try update() }
    public func didUpdate(_ updated: PersistenceSuccess) {}

    /// Does nothing by default.
    ///
    /// - Throws: Nothing, in this default implementation, which does nothing.
    public func willSave(_ db: Database) throws {}

    /// Runs the insertion or update by default.
    ///
    /// - Throws: The error thrown by the operation closure.
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }
    public func didSave(_ saved: PersistenceSuccess) {}

    /// Does nothing by default.
    ///
    /// - Throws: Nothing, in this default implementation, which does nothing.
    public func willDelete(_ db: Database) throws {}

    /// Runs the deletion by default.
    ///
    /// - Throws: The error thrown by the operation closure.
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }
    public func didDelete(deleted: Bool) {}
}

extension PersistableRecord {
    /// Does nothing by default.
    ///
    /// - Throws: Nothing, in this default implementation, which does nothing.
    public func willInsert(_ db: Database) throws {}
    public func didInsert(_ inserted: InsertionSuccess) {}
}
