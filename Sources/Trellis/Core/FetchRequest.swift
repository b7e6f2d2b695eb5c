/// A request that fetches values decoded as `RowDecoder`: rows, values or
/// records.
///
/// The query interface requests (`Player.all()`, `Player.filter(...)`)
/// and ``SQLRequest`` are fetch requests:
///
/// ```swift
/// let request: some FetchRequest<Player> = Player.filter(Column("score") > 1000)
/// let players = try request.fetchAll(db)
/// let count = try request.fetchCount(db)
/// ```
public protocol FetchRequest<RowDecoder>: SQLSubqueryable {
    /// The type that decodes the fetched rows.
    associatedtype RowDecoder

    /// Compiles the request into a statement, ready to run.
    ///
    /// - parameter db: the connection that compiles the request.
    /// - parameter singleResult: a hint that one row is needed, which
    ///   may add `LIMIT 1`.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request fetches.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    func fetchCount(_ db: Database) throws -> Int
}

extension FetchRequest {
    /// Compiles the request into a statement, ready to run: for example,
    /// to print its SQL.
    ///
    /// ```swift
    /// let statement = try request.makePreparedRequest(db).statement
    /// print(statement)            // SELECT * FROM player WHERE email = ?
    /// print(statement.arguments)  // ["arthur@example.com"]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled: its SQL
    ///   is invalid, or it names a table or column that does not exist.
    public func makePreparedRequest(_ db: Database) throws -> PreparedRequest {
        try makePreparedRequest(db, forSingleResult: false)
    }
}

/// A compiled request: a statement, how its rows split into scopes, and
/// the requests that prefetch to-many associations.
public struct PreparedRequest {
    /// The statement, with its arguments set.
    public var statement: Statement

    /// The scopes of the rows.
    @usableFromInline
    var layout: RowLayout?

    /// Loads the rows of to-many associations into the fetched rows, or
    /// the records that a plan decodes from them.
    @usableFromInline
    var supplementaryFetch: SupplementaryFetch?

    @usableFromInline
    typealias SupplementaryFetch = (Database, [Row], PrefetchedRecordsPlan?) throws -> Void

    /// The view of a row adapter on the fetched rows, if any.
    @usableFromInline
    var adaptation: RowAdaptation?

    init(
        statement: Statement, layout: RowLayout? = nil, supplementaryFetch: SupplementaryFetch? = nil,
        adaptation: RowAdaptation? = nil)
    {
        self.statement = statement
        self.layout = layout
        self.supplementaryFetch = supplementaryFetch
        self.adaptation = adaptation
    }

    /// The request without its adapter, and the adapter's view, if any.
    @usableFromInline
    var withoutAdaptation: (request: PreparedRequest, adaptation: RowAdaptation)? {
        guard let adaptation else { return nil }
        var request = self
        request.adaptation = nil
        return (request, adaptation)
    }
}

/// The fetching machinery shared by rows, values and records.
extension Database {
    /// A cursor that decodes each row of `statement`.
    @inlinable
    func makeCursor<T>(
        _ statement: Statement, arguments: StatementArguments?, layout: RowLayout? = nil,
        decode: @escaping (Row) throws -> T) throws -> DatabaseCursor<T>
    {
        try DatabaseCursor(statement: statement, arguments: arguments, layout: layout, decode: decode)
    }

    /// Decodes every row of `statement`.
    @inlinable
    func fetchAll<T>(
        _ statement: Statement, arguments: StatementArguments?, layout: RowLayout? = nil,
        assumesColumns: Bool = false, decode: (Row) throws -> T) throws -> [T]
    {
        if let arguments {
            try statement.setArguments(arguments)
        } else {
            statement.reset()
        }
        try willExecute(statement)
        if statement.server != nil { return try fetchAllOnServer(statement, layout: layout, decode: decode) }
        defer { statement.reset() }
        guard try statement.step() else { return [] }
        try statement.checkColumnsAfterFirstStep(assumedByRequest: assumesColumns)
        let row = layout == nil ? statement.reusableRow : Row(statement: statement, layout: layout)
        row.beginReuse()
        defer { row.endReuse() }
        var result: [T] = []
        repeat {
            result.append(try decode(row))
            try row.checkRecordedDecodingError()
        } while try statement.step()
        return result
    }

    /// Decodes the first row of `statement`, if any.
    @inlinable
    func fetchOne<T>(
        _ statement: Statement, arguments: StatementArguments?, layout: RowLayout? = nil,
        assumesColumns: Bool = false, boundArguments: Bool = false, decode: (Row) throws -> T) throws -> T?
    {
        if let arguments {
            try statement.setArguments(arguments)
        } else if !boundArguments {
            statement.reset()
        }
        try willExecute(statement)
        if statement.server != nil { return try fetchOneOnServer(statement, layout: layout, decode: decode) }
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        try statement.checkColumnsAfterFirstStep(assumedByRequest: assumesColumns)
        let row = layout == nil ? statement.reusableRow : Row(statement: statement, layout: layout)
        let value = try decode(row)
        try row.checkRecordedDecodingError()
        return value
    }

