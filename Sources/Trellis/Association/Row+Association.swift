extension Row {
    /// Decodes the record of a joined association.
    ///
    /// ```swift
    /// init(row: Row) throws {
    ///     book = try Book(row: row)
    ///     author = try row.decode(forKey: "author")
    /// }
    /// ```
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey key: String) throws -> Record {
        guard let scope = scopes[key] else {
            throw RowDecodingError(
                reason: .columnNotFound,
                message: "could not decode \(Record.self) - no association key \"\(key)\" in row \(self); keys: \(scopes.names)")
        }
        return try Record(row: scope)
    }

    /// Decodes the record of an optional joined association, or nil when
    /// it is missing or all its columns are NULL.
    public func decodeIfPresent<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey key: String) throws -> Record? {
        guard let scope = scopes[key], scope.containsNonNullValue else { return nil }
        return try Record(row: scope)
    }

    /// Decodes the records of a prefetched to-many association.
    ///
    /// ```swift
    /// books = try row.decode(forKey: "books")
    /// ```
    public func decode<Record: FetchableRecord>(_ type: [Record].Type = [Record].self, forKey key: String) throws -> [Record] {
        guard let rows = prefetchedRows[key] else {
            throw RowDecodingError(
                reason: .columnNotFound,
                message: "could not decode [\(Record.self)] - no prefetched association key \"\(key)\"; keys: \(prefetchedRows.keys)")
        }
        return try rows.map { try Record(row: $0) }
    }

    /// Decodes the records of a prefetched to-many association as a set.
    public func decode<Record: FetchableRecord & Hashable>(_ type: Set<Record>.Type = Set<Record>.self, forKey key: String) throws -> Set<Record> {
        Set(try decode([Record].self, forKey: key))
    }
}
