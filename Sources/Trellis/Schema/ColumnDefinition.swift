/// The definition of a column, refined with chained calls.
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull().unique().collate(.nocase)
///     t.column("score", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
///     t.column("teamId", .integer).references("team", onDelete: .cascade).indexed()
/// }
/// ```
public final class ColumnDefinition {
    let name: String
    let type: Database.ColumnType?
    var primaryKey: (conflict: Database.ConflictResolution?, autoincrement: Bool)?
    var notNull: Database.ConflictResolution??
    var unique: Database.ConflictResolution??
    var isIndexed = false
    var checks: [SQL] = []
    var defaultClause: DefaultClause?
    var collation: String?
    var customCollation: DatabaseCollation?
    var generated: (sql: SQL, qualification: Database.GeneratedColumnQualification)?
    var reference: ForeignKeyDefinition?

    /// The default of a column: a value, written as a literal of the
    /// column's type (see `SQLDialect.literal(_:columnType:)`), or SQL.
    enum DefaultClause {
        case value(DatabaseValue)
        case sql(SQL)
    }

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    /// Makes the column the primary key.
    ///
    /// ```swift
    /// t.column("id", .integer).primaryKey(autoincrement: true)
    /// ```
    @discardableResult
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, autoincrement: Bool = false) -> Self {
        primaryKey = (conflictResolution, autoincrement)
        return self
    }

    /// Adds a NOT NULL constraint.
    ///
    /// ```swift
    /// t.column("email", .text).notNull()
    /// ```
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNull = .some(conflictResolution)
        return self
    }

    /// Adds a UNIQUE constraint.
    ///
    /// ```swift
    /// t.column("email", .text).unique(onConflict: .replace)
    /// ```
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        unique = .some(conflictResolution)
        return self
    }

    /// Creates an index on the column after the table, named
    /// `<table>_on_<column>`. A unique column needs none: it gets none.
    ///
    /// ```swift
    /// // CREATE INDEX "player_on_score" ON "player"("score")
    /// t.column("score", .integer).indexed()
    /// ```
    @discardableResult
    public func indexed() -> Self {
        isIndexed = true
        return self
    }

    /// Adds a CHECK constraint built from the column.
    ///
    /// ```swift
    /// t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
    /// ```
    @discardableResult
    public func check(_ condition: (Column) -> any SQLExpressible) -> Self {
        checks.append(SQL(condition(Column(name)).sqlExpression))
        return self
    }

    /// Adds a CHECK constraint from SQL.
    ///
    /// ```swift
    /// t.column("score", .integer).check(sql: "score > 0")
    /// ```
    @discardableResult
    public func check(sql: String) -> Self {
        checks.append(SQL(sql: sql))
        return self
    }

    /// Sets the default value.
    ///
    /// ```swift
    /// t.column("score", .integer).defaults(to: 0)
    /// ```
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultClause = .value(value.databaseValue)
        return self
    }

    /// Sets the default value with SQL.
    ///
    /// ```swift
    /// t.column("creationDate", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
    /// ```
    @discardableResult
    public func defaults(sql: String) -> Self {
        defaultClause = .sql(SQL(sql: sql))
        return self
    }

    /// Sets the collation.
    ///
    /// ```swift
    /// t.column("email", .text).collate(.nocase)
    /// ```
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        self.collation = collation.rawValue
        return self
    }

    /// Sets a collation implemented in Swift.
    ///
    /// ```swift
    /// t.column("name", .text).collate(.localizedCaseInsensitiveCompare)
    /// ```
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        customCollation = collation
        self.collation = collation.name
        return self
    }

    /// Makes the column generated from an expression.
    ///
    /// ```swift
    /// t.column("total", .integer).generatedAs(Column("price") * Column("quantity"), .stored)
    /// ```
    @discardableResult
    public func generatedAs(_ expression: some SQLExpressible, _ qualification: Database.GeneratedColumnQualification = .virtual) -> Self {
        generated = (SQL(expression.sqlExpression), qualification)
        return self
    }

    /// Makes the column generated from SQL.
    ///
    /// ```swift
    /// t.column("totalScore", .integer).generatedAs(sql: "score + bonus")
    /// ```
    @discardableResult
    public func generatedAs(sql: String, _ qualification: Database.GeneratedColumnQualification = .virtual) -> Self {
        generated = (SQL(sql: sql), qualification)
        return self
    }

    /// Adds a foreign key to the primary key (or `column`) of `table`.
    ///
    /// ```swift
    /// t.column("countryCode", .text).notNull().references("country", onDelete: .cascade)
    /// ```
    @discardableResult
    public func references(
        _ table: String, column: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false) -> Self
    {
        reference = ForeignKeyDefinition(
            columns: [name], table: table, destinationColumns: column.map { [$0] },
            deleteAction: deleteAction, updateAction: updateAction, deferred: deferred)
        return self
    }

    /// The column definition. `table` is the table being created, if any,
    /// whose primary key a self-reference uses.
    func sql(_ db: Database, in table: TableDefinition? = nil) throws -> String {
        let dialect = db.dialect
        var sql = name.quotedDatabaseIdentifier
        sql += try dialect.columnTypeAndPrimaryKey(
            type: type?.rawValue, isPrimaryKey: primaryKey != nil, conflict: primaryKey?.0?.rawValue,
            autoincrement: primaryKey?.1 ?? false)
        if let notNull {
            sql += " NOT NULL" + (try dialect.conflictClause(notNull?.rawValue))
        }
        if let unique {
            sql += " UNIQUE" + (try dialect.conflictClause(unique?.rawValue))
        }
        for check in checks {
            sql += " CHECK (" + (try check.inlinedSQL(db)) + ")"
        }
        switch defaultClause {
        case .value(let value):
            sql += " DEFAULT " + dialect.literal(value, columnType: type?.rawValue)
        case .sql(let defaultSQL):
            sql += " DEFAULT " + (try defaultSQL.inlinedSQL(db))
        case nil:
            break
        }
        if let collation {
            try dialect.checkSchemaFeature("COLLATE \(collation)")
            sql += " COLLATE " + collation
        }
        if let customCollation {
            db.addIfNeeded(collation: customCollation)
        }
        if let reference {
            sql += " " + (try reference.referencesClause(db, in: table))
        }
        if let (expression, qualification) = generated {
            if qualification != .stored { try dialect.checkSchemaFeature("A VIRTUAL generated column") }
            sql += " GENERATED ALWAYS AS (" + (try expression.inlinedSQL(db)) + ")"
            sql += qualification == .stored ? " STORED" : " VIRTUAL"
        }
        return sql
    }
}

