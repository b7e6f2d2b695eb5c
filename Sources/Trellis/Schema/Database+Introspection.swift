extension Database {
    /// The schema version of the database: SQLite increments it at each
    /// schema change.
    ///
    /// ```swift
    /// let version = try db.schemaVersion()
    /// try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }
    /// try db.schemaVersion() > version // true
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails.
    public func schemaVersion() throws -> Int32 {
        try checkSQLiteOnly("schemaVersion()")
        return try Int32.fetchOne(self, sql: "PRAGMA schema_version") ?? 0
    }

    /// Whether a table exists, in the given schema (`"main"`, `"temp"`,
    /// or the name of an attached database), or in any of them.
    ///
    /// ```swift
    /// if try db.tableExists("player") { ... }
    /// if try db.tableExists("player", in: "temp") { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the schema is unknown, or if SQLite
    ///   fails.
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        let key = SchemaCacheKey(name, schemaName)
        if let exists = schemaCache.tableExists[key] { return exists }
        let exists = try server.map { try $0.tableExists(checkServerSchema(name, schemaName)) }
            ?? schemaObjectExists(type: "table", name: name, in: schemaName)
        schemaCache.tableExists[key] = exists
        return exists
    }

    /// Whether a trigger exists, in the given schema or in any of them.
    ///
    /// ```swift
    /// if try db.triggerExists("player_insert") { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the schema is unknown, or if SQLite
    ///   fails.
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try checkSQLiteOnly("triggerExists(_:)")
        return try schemaObjectExists(type: "trigger", name: name, in: schemaName)
    }

    /// Whether a view exists, in the given schema or in any of them.
    ///
    /// ```swift
    /// if try db.viewExists("bestPlayer") { ... }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the schema is unknown, or if SQLite
    ///   fails.
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        if let server { return try server.viewExists(checkServerSchema(name, schemaName)) }
        return try schemaObjectExists(type: "view", name: name, in: schemaName)
    }

    /// Whether the table is one of SQLite's own (`sqlite_sequence`...).
    ///
    /// ```swift
    /// Database.isSQLiteInternalTable("sqlite_sequence") // true
    /// ```
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("sqlite_")
    }

    /// Whether the table is one of GRDB's own (`grdb_migrations`), which
    /// Trellis shares.
    ///
    /// ```swift
    /// Database.isGRDBInternalTable("grdb_migrations") // true
    /// ```
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("grdb_")
    }

    /// Throws a clear error when `table` is neither a table nor a view.
    func checkTableExists(_ table: String, in schemaName: String? = nil) throws {
        if try !tableExists(table, in: schemaName), try !viewExists(table, in: schemaName) {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
    }

    /// The schema of `schemaName`, spelled as SQLite knows it; an error
    /// if there is none.
    private func schemaName(_ schemaName: String) throws -> String {
        if schemaName.lowercased() == "temp" { return "temp" }
        let names = try String.fetchAll(self, sql: "SELECT name FROM pragma_database_list")
        guard let name = names.first(where: { $0.lowercased() == schemaName.lowercased() }) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such schema: \(schemaName)")
        }
        return name
    }

    /// The table that lists the objects of a schema.
    private func masterTable(_ schemaName: String) -> String {
        schemaName.lowercased() == "temp" ? "sqlite_temp_master" : "\(schemaName.quotedDatabaseIdentifier).sqlite_master"
    }

    /// The row of the schema object in `sqlite_master` (its `sql` column),
    /// looked for in `schemaName`, or in main and temp, then in the
    /// attached databases.
    private func schemaObject(type: String, name: String, in schemaName: String?) throws -> Row? {
        let schemas: [String]
        if let schemaName {
            schemas = [try self.schemaName(schemaName)]
        } else {
            let sql = """
                SELECT sql FROM sqlite_master WHERE type = ? AND name = ? COLLATE NOCASE
                UNION ALL SELECT sql FROM sqlite_temp_master WHERE type = ? AND name = ? COLLATE NOCASE
                """
            if let row = try Row.fetchOne(self, sql: sql, arguments: [type, name, type, name]) {
                return row
            }
            // Attached databases are rare: they are only listed on a miss.
            schemas = try String.fetchAll(self, sql: "SELECT name FROM pragma_database_list WHERE seq > 1")
        }
        for schema in schemas {
            let sql = "SELECT sql FROM \(masterTable(schema)) WHERE type = ? AND name = ? COLLATE NOCASE"
            if let row = try Row.fetchOne(self, sql: sql, arguments: [type, name]) {
                return row
            }
        }
        return nil
    }

    private func schemaObjectExists(type: String, name: String, in schemaName: String?) throws -> Bool {
        try schemaObject(type: type, name: name, in: schemaName) != nil
    }

    /// `PRAGMA schema.pragma("table")`, or `PRAGMA pragma("table")`, which
    /// SQLite resolves as it resolves table names.
    private func pragma(_ pragma: String, _ argument: String, in schemaName: String?) -> String {
        let prefix = schemaName.map { $0.quotedDatabaseIdentifier + "." } ?? ""
        return "PRAGMA \(prefix)\(pragma)(\(argument.quotedDatabaseIdentifier))"
    }

    /// The columns of a table, in order.
    ///
    /// ```swift
    /// let names = try db.columns(in: "player").map(\.name)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if the schema
    ///   is unknown, or if SQLite fails.
    public func columns(in table: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        let key = SchemaCacheKey(table, schemaName)
        if let columns = schemaCache.columns[key] { return columns }
        if let server {
            let columns = try server.columns(in: checkServerSchema(table, schemaName))
            schemaCache.columns[key] = columns
            return columns
        }
        try checkTableExists(table, in: schemaName)
        let rows = try Row.fetchAll(self, sql: pragma("table_xinfo", table, in: schemaName))
        let columns = rows.compactMap { row -> ColumnInfo? in
            // `hidden` is 1 for the hidden columns of virtual tables, 2 for
            // virtual generated columns, 3 for stored ones.
            let hidden: Int = row["hidden"] ?? 0
            let generated: GeneratedColumnQualification?
            switch hidden {
            case 1: return nil
            case 2: generated = .virtual
            case 3: generated = .stored
            default: generated = nil
            }
            return ColumnInfo(
                name: row["name"], type: row["type"] ?? "", isNotNull: row["notnull"] ?? false,
                defaultValueSQL: row["dflt_value"], primaryKeyIndex: row["pk"] ?? 0, cid: row["cid"] ?? 0,
                generated: generated)
        }
        schemaCache.columns[key] = columns
        return columns
    }

    /// The primary key of a table: explicit columns, or the hidden rowid.
    ///
    /// ```swift
    /// let primaryKey = try db.primaryKey("player")
    /// primaryKey.columns // ["id"]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if the schema
    ///   is unknown, or if SQLite fails.
    public func primaryKey(_ table: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        let key = SchemaCacheKey(table, schemaName)
        if let primaryKey = schemaCache.primaryKeys[key] { return primaryKey }
        if let server {
            let primaryKey = try server.primaryKey(checkServerSchema(table, schemaName))
            schemaCache.primaryKeys[key] = primaryKey
            return primaryKey
        }
        let columns = try self.columns(in: table, in: schemaName)
        let keyColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let primaryKey: PrimaryKeyInfo
        if keyColumns.isEmpty, try viewExists(table, in: schemaName) {
            primaryKey = PrimaryKeyInfo(
                columns: try columnsForPrimaryKey(inView: table, columns: columns), rowIDColumn: nil, isRowID: false,
                isViewKey: true)
        } else if keyColumns.isEmpty {
            primaryKey = try hiddenRowIDKey(table, in: schemaName)
        } else if keyColumns.count == 1, keyColumns[0].type.uppercased() == "INTEGER", try !isWithoutRowID(table, in: schemaName),
                  // `INTEGER PRIMARY KEY DESC` is no alias of the rowid:
                  // SQLite backs it with an index, as any other key.
                  try !indexes(on: table, in: schemaName).contains(where: { $0.origin == .primaryKeyConstraint })
        {
            primaryKey = PrimaryKeyInfo(columns: [keyColumns[0].name], rowIDColumn: keyColumns[0].name, isRowID: true)
        } else {
            primaryKey = PrimaryKeyInfo(columns: keyColumns.map(\.name), rowIDColumn: nil, isRowID: false)
        }
        schemaCache.primaryKeys[key] = primaryKey
        return primaryKey
    }

    /// The key of a table that declares none: its rowid, under the first
    /// of its names that no column takes. A table imported from a CSV
    /// file may have a `rowid` column, which is text like the others: a
    /// lookup by `rowid` would compare it, not the rowid.
    private func hiddenRowIDKey(_ table: String, in schemaName: String?) throws -> PrimaryKeyInfo {
        guard let free = try freeRowIDNames(in: table, in: schemaName).first else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "the rowid of table \(table) can not be selected: its columns rowid, _rowid_ and oid hide it")
        }
        return free == "rowid" ? .hiddenRowID : PrimaryKeyInfo(columns: [free], rowIDColumn: nil, isRowID: true)
    }

    /// The names of the rowid (`rowid`, `_rowid_` and `oid`, in SQLite's
    /// order) that no column of the table takes: a column may take one (a
    /// `rowid` column of a table imported from a CSV file), and hide the
    /// rowid under it.
    func freeRowIDNames(in table: String, in schemaName: String? = nil) throws -> [String] {
        let names = Set(try columns(in: table, in: schemaName).map { $0.name.lowercased() })
        return ["rowid", "_rowid_", "oid"].filter { !names.contains($0) }
    }

    /// Whether the table is a WITHOUT ROWID table.
    func isWithoutRowID(_ table: String, in schemaName: String?) throws -> Bool {
        // SQLite knows: a WITHOUT ROWID table refuses to select the rowid
        // (the statement is prepared, never run). The CREATE statement
        // may hold comments, with parentheses, after its options.
        if let free = try freeRowIDNames(in: table, in: schemaName).first {
            let qualified = (schemaName.map { $0.quotedDatabaseIdentifier + "." } ?? "") + table.quotedDatabaseIdentifier
            return (try? makeStatement(sql: "SELECT \(free) FROM \(qualified) LIMIT 0")) == nil
        }
        let sql: String = try schemaObject(type: "table", name: table, in: schemaName)?["sql"] ?? ""
        // Table options follow the last parenthesis: `) WITHOUT ROWID, STRICT`.
        guard let close = sql.lastIndex(of: ")") else { return false }
        let options = sql[sql.index(after: close)...].uppercased()
            .split(whereSeparator: { $0.isWhitespace || $0 == "," })
        return zip(options, options.dropFirst()).contains { $0 == "WITHOUT" && $1 == "ROWID" }
    }

    /// The foreign keys of a table. Implicit destination columns are the
    /// primary key of the destination table.
    ///
    /// ```swift
    /// for foreignKey in try db.foreignKeys(on: "book") {
    ///     print(foreignKey.destinationTable, foreignKey.mapping, foreignKey.onDelete as Any)
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the table does not exist, or when
    ///   a foreign key names no destination columns and its destination
    ///   table does not exist (see ``declaredForeignKeys(on:in:)``).
    public func foreignKeys(on table: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        let key = SchemaCacheKey(table, schemaName)
        if let foreignKeys = schemaCache.foreignKeys[key] { return foreignKeys }
        if let server {
            let foreignKeys = try server.foreignKeys(on: checkServerSchema(table, schemaName))
            schemaCache.foreignKeys[key] = foreignKeys
            return foreignKeys
        }
        var result: [ForeignKeyInfo] = []
        for declared in try declaredForeignKeys(on: table, in: schemaName).sorted(by: { $0.id < $1.id }) {
            let destinationColumns: [String]
            if let declaredColumns = declared.destinationColumns {
                destinationColumns = declaredColumns
            } else {
                // The primary key of the destination: `no such table`
                // when it is missing, as in GRDB.
                let destinationKey = try primaryKey(declared.destinationTable, in: schemaName).columns
                destinationColumns = declared.originColumns.indices.map { $0 < destinationKey.count ? destinationKey[$0] : "" }
            }
            result.append(ForeignKeyInfo(
                id: declared.id, destinationTable: declared.destinationTable,
                mapping: Array(zip(declared.originColumns, destinationColumns)),
                onDelete: declared.onDelete, onUpdate: declared.onUpdate))
        }
        schemaCache.foreignKeys[key] = result
        return result
    }

    /// The foreign keys of a table, as its schema declares them, in the
    /// order of their declaration: the destination table need not exist,
    /// and the destination columns are nil when the declaration names
    /// none (they are then the primary key of the destination table).
    /// ``foreignKeys(on:in:)`` resolves them.
    ///
    /// ```swift
    /// // CREATE TABLE book (authorId REFERENCES author ON DELETE CASCADE)
    /// let foreignKey = try db.declaredForeignKeys(on: "book")[0]
    /// foreignKey.destinationTable    // "author"
    /// foreignKey.destinationColumns  // nil
    /// foreignKey.onDelete            // .cascade
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the table does not exist.
    public func declaredForeignKeys(on table: String, in schemaName: String? = nil) throws -> [DeclaredForeignKeyInfo] {
        try checkSQLiteOnly("declaredForeignKeys(on:)")
        try checkTableExists(table, in: schemaName)
        let rows = try Row.fetchAll(self, sql: pragma("foreign_key_list", table, in: schemaName))
        var foreignKeys: [DeclaredForeignKeyInfo] = []
        var positions: [Int: Int] = [:]
        for row in rows {
            let id: Int = row["id"] ?? 0
            let position: Int
            if let known = positions[id] {
                position = known
            } else {
                position = foreignKeys.count
                positions[id] = position
                foreignKeys.append(DeclaredForeignKeyInfo(
                    id: id, destinationTable: row["table"] ?? "", originColumns: [], destinationColumns: [],
                    onDelete: Self.foreignKeyAction(row["on_delete"]), onUpdate: Self.foreignKeyAction(row["on_update"])))
            }
            foreignKeys[position].originColumns.append(row["from"] ?? "")
            if let destination: String = row["to"] {
                foreignKeys[position].destinationColumns?.append(destination)
            } else {
                foreignKeys[position].destinationColumns = nil
            }
        }
        // SQLite numbers foreign keys from the last declared one.
        return foreignKeys.sorted { $0.id > $1.id }
    }

    /// The action of a foreign key, as `foreign_key_list` spells it; nil
    /// for `NO ACTION`.
    private static func foreignKeyAction(_ text: String?) -> ForeignKeyAction? {
        text.flatMap { ForeignKeyAction(rawValue: $0.uppercased()) }
    }

    /// The indexes of a table, on columns only: as in GRDB, an index on an
    /// expression (`CREATE INDEX ... ON player(lower(name))`) is left out,
    /// since it does not make its columns a key, unless
    /// `includingExpressions` is true.
    ///
    /// ```swift
    /// for index in try db.indexes(on: "player") {
    ///     print(index.name, index.columns, index.isUnique, index.isPartial)
    /// }
    /// let all = try db.indexes(on: "player", includingExpressions: true)
    /// ```
    ///
    /// - throws: A ``DatabaseError`` when the table does not exist.
    public func indexes(on table: String, in schemaName: String? = nil, includingExpressions: Bool = false) throws -> [IndexInfo] {
        try checkSQLiteOnly("indexes(on:)")
        let key = SchemaCacheKey(table, schemaName)
        if !includingExpressions, let indexes = schemaCache.indexes[key] { return indexes }
        try checkTableExists(table, in: schemaName)
        let list = try Row.fetchAll(self, sql: pragma("index_list", table, in: schemaName))
        var indexes: [IndexInfo] = []
        for row in list {
            let name: String = row["name"]
            let columnNames = try Row.fetchAll(self, sql: pragma("index_info", name, in: schemaName))
                .sorted { ($0["seqno"] as Int? ?? 0) < ($1["seqno"] as Int? ?? 0) }
                .map { $0["name"] as String? }
            // An expression has no name.
            let isOnExpressions = columnNames.isEmpty || columnNames.contains(nil)
            if isOnExpressions && !includingExpressions { continue }
            let origin = IndexInfo.Origin(rawValue: row["origin"] ?? "c") ?? .createIndex
            indexes.append(IndexInfo(
                name: name, columns: isOnExpressions ? [] : columnNames.compactMap { $0 }, isUnique: row["unique"] ?? false,
                origin: origin, isPartial: row["partial"] ?? false, isOnExpressions: isOnExpressions))
        }
        if !includingExpressions { schemaCache.indexes[key] = indexes }
        return indexes
    }

    /// The collation of each column of a key of the table, nil for BINARY;
    /// empty when all are BINARY. The collations are those of the unique
    /// index of exactly these columns, which are the columns' own (SQLite
    /// requires it of the parent key of a foreign key). An INTEGER PRIMARY
    /// KEY has no index and compares integers.
    func keyCollations(table: String, columns: [String]) throws -> [String?] {
        let cacheKey = "keyCollations\u{0}" + table + "\u{0}" + columns.joined(separator: "\u{0}")
        if let known = schemaCache.derived[cacheKey] as? [String?] { return known }
        let wanted = columns.map { $0.lowercased() }
        var result: [String?] = []
        for index in try indexes(on: table) where index.isUnique && !index.isPartial
            && Set(index.columns.map { $0.lowercased() }) == Set(wanted) && index.columns.count == wanted.count
        {
            let rows = try Row.fetchAll(self, sql: "PRAGMA index_xinfo(\(index.name.quotedDatabaseIdentifier))")
            var collations: [String: String] = [:]
            for row in rows where (row["key"] as Int? ?? 0) != 0 {
                guard let name = row["name"] as String?, let collation = row["coll"] as String? else { continue }
                collations[name.lowercased()] = collation
            }
            let perColumn = wanted.map { column -> String? in
                guard let collation = collations[column], collation.uppercased() != "BINARY" else { return nil }
                return collation
            }
            if perColumn.contains(where: { $0 != nil }) { result = perColumn }
            break
        }
        schemaCache.derived[cacheKey] = result
        return result
    }

    /// Whether the columns are a unique key of the table: its primary key,
    /// or a unique index that is not partial. A view has no unique key, unless the schema
    /// source gives it a primary key.
    ///
    /// ```swift
    /// try db.table("player", hasUniqueKey: ["email"])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table does not exist, if the schema
    ///   is unknown, or if SQLite fails.
    public func table(_ table: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        let wanted = Set(columns.map { $0.lowercased() })
        if try !tableExists(table), try viewExists(table) {
            // A view has no index and no rowid: only the primary key that
            // a schema source gives it is a key.
            let view = DatabaseObjectID(name: table, schemaID: .main)
            guard let keyColumns = try schemaSource?.columnsForPrimaryKey(self, inView: view), !keyColumns.isEmpty else {
                return false
            }
            let primaryKey = try self.primaryKey(table)
            return Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: wanted)
        }
        let primaryKey = try self.primaryKey(table)
        if Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: wanted) { return true }
        // The rowid, under a name that no column takes.
        if !wanted.isDisjoint(with: try freeRowIDNames(in: table)), try !isWithoutRowID(table, in: nil) { return true }
        return try indexes(on: table).contains { index in
            // A partial index only makes the rows of its WHERE clause
            // unique: others may share a value (a soft-deleted user keeps
            // the email of a new one).
            index.isUnique && !index.isPartial && Set(index.columns.map { $0.lowercased() }).isSubset(of: wanted)
        }
    }
}
