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
    ///
    /// - Throws: The error thrown by `body`; a ``DatabaseError`` if SQLite
    ///   rejects the statement: the table already exists (without
    ///   `ifNotExists`), or the definition is invalid.
    public func create(table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void) throws {
        let definition = TableDefinition(name: name, options: options)
        try body(definition)
        for sql in try definition.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Creates a table, with options as flags: prefer
    /// ``create(table:options:body:)``.
    ///
    /// ```swift
    /// try db.create(table: "player", ifNotExists: true) { t in
    ///     t.autoIncrementedPrimaryKey("id")
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `body`; a ``DatabaseError`` if SQLite
    ///   rejects the statement: the table already exists (without
    ///   `ifNotExists`), or the definition is invalid.
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
    ///
    /// - Throws: The error thrown by `body`; a ``DatabaseError`` if the table
    ///   does not exist, or if SQLite rejects an alteration.
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        // A missing table fails the first ALTER TABLE statement, whose
        // error tells the SQL, as GRDB's does.
        let alteration = TableAlteration(name: name)
        try body(alteration)
        for sql in try alteration.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Renames a table.
    ///
    /// ```swift
    /// // ALTER TABLE "referer" RENAME TO "referrer"
    /// try db.rename(table: "referer", to: "referrer")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Drops a table.
    ///
    /// ```swift
    /// try db.drop(table: "obsolete")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    // MARK: Indexes

    /// Creates an index on columns.
    ///
    /// ```swift
    /// // CREATE UNIQUE INDEX "player_on_email" ON "player"("email")
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], options: .unique)
    ///
    /// // CREATE INDEX "player_on_score" ON "player"("score") WHERE "score" > 1000
    /// try db.create(index: "player_on_score", on: "player", columns: ["score"], condition: Column("score") > 1000)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func create(
        index name: String, on table: String, columns: [String], options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        try createIndex(name, on: table, indexed: columns.map(\.quotedDatabaseIdentifier), options: options, condition: condition)
    }

    /// Creates an index on expressions.
    ///
    /// ```swift
    /// // CREATE INDEX "player_on_email" ON "player"("email" COLLATE NOCASE)
    /// try db.create(index: "player_on_email", on: "player", expressions: [Column("email").collating(.nocase)])
    ///
    /// // CREATE INDEX "player_on_total_score" ON "player"("score" + "bonus")
    /// try db.create(index: "player_on_total_score", on: "player", expressions: [Column("score") + Column("bonus")])
    ///
    /// // CREATE INDEX "player_on_country" ON "player"("address" ->> 'country')
    /// try db.create(index: "player_on_country", on: "player", expressions: [JSONColumn("address")["country"]])
    /// ```
    ///
    /// Values are written as SQL literals: SQLite does not accept
    /// parameters in schema statements.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func create(
        index name: String, on table: String, expressions: [any SQLExpressible], options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        let indexed = try expressions.map { try SQL($0.sqlExpression).inlinedSQL(self) }
        try createIndex(name, on: table, indexed: indexed, options: options, condition: condition)
    }

    private func createIndex(
        _ name: String, on table: String, indexed: [String], options: IndexOptions,
        condition: (any SQLExpressible)?) throws
    {
        var sql = "CREATE "
        if options.contains(.unique) { sql += "UNIQUE " }
        sql += "INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " ON " + table.quotedDatabaseIdentifier
        sql += "(" + indexed.joined(separator: ", ") + ")"
        if let condition {
            sql += " WHERE " + (try SQL(condition.sqlExpression).inlinedSQL(self))
        }
        try execute(sql: sql)
    }

    /// Creates an index, with options as flags: prefer
    /// ``create(index:on:columns:options:condition:)``.
    ///
    /// ```swift
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], unique: true, ifNotExists: true)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func create(
        index name: String, on table: String, columns: [String], unique: Bool = false, ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil) throws
    {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Creates an index named `index_<table>_on_<columns>`.
    ///
    /// ```swift
    /// // CREATE INDEX "index_player_on_teamId" ON "player"("teamId")
    /// try db.create(indexOn: "player", columns: ["teamId"])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func create(indexOn table: String, columns: [String], options: IndexOptions = [], condition: (any SQLExpressible)? = nil) throws {
        try create(index: "index_\(table)_on_" + columns.joined(separator: "_"), on: table, columns: columns,
                   options: options, condition: condition)
    }

    /// Drops an index.
    ///
    /// ```swift
    /// try db.drop(index: "index_player_on_email")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Drops the index on exactly these columns, whatever its name, when
    /// the table has one and only one. It does nothing when there is none,
    /// or several (GRDB does the same).
    ///
    /// ```swift
    /// try db.create(indexOn: "player", columns: ["email"])
    /// try db.drop(indexOn: "player", columns: ["email"])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, or if SQLite
    ///   fails.
    public func drop(indexOn table: String, columns: [String]) throws {
        let wanted = columns.map { $0.lowercased() }
        let matching = try indexes(on: table).filter { $0.columns.map { $0.lowercased() } == wanted }
        if matching.count == 1 {
            try drop(index: matching[0].name)
        }
    }

    // MARK: Views

    /// Creates a view from a request.
    ///
    /// ```swift
    /// try db.create(view: "bestPlayers", as: Player.filter(Column("score") > 1000))
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled, or if
    ///   SQLite rejects the statement (the view exists, without `ifNotExists`).
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
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, or if SQLite
    ///   rejects the statement (the view exists, without `ifNotExists`).
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, asLiteral sqlLiteral: SQL) throws {
        try createView(name, options: options, columns: columns, select: sqlLiteral.inlinedSQL(self))
    }

    private func createView(_ name: String, options: ViewOptions, columns: [String]?, select: String) throws {
        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "VIEW "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier
        if let columns { sql += " (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")" }
        sql += " AS " + select
        try execute(sql: sql)
    }

    /// Drops a view.
    ///
    /// ```swift
    /// try db.drop(view: "bestPlayers")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   object already exists (without `ifNotExists`) or does not exist, or
    ///   the definition is invalid.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }
}
