extension Database {
    /// Whether a table exists, in the main or temp schema.
    ///
    /// ```swift
    /// if try db.tableExists("player") { ... }
    /// ```
    public func tableExists(_ name: String) throws -> Bool {
        let key = name
        if let exists = schemaCache.tableExists[key] { return exists }
        let exists = try Bool.fetchOne(self, sql: """
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE
                           UNION ALL SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = ? COLLATE NOCASE)
            """, arguments: [name, name]) ?? false
        schemaCache.tableExists[key] = exists
        return exists
    }

    /// Whether a trigger exists.
    public func triggerExists(_ name: String) throws -> Bool {
        try Bool.fetchOne(self, sql: """
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ? COLLATE NOCASE)
            """, arguments: [name]) ?? false
    }

    /// Whether the table is one of SQLite's own (`sqlite_sequence`...).
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("sqlite_")
    }

    /// Whether the table is one of GRDB's own (`grdb_migrations`), which
    /// Trellis shares.
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("grdb_")
    }

    /// Whether a view exists.
    public func viewExists(_ name: String) throws -> Bool {
        try Bool.fetchOne(self, sql: """
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = ? COLLATE NOCASE)
            """, arguments: [name]) ?? false
    }

    /// Throws a clear error when `table` is neither a table nor a view.
    func checkTableExists(_ table: String) throws {
        if try !tableExists(table), try !viewExists(table) {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
    }

    /// The columns of a table, in order.
    ///
    /// ```swift
    /// let names = try db.columns(in: "player").map(\.name)
    /// ```
    public func columns(in table: String) throws -> [ColumnInfo] {
        let key = table
        if let columns = schemaCache.columns[key] { return columns }
        try checkTableExists(table)
        let rows = try Row.fetchAll(self, sql: "PRAGMA table_xinfo(\(table.quotedDatabaseIdentifier))")
        let columns = rows.compactMap { row -> ColumnInfo? in
            let hidden: Int = row["hidden"] ?? 0
            if hidden == 1 { return nil }  // hidden columns of virtual tables
            return ColumnInfo(
                name: row["name"], type: row["type"] ?? "", isNotNull: row["notnull"] ?? false,
                defaultValueSQL: row["dflt_value"], primaryKeyIndex: row["pk"] ?? 0, cid: row["cid"] ?? 0)
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
    public func primaryKey(_ table: String) throws -> PrimaryKeyInfo {
        let key = table
        if let primaryKey = schemaCache.primaryKeys[key] { return primaryKey }
        let columns = try self.columns(in: table)
        let keyColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let primaryKey: PrimaryKeyInfo
        if keyColumns.isEmpty, try viewExists(table) {
            primaryKey = PrimaryKeyInfo(
                columns: try columnsForPrimaryKey(inView: table, columns: columns), rowIDColumn: nil, isRowID: false)
        } else if keyColumns.isEmpty {
            primaryKey = .hiddenRowID
        } else if keyColumns.count == 1, keyColumns[0].type.uppercased() == "INTEGER", try !isWithoutRowID(table) {
            primaryKey = PrimaryKeyInfo(columns: [keyColumns[0].name], rowIDColumn: keyColumns[0].name, isRowID: false)
        } else {
            primaryKey = PrimaryKeyInfo(columns: keyColumns.map(\.name), rowIDColumn: nil, isRowID: false)
        }
        schemaCache.primaryKeys[key] = primaryKey
        return primaryKey
    }

    private func isWithoutRowID(_ table: String) throws -> Bool {
        let sql = try String.fetchOne(self, sql: "SELECT sql FROM sqlite_master WHERE name = ? COLLATE NOCASE", arguments: [table]) ?? ""
        // Table options follow the last parenthesis: `) WITHOUT ROWID, STRICT`.
        guard let close = sql.lastIndex(of: ")") else { return false }
        let options = sql[sql.index(after: close)...].uppercased()
            .split(whereSeparator: { $0.isWhitespace || $0 == "," })
        return zip(options, options.dropFirst()).contains { $0 == "WITHOUT" && $1 == "ROWID" }
    }

    /// The foreign keys of a table. Implicit destination columns are the
    /// primary key of the destination table.
    public func foreignKeys(on table: String) throws -> [ForeignKeyInfo] {
        let key = table
        if let foreignKeys = schemaCache.foreignKeys[key] { return foreignKeys }
        try checkTableExists(table)
        let rows = try Row.fetchAll(self, sql: "PRAGMA foreign_key_list(\(table.quotedDatabaseIdentifier))")
        var result: [ForeignKeyInfo] = []
        var byID: [Int: (table: String, mapping: [(origin: String, destination: String?)])] = [:]
        var order: [Int] = []
        for row in rows {
            let id: Int = row["id"] ?? 0
            if byID[id] == nil { order.append(id); byID[id] = (row["table"] ?? "", []) }
            byID[id]?.mapping.append((row["from"] ?? "", row["to"]))
        }
        for id in order {
            guard let entry = byID[id] else { continue }
            var mapping: [(origin: String, destination: String)] = []
            if entry.mapping.contains(where: { $0.destination == nil }) {
                // A foreign key to a missing table has no known destination
                // columns: joins on it fail with a clear error later.
                let destinationKey = (try? primaryKey(entry.table).columns) ?? []
                for (index, pair) in entry.mapping.enumerated() {
                    mapping.append((pair.origin, index < destinationKey.count ? destinationKey[index] : ""))
                }
            } else {
                mapping = entry.mapping.map { ($0.origin, $0.destination ?? "") }
            }
            result.append(ForeignKeyInfo(id: id, destinationTable: entry.table, mapping: mapping))
        }
        schemaCache.foreignKeys[key] = result
        return result
    }

    /// The indexes of a table.
    public func indexes(on table: String) throws -> [IndexInfo] {
        let key = table
        if let indexes = schemaCache.indexes[key] { return indexes }
        try checkTableExists(table)
        let list = try Row.fetchAll(self, sql: "PRAGMA index_list(\(table.quotedDatabaseIdentifier))")
        var indexes: [IndexInfo] = []
        for row in list {
            let name: String = row["name"]
            let columns = try Row.fetchAll(self, sql: "PRAGMA index_info(\(name.quotedDatabaseIdentifier))")
                .sorted { ($0["seqno"] as Int? ?? 0) < ($1["seqno"] as Int? ?? 0) }
                .compactMap { $0["name"] as String? }
            let origin = IndexInfo.Origin(rawValue: row["origin"] ?? "c") ?? .createIndex
            indexes.append(IndexInfo(name: name, columns: columns, isUnique: row["unique"] ?? false, origin: origin))
        }
        schemaCache.indexes[key] = indexes
        return indexes
    }

    /// Whether the columns are a unique key of the table: its primary key,
    /// or a unique index.
    public func table(_ table: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        let wanted = Set(columns.map { $0.lowercased() })
        let primaryKey = try self.primaryKey(table)
        if Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: wanted) { return true }
        if wanted == ["rowid"] { return true }
        return try indexes(on: table).contains { index in
            index.isUnique && Set(index.columns.map { $0.lowercased() }).isSubset(of: wanted)
        }
    }
}
