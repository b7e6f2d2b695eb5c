import TrellisSQLite

// Reading values from a row.
//
// The subscripts never stop the process: when a value can not be decoded,
// they record the failure on the row, return a placeholder, and the fetch
// that reads the row (`fetchAll`, `fetchOne`, a record's `init(row:)`)
// throws the failure, or else the access that runs (`read`, `write`...).
// A row read after its access has ended reports to no one: such code uses
// the throwing `decode` methods. See the ValueConversions article.

extension Row {
    // MARK: Throwing accessors

    /// Returns the value at `index`, or throws a ``RowDecodingError``.
    ///
    /// ```swift
    /// let name = try row.decode(String.self, atIndex: 0)
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if `index` is out of range, or if the
    ///   value is NULL or cannot convert to `Value`.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, atIndex index: Int) throws -> Value {
        guard index >= 0 && index < count else {
            throw RowDecodingError.indexOutOfRange(index, type: Value.self, row: self)
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Value.self, value: dbValue, index: index, row: self)
        }
        return value
    }

    /// Returns the value at `index`, read straight from the statement, or
    /// throws a ``RowDecodingError``.
    ///
    /// - Throws: A ``RowDecodingError`` if `index` is out of range, or if the
    ///   value is NULL or cannot convert to `Value`.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int) throws -> Value
    {
        guard index >= 0 && index < count else {
            return try decodeConverting(Value.self, atIndex: index)
        }
        return try decodeColumn(Value.self, atIndex: index)
    }

    /// Returns the value at `index`, an index of the row's columns that a
    /// lookup found: it needs no range check.
    @inlinable @inline(__always)
    func decodeColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atIndex index: Int) throws -> Value
    {
        if let sqliteStatement {
            // A statement has fewer columns than CInt can count.
            if case .some(.some(let value)) = Value._decodeColumn(
                sqliteStatement: sqliteStatement, index: CInt(truncatingIfNeeded: offset &+ index))
            {
                return value
            }
        } else if let value = Value.fromDatabaseValue(storedValues[valuesOffset &+ index]) {
            // A copied row, such as the prefetched rows of a to-many association.
            return value
        }
        return try decodeConverting(Value.self, atIndex: index)
    }

    /// The value at `index` when it does not read straight from the row:
    /// a conversion, or a thrown error.
    @usableFromInline @inline(never)
    func decodeConverting<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atIndex index: Int) throws -> Value
    {
        guard index >= 0 && index < count else {
            throw RowDecodingError.indexOutOfRange(index, type: Value.self, row: self)
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Value.self, value: dbValue, index: index, row: self)
        }
        return value
    }

    /// Returns the value of the leftmost column named `name`, or throws a
    /// ``RowDecodingError``.
    ///
    /// ```swift
    /// let bookCount = try row.decode(Int.self, forColumn: "bookCount")
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if there is no such column, or if the
    ///   value is NULL or cannot convert to `Value`.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forColumn name: String) throws -> Value {
        guard let index = index(ofColumn: name) else {
            if let value = Value.fromMissingColumn() { return value }
            throw RowDecodingError.columnNotFound(name, type: Value.self, row: self)
        }
        return try decode(Value.self, atIndex: index)
    }

    /// Returns the value of the leftmost column named `name`, read straight
    /// from the statement, or throws a ``RowDecodingError``.
    ///
    /// - Throws: A ``RowDecodingError`` if there is no such column, or if the
    ///   value is NULL or cannot convert to `Value`.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn name: String) throws -> Value
    {
        guard let index = index(ofColumn: name) else {
            if let value = Value.fromMissingColumn() { return value }
            throw RowDecodingError.columnNotFound(name, type: Value.self, row: self)
        }
        return try decodeColumn(Value.self, atIndex: index)
    }

    /// Returns the value of a column, or throws a ``RowDecodingError``.
    ///
    /// ```swift
    /// let name = try row.decode(String.self, forColumn: Column("name"))
    /// ```
    ///
    /// - Throws: A ``RowDecodingError`` if there is no such column, or if the
    ///   value is NULL or cannot convert to `Value`.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression) throws -> Value
    {
        try decode(Value.self, forColumn: column.name)
    }

    /// Returns the value of a column, or nil when it is NULL or missing.
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable
    public func decodeIfPresent<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression) throws -> Value?
    {
        try decodeIfPresent(Value.self, forColumn: column.name)
    }

    /// Returns the value of the column `name`, or nil when it is NULL or
    /// missing. Throws when the value can not convert.
    ///
    /// - Throws: A ``RowDecodingError`` if the value is neither NULL nor
    ///   convertible to `Value`.
    @inlinable
    public func decodeIfPresent<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forColumn name: String) throws -> Value? {
        guard let index = index(ofColumn: name) else { return nil }
        if hasNull(atIndex: index) { return nil }
        return try decode(Value.self, atIndex: index)
    }

    // MARK: Subscripts

    /// The value at `index` (leftmost is 0).
    ///
    /// ```swift
    /// let name: String = row[0]
    /// let score: Int? = row[2]   // nil when NULL
    /// ```
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        do {
            return try decode(Value.self, atIndex: index)
        } catch {
            return placeholder(after: error)
        }
    }

    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        do {
            return try decode(Value.self, atIndex: index)
        } catch {
            return placeholder(after: error)
        }
    }

    /// The value of the leftmost column named `name` (case-insensitive).
    ///
    /// ```swift
    /// let name: String = row["name"]
    /// let score: Int? = row["score"]   // nil when NULL or missing
    /// ```
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        do {
            return try decode(Value.self, forColumn: name)
        } catch {
            return placeholder(after: error)
        }
    }

    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ name: String) -> Value {
        do {
            return try decode(Value.self, forColumn: name)
        } catch {
            return placeholder(after: error)
        }
    }

    /// The value of the leftmost column `name`, as SQLite stores it
    /// (`Int64`, `Double`, `String` or `Data`), or nil when it is NULL or
    /// missing, as in GRDB. Give a type to convert it:
    /// `let name: String = row["name"]`.
    ///
    /// ```swift
    /// if let name = row["name"] as? String { ... }
    /// ```
    public subscript(_ name: String) -> (any DatabaseValueConvertible)? {
        index(ofColumn: name).flatMap { databaseValue(atIndex: $0).storage.value }
    }

    /// The value of the column at `index`, as SQLite stores it, or nil
    /// when it is NULL or out of range.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        databaseValue(atIndex: index).storage.value
    }

    /// The first non-NULL value of the columns, or nil.
    ///
    /// ```swift
    /// let name: String? = row.coalesce(["nickname", "name"])
    /// ```
    public func coalesce<Value: DatabaseValueConvertible>(_ names: some Collection<String>) -> Value? {
        for name in names {
            if let index = index(ofColumn: name), let value = optionalValue(Value.self, atIndex: index) {
                return value
            }
        }
        return nil
    }

    @inlinable
    func optionalValue<Value: DatabaseValueConvertible>(_ type: Value.Type, atIndex index: Int) -> Value? {
        if hasNull(atIndex: index) { return nil }
        do {
            return try decode(Value.self, atIndex: index)
        } catch {
            recordDecodingError(error)
            return nil
        }
    }

    @inlinable
    func optionalValue<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, atIndex index: Int) -> Value? {
        if hasNull(atIndex: index) { return nil }
        do {
            return try decode(Value.self, atIndex: index)
        } catch {
            recordDecodingError(error)
            return nil
        }
    }

    /// Records `error` and returns a stand-in value: see the top of this file.
    @usableFromInline
    func placeholder<Value: DatabaseValueConvertible>(after error: any Error) -> Value {
        recordDecodingError(error)
        if let value = Value._decodingPlaceholder() { return value }
        // A type that holds references (a class, a struct with a string...),
        // is not Decodable, and that no basic database value converts to: no
        // value of it can be made here.
        fatalError("\(error)")  // crash-ok: only for such a custom type (not Decodable, not trivial, refusing every basic value)
    }
}
