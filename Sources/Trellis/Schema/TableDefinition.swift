/// The definition of a table: its columns and constraints.
///
/// You get one from `Database.create(table:options:body:)`:
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull()
///     t.column("score", .integer)
///     t.belongsTo("team", onDelete: .cascade)
///     t.uniqueKey(["name", "teamId"])
///     t.check(Column("score") >= 0)
/// }
/// ```
public final class TableDefinition {
    enum Element {
        case column(ColumnDefinition)
        case literal(SQL)
        case belongsTo(ForeignKeyRequest)
    }

    let name: String
    let options: TableOptions
    var elements: [Element] = []
    var primaryKeyConstraint: (parts: [PrimaryKeyPart], conflict: Database.ConflictResolution?)?
    var uniqueKeys: [(columns: [String], conflict: Database.ConflictResolution?)] = []
    var foreignKeys: [ForeignKeyDefinition] = []
    var checks: [SQL] = []
    var constraints: [SQL] = []
    /// Columns and foreign keys declared in `primaryKey(onConflict:body:)`.
    private var collectingPrimaryKeyParts: [PrimaryKeyPart]?

    /// A part of a primary key: a column, or the columns of a `belongsTo`
    /// (known once the referenced table is read).
    enum PrimaryKeyPart {
        case column(String)
        case foreignKey(ForeignKeyRequest)
    }

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    /// The auto-incremented primary key: an integer primary key whose ids
    /// are never reused.
    ///
    /// ```swift
    /// t.autoIncrementedPrimaryKey("id")
    /// ```
    @discardableResult
    public func autoIncrementedPrimaryKey(_ name: String, onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// A single-column primary key. A non-integer key is also NOT NULL,
    /// because SQLite would otherwise accept NULL keys.
    ///
    /// ```swift
    /// t.primaryKey("uuid", .text)
    /// t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
    /// ```
    @discardableResult
    public func primaryKey(_ name: String, _ type: Database.ColumnType, onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition {
        let column = column(name, type).primaryKey(onConflict: conflictResolution)
        if type != .integer {
            column.notNull()
        }
        return column
    }

    /// A primary key on several columns.
    ///
    /// ```swift
    /// t.column("citizenID", .integer)
    /// t.column("countryCode", .text)
    /// t.primaryKey(["citizenID", "countryCode"])
    /// ```
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        primaryKeyConstraint = (columns.map(PrimaryKeyPart.column), conflictResolution)
    }

    /// A primary key made of the columns and foreign keys defined in
    /// `body`. They are NOT NULL, and the foreign keys get no index of
    /// their own: the primary key has one.
    ///
    /// ```swift
    /// t.primaryKey {
    ///     t.column("citizenID", .integer)
    ///     t.column("countryCode", .text)
    /// }
    /// t.primaryKey {
    ///     t.belongsTo("player")
    ///     t.belongsTo("team")
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `body`.
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, body: () throws -> Void) rethrows {
        collectingPrimaryKeyParts = []
        defer { collectingPrimaryKeyParts = nil }
        try body()
        let parts = collectingPrimaryKeyParts ?? []
        for part in parts {
            switch part {
            case .column(let name):
                for case .column(let column) in elements where column.name == name && column.notNull == nil {
                    column.notNull()
                }
            case .foreignKey(let request):
                request.notNull()
                request.isInPrimaryKey = true
            }
        }
        primaryKeyConstraint = (parts, conflictResolution)
    }

