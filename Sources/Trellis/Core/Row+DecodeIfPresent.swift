extension Row {
    /// Returns the value at `index`, or nil when it is NULL or the index is
    /// out of range. Throws a ``RowDecodingError`` when the value can not
    /// convert.
    ///
    /// ```swift
    /// let nickname = try row.decodeIfPresent(String.self, atIndex: 2)
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable
    public func decodeIfPresent<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, atIndex index: Int) throws -> Value? {
        if hasNull(atIndex: index) { return nil }
        return try decode(Value.self, atIndex: index)
    }

    /// Returns the value at `index`, read straight from the statement with
    /// one call into SQLite, or nil when it is NULL or the index is out of
    /// range. Throws a ``RowDecodingError`` when the value can not convert.
    ///
    /// ```swift
    /// let score = try row.decodeIfPresent(Int.self, atIndex: 1)
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable @inline(__always)
    public func decodeIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int) throws -> Value?
    {
        if let sqliteStatement, index >= 0 && index < count {
            // A statement has fewer columns than CInt can count.
            switch Value._decodeColumn(sqliteStatement: sqliteStatement, index: CInt(truncatingIfNeeded: offset &+ index)) {
            case .none: return nil
            case .some(.some(let value)): return value
            case .some(.none): break // The conversion below throws its error.
            }
        }
        if hasNull(atIndex: index) { return nil }
        return try decode(Value.self, atIndex: index)
    }
}
