/// A part of the database that observations watch: columns of tables, or
/// the full database.
///
/// ```swift
/// let region = try Player.select(Column("score")).databaseRegion(db)
/// print(region)                                 // player(score)
/// region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"]))   // false
/// let everything = DatabaseRegion.fullDatabase
/// ```
///
/// A region knows the columns that a request reads, as SQLite reports them
/// when it prepares its statement: an update of other columns does not
/// impact it, and insertions and deletions in its tables do. The region
/// of a request by primary key of a rowid table also knows its rows
/// (`player(*)[1]`): a transaction observer, or a
/// ``DatabaseRegionObservation``, ignores the changes of other rows.
///
/// ```swift
/// let region = try Player.filter(id: 1).databaseRegion(db)
/// print(region)                                 // player(*)[1]
/// ```
public struct DatabaseRegion: Sendable, Hashable {
    /// The columns, by lowercased table name; nil for the full database.
    let tables: [String: ColumnSet]?

    /// The rows, by rowid, of the tables whose rows are known (lowercased
    /// names, all of them in `tables`); a table that is not there has all
    /// its rows in the region.
    let rowIDs: [String: Set<Int64>]

    /// The empty region.
    public init() {
        tables = [:]
        rowIDs = [:]
    }

    init(tables: [String: ColumnSet]?, rowIDs: [String: Set<Int64>] = [:]) {
        self.tables = tables
        self.rowIDs = tables == nil ? [:] : rowIDs
    }

    /// The region of the tables, with all their columns.
    ///
    /// ```swift
    /// let region = DatabaseRegion(tables: ["player", "team"])
    /// ```
    public init(tables: some Sequence<String>) {
        self.tables = Dictionary(tables.map { ($0.lowercased(), ColumnSet.all) }, uniquingKeysWith: { first, _ in first })
        self.rowIDs = [:]
    }

    /// The region of one table, with all its columns and rows.
    ///
    /// ```swift
    /// let region = DatabaseRegion(table: "player")
    /// print(region) // player(*)
    /// ```
    public init(table: String) {
        self.init(tables: CollectionOfOne(table))
    }

    /// The full database: every table, and the schema.
    public static let fullDatabase = DatabaseRegion(tables: nil)

    /// Whether the region is the full database.
    public var isFullDatabase: Bool { tables == nil }

    /// Whether the region contains nothing.
    public var isEmpty: Bool { tables?.isEmpty ?? false }

    /// The lowercased names of the tables of the region; nil for the full
    /// database.
    var tableNames: Set<String>? { tables.map { Set($0.keys) } }

    /// The region that contains both regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        guard var tables, let otherTables = other.tables else { return .fullDatabase }
        // A table keeps known rows only if each region that has it knows
        // its rows.
        var rowIDs: [String: Set<Int64>] = [:]
        for (table, ids) in self.rowIDs where otherTables[table] == nil {
            rowIDs[table] = ids
        }
        for (table, ids) in other.rowIDs {
            if tables[table] == nil {
                rowIDs[table] = ids
            } else if let ownIDs = self.rowIDs[table] {
                rowIDs[table] = ownIDs.union(ids)
            }
        }
        tables.formColumnUnion(otherTables)
        return DatabaseRegion(tables: tables, rowIDs: rowIDs)
    }

    /// Adds the other region to this one.
    ///
    /// ```swift
    /// var region = try Player.all().databaseRegion(db)
    /// region.formUnion(try Team.all().databaseRegion(db))
    /// ```
    public mutating func formUnion(_ other: DatabaseRegion) {
        self = union(other)
    }

    /// Whether a change to the table impacts the region.
    public func contains(table: String) -> Bool {
        guard let tables else { return true }
        return tables[table.lowercased()] != nil
    }

    /// Whether statements that perform changes of this kind may modify the
    /// region: what a ``TransactionObserver`` answers in
    /// ``TransactionObserver/observes(eventsOfKind:)``.
    ///
    /// ```swift
    /// func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    ///     region.isModified(byEventsOfKind: eventKind)
    /// }
    /// ```
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let tables else { return true }
        guard let columns = tables[eventKind.tableName.lowercased()] else { return false }
        switch eventKind {
        case .insert, .delete:
            return true
        case .update(_, let columnNames):
            // No column names: an update SQLite reported without them.
            if columnNames.isEmpty { return true }
            return columns.intersects(.some(Set(columnNames.map { $0.lowercased() })))
        }
    }

    /// Whether the change may modify the region: it happened in one of its
    /// tables. Call it from ``TransactionObserver/databaseDidChange(with:)``
    /// for events whose kind ``isModified(byEventsOfKind:)`` accepted.
    public func isModified(by event: DatabaseEvent) -> Bool {
        guard contains(table: event.tableName) else { return false }
        guard !rowIDs.isEmpty, let ids = rowIDs[event.tableName.lowercased()] else { return true }
        return ids.contains(event.rowID)
    }

    /// Whether the rows that a write access changed may change a value
    /// read from the region, whatever the access did to the schema.
    func isImpacted(byRowsOf changes: DatabaseChanges) -> Bool {
        guard let tables else { return true }
        return changes.tablesAreUnknown || changes.tables.intersectsColumns(of: tables)
    }

    /// Whether what a write access changed may change a value read from
    /// the region.
    func isImpacted(by changes: DatabaseChanges) -> Bool {
        guard let tables else { return true }
        return changes.impacts(readColumns: tables)
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// `player(name,score),team(*)`, `player(*)[1,2]`, `full database`, or
    /// `empty`, as GRDB writes regions.
    public var description: String {
        guard let tables else { return "full database" }
        if tables.isEmpty { return "empty" }
        return tables.keys.sorted().map { table in
            var text: String
            switch tables[table] {
            case .some(.some(let columns)): text = "\(table)(\(columns.sorted().joined(separator: ",")))"
            default: text = "\(table)(*)"
            }
            if let ids = rowIDs[table] {
                text += "[\(ids.sorted().map(String.init).joined(separator: ","))]"
            }
            return text
        }.joined(separator: ",")
    }
}

