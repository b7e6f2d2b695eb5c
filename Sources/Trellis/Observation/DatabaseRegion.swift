/// A part of the database that observations watch: a set of tables, or
/// the full database.
///
/// ```swift
/// let region = try Player.all().databaseRegion(db)   // the player table
/// let everything = DatabaseRegion.fullDatabase
/// ```
///
/// Regions are made of whole tables: a change to any row or column of a
/// table impacts the regions that contain it.
public struct DatabaseRegion: Sendable, Hashable {
    /// The lowercased table names; nil for the full database.
    let tableNames: Set<String>?

    /// The empty region.
    public init() {
        tableNames = []
    }

    init(tableNames: Set<String>?) {
        self.tableNames = tableNames
    }

    /// The region of the tables.
    ///
    /// ```swift
    /// let region = DatabaseRegion(tables: ["player", "team"])
    /// ```
    public init(tables: some Sequence<String>) {
        tableNames = Set(tables.map { $0.lowercased() })
    }

    /// The full database: every table, and the schema.
    public static let fullDatabase = DatabaseRegion(tableNames: nil)

    /// Whether the region is the full database.
    public var isFullDatabase: Bool { tableNames == nil }

    /// Whether the region contains nothing.
    public var isEmpty: Bool { tableNames?.isEmpty ?? false }

    /// The region that contains both regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let tableNames, let otherNames = other.tableNames else { return .fullDatabase }
        return DatabaseRegion(tableNames: tableNames.union(otherNames))
    }

    /// Whether the regions have a table in common (the full database has
    /// all of them).
    func intersects(_ other: DatabaseRegion) -> Bool {
        guard let tableNames, let otherNames = other.tableNames else { return !isEmpty && !other.isEmpty }
        return !tableNames.isDisjoint(with: otherNames)
    }

    /// Whether a change to the table impacts the region.
    public func contains(table: String) -> Bool {
        tableNames?.contains(table.lowercased()) ?? true
    }

    /// Whether the rows that a write access changed may change a value
    /// read from the region, whatever the access did to the schema.
    func isImpacted(byRowsOf changes: DatabaseChanges) -> Bool {
        guard let tableNames else { return true }
        return changes.tablesAreUnknown || !changes.tables.isDisjoint(with: tableNames)
    }

    /// Whether what a write access changed may change a value read from
    /// the region.
    func isImpacted(by changes: DatabaseChanges) -> Bool {
        guard let tableNames else { return true }
        return changes.impacts(readTables: tableNames)
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// `player(*),team(*)`, `full database`, or `empty`, as GRDB writes
    /// regions (Trellis regions are made of whole tables).
    public var description: String {
        guard let tableNames else { return "full database" }
        if tableNames.isEmpty { return "empty" }
        return tableNames.sorted().map { "\($0)(*)" }.joined(separator: ",")
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
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

extension Table: DatabaseRegionConvertible {
    /// The whole table.
    ///
    /// ```swift
    /// try db.notifyChanges(in: Table("player"))
    /// ```
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(tables: [tableName])
    }
}

extension FetchRequest {
    /// The tables that the request reads, as SQLite reports them when its
    /// statement is prepared (the tables of views included).
    ///
    /// ```swift
    /// let region = try Player.filter(Column("score") > 1000).databaseRegion(db)
    /// ```
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(tableNames: try statementReadTables(db))
    }

    /// The tables that the statement of the request reads.
    func statementReadTables(_ db: Database) throws -> Set<String> {
        try makePreparedRequest(db, forSingleResult: false).statement.region.readTables
    }
}

extension QueryInterfaceRequest: DatabaseRegionConvertible {
    /// The tables that the request reads: those of its statement, and
    /// those of the to-many associations it prefetches
    /// (`including(all:)`), which later statements read.
    ///
    /// ```swift
    /// let region = try Author.including(all: Author.books).databaseRegion(db)
    /// // author and book
    /// ```
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        var tables = try statementReadTables(db)
        func addPrefetchedTables(of relation: SQLRelation, prefetched: Bool) {
            if prefetched { tables.insert(relation.tableName.lowercased()) }
            for (_, child) in relation.children {
                addPrefetchedTables(of: child.relation, prefetched: prefetched || child.kind == .all)
            }
        }
        addPrefetchedTables(of: relation, prefetched: false)
        return DatabaseRegion(tableNames: tables)
    }
}

extension SQLRequest: DatabaseRegionConvertible {}
