/// A type-erased ``FetchRequest``: it forwards its operations to the
/// request it wraps, and hides its type.
///
/// ```swift
/// func bestPlayers(limit: Int?) -> AnyFetchRequest<Player> {
///     if let limit {
///         return AnyFetchRequest(Player.order(Column("score").desc).limit(limit))
///     }
///     return AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player ORDER BY score DESC"))
/// }
/// let players = try bestPlayers(limit: 10).fetchAll(db)
/// ```
///
/// Like the query interface requests, it is `Sendable`, so that
/// observations can capture it: wrap requests that can be shared between
/// threads (the requests of Trellis are immutable values).
public struct AnyFetchRequest<RowDecoder>: FetchRequest, @unchecked Sendable {
    private let prepare: (Database, Bool) throws -> PreparedRequest
    private let count: (Database) throws -> Int
    private let region: (Database) throws -> DatabaseRegion
    public let sqlSubquery: SQLSubquery

    /// Wraps `request`.
    ///
    /// ```swift
    /// let request = AnyFetchRequest(Player.all()) // AnyFetchRequest<Player>
    /// ```
    public init<Request: FetchRequest>(_ request: Request) where Request.RowDecoder == RowDecoder {
        self.init(erasing: request)
    }

    private init<Request: FetchRequest>(erasing request: Request) {
        prepare = { db, singleResult in try request.makePreparedRequest(db, forSingleResult: singleResult) }
        count = { db in try request.fetchCount(db) }
        if let convertible = request as? any DatabaseRegionConvertible {
            region = { db in try convertible.databaseRegion(db) }
        } else {
            region = { db in try request.databaseRegion(db) }
        }
        sqlSubquery = request.sqlSubquery
    }

    /// Compiles the wrapped request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        try prepare(db, singleResult)
    }

    /// The number of rows of the wrapped request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func fetchCount(_ db: Database) throws -> Int {
        try count(db)
    }

    /// The same query, with its rows decoded as `type`.
    ///
    /// ```swift
    /// let playerRequest = AnyFetchRequest(Player.all()) // AnyFetchRequest<Player>
    /// let rowRequest = playerRequest.asRequest(of: Row.self) // AnyFetchRequest<Row>
    /// ```
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(erasing: self)
    }
}

extension AnyFetchRequest: DatabaseRegionConvertible {
    /// The region of the wrapped request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}
