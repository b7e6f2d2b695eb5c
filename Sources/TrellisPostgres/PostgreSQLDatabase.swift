import NIOPosix
import PostgresNIO
import Trellis

/// A PostgreSQL database, accessed through a postgres-nio `PostgresClient`,
/// which pools the connections.
///
/// Each access leases a connection from the client, opens a transaction,
/// and runs its closure on a thread of a thread pool, not on an event loop:
/// the closure is synchronous, as the closures of `DatabaseQueue` are, and
/// its statements wait for the server's answers. A thrown error rolls the
/// transaction back.
///
/// The closure receives a ``Trellis/Database``, as on SQLite: raw SQL,
/// query interface requests and record methods run unchanged.
///
/// ```swift
/// let client = PostgresClient(configuration: configuration)
/// let database = PostgreSQLDatabase(client: client)
/// // `client.run()` runs in a task of its own, as postgres-nio requires.
///
/// try await database.write { db in
///     var player = Player(id: nil, name: "Arthur", score: 100)
///     try player.insert(db)
/// }
/// let players = try await database.read { db in
///     try Player.order(Column("score").desc).fetchAll(db)
/// }
/// ```
///
/// An access blocks one thread of the pool for its whole duration: the
/// number of threads of the pool bounds the number of concurrent accesses.
public final class PostgreSQLDatabase: Sendable {
    /// The client that leases the connections.
    public let client: PostgresClient

    /// The threads that run the closures of the accesses.
    let threadPool: NIOThreadPool

    /// The logger of the queries.
    let logger: Logger

    /// The types of the database that the answers held.
    let userTypes = PostgresUserTypes()

    /// Whether the accesses set their time zone to UTC.
    let sessionTimeZone = PostgresSessionTimeZone()

    /// Creates a database value on a client.
    ///
    /// ```swift
    /// let database = PostgreSQLDatabase(client: client)
    /// ```
    ///
    /// - parameters:
    ///   - client: The client that pools the connections. Its `run()`
    ///     method must be running while the database is accessed.
    ///   - threadPool: The threads that run the closures of the accesses:
    ///     each access keeps one for its duration.
    ///   - logger: The logger of the queries.
    public init(
        client: PostgresClient,
        threadPool: NIOThreadPool = .singleton,
        logger: Logger = Logger(label: "Trellis.PostgreSQLDatabase"))
    {
        self.client = client
        self.threadPool = threadPool
        self.logger = logger
    }

    /// Runs `updates` in a transaction, and commits it; a thrown error
    /// rolls the transaction back and is rethrown.
    ///
    /// ```swift
    /// try await database.write { db in
    ///     try db.execute(sql: "UPDATE player SET score = score + 1")
    /// }
    /// ```
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await access(begin: "BEGIN", updates)
    }

    /// Runs `value` in a read-only transaction: statements that write
    /// throw a ``Trellis/DatabaseError`` (SQLSTATE `25006`).
    ///
    /// ```swift
    /// let count = try await database.read { db in
    ///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
    /// }
    /// ```
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await access(begin: "BEGIN READ ONLY", value)
    }

    private func access<T: Sendable>(
        begin: String,
        _ body: @escaping @Sendable (Database) throws -> T) async throws -> T
    {
        let logger = self.logger
        let threadPool = self.threadPool
        let userTypes = self.userTypes
        let sessionTimeZone = self.sessionTimeZone
        return try await client.withConnection { connection in
            try await threadPool.runIfActive {
                let server = PostgresServerConnection(connection: connection, logger: logger, userTypes: userTypes)
                // A connection of its own for each access: it keeps no
                // state that another access could see.
                let db = Database(server: server, label: "PostgreSQL")
                return try db.inServerAccess(begin: begin) { db in
                    try sessionTimeZone.prepare(db)
                    return try body(db)
                }
            }
        }
    }
}
