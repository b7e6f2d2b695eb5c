import Foundation

extension Store {
    /// Another instance of this store: the same database, objects and
    /// transactions, closed on its own. The database closes with the last
    /// open instance.
    ///
    /// ```swift
    /// let store = try Store(directoryPath: path)
    /// let clone = try store.clone()
    /// try store.close()
    /// let people = try clone.box(for: Person.self).all()   // still open
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed.
    public func clone() throws -> Store {
        try StoreRegistry.clone(primary ?? self, closedError: "clone: the store \(directoryPath) is closed")
    }

    /// Another instance of the store open in `directory` in this process,
    /// as ``clone()`` makes. Throws when no store is open there.
    ///
    /// ```swift
    /// let store = try Store.attachTo(directory: path)
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if no store is open
    ///   in `directory` in this process.
    public static func attachTo(directory: String) throws -> Store {
        guard let store = StoreRegistry.openStore(in: directory) else {
            throw ObjectBoxError.illegalState(message: "attachTo: no store is open in \(directory)")
        }
        return try StoreRegistry.clone(store, closedError: "attachTo: no store is open in \(directory)")
    }

    /// Whether a store is open in `directory` in this process (a store
    /// opened in memory counts with its `memory:` name).
    ///
    /// ```swift
    /// if try Store.isOpen(directory: path) { ... }
    /// ```
    ///
    /// - Throws: Never in this version; ObjectBox's signature throws.
    public static func isOpen(directory: String) throws -> Bool {
        StoreRegistry.openStore(in: directory) != nil
    }
}

/// The stores open in the process, by folder, for ``Store/attachTo(directory:)``,
/// and the count of the instances of each.
enum StoreRegistry {
    // Guarded by `lock`.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var stores: [String: WeakStore] = [:]

    private final class WeakStore {
        weak var store: Store?
        init(_ store: Store) { self.store = store }
    }

    /// The key of a folder: its absolute path without symbolic links, or
    /// the name of a store in memory.
    private static func key(_ directory: String) -> String {
        if directory.hasPrefix(Store.inMemoryPrefix) { return directory }
        return URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Records a store that opened its database, unless another one is
    /// open in its folder.
    static func register(_ store: Store) {
        let key = key(store.directoryPath)
        lock.lock()
        defer { lock.unlock() }
        if let existing = stores[key]?.store, existing.openInstanceCount > 0 { return }
        stores[key] = WeakStore(store)
    }

    /// The primary store open in `directory`.
    static func openStore(in directory: String) -> Store? {
        let key = key(directory)
        lock.lock()
        defer { lock.unlock() }
        guard let store = stores[key]?.store, store.openInstanceCount > 0 else { return nil }
        return store
    }

    /// A new instance of `primary`.
    static func clone(_ primary: Store, closedError: String) throws -> Store {
        lock.lock()
        defer { lock.unlock() }
        guard primary.openInstanceCount > 0 else { throw ObjectBoxError.illegalState(message: closedError) }
        primary.openInstanceCount += 1
        return Store(cloning: primary)
    }

    /// Counts an instance of `primary` closed; returns whether it was the
    /// last, which closes the database.
    static func closeInstance(of primary: Store) throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        primary.openInstanceCount -= 1
        return primary.openInstanceCount == 0
    }
}
