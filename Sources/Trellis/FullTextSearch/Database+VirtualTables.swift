extension Database {
    /// Creates a virtual table from a module and its arguments written in
    /// SQL.
    ///
    /// ```swift
    /// // CREATE VIRTUAL TABLE vocabulary USING fts4aux(document)
    /// try db.create(virtualTable: "vocabulary", using: "fts4aux(document)")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the table
    ///   exists, the module is unknown, or its arguments are invalid.
    public func create(virtualTable tableName: String, options: VirtualTableOptions = [], using module: String) throws {
        try execute(sql: Self.createVirtualTableSQL(tableName, options: options) + module)
    }

    /// Creates a virtual table with a module, such as ``FTS5``, configured
    /// in `body`.
    ///
    /// ```swift
    /// // CREATE VIRTUAL TABLE book USING fts5(title, author UNINDEXED, tokenize='''porter''')
    /// try db.create(virtualTable: "book", using: FTS5()) { t in
    ///     t.column("title")
    ///     t.column("author").notIndexed()
    ///     t.tokenizer = .porter()
    /// }
    /// ```
    ///
    /// The creation and what the module does after it (the triggers of
    /// `synchronize(withTable:)`) happen in a savepoint: when one of them
    /// throws, the table is not created.
    ///
    /// - Throws: The error thrown by `body` or by the module; a
    ///   ``DatabaseError`` if SQLite rejects the statement: the table exists,
    ///   or the module or its options are invalid.
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        let definition = module.makeTableDefinition(configuration: VirtualTableConfiguration(options: options))
        try body?(definition)
        let arguments = try module.moduleArguments(for: definition, in: self)
        var sql = Self.createVirtualTableSQL(tableName, options: options) + module.moduleName
        if !arguments.isEmpty {
            sql += "(" + arguments.joined(separator: ", ") + ")"
        }
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: tableName, using: definition)
            return .commit
        }
    }

    /// Creates a virtual table, with `IF NOT EXISTS` as a flag.
    ///
    /// ```swift
    /// try db.create(virtualTable: "vocabulary", ifNotExists: true, using: "fts4aux(document)")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite rejects the statement: the
    ///   module is unknown, or its arguments are invalid.
    public func create(virtualTable tableName: String, ifNotExists: Bool, using module: String) throws {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module)
    }

    /// Creates a virtual table with a module, with `IF NOT EXISTS` as a
    /// flag.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", ifNotExists: true, using: FTS5()) { t in
    ///     t.column("content")
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `body` or by the module; a
    ///   ``DatabaseError`` if SQLite rejects the statement: the module or its
    ///   options are invalid.
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        ifNotExists: Bool,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }

    private static func createVirtualTableSQL(_ tableName: String, options: VirtualTableOptions) -> String {
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        return sql + tableName.quotedDatabaseIdentifier + " USING "
    }

    // MARK: Synchronization triggers

    /// Drops the triggers that keep an FTS4 table created with
    /// `synchronize(withTable:)` up to date. Dropping the full-text table
    /// leaves them, and they would make the content table fail.
    ///
    /// ```swift
    /// try db.drop(table: "book_ft")
    /// try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails.
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        try dropSynchronizationTriggers(forTable: tableName, suffixes: FTS4.synchronizationTriggerSuffixes)
    }

    /// Drops the triggers that keep an FTS5 table created with
    /// `synchronize(withTable:)` up to date. Dropping the full-text table
    /// leaves them, and they would make the content table fail.
    ///
    /// ```swift
    /// try db.drop(table: "book_ft")
    /// try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails.
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        try dropSynchronizationTriggers(forTable: tableName, suffixes: FTS5.synchronizationTriggerSuffixes)
    }

    private func dropSynchronizationTriggers(forTable tableName: String, suffixes: [String]) throws {
        for suffix in suffixes {
            let trigger = ExternalContentSynchronization.triggerName(tableName, suffix)
            try execute(sql: "DROP TRIGGER IF EXISTS \(trigger.quotedDatabaseIdentifier)")
        }
    }
}
