/// The connection whose access the current thread runs, if any: a thread
/// local, since a synchronous access runs on the caller's thread and an
/// asynchronous one on the connection's queue.
///
/// It is how a connection tells a reentrant call (a database method called
/// from one of its own accesses, which would deadlock) from a call of
/// another thread, which waits its turn.
enum CurrentAccess {
    private static let innermostLink = ThreadLocalPointer<Link>()

    /// An access that runs on this thread, and the one it is nested in (an
    /// access of another connection, made from that one): the chain lives
    /// on the stack of the nested `run` calls.
    struct Link {
        /// The identity of the connection: an address that is compared,
        /// never dereferenced.
        let connection: UnsafeMutableRawPointer
        /// The connection's database, which outlives the access.
        unowned(unsafe) let database: Database
        let enclosing: UnsafeMutablePointer<Link>?
    }

    /// The identity of the connection whose access runs on this thread,
    /// the innermost one when accesses are nested.
    static var connection: UnsafeMutableRawPointer? {
        innermost?.pointee.connection
    }

    /// The database of the innermost access that runs on this thread.
    static var database: Database? {
        innermost?.pointee.database
    }

    /// Whether the connection runs an access on this thread, nested in or
    /// enclosing the innermost one.
    static func includes(_ connection: UnsafeMutableRawPointer) -> Bool {
        var link = innermost
        while let current = link {
            if current.pointee.connection == connection { return true }
            link = current.pointee.enclosing
        }
        return false
    }

    /// Runs `body` as an access of `connection`, whose database is
    /// `database`, on this thread.
    static func run<T>(as connection: UnsafeMutableRawPointer, database: Database, _ body: () throws -> T) rethrows -> T {
        let enclosing = innermost
        var link = Link(connection: connection, database: database, enclosing: enclosing)
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
