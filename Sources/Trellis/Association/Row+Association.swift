extension Row {
    /// Decodes the record of a joined association. The key is searched
    /// breadth-first in the tree of joined associations, so that the
    /// record of a nested association is found too.
    ///
    /// ```swift
    /// init(row: Row) throws {
    ///     book = try Book(row: row)
    ///     author = try row.decode(forKey: "author")
    /// }
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if the row has no association `key`;
    ///   the error of `Record`'s `init(row:)`.
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey key: String) throws -> Record {
        guard let scope = scopesTree[key] else {
            throw RowDecodingError(
                reason: .columnNotFound,
                message: "could not decode \(Record.self) - no association key \"\(key)\" in row \(self); keys: \(scopes.names)")
        }
        return try Record(row: scope)
    }

    /// Decodes the record of an optional joined association, or nil when
    /// it is missing or all its columns are NULL.
    ///
    /// - Throws: The error of `Record`'s `init(row:)`.
    public func decodeIfPresent<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey key: String) throws -> Record? {
        guard let scope = scopesTree[key], scope.containsNonNullValue else { return nil }
        return try Record(row: scope)
    }

    /// Decodes the records of a prefetched to-many association.
    ///
    /// ```swift
    /// books = try row.decode(forKey: "books")
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if the association `key` was not
    ///   prefetched (`including(all:)`); the error of `Record`'s `init(row:)`.
    @inlinable
    public func decode<Record: FetchableRecord>(_ type: [Record].Type = [Record].self, forKey key: String) throws -> [Record] {
        guard let rows = prefetched.isEmpty ? nil : prefetched[key] else {
            throw missingPrefetchedRows([Record].self, forKey: key)
        }
        if case .records(let prefetchedRecords) = rows.storage {
            // Decoded by the prefetch, for the `init(row:)` that reads them.
            guard prefetchedRecords.recordType == Record.self else {
                throw prefetchedRecords.unavailable(as: [Record].self, forKey: key)
            }
            return unsafeDowncast(prefetchedRecords, to: TypedPrefetchedRecords<Record>.self).records
        }
        if let learning = PrefetchedRecordsLearning.current(for: self, key: key),
           let decoder = _PrefetchedRecordsDecoder(recordType: Record.self)
        {
            learning.learn(decoder, forKey: key)
        }
        // Inlined, so that the loop is specialized for the record type.
        var records: [Record] = []
        records.reserveCapacity(rows.count)
        try rows.forEach { row in
            records.append(try Record(row: row))
            // The failure of a non-throwing accessor of the record.
            try row.checkRecordedDecodingError()
        }
        return records
    }

    @usableFromInline
    func missingPrefetchedRows(_ type: Any.Type, forKey key: String) -> RowDecodingError {
        RowDecodingError(
            reason: .columnNotFound,
            message: "could not decode \(type) - no prefetched association key \"\(key)\"; keys: \(prefetchedRows.keys.sorted())")
    }

    /// Decodes the records of a prefetched to-many association as a set.
    ///
    /// - Throws: A ``RowDecodingError`` if the association `key` was not
    ///   prefetched (`including(all:)`); the error of `Record`'s `init(row:)`.
    public func decode<Record: FetchableRecord & Hashable>(_ type: Set<Record>.Type = Set<Record>.self, forKey key: String) throws -> Set<Record> {
        Set(try decode([Record].self, forKey: key))
    }

    // MARK: Subscripts

    /// The record of the joined association `key`.
    ///
    /// ```swift
    /// init(row: Row) throws {
    ///     book = try Book(row: row)
    ///     author = try row["author"]
    /// }
    /// ```
    ///
    /// Throws when the row has no association `key`, or when the record
    /// can not be decoded.
    ///
    /// - Throws: A ``RowDecodingError`` if the row has no association `key`;
    ///   the error of `Record`'s `init(row:)`.
    public subscript<Record: FetchableRecord>(_ key: String) -> Record {
        get throws { try decode(Record.self, forKey: key) }
    }

    /// The record of the optional joined association `key`, or nil when it
    /// is missing or all its columns are NULL.
    ///
    /// ```swift
    /// country = try row["country"]  // Country?
    /// ```
    ///
    /// - Throws: The error of `Record`'s `init(row:)`.
    public subscript<Record: FetchableRecord>(_ key: String) -> Record? {
        get throws { try decodeIfPresent(Record.self, forKey: key) }
    }

    /// The records of the prefetched to-many association `key`
    /// (`including(all:)`).
    ///
    /// ```swift
    /// books = try row["books"]  // [Book]
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if the association `key` was not
    ///   prefetched (`including(all:)`); the error of `Record`'s `init(row:)`.
    public subscript<Record: FetchableRecord>(_ key: String) -> [Record] {
        get throws { try decode([Record].self, forKey: key) }
    }

    /// The records of the prefetched to-many association `key`, as a set.
    ///
    /// ```swift
    /// tags = try row["tags"]  // Set<Tag>
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if the association `key` was not
    ///   prefetched (`including(all:)`); the error of `Record`'s `init(row:)`.
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        get throws { try decode(Set<Record>.self, forKey: key) }
    }
}

extension Row {
    /// What a record whose property names no association of the row can
    /// use instead: the keys of its joined and of its prefetched
    /// associations (a `hasMany(Review.self)` of the table `revlog`
    /// prefetches the key `revlogs`, not `reviews`).
    var associationKeysHint: String {
        let scopes = scopes.names.sorted()
        let prefetched = Set(self.prefetched.keys).sorted()
        if scopes.isEmpty && prefetched.isEmpty { return " (include an association for each)" }
        var parts: [String] = []
        if !scopes.isEmpty { parts.append("the scopes \(scopes.joined(separator: ", "))") }
        if !prefetched.isEmpty { parts.append("the prefetched rows \(prefetched.joined(separator: ", "))") }
        return " (the row has \(parts.joined(separator: " and ")))"
    }
}

extension Row {
    /// The key of a joined or prefetched association of the row that is
    /// `name` but for case and separators (`Customer` or `order_details`
    /// for `customer` or `orderDetails`): the key that a record property
    /// named `name` most likely meant. Nil when the row has none, or has
    /// `name` itself.
    func associationKey(resembling name: String) -> String? {
        let prefetchedKeys = prefetched.keys
        if layout?.scopes.isEmpty ?? true, prefetchedKeys.isEmpty { return nil }
        func folded(_ key: String) -> String {
            String(key.lowercased().filter { $0.isLetter || $0.isNumber })
        }
        let target = folded(name)
        guard !target.isEmpty else { return nil }
        let candidates = scopes.names + prefetchedKeys.sorted()
        return candidates.first { $0 != name && folded($0) == target }
    }
}
