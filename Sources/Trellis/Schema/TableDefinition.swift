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
    }

    let name: String
    let options: TableOptions
    var elements: [Element] = []
    var primaryKeyConstraint: (parts: [PrimaryKeyPart], conflict: Database.ConflictResolution?)?
    var uniqueKeys: [(columns: [String], conflict: Database.ConflictResolution?)] = []
    var foreignKeys: [ForeignKeyDefinition] = []
    var checks: [SQL] = []
    var constraints: [String] = []
    var indexedForeignKeys: [[String]] = []
    var belongsToRequests: [(name: String, table: String?, definition: ForeignKeyRequest)] = []
    /// Columns and foreign keys declared in `primaryKey(onConflict:body:)`.
    private var collectingPrimaryKeyParts: [PrimaryKeyPart]?

    /// A part of a primary key: a column, or the columns of a `belongsTo`
    /// (known once the referenced table is read), by element position.
    enum PrimaryKeyPart {
        case column(String)
        case foreignKey(position: Int)
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
    /// `body`.
    ///
    /// ```swift
    /// t.primaryKey {
    ///     t.column("citizenID", .integer)
    ///     t.column("countryCode", .text)
    /// }
    /// ```
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, body: () throws -> Void) rethrows {
        collectingPrimaryKeyParts = []
        defer { collectingPrimaryKeyParts = nil }
        try body()
        let parts = collectingPrimaryKeyParts ?? []
        for part in parts {
            switch part {
            case .column(let name):
                for case .column(let column) in elements where column.name == name {
                    if column.type != .integer && column.notNull == nil { column.notNull() }
                }
            case .foreignKey(let position):
                belongsToRequests.first { $0.definition.position == position }?.definition.notNull()
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

    /// A column defined with an SQL literal.
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
    /// - parameter destinationColumns: the referenced columns; default:
    ///   the primary key of the referenced table.
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
    /// and an index.
    ///
    /// ```swift
    /// try db.create(table: "book") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.belongsTo("author", inTable: "person", onDelete: .cascade).notNull()
    /// }
    /// ```
    ///
    /// - parameter table: the referenced table; default: `name`, or its
    ///   plural when only that table exists.
    @discardableResult
    public func belongsTo(
        _ name: String, inTable table: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false,
        indexed: Bool = true) -> ForeignKeyRequest
    {
        let request = ForeignKeyRequest(
            deleteAction: deleteAction, updateAction: updateAction, deferred: deferred, indexed: indexed)
        belongsToRequests.append((name, table, request))
        elements.append(.literal(SQL(sql: "")))  // placeholder for the columns, resolved with the schema
        request.position = elements.count - 1
        collectingPrimaryKeyParts?.append(.foreignKey(position: request.position))
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
        constraints.append(sql)
    }

    // MARK: SQL

    /// The CREATE TABLE statement and the CREATE INDEX statements that
    /// follow it.
    func sql(_ db: Database) throws -> [String] {
        var definitions: [String] = []
        var indexes: [(columns: [String], unique: Bool)] = []
        var belongsToColumns: [Int: [String]] = [:]
        for (index, element) in elements.enumerated() {
            switch element {
            case .column(let column):
                definitions.append(try column.sql(db))
                if column.isIndexed { indexes.append(([column.name], false)) }
            case .literal(let sql):
                if let request = belongsToRequests.first(where: { $0.definition.position == index }) {
                    let (columns, foreignKey) = try resolve(request, db: db)
                    definitions += columns
                    belongsToColumns[index] = foreignKey.columns
                    foreignKeys.append(foreignKey)
                    if request.definition.indexed || request.definition.isUnique {
                        indexes.append((foreignKey.columns, request.definition.isUnique))
                    }
                } else {
                    definitions.append(try sql.inlinedSQL(db))
                }
            }
        }
        if let (parts, conflict) = primaryKeyConstraint {
            let columns = parts.flatMap { part -> [String] in
                switch part {
                case .column(let name): return [name]
                case .foreignKey(let position): return belongsToColumns[position] ?? []
                }
            }
            var sql = "PRIMARY KEY (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            if let conflict { sql += " ON CONFLICT \(conflict.rawValue)" }
            definitions.append(sql)
        }
        for (columns, conflict) in uniqueKeys {
            var sql = "UNIQUE (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            if let conflict { sql += " ON CONFLICT \(conflict.rawValue)" }
            definitions.append(sql)
        }
        for foreignKey in foreignKeys {
            definitions.append("FOREIGN KEY (" + foreignKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") "
                + foreignKey.referencesClause)
        }
        for check in checks {
            definitions.append("CHECK (" + (try check.inlinedSQL(db)) + ")")
        }
        definitions += constraints

        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " (" + definitions.joined(separator: ", ") + ")"
        var tableOptions: [String] = []
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }

        var statements = [sql]
        for (columns, unique) in indexes {
            // GRDB's names: `player_on_teamId`, and `index_player_on_a_b` for
            // several columns. A `create(indexOn:)` index, named
            // `index_player_on_teamId`, does not collide with the first one.
            let indexName = columns.count == 1
                ? "\(name)_on_\(columns[0])"
                : "index_\(name)_on_" + columns.joined(separator: "_")
            statements.append("CREATE " + (unique ? "UNIQUE " : "") + "INDEX "
                + (options.contains(.ifNotExists) ? "IF NOT EXISTS " : "")
                + indexName.quotedDatabaseIdentifier + " ON " + name.quotedDatabaseIdentifier
                + "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
        }
        return statements
    }

    /// The columns and foreign key of a `belongsTo`, from the primary key
    /// of the referenced table.
    private func resolve(_ request: (name: String, table: String?, definition: ForeignKeyRequest), db: Database) throws
        -> (columns: [String], foreignKey: ForeignKeyDefinition)
    {
        let table: String
        if let explicit = request.table {
            table = explicit
        } else if try request.name.lowercased() == name.lowercased() || db.tableExists(request.name) {
            table = request.name
        } else if try db.tableExists(Inflections.pluralize(request.name)) {
            table = Inflections.pluralize(request.name)
        } else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(request.name)")
        }
        // A self-reference uses the primary key being defined.
        let keyColumns: [(name: String, type: String?)]
        if table.lowercased() == name.lowercased() {
            keyColumns = definedPrimaryKey()
        } else {
            let primaryKey = try db.primaryKey(table)
            let columns = try db.columns(in: table)
            keyColumns = primaryKey.columns.map { key in
                (key, columns.first { $0.name.lowercased() == key.lowercased() }.map(\.type) ?? "INTEGER")
            }
        }
        guard !keyColumns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "table \(table) has no primary key for belongsTo(\"\(request.name)\")")
        }
        let columnNames = keyColumns.map { request.name + $0.name.prefix(1).uppercased() + $0.name.dropFirst() }
        let definitions = zip(columnNames, keyColumns).map { column, key -> String in
            var sql = column.quotedDatabaseIdentifier
            if let type = key.type, !type.isEmpty { sql += " " + type }
            if request.definition.isNotNull { sql += " NOT NULL" }
            return sql
        }
        let foreignKey = ForeignKeyDefinition(
            columns: columnNames, table: table, destinationColumns: keyColumns.map(\.name),
            deleteAction: request.definition.deleteAction, updateAction: request.definition.updateAction,
            deferred: request.definition.deferred)
        return (definitions, foreignKey)
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
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let deferred: Bool
    let indexed: Bool
    var isNotNull = false
    var isUnique = false
    var position = 0

    init(deleteAction: Database.ForeignKeyAction?, updateAction: Database.ForeignKeyAction?, deferred: Bool, indexed: Bool) {
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