    /// A column.
    ///
    /// ```swift
    /// t.column("name", .text)
    /// ```
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        elements.append(.column(column))
        collectingPrimaryKeyParts?.append(.column(name))
        return column
    }

    /// A column defined with SQL.
    ///
    /// ```swift
    /// t.column(sql: "name TEXT NOT NULL")
    /// ```
    public func column(sql: String) {
        elements.append(.literal(SQL(sql: sql)))
    }

    /// A column defined with an SQL literal, whose interpolated values are
    /// written as SQL literals.
    ///
    /// ```swift
    /// let defaultName = "Anonymous"
    /// t.column(literal: "name TEXT DEFAULT \(defaultName)")
    /// ```
    public func column(literal: SQL) {
        elements.append(.literal(literal))
    }

    /// A unique key on several columns.
    ///
    /// ```swift
    /// t.uniqueKey(["latitude", "longitude"])
    /// ```
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        uniqueKeys.append((columns, conflictResolution))
    }

    /// A foreign key on several columns.
    ///
    /// ```swift
    /// t.foreignKey(["citizenID", "countryCode"], references: "citizenship", onDelete: .cascade)
    /// ```
    ///
    /// - parameter columns: the columns of the foreign key.
    /// - parameter table: the referenced table.
    /// - parameter destinationColumns: the referenced columns; default:
    ///   the primary key of the referenced table, which must exist.
    /// - parameter deleteAction: the action on the deletion of a referenced row.
    /// - parameter updateAction: the action on the update of a referenced key.
    /// - parameter deferred: whether the constraint is checked at commit
    ///   (`DEFERRABLE INITIALLY DEFERRED`).
    public func foreignKey(
        _ columns: [String], references table: String, columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false)
    {
        foreignKeys.append(ForeignKeyDefinition(
            columns: columns, table: table, destinationColumns: destinationColumns,
            deleteAction: deleteAction, updateAction: updateAction, deferred: deferred))
    }

    /// A reference to another table: the column(s) named after `name` and
    /// the primary key of the referenced table (`authorId` for
    /// `belongsTo("author")` and a primary key `id`), their foreign key,
    /// and an index (`book_on_authorId`).
    ///
    /// ```swift
    /// try db.create(table: "book") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.belongsTo("author", inTable: "person", onDelete: .cascade).notNull()
    /// }
    /// // CREATE TABLE "book" (
    /// //   "id" INTEGER PRIMARY KEY AUTOINCREMENT,
    /// //   "authorId" INTEGER NOT NULL REFERENCES "person"("id") ON DELETE CASCADE)
    /// // CREATE INDEX "book_on_authorId" ON "book"("authorId")
    /// ```
    ///
    /// - parameter name: the name of the reference, from which the
    ///   columns are named.
    /// - parameter table: the referenced table; default: `name`, or its
    ///   plural when only that table exists.
    /// - parameter deleteAction: the action on the deletion of a referenced row.
    /// - parameter updateAction: the action on the update of a referenced key.
    /// - parameter deferred: whether the constraint is checked at commit
    ///   (`DEFERRABLE INITIALLY DEFERRED`).
    /// - parameter indexed: whether the columns get an index. A unique
    ///   foreign key, or one of the primary key, needs none.
    @discardableResult
    public func belongsTo(
        _ name: String, inTable table: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false,
        indexed: Bool = true) -> ForeignKeyRequest
    {
        let request = ForeignKeyRequest(
            name: name, table: table,
            deleteAction: deleteAction, updateAction: updateAction, deferred: deferred, indexed: indexed)
        elements.append(.belongsTo(request))
        collectingPrimaryKeyParts?.append(.foreignKey(request))
        return request
    }

    /// A CHECK constraint.
    ///
    /// ```swift
    /// t.check(Column("personalPhone") != nil || Column("workPhone") != nil)
    /// ```
    public func check(_ condition: some SQLExpressible) {
        checks.append(SQL(condition.sqlExpression))
    }

    /// A CHECK constraint from SQL.
    ///
    /// ```swift
    /// t.check(sql: "personalPhone IS NOT NULL OR workPhone IS NOT NULL")
    /// ```
    public func check(sql: String) {
        checks.append(SQL(sql: sql))
    }

    /// A table constraint written in SQL.
    ///
    /// ```swift
    /// t.constraint(sql: "CHECK (a + b < 10)")
    /// ```
    public func constraint(sql: String) {
        constraints.append(SQL(sql: sql))
    }

    /// A table constraint written as an SQL literal, whose interpolated
    /// values are written as SQL literals.
    ///
    /// ```swift
    /// let maximum = 10
    /// t.constraint(literal: "CHECK (a + b < \(maximum))")
    /// ```
    public func constraint(literal: SQL) {
        constraints.append(literal)
    }

    // MARK: SQL

    /// An index that follows the table: those of `indexed()` columns and
    /// of `belongsTo` foreign keys.
    private struct FollowingIndex {
        var name: String
        var columns: [String]
        var isUnique: Bool
    }

    /// The CREATE TABLE statement and the CREATE INDEX statements that
    /// follow it.
    func sql(_ db: Database) throws -> [String] {
        var definitions: [String] = []
        var indexes: [FollowingIndex] = []
        var tableForeignKeys = foreignKeys
        var belongsToColumns: [ObjectIdentifier: [String]] = [:]
        for element in elements {
            switch element {
            case .column(let column):
                definitions.append(try column.sql(db, in: self))
                if column.isIndexed && column.unique == nil {
                    indexes.append(FollowingIndex(name: "\(name)_on_\(column.name)", columns: [column.name], isUnique: false))
                }
            case .literal(let sql):
                definitions.append(try sql.inlinedSQL(db))
            case .belongsTo(let request):
                let (columns, foreignKey) = try resolve(request, db: db)
                belongsToColumns[ObjectIdentifier(request)] = foreignKey.columns
                if let column = columns.first, columns.count == 1 {
                    // A single column carries its foreign key, and its
                    // uniqueness, as column constraints.
                    var sql = column
                    if request.isUnique { sql += " UNIQUE" }
                    sql += " " + foreignKey.referencesClause
                    definitions.append(sql)
                    if request.indexed && !request.isUnique && !request.isInPrimaryKey {
                        indexes.append(FollowingIndex(
                            name: "\(name)_on_\(foreignKey.columns[0])", columns: foreignKey.columns, isUnique: false))
                    }
                } else {
                    definitions += columns
                    tableForeignKeys.append(foreignKey)
                    if (request.indexed || request.isUnique) && !request.isInPrimaryKey {
                        indexes.append(FollowingIndex(
                            name: "index_\(name)_on_" + foreignKey.columns.joined(separator: "_"),
                            columns: foreignKey.columns, isUnique: request.isUnique))
                    }
                }
            }
        }
        if let (parts, conflict) = primaryKeyConstraint {
            let columns = parts.flatMap { part -> [String] in
                switch part {
                case .column(let name): return [name]
                case .foreignKey(let request): return belongsToColumns[ObjectIdentifier(request)] ?? []
                }
            }
            let sql = "PRIMARY KEY (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            definitions.append(sql + (try db.dialect.conflictClause(conflict?.rawValue)))
        }
        for (columns, conflict) in uniqueKeys {
            let sql = "UNIQUE (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            definitions.append(sql + (try db.dialect.conflictClause(conflict?.rawValue)))
        }
        for foreignKey in tableForeignKeys {
            definitions.append("FOREIGN KEY (" + foreignKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") "
                + (try foreignKey.referencesClause(db, in: self)))
        }
        for check in checks {
            definitions.append("CHECK (" + (try check.inlinedSQL(db)) + ")")
        }
        for constraint in constraints {
            definitions.append(try constraint.inlinedSQL(db))
        }

        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " (" + definitions.joined(separator: ", ") + ")"
        var tableOptions: [String] = []
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if let option = tableOptions.first { try db.dialect.checkSchemaFeature("The table option \(option)") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }

        var statements = [sql]
        for index in indexes {
            statements.append("CREATE " + (index.isUnique ? "UNIQUE " : "") + "INDEX "
                + (options.contains(.ifNotExists) ? "IF NOT EXISTS " : "")
                + index.name.quotedDatabaseIdentifier + " ON " + name.quotedDatabaseIdentifier
                + "(" + index.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
        }
        return statements
    }

    /// The column definitions and the foreign key of a `belongsTo`, from
    /// the primary key of the referenced table.
    private func resolve(_ request: ForeignKeyRequest, db: Database) throws
        -> (columns: [String], foreignKey: ForeignKeyDefinition)
    {
        let table: String
        let pluralName = Inflections.pluralize(request.name)
        if let explicit = request.table {
            table = explicit
        } else if request.name.lowercased() == name.lowercased() || pluralName.lowercased() == name.lowercased() {
            // A self-reference: `belongsTo("employee")` in the table
            // `employee` or `employees`, which does not exist yet.
            table = name
        } else if try db.tableExists(request.name) {
            table = request.name
        } else if try db.tableExists(pluralName) {
            table = pluralName
        } else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(request.name)")
        }
        let keyColumns = try referencedPrimaryKey(table, db: db)
        guard !keyColumns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "table \(table) has no primary key for belongsTo(\"\(request.name)\")")
        }
        // `authorId` for a key `id`, and for the hidden rowid as well.
        let columnNames = keyColumns.map { key in
            key.name.lowercased() == "rowid"
                ? request.name + "Id"
                : request.name + key.name.prefix(1).uppercased() + key.name.dropFirst()
        }
        let definitions = zip(columnNames, keyColumns).map { column, key -> String in
            var sql = column.quotedDatabaseIdentifier
            if let type = key.type, !type.isEmpty { sql += " " + type }
            if request.isNotNull { sql += " NOT NULL" }
            return sql
        }
        let foreignKey = ForeignKeyDefinition(
            columns: columnNames, table: table, destinationColumns: keyColumns.map(\.name),
            deleteAction: request.deleteAction, updateAction: request.updateAction,
            deferred: request.deferred)
        return (definitions, foreignKey)
    }

    /// The primary key columns of a referenced table, and their types: the
    /// key being defined for a self-reference, the hidden rowid for a
    /// table without an explicit key.
    func referencedPrimaryKey(_ table: String, db: Database) throws -> [(name: String, type: String?)] {
        if table.lowercased() == name.lowercased() {
            return definedPrimaryKey()
        }
        let primaryKey = try db.primaryKey(table)
        let columns = try db.columns(in: table)
        return primaryKey.columns.map { key in
            (key, columns.first { $0.name.lowercased() == key.lowercased() }.map(\.type) ?? "INTEGER")
        }
    }

    private func definedPrimaryKey() -> [(name: String, type: String?)] {
        if let (parts, _) = primaryKeyConstraint {
            return parts.compactMap { part in
                guard case .column(let name) = part else { return nil }
                for case .column(let column) in elements where column.name == name { return (name, column.type?.rawValue) }
                return (name, nil)
            }
        }
        for case .column(let column) in elements where column.primaryKey != nil {
            return [(column.name, column.type?.rawValue)]
        }
        return [("rowid", "INTEGER")]
    }
}

/// The foreign key of `TableDefinition.belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)`,
/// refined with chained calls.
///
/// ```swift
/// t.belongsTo("author", inTable: "person").notNull()
/// ```
public final class ForeignKeyRequest {
    let name: String
    let table: String?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let deferred: Bool
    let indexed: Bool
    var isNotNull = false
    var isUnique = false
    /// Whether the foreign key is part of the primary key, which indexes it.
    var isInPrimaryKey = false

    init(name: String, table: String?,
         deleteAction: Database.ForeignKeyAction?, updateAction: Database.ForeignKeyAction?, deferred: Bool, indexed: Bool)
    {
        self.name = name
        self.table = table
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.deferred = deferred
        self.indexed = indexed
    }

    /// Makes the foreign key columns NOT NULL.
    @discardableResult
    public func notNull() -> Self {
        isNotNull = true
        return self
    }

    /// Makes the foreign key columns unique (a has-one relationship).
    @discardableResult
    public func unique() -> Self {
        isUnique = true
        return self
    }
}
