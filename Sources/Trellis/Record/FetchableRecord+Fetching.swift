/// A cursor of records.
public typealias RecordCursor<Record> = DatabaseCursor<Record>

extension FetchableRecord {
    /// A cursor over the records of `sql`.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, sql: "SELECT * FROM player")
    /// while let player = try players.next() { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    @inlinable
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> RecordCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// An array of the records of `sql`.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    @inlinable
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first record of `sql`, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    @inlinable
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// A cursor over the records of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`,
    ///   if a row cannot be decoded.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RecordCursor<Self> {
        try statement.database.makeCursor(statement, arguments: arguments) { try Self(row: $0) }
    }

    /// An array of the records of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`,
    ///   if a row cannot be decoded.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try statement.database.fetchAll(statement, arguments: arguments) { try Self(row: $0) }
    }

    /// The first record of a statement, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`,
    ///   if a row cannot be decoded.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try statement.database.fetchOne(statement, arguments: arguments) { try Self(row: $0) }
    }

    /// A cursor over the records of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        try db.fetchCursor(request.makePreparedRequest(db, forSingleResult: false), recordType: Self.self) { try Self(row: $0) }
    }

    /// An array of the records of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    @inlinable
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try db.withPreparedRequest(request, forSingleResult: false) { prepared in
            try db.fetchAll(prepared, recordType: Self.self) { try Self(row: $0) }
        }
    }

    /// The first record of a request, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    @inlinable
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try db.withPreparedRequest(request, forSingleResult: true) { prepared in
            try db.fetchOne(prepared, recordType: Self.self) { try Self(row: $0) }
        }
    }
}

extension FetchableRecord where Self: Hashable {
    /// A set of the records of `sql`.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Self> {
        try Set(fetchAll(db, sql: sql, arguments: arguments))
    }

    /// A set of the records of a statement.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement
    ///   or SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`,
    ///   if a row cannot be decoded.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchAll(statement, arguments: arguments))
    }

    /// A set of the records of a request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try Set(fetchAll(db, request))
    }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    /// A cursor over the fetched records.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try RowDecoder.fetchCursor(db, self) }

    /// An array of the fetched records.
    ///
    /// ```swift
    /// let players = try Player.filter(Column("score") > 1000).fetchAll(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(db, self) }

    /// The first fetched record, or nil.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    @inlinable
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(db, self) }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    /// A set of the fetched records.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError``, or the error of `init(row:)`, if
    ///   a row cannot be decoded.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}

// Core fetches arrays and single values from requests of values; sets of
// values come with the sets of records.
extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    /// A set of the fetched values.
    ///
    /// ```swift
    /// let names = try Player.select(\.name, as: String.self).fetchSet(db)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; a ``RowDecodingError`` if a value cannot be converted to
    ///   `RowDecoder`.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(db, self) }
}

extension FetchableRecord {
    /// A cursor over the records of `sql`, whose rows `adapter` adapts.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> RecordCursor<Self>
    {
        try db.fetchCursor(db.preparedRequest(sql: sql, arguments: arguments, adapter: adapter)) { try Self(row: $0) }
    }

    /// The records of `sql`, whose rows `adapter` adapts.
    ///
    /// ```swift
    /// let adapter = ScopeAdapter(["author": SuffixRowAdapter(fromIndex: 3)])
    /// let infos = try BookInfo.fetchAll(db, sql: "SELECT book.*, author.* FROM ...", adapter: adapter)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> [Self]
    {
        try db.fetchAll(db.preparedRequest(sql: sql, arguments: arguments, adapter: adapter)) { try Self(row: $0) }
    }

    /// The first record of `sql`, whose row `adapter` adapts.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> Self?
    {
        try db.fetchOne(db.preparedRequest(sql: sql, arguments: arguments, adapter: adapter)) { try Self(row: $0) }
    }

    /// A cursor over the records of a statement, whose rows `adapter`
    /// adapts.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError``, or the error of `init(row:)`, if a row cannot be
    ///   decoded.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> RecordCursor<Self> {
        let db = statement.database
        return try db.fetchCursor(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) { try Self(row: $0) }
    }

    /// The records of a statement, whose rows `adapter` adapts.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError``, or the error of `init(row:)`, if a row cannot be
    ///   decoded.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> [Self] {
        let db = statement.database
        return try db.fetchAll(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) { try Self(row: $0) }
    }

    /// The first record of a statement, whose row `adapter` adapts.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError``, or the error of `init(row:)`, if a row cannot be
    ///   decoded.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> Self? {
        let db = statement.database
        return try db.fetchOne(db.preparedRequest(statement, arguments: arguments, adapter: adapter)) { try Self(row: $0) }
    }
}

extension FetchableRecord where Self: Hashable {
    /// The set of the records of `sql`, whose rows `adapter` adapts.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, the adapter names a column that is not there, or SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?) throws -> Set<Self>
    {
        try Set(fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// The set of the records of a statement, whose rows `adapter` adapts.
    ///
    /// - Throws: A ``DatabaseError`` if the arguments do not fit the statement,
    ///   the adapter names a column that is not there, or SQLite fails; a
    ///   ``RowDecodingError``, or the error of `init(row:)`, if a row cannot be
    ///   decoded.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?) throws -> Set<Self> {
        try Set(fetchAll(statement, arguments: arguments, adapter: adapter))
    }
}