/// A foreign key of a table definition.
public final class ForeignKeyDefinition {
    let columns: [String]
    let table: String
    let destinationColumns: [String]?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let deferred: Bool

    init(columns: [String], table: String, destinationColumns: [String]?,
         deleteAction: Database.ForeignKeyAction?, updateAction: Database.ForeignKeyAction?, deferred: Bool)
    {
        self.columns = columns
        self.table = table
        self.destinationColumns = destinationColumns
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.deferred = deferred
    }

    /// `REFERENCES "table"("column") ON DELETE ... ON UPDATE ...`, with the
    /// primary key of the referenced table when no columns were given, as
    /// GRDB writes it. `definition` is the table being created, if any,
    /// whose primary key a self-reference uses.
    func referencesClause(_ db: Database, in definition: TableDefinition?) throws -> String {
        if destinationColumns != nil { return referencesClause }
        let keyColumns: [String]
        if let definition {
            keyColumns = try definition.referencedPrimaryKey(table, db: db).map(\.name)
        } else {
            try db.checkTableExists(table)
            keyColumns = try db.primaryKey(table).columns
        }
        return ForeignKeyDefinition(
            columns: columns, table: table, destinationColumns: keyColumns,
            deleteAction: deleteAction, updateAction: updateAction, deferred: deferred).referencesClause
    }

    /// `REFERENCES "table"("column") ON DELETE ... ON UPDATE ...`, with the
    /// destination columns as given.
    var referencesClause: String {
        var sql = "REFERENCES " + table.quotedDatabaseIdentifier
        if let destinationColumns {
            sql += "(" + destinationColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        if let deleteAction { sql += " ON DELETE " + deleteAction.rawValue }
        if let updateAction { sql += " ON UPDATE " + updateAction.rawValue }
        if deferred { sql += " DEFERRABLE INITIALLY DEFERRED" }
        return sql
    }
}

extension SQL {
    /// The SQL with its values written as literals, as schema statements
    /// need.
    func inlinedSQL(_ db: Database) throws -> String {
        try sql(SQLGenerationContext(db, inlinesValues: true))
    }
}
