/// A type-erased ``DatabaseRegionConvertible``: a region that a function
/// reads from the database, or any region-convertible value.
///
/// ```swift
/// // The tables of the players and of their teams
/// let region = AnyDatabaseRegionConvertible { db in
///     try Player.all().databaseRegion(db).union(Team.all().databaseRegion(db))
/// }
/// let observation = DatabaseRegionObservation(tracking: region)
/// ```
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible, Sendable {
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// The region that `region` reads from the database.
    public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.region = region
    }

    /// The region of `region`.
    ///
    /// ```swift
    /// let region = AnyDatabaseRegionConvertible(Player.all())
    /// ```
    public init(_ region: some DatabaseRegionConvertible & Sendable) {
        self.region = { db in try region.databaseRegion(db) }
    }

    /// - Throws: The error of the region's function, or of the wrapped
    ///   value.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}
