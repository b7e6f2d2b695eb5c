import Trellis

/// The accesses of stores that run on the current thread: a box operation
/// called inside `runInTransaction` joins the transaction of its store.
///
/// A thread local, rather than the connection of the access kept in the
/// store under a lock: each box operation asks for it, and a lock taken
/// and released, with the retain and release of the connection, costs
/// more than reading an object by id from SQLite's page cache.
enum StoreAccess {
    private static let innermostLink = ThreadLocalPointer<Link>()

    /// An access that runs on this thread, and the one it is nested in (an
    /// access of another store, made from that one): the chain lives on
    /// the stack of the nested `run` calls.
    private struct Link {
        /// The identity of the store: compared, never dereferenced.
        let store: ObjectIdentifier
        /// The store's connection, which outlives the access.
        unowned(unsafe) let database: Database
        let enclosing: UnsafeMutablePointer<Link>?
    }

    /// The connection of the access of `store` that runs on this thread,
    /// if any, unretained: the access keeps it until it ends.
    @inline(__always)
    static func database(of store: Store) -> Unmanaged<Database>? {
        let identity = ObjectIdentifier(store)
        var link = innermost
        while let current = link {
            if current.pointee.store == identity { return Unmanaged.passUnretained(current.pointee.database) }
            link = current.pointee.enclosing
        }
        return nil
    }

    /// Runs `body` as an access of `store` on `database`, on this thread.
    static func run<T>(_ store: Store, database: Database, _ body: () throws -> T) rethrows -> T {
        let enclosing = innermost
        var link = Link(store: ObjectIdentifier(store), database: database, enclosing: enclosing)
        return try withUnsafeMutablePointer(to: &link) { link in
            innermost = link
            defer { innermost = enclosing }
            return try body()
        }
    }

    private static var innermost: UnsafeMutablePointer<Link>? {
        get { innermostLink.pointer }
        set { innermostLink.pointer = newValue }
    }
}
