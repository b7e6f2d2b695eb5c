extension Database {
    private static let schemaSourceKey = "schemaSource"

    /// A schema source that replaces the configuration's one, set by
    /// `withSchemaSource(_:execute:)`.
    private struct SchemaSourceOverride {
        var source: (any DatabaseSchemaSource)?
    }

    /// The schema source of the connection, that tells the primary keys of
    /// views: the configuration's ``Configuration/schemaSource``, or the one
    /// of ``withSchemaSource(_:execute:)``.
    ///
    /// ```swift
    /// let source = db.schemaSource
    /// ```
    public var schemaSource: (any DatabaseSchemaSource)? {
        if let override = schemaCache.persistent[Self.schemaSourceKey] as? SchemaSourceOverride {
            return override.source
        }
        return configuration.schemaSource
    }

    /// Runs `block` with another schema source (nil for none).
    ///
    /// ```swift
    /// let alice = try db.withSchemaSource(GameSchemaSource()) {
    ///     try Captain.find(db, id: "alice")
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `block`.
    public func withSchemaSource<T>(_ schemaSource: (any DatabaseSchemaSource)?, execute block: () throws -> T) rethrows -> T {
        let previous = schemaCache.persistent[Self.schemaSourceKey]
        schemaCache.persistent[Self.schemaSourceKey] = SchemaSourceOverride(source: schemaSource)
        // The primary keys of views depend on the source.
        clearSchemaCache()
        defer {
            schemaCache.persistent[Self.schemaSourceKey] = previous
            clearSchemaCache()
        }
        return try block()
    }

    /// The primary key columns of a view, from the schema source, with
    /// the case of the view's columns. Throws when there is none: SQLite
    /// views have no primary key.
    func columnsForPrimaryKey(inView view: String, columns viewColumns: [ColumnInfo]) throws -> [String] {
        let id = DatabaseObjectID(name: view, schemaID: .main)
        guard let columns = try schemaSource?.columnsForPrimaryKey(self, inView: id), !columns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "database view \(view) has no primary key")
        }
        return try columns.map { column in
            guard let viewColumn = viewColumns.first(where: { $0.name.lowercased() == column.lowercased() }) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "No such column in view \(view): \(column)")
            }
            return viewColumn.name
        }
    }
}
