extension FetchableRecord where Self: TableRecord {
    /// A cursor over the records with the given primary keys.
    ///
    /// ```swift
    /// let countries = try Country.fetchCursor(db, keys: ["FR", "US"])
    /// while let country = try countries.next() { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> RecordCursor<Self> {
        try all().filter(keys: keys).fetchCursor(db)
    }

    /// A cursor over the records with the given keys, primary or unique.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, keys: [["email": "arthur@example.com"]])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the columns are not a unique key of the
    ///   table, or if SQLite fails; a ``RowDecodingError``, or the error of
    ///   `init(row:)`, if a row cannot be decoded.
    public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> RecordCursor<Self> {
        try all().filter(keys: keys).fetchCursor(db)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// A cursor over the records with the given ids.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, ids: [1, 2, 3])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if its
    ///   primary key has several columns (use a key dictionary), or if SQLite
    ///   fails; a ``RowDecodingError``, or the error of `init(row:)`, if a row
    ///   cannot be decoded.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
        try all().filter(keys: ids).fetchCursor(db)
    }
}
