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

    mutating func willInsert(_ db: Database) throws
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
    mutating func didInsert(_ inserted: InsertionSuccess)

    func willUpdate(_ db: Database, columns: Set<String>) throws
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
    func didUpdate(_ updated: PersistenceSuccess)

    func willSave(_ db: Database) throws
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
    func didSave(_ saved: PersistenceSuccess)

    func willDelete(_ db: Database) throws
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
    func willInsert(_ db: Database) throws
    func didInsert(_ inserted: InsertionSuccess)
}

extension MutablePersistableRecord {
    public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    public mutating func willInsert(_ db: Database) throws {}
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try insert() }
    public mutating func didInsert(_ inserted: InsertionSuccess) {}

    public func willUpdate(_ db: Database, columns: Set<String>) throws {}
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws { _ = try update() }
    public func didUpdate(_ updated: PersistenceSuccess) {}

    public func willSave(_ db: Database) throws {}
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }
    public func didSave(_ saved: PersistenceSuccess) {}

    public func willDelete(_ db: Database) throws {}
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }
    public func didDelete(deleted: Bool) {}
}

extension PersistableRecord {
    public func willInsert(_ db: Database) throws {}
    public func didInsert(_ inserted: InsertionSuccess) {}
}
