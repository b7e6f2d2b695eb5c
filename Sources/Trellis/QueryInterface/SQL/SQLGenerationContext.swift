/// The state of SQL generation: the connection, the arguments collected so
/// far, and the names of the tables of the query.
public final class SQLGenerationContext {
    /// The connection the SQL is generated for.
    public let db: Database

    /// The values bound to the `?` of the generated SQL, in order.
    var arguments: [DatabaseValue] = []

    /// The names of the tables of the query, by alias.
    private var aliasNames: [ObjectIdentifier: String] = [:]

    /// Whether columns must be qualified with their table name (joins).
    var qualifiesColumns = false

    /// The common table expressions defined by the query, by lowercased
    /// name.
    var commonTableExpressions: [String: SQLCommonTableExpression] = [:]

    /// The common table expression `name`, defined by this query or an
    /// enclosing one.
    func commonTableExpression(named name: String) -> SQLCommonTableExpression? {
        commonTableExpressions[name.lowercased()] ?? parent?.commonTableExpression(named: name)
    }

    /// The context of the enclosing query, for correlated subqueries.
    let parent: SQLGenerationContext?

    /// The merged filters of the association aggregates that share a key,
    /// by the root alias of the table they aggregate for, then by key (see
    /// ``SQLAggregateSource``).
    private var aggregateFilters: [ObjectIdentifier: [String: [[SQLExpression]]]] = [:]

    /// Registers the merged filters of the aggregates of a query on the
    /// table of `alias`.
    func setAggregateFilters(_ filters: [String: [[SQLExpression]]], for alias: AliasIdentity) {
        aggregateFilters[ObjectIdentifier(alias.root)] = filters.isEmpty ? nil : filters
    }

    /// The merged filters of the aggregates of `key` on the table of
    /// `alias`, in this query or an enclosing one.
    func aggregateFilters(for alias: AliasIdentity, key: String) -> [[SQLExpression]]? {
        if let filters = aggregateFilters[ObjectIdentifier(alias.root)] { return filters[key] }
        return parent?.aggregateFilters(for: alias, key: key)
    }

    /// Whether values are written as SQL literals instead of being bound:
    /// schema statements (CHECK, DEFAULT) can not have parameters.
    let inlinesValues: Bool

    /// The SQL language written: see ``SQLDialect``.
    package let dialect: SQLDialect

    init(_ db: Database, parent: SQLGenerationContext? = nil, inlinesValues: Bool = false, dialect: SQLDialect? = nil) {
        self.db = db
        self.parent = parent
        self.dialect = dialect ?? parent?.dialect ?? db.dialect
        self.inlinesValues = inlinesValues || parent?.inlinesValues == true
        self.depth = parent?.depth ?? 0
    }

    /// How deep expressions nest at the point of generation, subqueries
    /// included.
    private var depth: Int

    /// The deepest expression generated. SQLite's parser refuses SQL that
    /// nests deeper than about a hundred levels (its parser stack), and
    /// generating much deeper SQL could overflow the stack of a thread,
    /// in a debug build first.
    private static let maximumDepth = 250

    /// The depth a subquery counts for: it costs the generator many more
    /// stack frames than an operator.
    static let subqueryCost = 5

    /// Generates the SQL of a nested expression, or throws SQLite's error
    /// for an expression tree too deep: SQLite would refuse the SQL, and
    /// generating it would overflow the stack first.
    func nested<T>(cost: Int = 1, _ generate: () throws -> T) throws -> T {
        guard depth + cost <= Self.maximumDepth else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "Expression tree is too large (maximum depth \(Self.maximumDepth))")
        }
        depth += cost
        defer { depth -= cost }
        return try generate()
    }

    /// Appends a value and returns its placeholder, or returns the value as
    /// an SQL literal when values are inlined.
    func bind(_ value: DatabaseValue) -> String {
        if inlinesValues { return dialect.literal(value) }
        arguments.append(value)
        return "?"
    }

    /// Gives names to the aliases of a query, unique in the query: the
    /// name the user gave to a `TableAlias`, else the table name, then
    /// `name1`, `name2`... User names are reserved first, so that a table
    /// named as the alias of another one gets another name.
    func assignNames(to aliases: [AliasIdentity]) {
        var used = Set(aliasNames.values.map { $0.lowercased() })
        var ancestor = parent
        while let context = ancestor {
            used.formUnion(context.aliasNames.values.map { $0.lowercased() })
            ancestor = context.parent
        }
        let roots = aliases.map(\.root)
        for alias in roots where aliasNames[ObjectIdentifier(alias)] == nil {
            guard let name = alias.userName else { continue }
            used.insert(name.lowercased())
            aliasNames[ObjectIdentifier(alias)] = name
        }
        for alias in roots where aliasNames[ObjectIdentifier(alias)] == nil {
            let base = alias.tableName
            var name = base
            var suffix = 1
            while used.contains(name.lowercased()) {
                name = "\(base)\(suffix)"
                suffix += 1
            }
            used.insert(name.lowercased())
            aliasNames[ObjectIdentifier(alias)] = name
        }
    }

    /// The name of an alias in the generated SQL.
    func name(of alias: AliasIdentity) -> String? {
        aliasNames[ObjectIdentifier(alias.root)] ?? parent?.name(of: alias)
    }

    /// Whether an alias belongs to this query, not to an enclosing one.
    func isLocal(_ alias: AliasIdentity) -> Bool {
        aliasNames[ObjectIdentifier(alias.root)] != nil
    }

    /// Whether an alias is given a name different from its table.
    func isRenamed(_ alias: AliasIdentity) -> Bool {
        guard let name = name(of: alias) else { return false }
        return name != alias.tableName
    }
}
