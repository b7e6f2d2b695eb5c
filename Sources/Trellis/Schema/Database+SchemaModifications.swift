extension Database {
    // MARK: Tables

    /// Creates a table.
    ///
    /// ```swift
    /// try db.create(table: "country") { t in
    ///     t.column("code", .text).primaryKey()
    ///     t.column("name", .text)
    /// }
    /// ```
    public func create(table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void) throws {
        let definition = TableDefinition(name: name, options: options)
        try body(definition)
        for sql in try definition.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Creates a table, with options as flags.
    public func create(
        table name: String, temporary: Bool = false, ifNotExists: Bool = false, withoutRowID: Bool = false,
        body: (TableDefinition) throws -> Void) throws
    {
        var options: TableOptions = []
        if temporary { options.insert(.temporary) }
        if ifNotExists { options.insert(.ifNotExists) }
        if withoutRowID { options.insert(.withoutRowID) }
        try create(table: name, options: options, body: body)
    }

    /// Modifies a table.
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.add(column: "email", .text)
    /// }
    /// ```
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        guard try tableExists(name) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(name)")
        }
        let alteration = TableAlteration(name: name)
        try body(alteration)
        for sql in try alteration.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Renames a table.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Drops a table.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    // MARK: Indexes

    /// Creates an index.
    ///
    /// ```swift
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], options: .unique)
    /// ```
    public func create(
        index name: String, on table: String, columns: [String], options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        var sql = "CREATE "
        if options.contains(.unique) { sql += "UNIQUE " }
        sql += "INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier
        sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        if let condition {
            sql += " WHERE " + (try SQL(condition.sqlExpression).inlinedSQL(self))
        }
        try execute(sql: sql)
    }

    /// Creates an index named `index_<table>_on_<columns>`.
    ///
    /// ```swift
    /// try db.create(indexOn: "player", columns: ["teamId"])
    /// ```
    public func create(indexOn table: String, columns: [String], options: IndexOptions = [], condition: (any SQLExpressible)? = nil) throws {
        try create(index: "index_\(table)_on_" + columns.joined(separator: "_"), on: table, columns: columns,
                   options: options, condition: condition)
    }

    /// Drops an index.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Drops the index that `create(indexOn:columns:)` created.
    public func drop(indexOn table: String, columns: [String]) throws {
        try drop(index: "index_\(table)_on_" + columns.joined(separator: "_"))
    }

    // MARK: Views

    /// Creates a view from a request.
    ///
    /// ```swift
    /// try db.create(view: "bestPlayers", as: Player.filter(Column("score") > 1000))
    /// ```
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, as request: some SQLSubqueryable) throws {
        let context = SQLGenerationContext(self, inlinesValues: true)
        let select = try request.sqlSubquery.sql(context)
        try createView(name, options: options, columns: columns, select: select)
    }

    /// Creates a view from an SQL literal.
    ///
    /// ```swift
    /// try db.create(view: "playerNames", asLiteral: "SELECT name FROM player")
    /// ```
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, asLiteral sqlLiteral: SQL) throws {
        try createView(name, options: options, columns: columns, select: sqlLiteral.inlinedSQL(self))
    }

    private func createView(_ name: String, options: ViewOptions, columns: [String]?, select: String) throws {
        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "VIEW "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier
        if let columns { sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")" }
        sql += " AS " + select
        try execute(sql: sql)
    }

    /// Drops a view.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }
}
