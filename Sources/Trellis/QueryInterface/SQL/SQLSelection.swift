/// A selected result column: an expression with an optional name, or all
/// columns of a table.
///
/// ```swift
/// Player.select(Column("name"), max(Column("score")).forKey("maxScore"))
/// Player.select(AllColumns())
/// ```
public struct SQLSelection: SQLSelectable, Sendable {
    enum Impl: Sendable {
        case expression(SQLExpression, alias: String?)
        case allColumns(AliasIdentity?)
        /// All columns but some (lowercased names), expanded from the
        /// schema when the SQL is generated.
        case allColumnsExcluding(Set<String>, AliasIdentity?)
    }

    let impl: Impl

    static func expression(_ expression: SQLExpression, alias: String?) -> SQLSelection {
        SQLSelection(impl: .expression(expression, alias: alias))
    }

    static func allColumns(_ alias: AliasIdentity?) -> SQLSelection {
        SQLSelection(impl: .allColumns(alias))
    }

    public var sqlSelection: SQLSelection { self }

    func qualified(with alias: AliasIdentity) -> SQLSelection {
        switch impl {
        case .expression(let expression, let name): return .expression(expression.qualified(with: alias), alias: name)
        case .allColumns(nil): return .allColumns(alias)
        case .allColumns: return self
        case .allColumnsExcluding(let excluded, nil): return SQLSelection(impl: .allColumnsExcluding(excluded, alias))
        case .allColumnsExcluding: return self
        }
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .expression(let expression, let alias):
            let sql = try expression.sql(context)
            return alias.map { sql + " AS " + $0.quotedDatabaseIdentifier } ?? sql
        case .allColumns(let alias):
            if let alias, let name = context.name(of: alias), context.qualifiesColumns || context.isRenamed(alias) {
                return name.quotedDatabaseIdentifier + ".*"
            }
            return "*"
        case .allColumnsExcluding(_, let alias):
            let columns = try includedColumns(context.db)
            let prefix: String
            if let alias, let name = context.name(of: alias) {
                prefix = context.qualifiesColumns || context.isRenamed(alias) ? name.quotedDatabaseIdentifier + "." : ""
            } else if let alias {
                // Outside of a request (a `columnsOf:` SQL interpolation).
                prefix = (alias.userName ?? alias.tableName).quotedDatabaseIdentifier + "."
            } else {
                prefix = ""
            }
            return columns.map { prefix + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        }
    }

    /// The columns of `allColumns(excluding:)`, read from the schema.
    func includedColumns(_ db: Database) throws -> [String] {
        guard case .allColumnsExcluding(let excluded, let alias) = impl else { return [] }
        guard let alias, !alias.tableName.isEmpty else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "allColumns(excluding:) is used outside of a request on a table")
        }
        let columns = try db.columns(in: alias.tableName).map(\.name).filter { !excluded.contains($0.lowercased()) }
        guard !columns.isEmpty else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "allColumns(excluding:) excludes all columns of table \(alias.tableName)")
        }
        return columns
    }
}

/// All columns of a table: `*`.
public struct AllColumns: SQLSelectable, Sendable {
    public init() {}
    public var sqlSelection: SQLSelection { .allColumns(nil) }
}

extension SQLSpecificExpressible {
    /// The expression, selected under a name.
    ///
    /// ```swift
    /// Player.select(max(Column("score")).forKey("maxScore"))
    /// ```
    public func forKey(_ key: String) -> SQLSelection {
        .expression(sqlExpression, alias: key)
    }

    /// The expression, selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> SQLSelection {
        forKey(key.stringValue)
    }
}

extension SQLSelectable where Self == AllColumns {
    /// All columns: `*`.
    ///
    /// ```swift
    /// static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
    /// ```
    public static var allColumns: AllColumns { AllColumns() }
}

extension SQLSelectable where Self == SQLSelection {
    /// All columns of the table but the given ones.
    ///
    /// ```swift
    /// struct Player: TableRecord {
    ///     static var databaseSelection: [any SQLSelectable] {
    ///         [.allColumns(excluding: ["generatedColumn"])]
    ///     }
    /// }
    /// ```
    ///
    /// The columns are read from the schema when the request runs; a
    /// request that would select no column throws an error.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> SQLSelection {
        SQLSelection(impl: .allColumnsExcluding(Set(excludedColumns.map { $0.lowercased() }), nil))
    }
}

extension SQLSelectable where Self == Column {
    /// The hidden `rowid` column.
    public static var rowID: Column { Column.rowID }
}
