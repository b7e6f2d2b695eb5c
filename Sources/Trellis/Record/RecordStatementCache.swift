/// The statements that persist records and look them up by key, cached per
/// connection so that the hot paths neither generate SQL nor hash it.
///
/// Entries are found by record type and operation, then by column list:
/// comparing the few column names a record encodes is cheaper than hashing
/// them. Statements stay valid across schema changes, since SQLite prepares
/// them again from their SQL.
@usableFromInline
final class RecordStatementCache {
    @usableFromInline
    struct Key: Hashable {
        @usableFromInline let type: ObjectIdentifier
        @usableFromInline let operation: Operation

        @inlinable
        init(type: ObjectIdentifier, operation: Operation) {
            self.type = type
            self.operation = operation
        }
    }

    @usableFromInline
    enum Operation: Hashable {
        case insert(Database.ConflictResolution?)
        case update(Database.ConflictResolution?)
        case fetchByPrimaryKey
        case existsByPrimaryKey
        case deleteByPrimaryKey
        case selectAll
        case selectOne
        case custom(String)
    }

    @usableFromInline
    var entries: [Key: [(columns: [String], statement: Statement)]] = [:]

    /// The rowid column of each record type's table (inserts report it).
    @usableFromInline
    var rowIDColumns: [ObjectIdentifier: String?] = [:]

    /// The entry of `rowIDColumns` read last: loops of inserts of one
    /// type skip the hashing.
    @usableFromInline @exclusivity(unchecked)
    var lastRowIDColumn: (type: ObjectIdentifier, column: String?)?

    /// The last statement of a lookup by key.
    @usableFromInline @exclusivity(unchecked)
    var lastKeyStatement: (key: Key, statement: Statement)?

    /// The table and primary key of the record type persisted last:
    /// persistence methods of one type in a row skip the table name and
    /// the schema cache. (Statements are cached by type too: a record type
    /// has one table.)
    @exclusivity(unchecked)
    var lastPrimaryKey: (type: ObjectIdentifier, table: String, primaryKey: PrimaryKeyInfo)?

    /// The storage of the last inserted container, which the next insert
    /// empties and reuses when no one else holds it.
    @usableFromInline @exclusivity(unchecked)
    var spareStorage: PersistenceContainerStorage?

    /// An empty container, in the spare storage when it is free.
    @inlinable
    func takeSpareContainer() -> PersistenceContainer {
        if var storage = spareStorage {
            spareStorage = nil
            if isKnownUniquelyReferenced(&storage) {
                storage.removeAll()
                return PersistenceContainer(storage: storage)
            }
        }
        return PersistenceContainer(minimumCapacity: 16)
    }

    /// Whether each table (by lowercased name) has a rowid: WITHOUT ROWID
    /// tables have none.
    var rowIDTables: [String: Bool] = [:]

    /// Forgets what depends on the schema: statements are prepared again
    /// from the new schema when they are next needed.
    func clear() {
        entries.removeAll()
        lastEntry = nil
        rowIDColumns.removeAll()
        lastRowIDColumn = nil
        rowIDTables.removeAll()
        lastKeyStatement = nil
        lastPrimaryKey = nil
    }

    /// Whether the table has a rowid (it is not a WITHOUT ROWID table).
    @usableFromInline
    func tableHasRowID(_ db: Database, _ table: String) -> Bool {
        let key = table.lowercased()
        if let known = rowIDTables[key] { return known }
        let hasRowID = (try? db.makeStatement(sql: "SELECT rowid FROM \(table.quotedDatabaseIdentifier) LIMIT 0")) != nil
        rowIDTables[key] = hasRowID
        return hasRowID
    }

    @usableFromInline
    init() {}

    /// The cached statement for the operation and columns, or a new one
    /// prepared from `makeSQL`.
    @inlinable
    func statement(
        _ db: Database, key: Key, columns: [String], makeSQL: () throws -> String) throws -> Statement
    {
        // A loop of inserts or updates of one type hits the same entry:
        // comparing it costs less than hashing the key.
        if let last = lastEntry, last.key == key, last.columns == columns {
            return last.statement
        }
        if let candidates = entries[key] {
            for candidate in candidates where candidate.columns == columns {
                lastEntry = (key, candidate.columns, candidate.statement)
                return candidate.statement
            }
        }
        return try prepare(db, key: key, columns: columns, makeSQL: makeSQL)
    }

    /// The cached statement for the operation and the columns of
    /// `container`, or a new one prepared from `makeSQL`, given the
    /// columns.
    ///
    /// The container comes straight from `encode(to:)`: when its columns
    /// are not those of a cached statement, which have no duplicates, its
    /// repeated columns are folded first.
    @inlinable
    func statement(
        _ db: Database, key: Key, container: inout PersistenceContainer,
        makeSQL: ([String]) throws -> String) throws -> Statement
    {
        if let last = lastEntry, last.key == key, container.hasColumns(last.columns) {
            return last.statement
        }
        container.removeDuplicateColumns()
        let columns = container.columns
        return try statement(db, key: key, columns: columns) { try makeSQL(columns) }
    }

    /// The entry that `statement` returned last.
    @usableFromInline @exclusivity(unchecked)
    var lastEntry: (key: Key, columns: [String], statement: Statement)?

    @usableFromInline
    func prepare(_ db: Database, key: Key, columns: [String], makeSQL: () throws -> String) throws -> Statement {
        let statement = try db.makeStatement(sql: makeSQL())
        entries[key, default: []].append((columns, statement))
        lastEntry = (key, columns, statement)
        return statement
    }
}

extension TableRecord {
    /// The table of the record type, and its primary key.
    static func tableAndPrimaryKey(_ db: Database) throws -> (table: String, primaryKey: PrimaryKeyInfo) {
        let cache = db.recordStatementCache
        let type = ObjectIdentifier(Self.self)
        if let last = cache.lastPrimaryKey, last.type == type {
            return (last.table, last.primaryKey)
        }
        let table = databaseTableName
        let primaryKey = try db.primaryKey(table)
        cache.lastPrimaryKey = (type, table, primaryKey)
        return (table, primaryKey)
    }
}
