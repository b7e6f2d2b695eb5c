import Foundation

extension Database {
    /// Adds a region to the region that the ``ValueObservation`` being
    /// fetched tracks, beyond what the fetch reads. Outside of an
    /// observation's fetch, it does nothing.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     // Fetch the players, and track the team table too.
    ///     try db.registerAccess(to: Table("team"))
    ///     return try Player.fetchAll(db)
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the region cannot be read, such as a
    ///   request that cannot be compiled.
    public func registerAccess(to region: some DatabaseRegionConvertible) throws {
        guard ObservedAccesses.isRecording(self) else { return }
        ObservedAccesses.add(try region.databaseRegion(self), for: self)
    }
}

/// The regions registered with `registerAccess(to:)` during the fetches of
/// observations, by connection.
enum ObservedAccesses {
    // Guarded by `lock`: connections of a pool fetch concurrently.
    nonisolated(unsafe) private static var regions: [ObjectIdentifier: DatabaseRegion] = [:]
    private static let lock = NSLock()

    /// Runs `body`, and returns the region it registered.
    static func recording<T>(_ db: Database, _ body: () throws -> T) rethrows -> (value: T, region: DatabaseRegion) {
        let key = ObjectIdentifier(db)
        lock.lock()
        regions[key] = DatabaseRegion()
        lock.unlock()
        defer {
            lock.lock()
            regions[key] = nil
            lock.unlock()
        }
        let value = try body()
        lock.lock()
        let region = regions[key] ?? DatabaseRegion()
        lock.unlock()
        return (value, region)
    }

    static func isRecording(_ db: Database) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return regions[ObjectIdentifier(db)] != nil
    }

    static func add(_ region: DatabaseRegion, for db: Database) {
        let key = ObjectIdentifier(db)
        lock.lock()
        if let current = regions[key] { regions[key] = current.union(region) }
        lock.unlock()
    }
}