/// A value that defines a database region: requests (the tables they
/// read), tables, and regions themselves.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Table("player"), Team.all())
/// ```
public protocol DatabaseRegionConvertible {
    /// The region, as read from `db`.
    ///
    /// - Throws: A ``DatabaseError`` if the region cannot be read from `db`: a
    ///   request that cannot be compiled, for example.
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// The full database: every table, and the schema.
    ///
    /// ```swift
    /// let observation = DatabaseRegionObservation(tracking: .fullDatabase)
    /// ```
    public static var fullDatabase: DatabaseRegion { DatabaseRegion.fullDatabase }
}

extension DatabaseRegion: DatabaseRegionConvertible {
    /// The region itself.
    ///
    /// - Throws: Never.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

extension Table: DatabaseRegionConvertible {
    /// The whole table.
    ///
    /// ```swift
    /// try db.notifyChanges(in: Table("player"))
    /// ```
    ///
    /// - Throws: Never.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(tables: [tableName])
    }
}

extension FetchRequest {
    /// The columns that the request reads, as SQLite reports them when its
    /// statement is prepared (the tables of views included).
    ///
    /// ```swift
    /// let region = try Player.filter(Column("score") > 1000).databaseRegion(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(tables: try statementReadColumns(db))
    }

    /// The columns that the statement of the request reads, by table.
    func statementReadColumns(_ db: Database) throws -> [String: ColumnSet] {
        try makePreparedRequest(db, forSingleResult: false).statement.region.readColumns
    }
}

extension QueryInterfaceRequest: DatabaseRegionConvertible {
    /// The columns that the request reads: those of its statement, and
    /// the tables of the to-many associations it prefetches
    /// (`including(all:)`), which later statements read. A request that
    /// filters a rowid table by primary key also gives its rows.
    ///
    /// ```swift
    /// let region = try Author.including(all: Author.books).databaseRegion(db)
    /// // author and book
    /// let playerRegion = try Player.filter(id: 1).databaseRegion(db)
    /// // player(*)[1]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        var tables = try statementReadColumns(db)
        func addPrefetchedTables(of relation: SQLRelation, prefetched: Bool) {
            if prefetched { tables[relation.tableName.lowercased()] = .all }
            for (_, child) in relation.children {
                addPrefetchedTables(of: child.relation, prefetched: prefetched || child.kind == .all)
            }
        }
        addPrefetchedTables(of: relation, prefetched: false)
        // A request by rowid (`Player.filter(id: 1)`) reads those rows of
        // its table.
        let table = relation.tableName.lowercased()
        if tables[table] != nil, let rowIDs = try relation.filteredRowIDs(db) {
            return DatabaseRegion(tables: tables, rowIDs: [table: rowIDs])
        }
        return DatabaseRegion(tables: tables)
    }
}

extension SQLRequest: DatabaseRegionConvertible {}