    /// Decodes the rows of a prepared request, running its prefetches.
    ///
    /// - parameter recordType: The record type whose `init(row:)` is
    ///   `decode`, if any: its prefetched records may be decoded by the
    ///   prefetch.
    @inlinable
    func fetchAll<T>(
        _ prepared: PreparedRequest, recordType: (any FetchableRecord.Type)? = nil, decode: (Row) throws -> T) throws -> [T]
    {
        if let (request, adaptation) = prepared.withoutAdaptation {
            return try fetchAll(request) { try decode(adaptation.adapt($0)) }
        }
        guard let supplementaryFetch = prepared.supplementaryFetch else {
            return try fetchAll(prepared.statement, arguments: nil, layout: prepared.layout, assumesColumns: true, decode: decode)
        }
        let rows = try fetchAll(prepared.statement, arguments: nil, layout: prepared.layout, assumesColumns: true) { $0.copy() }
        return try withPrefetches(supplementaryFetch, of: rows, recordType: recordType) {
            try rows.map { row in
                let value = try decode(row)
                try row.checkRecordedDecodingError()
                return value
            }
        }
    }

    /// Runs the prefetches of `rows`, then `decode`.
    ///
    /// The prefetches of a fetch of records decode the records that the
    /// record type is known to read (see `PrefetchedRecordsPlan`); when
    /// they or `decode` fail with an error other than a `DatabaseError`,
    /// the rows are prefetched again as rows and decoded once more. A fetch
    /// that prefetches rows learns which arrays of records its records
    /// read.
    @usableFromInline
    func withPrefetches<T>(
        _ supplementaryFetch: PreparedRequest.SupplementaryFetch, of rows: [Row], recordType: (any FetchableRecord.Type)?,
        decode: () throws -> T) throws -> T
    {
        guard let recordType else {
            try supplementaryFetch(self, rows, nil)
            return try decode()
        }
        let plan = PrefetchedRecordsPlan(recordType: recordType)
        do {
            try supplementaryFetch(self, rows, plan)
            if plan.keysWithDecoders.isEmpty {
                return try learningPrefetchedRecords(of: recordType, decode)
            }
            return try decode()
        } catch where !plan.keysWithDecoders.isEmpty && !(error is DatabaseError) && !(error is CancellationError) {
            // A failure of the records, not of the database: an interrupted
            // or cancelled access, a locked file, fail as they are.
            for row in rows { row.forgetPrefetches() }
            try supplementaryFetch(self, rows, nil)
            let value = try decode()
            plan.disableKeysWithDecoders()
            return value
        }
    }

    /// Runs `decode`, and keeps what it shows of the arrays of records that
    /// the records of `recordType` read from prefetched rows.
    private func learningPrefetchedRecords<T>(of recordType: any FetchableRecord.Type, _ decode: () throws -> T) throws -> T {
        let learning = PrefetchedRecordsLearning(recordType: recordType)
        let outer = prefetchedRecordsLearning
        prefetchedRecordsLearning = learning
        defer { prefetchedRecordsLearning = outer }
        let value = try decode()
        learning.commit()
        return value
    }

    /// Decodes the first row of a prepared request, running its prefetches.
    ///
    /// - parameter recordType: The record type whose `init(row:)` is
    ///   `decode`, if any: its prefetched records may be decoded by the
    ///   prefetch.
    @inlinable
    func fetchOne<T>(
        _ prepared: PreparedRequest, recordType: (any FetchableRecord.Type)? = nil, decode: (Row) throws -> T) throws -> T?
    {
        if let (request, adaptation) = prepared.withoutAdaptation {
            return try fetchOne(request) { try decode(adaptation.adapt($0)) }
        }
        guard let supplementaryFetch = prepared.supplementaryFetch else {
            return try fetchOne(prepared.statement, arguments: nil, layout: prepared.layout, assumesColumns: true, decode: decode)
        }
        guard let row = try fetchOne(
            prepared.statement, arguments: nil, layout: prepared.layout, assumesColumns: true, decode: { $0.copy() })
        else {
            return nil
        }
        return try withPrefetches(supplementaryFetch, of: [row], recordType: recordType) {
            let value = try decode(row)
            try row.checkRecordedDecodingError()
            return value
        }
    }

