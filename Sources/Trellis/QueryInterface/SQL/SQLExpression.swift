/// An SQL expression, built from columns, values and operators.
///
/// ```swift
/// let score = Column("score")
/// let expression = score > 1000 && Column("name") != nil
/// let players = try Player.filter(expression).fetchAll(db)
/// ```
///
/// Values are always bound as statement arguments, and identifiers are
/// always quoted.
public struct SQLExpression: SQLSpecificExpressible, SQLOrderingTerm, SQLSelectable, Sendable {
    indirect enum Impl: Sendable {
        /// A bound value.
        case value(DatabaseValue)
        /// A column, qualified by its table when the alias is known.
        case column(String, AliasIdentity?)
        /// The rowid of a table.
        case rowID(AliasIdentity?)
        /// Raw SQL with its arguments.
        case literal(SQL)
        /// A condition that every row, or no row, matches: its SQL is the
        /// dialect's (`1` on SQLite, `TRUE` on PostgreSQL).
        case constantCondition(Bool)
        /// `NOT x`, `-x`, `~x`.
        case unary(String, SQLExpression)
        /// `x op y`.
        case binary(String, SQLExpression, SQLExpression)
        /// `x op y op z`: AND, OR, +, *, ||.
        case associative(String, [SQLExpression])
        /// `f(x, y)`, `COUNT(DISTINCT x)`, `COUNT(*)`.
        case function(String, [SQLExpression], distinct: Bool)
        /// `f(x, y) FILTER (WHERE condition)`: an aggregate of the rows
        /// that match the condition.
        case filteredAggregate(String, [SQLExpression], filter: SQLExpression)
        /// An expression that holds JSON. It is written as the wrapped
        /// expression; JSON functions read its kind to know whether they
        /// must wrap it in `JSON()`.
        case json(SQLExpression, SQLJSONValueKind)
        case countAll
        /// `x IS [NOT] NULL`.
        case isNull(SQLExpression, negated: Bool)
        /// `x [NOT] IN (a, b)`.
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        /// `x [NOT] IN (SELECT ...)`.
        case inSubquery(SQLExpression, SQLSubquery, negated: Bool)
        /// `x [NOT] BETWEEN a AND b`.
        case between(SQLExpression, SQLExpression, SQLExpression, negated: Bool)
        /// `x COLLATE name`.
        case collated(SQLExpression, String)
        /// `x COLLATE name`, for a collation registered when it is used.
        case customCollated(SQLExpression, DatabaseCollation)
        /// `CAST(x AS type)`.
        case cast(SQLExpression, String)
        /// `[NOT] EXISTS (SELECT ...)`.
        case exists(SQLSubquery, negated: Bool)
        /// `(SELECT ...)`.
        case subquery(SQLSubquery)
        /// An expression resolved when the request compiles (it needs the
        /// schema).
        case deferred(@Sendable (SQLGenerationContext) throws -> SQLExpression)
        /// An expression that refers to the table of the request it is
        /// used in (association aggregates), resolved when the request
        /// qualifies its expressions. The source tells the association of
        /// an aggregate, so that the aggregates of one key merge.
        case correlated(@Sendable (AliasIdentity) -> SQLExpression, aggregate: SQLAggregateSource?)
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    public var sqlExpression: SQLExpression { self }
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: self, direction: nil) }
    public var sqlSelection: SQLSelection { .expression(self, alias: nil) }

    /// A bound value.
    static func value(_ dbValue: DatabaseValue) -> SQLExpression { SQLExpression(.value(dbValue)) }

    /// A column of the main table of a request.
    static func column(_ name: String) -> SQLExpression { SQLExpression(.column(name, nil)) }

    /// An SQL literal.
    static func literal(_ sql: SQL) -> SQLExpression { SQLExpression(.literal(sql)) }

    /// `SQL` as an expression, with its arguments.
    ///
    /// ```swift
    /// let expression = SQLExpression.sql("score + ?", arguments: [1])
    /// ```
    public static func sql(_ sql: String, arguments: StatementArguments = StatementArguments()) -> SQLExpression {
        SQLExpression(.literal(SQL(sql: sql, arguments: arguments)))
    }

    /// The expression with unqualified columns qualified by `alias`.
    func qualified(with alias: AliasIdentity) -> SQLExpression {
        switch impl {
        case .value, .constantCondition, .countAll, .exists, .subquery:
            return self
        case .literal(let sql):
            // Columns interpolated in SQL literals belong to the table of
            // the request; raw SQL text is left as written.
            return SQLExpression(.literal(sql.qualified(with: alias)))
        case .deferred(let resolve):
            // Columns resolved from the schema (primary keys) belong to the
            // table of the request, like the columns written by the user.
            return SQLExpression(.deferred { context in try resolve(context).qualified(with: alias) })
        case .correlated(let resolve, _):
            return resolve(alias).qualified(with: alias)
        case .column(let name, nil):
            return SQLExpression(.column(name, alias))
        case .column:
            return self
        case .rowID(nil):
            return SQLExpression(.rowID(alias))
        case .rowID:
            return self
        case .unary(let op, let x):
            return SQLExpression(.unary(op, x.qualified(with: alias)))
        case .binary(let op, let x, let y):
            return SQLExpression(.binary(op, x.qualified(with: alias), y.qualified(with: alias)))
        case .associative(let op, let xs):
            return SQLExpression(.associative(op, xs.map { $0.qualified(with: alias) }))
        case .function(let name, let xs, let distinct):
            return SQLExpression(.function(name, xs.map { $0.qualified(with: alias) }, distinct: distinct))
        case .filteredAggregate(let name, let xs, let filter):
            return SQLExpression(.filteredAggregate(name, xs.map { $0.qualified(with: alias) }, filter: filter.qualified(with: alias)))
        case .json(let x, let kind):
            return SQLExpression(.json(x.qualified(with: alias), kind))
        case .isNull(let x, let negated):
            return SQLExpression(.isNull(x.qualified(with: alias), negated: negated))
        case .inList(let x, let xs, let negated):
            return SQLExpression(.inList(x.qualified(with: alias), xs.map { $0.qualified(with: alias) }, negated: negated))
        case .inSubquery(let x, let subquery, let negated):
            return SQLExpression(.inSubquery(x.qualified(with: alias), subquery, negated: negated))
        case .between(let x, let low, let high, let negated):
            return SQLExpression(.between(
                x.qualified(with: alias), low.qualified(with: alias), high.qualified(with: alias), negated: negated))
        case .collated(let x, let collation):
            return SQLExpression(.collated(x.qualified(with: alias), collation))
        case .customCollated(let x, let collation):
            return SQLExpression(.customCollated(x.qualified(with: alias), collation))
        case .cast(let x, let type):
            return SQLExpression(.cast(x.qualified(with: alias), type))
        }
    }

    /// The names of the unqualified columns the expression reads.
    var columnNames: [String] {
        switch impl {
        case .column(let name, nil): return [name]
        case .unary(_, let x), .isNull(let x, _), .collated(let x, _), .customCollated(let x, _), .cast(let x, _), .json(let x, _):
            return x.columnNames
        case .binary(_, let x, let y): return x.columnNames + y.columnNames
        case .associative(_, let xs), .function(_, let xs, _): return xs.flatMap(\.columnNames)
        case .filteredAggregate(_, let xs, let filter): return xs.flatMap(\.columnNames) + filter.columnNames
        case .inList(let x, let xs, _): return x.columnNames + xs.flatMap(\.columnNames)
        case .between(let x, let y, let z, _): return x.columnNames + y.columnNames + z.columnNames
        default: return []
        }
    }

    /// The sources of the association aggregates of the expression, in
    /// order.
    var aggregateSources: [SQLAggregateSource] {
        switch impl {
        case .correlated(_, let source): return source.map { [$0] } ?? []
        case .unary(_, let x), .isNull(let x, _), .collated(let x, _), .customCollated(let x, _), .cast(let x, _), .json(let x, _):
            return x.aggregateSources
        case .binary(_, let x, let y): return x.aggregateSources + y.aggregateSources
        case .associative(_, let xs), .function(_, let xs, _): return xs.flatMap(\.aggregateSources)
        case .filteredAggregate(_, let xs, let filter): return xs.flatMap(\.aggregateSources) + filter.aggregateSources
        case .inList(let x, let xs, _): return x.aggregateSources + xs.flatMap(\.aggregateSources)
        case .inSubquery(let x, _, _): return x.aggregateSources
        case .between(let x, let y, let z, _): return x.aggregateSources + y.aggregateSources + z.aggregateSources
        case .value, .constantCondition, .column, .rowID, .literal, .countAll, .exists, .subquery, .deferred: return []
        }
    }

    /// Whether the expression holds a correlated subquery (an association
    /// aggregate).
    var hasCorrelatedSubquery: Bool {
        switch impl {
        case .correlated: return true
        case .unary(_, let x), .isNull(let x, _), .collated(let x, _), .customCollated(let x, _), .cast(let x, _), .json(let x, _):
            return x.hasCorrelatedSubquery
        case .binary(_, let x, let y): return x.hasCorrelatedSubquery || y.hasCorrelatedSubquery
        case .associative(_, let xs), .function(_, let xs, _): return xs.contains(where: \.hasCorrelatedSubquery)
        case .filteredAggregate(_, let xs, let filter): return xs.contains(where: \.hasCorrelatedSubquery) || filter.hasCorrelatedSubquery
        case .inList(let x, let xs, _): return x.hasCorrelatedSubquery || xs.contains(where: \.hasCorrelatedSubquery)
        case .inSubquery(let x, _, _): return x.hasCorrelatedSubquery
        case .between(let x, let y, let z, _): return x.hasCorrelatedSubquery || y.hasCorrelatedSubquery || z.hasCorrelatedSubquery
        case .value, .constantCondition, .column, .rowID, .literal, .countAll, .exists, .subquery, .deferred: return false
        }
    }

    /// Whether the expression is a bound value.
    var databaseValue: DatabaseValue? {
        if case .value(let value) = impl { return value }
        return nil
    }

    /// The SQL of the expression, with its values appended to the
    /// context's arguments.
    ///
    /// - Throws: A ``DatabaseError`` if the expression cannot be compiled, such
    ///   as a column of an unknown table alias.
    public func sql(_ context: SQLGenerationContext, wrappedInParenthesis: Bool = false) throws -> String {
        let sql = try context.nested { try rawSQL(context) }
        guard wrappedInParenthesis, needsParenthesis else { return sql }
        return "(" + sql + ")"
    }

    private var needsParenthesis: Bool {
        switch impl {
        case .value, .constantCondition, .column, .rowID, .function, .countAll, .subquery, .cast, .exists, .correlated:
            return false
        case .literal(let sql): return !sql.isSingleToken
        case .json(let x, _): return x.needsParenthesis
        default: return true
        }
    }

    /// The name that qualifies a column of `alias`, or nil when the column
    /// needs none. A named `TableAlias` that the query does not include
    /// qualifies with its name, for raw SQL that names its table so
    /// (`FROM player pl`), as in GRDB; an anonymous one throws: it refers
    /// to a table that was never aliased, or to the table of a parent
    /// request in the separate query of `including(all:)`.
    private static func qualifier(of alias: AliasIdentity, context: SQLGenerationContext) throws -> String? {
        guard let name = context.name(of: alias) else {
            guard alias.isExplicit else { return nil }
            if let userName = alias.userName { return userName }
            let table = alias.tableName.isEmpty ? "" : " of table \(alias.tableName)"
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "A TableAlias\(table) is used in a query that does not include its table: "
                    + "alias the table with aliased(_:), and note that the associated records of "
                    + "including(all:) can not be filtered on the tables of the parent request")
        }
        return context.qualifiesColumns || context.isRenamed(alias) || !context.isLocal(alias) ? name : nil
    }

    private func rawSQL(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .value(let value):
            return context.bind(value)
        case .column(let name, let alias):
            if let alias, let qualifier = try Self.qualifier(of: alias, context: context) {
                return qualifier.quotedDatabaseIdentifier + "." + name.quotedDatabaseIdentifier
            }
            return name.quotedDatabaseIdentifier
        case .rowID(let alias):
            if let alias, let qualifier = try Self.qualifier(of: alias, context: context) {
                return qualifier.quotedDatabaseIdentifier + ".rowid"
            }
            return "rowid"
        case .literal(let sql):
            return try sql.sql(context)
        case .constantCondition(let bool):
            return context.dialect.literal(bool)
        case .unary(let op, let x):
            let separator = op.last?.isLetter == true ? " " : ""
            return op + separator + (try x.sql(context, wrappedInParenthesis: true))
        case .binary(let op, let x, let y):
            let left = try x.sql(context, wrappedInParenthesis: true)
            return left + " \(try context.dialect.binaryOperator(op)) " + (try y.sql(context, wrappedInParenthesis: true))
        case .associative(let op, let xs):
            return try xs.map { try $0.sql(context, wrappedInParenthesis: true) }.joined(separator: " \(op) ")
        case .function(let name, let xs, let distinct):
            return try context.dialect.functionCall(name, distinct: distinct, arguments: xs.map { x in { try x.sql(context) } })
        case .filteredAggregate(let name, let xs, let filter):
            try context.dialect.checkFunction(name)
            let arguments = try xs.map { try $0.sql(context) }.joined(separator: ", ")
            let filterClause = " FILTER (WHERE " + (try filter.sql(context)) + ")"
            // PostgreSQL has no TOTAL, and averages integers as NUMERIC: as
            // for the unfiltered aggregates.
            if context.dialect.engine == .postgreSQL && xs.count == 1 {
                if name == "TOTAL" { return "CAST(COALESCE(SUM(" + arguments + ")" + filterClause + ", 0) AS DOUBLE PRECISION)" }
                if name == "AVG" { return "CAST(AVG(" + arguments + ")" + filterClause + " AS DOUBLE PRECISION)" }
            }
            return name + "(" + arguments + ")" + filterClause
        case .json(let x, _):
            return try x.sql(context)
        case .countAll:
            return "COUNT(*)"
        case .isNull(let x, let negated):
            return try x.sql(context, wrappedInParenthesis: true) + (negated ? " IS NOT NULL" : " IS NULL")
        case .inList(let x, let xs, let negated):
            if xs.isEmpty { return context.dialect.literal(negated) }
            return try x.sql(context, wrappedInParenthesis: true)
                + (negated ? " NOT IN (" : " IN (")
                + xs.map { try $0.sql(context) }.joined(separator: ", ") + ")"
        case .inSubquery(let x, let subquery, let negated):
            return try x.sql(context, wrappedInParenthesis: true)
                + (negated ? " NOT IN (" : " IN (") + subquery.sql(context) + ")"
        case .between(let x, let low, let high, let negated):
            return try x.sql(context, wrappedInParenthesis: true) + (negated ? " NOT BETWEEN " : " BETWEEN ")
                + low.sql(context, wrappedInParenthesis: true) + " AND " + high.sql(context, wrappedInParenthesis: true)
        case .collated(let x, let collation):
            return try x.sql(context, wrappedInParenthesis: true) + " COLLATE " + context.dialect.collation(collation)
        case .customCollated(let x, let collation):
            let name = try context.dialect.collation(collation.name.databaseIdentifierQuotedIfNeeded)
            context.db.addIfNeeded(collation: collation)
            return try x.sql(context, wrappedInParenthesis: true) + " COLLATE " + name
        case .cast(let x, let type):
            return "CAST(" + (try x.sql(context)) + " AS " + (try context.dialect.typeName(type)) + ")"
        case .exists(let subquery, let negated):
            return (negated ? "NOT EXISTS (" : "EXISTS (") + (try subquery.sql(context)) + ")"
        case .subquery(let subquery):
            return "(" + (try subquery.sql(context)) + ")"
        case .deferred(let resolve):
            return try resolve(context).sql(context)
        case .correlated:
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "An association aggregate can only be used in a request of the association's origin table")
        }
    }
}
