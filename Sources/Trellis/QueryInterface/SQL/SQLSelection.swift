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
        }
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

extension SQLSelectable where Self == Column {
    /// The hidden `rowid` column.
    public static var rowID: Column { Column.rowID }
}