    /// Compiles `request` and runs `fetch` with it; compiles and runs it
    /// once more when the schema changed under the first compilation.
    ///
    /// A request compiled before another connection changed the schema
    /// may count on columns that moved (the scopes of joined rows, the
    /// columns of an adapter): SQLite tells it at the first step only,
    /// where the fetch throws rather than read the wrong columns. The
    /// fetch has read nothing then, and the connection has forgotten the
    /// old schema: compiled again, the request matches the new one.
    @inlinable
    func withPreparedRequest<R>(
        _ request: some FetchRequest, forSingleResult singleResult: Bool, _ fetch: (PreparedRequest) throws -> R) throws -> R
    {
        do {
            return try fetch(request.makePreparedRequest(self, forSingleResult: singleResult))
        } catch let error as DatabaseError where error.isRequestCompiledUnderOldSchema {
            return try fetch(request.makePreparedRequest(self, forSingleResult: singleResult))
        }
    }

    /// A cursor over the rows of a prepared request. Prefetches need every
    /// row first, so a request with prefetches iterates an array.
    func fetchCursor<T>(
        _ prepared: PreparedRequest, recordType: (any FetchableRecord.Type)? = nil, decode: @escaping (Row) throws -> T
    ) throws -> DatabaseCursor<T> {
        if let (request, adaptation) = prepared.withoutAdaptation {
            return try fetchCursor(request) { try decode(adaptation.adapt($0)) }
        }
        if prepared.supplementaryFetch == nil {
            return try makeCursor(prepared.statement, arguments: nil, layout: prepared.layout, decode: decode)
        }
        return DatabaseCursor(
            statement: prepared.statement, prefetchedElements: try fetchAll(prepared, recordType: recordType, decode: decode))
    }
}

/// Decoding the rows of a statement with a closure: the loop that records
/// and rows use, without a cursor per fetch. For layers built on Trellis
/// (an object store, a custom record protocol) that prepare a statement
/// once and decode its rows many times.
extension Statement {
    /// Decodes every row of the statement, run with `arguments` (or with
    /// the arguments it has, when nil).
    ///
    /// The row given to `decode` is only valid during the call: copy it
    /// (`row.copy()`) to keep it.
    ///
    /// ```swift
    /// let statement = try db.cachedStatement(sql: "SELECT name, score FROM player WHERE score > ?")
    /// let names = try statement.decodeAll(arguments: [1000]) { row in
    ///     try row.decode(String.self, atIndex: 0)
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the statement fails, or the error
    ///   that `decode` throws.
    @inlinable
    public func decodeAll<T>(arguments: StatementArguments? = nil, _ decode: (Row) throws -> T) throws -> [T] {
        try database.fetchAll(self, arguments: arguments, decode: decode)
    }

    /// Decodes the first row of the statement, run with `arguments` (or
    /// with the arguments it has, when nil), if there is one.
    ///
    /// The row given to `decode` is only valid during the call.
    ///
    /// ```swift
    /// let statement = try db.cachedStatement(sql: "SELECT MAX(score) FROM player")
    /// let best = try statement.decodeOne { row in try row.decode(Int.self, atIndex: 0) }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the statement fails, or the error
    ///   that `decode` throws.
    @inlinable
    public func decodeOne<T>(arguments: StatementArguments? = nil, _ decode: (Row) throws -> T) throws -> T? {
        try database.fetchOne(self, arguments: arguments, decode: decode)
    }

    /// Decodes the first row of a statement that has one parameter, run
    /// with `argument` bound to it: a lookup by key that makes no
    /// ``StatementArguments``.
    ///
    /// ```swift
    /// let statement = try db.cachedStatement(sql: "SELECT * FROM player WHERE id = ?")
    /// let name = try statement.decodeOne(argument: 42.databaseValue) { row in
    ///     try row.decode(String.self, forColumn: "name")
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the statement does not have one
    ///   parameter or fails, or the error that `decode` throws.
    @inlinable
    public func decodeOne<T>(argument: DatabaseValue, _ decode: (Row) throws -> T) throws -> T? {
        try checkParameterCount(1)
        try bind(CollectionOfOne(argument))
        return try database.fetchOne(self, arguments: nil, boundArguments: true, decode: decode)
    }

    /// Runs the statement with `values` bound to its parameters, in order:
    /// the write of a row whose values are already database values, which
    /// makes no ``StatementArguments``.
    ///
    /// ```swift
    /// let insert = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
    /// try insert.execute(values: ["Arthur".databaseValue, 1000.databaseValue])
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the number of values is not the
    ///   number of parameters, or when the statement fails.
    @inlinable
    public func execute(values: [DatabaseValue]) throws {
        try checkParameterCount(values.count)
        try bind(values)
        try executeBoundStatement(arguments: values)
    }
}

extension DatabaseError {
    /// The error of a fetch whose request was compiled under a schema that
    /// another connection changed since (see
    /// ``Database/withPreparedRequest(_:forSingleResult:_:)``).
    @usableFromInline
    static func requestCompiledUnderOldSchema(sql: String) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_SCHEMA,
            message: "the database schema changed since the request was compiled: run the request again",
            sql: sql)
    }

    @usableFromInline
    var isRequestCompiledUnderOldSchema: Bool {
        resultCode == .SQLITE_SCHEMA
    }
}
