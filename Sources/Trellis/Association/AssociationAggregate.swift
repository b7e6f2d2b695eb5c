/// A value computed from the records of a to-many association, for each
/// record of a request: a count, a minimum, a sum...
///
/// ```swift
/// struct AuthorInfo: Decodable, FetchableRecord {
///     var author: Author
///     var bookCount: Int
///     var maxBookYear: Int?
/// }
/// let request = Author.annotated(with: Author.books.count, Author.books.max(Column("year")))
/// let infos = try AuthorInfo.fetchAll(db, request)
///
/// let prolific = try Author.having(Author.books.count >= 10).fetchAll(db)
/// ```
///
/// Aggregates have a default name (`bookCount`, `maxBookYear`,
/// `hasNoBook`...), lost when they are combined with operators; name them
/// with `forKey(_:)`.
public struct AssociationAggregate<RowDecoder>: SQLSpecificExpressible, SQLSelectable, Sendable {
    let expression: SQLExpression
    let name: String?

    public var sqlExpression: SQLExpression { expression }

    public var sqlSelection: SQLSelection { .expression(expression, alias: name) }

    /// The aggregate under another name.
    public func forKey(_ key: String) -> AssociationAggregate<RowDecoder> {
        AssociationAggregate(expression: expression, name: key)
    }

    /// The aggregate under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> AssociationAggregate<RowDecoder> {
        forKey(key.stringValue)
    }
}

extension AssociationToMany {
    /// A correlated subquery on the associated records of each parent row.
    /// The aggregates of one request that share the association key
    /// aggregate one population: the filters of all of them apply (see
    /// ``SQLAggregateSource``).
    private func aggregate(_ name: String?, _ makeSelection: @escaping @Sendable (AliasIdentity) -> SQLExpression?, exists: Bool = false)
        -> AssociationAggregate<OriginRowDecoder>
    {
        let impl = self.impl
        let key = impl.key
        // The keys of the tables of the association joined to a request,
        // as `joining(required:)` joins them.
        let joinKey = impl.joinedAsToOne.key
        var joinKeys = [(key: joinKey, identity: impl.hops[impl.hops.count - 1].linkDescription)]
        for (index, hop) in impl.hops.dropLast().enumerated().reversed() {
            joinKeys.insert((key: hop.pivotKey ?? "\(joinKey)#through\(index)", identity: hop.linkDescription), at: 0)
        }
        let source = SQLAggregateSource(
            key: key, identity: impl.identity, hopFilters: impl.hops.map(\.relation.filters),
            hasExplicitAlias: impl.hops.contains { $0.relation.alias.isExplicit }, joinKeys: joinKeys)
        let expression = SQLExpression(.correlated({ parentAlias in
            let hops = impl.hops.map { hop -> AssociationHop in
                var hop = hop
                hop.relation = hop.relation.withFreshAliases()
                return hop
            }
            let subquery = SQLSubquery { context in
                var hops = hops
                if let merged = context.aggregateFilters(for: parentAlias, key: key), merged.count == hops.count {
                    for index in hops.indices {
                        hops[index].relation.filters = merged[index]
                    }
                }
                var relation = AssociationImpl.reversedRelation(hops).removingOrderings()
                relation.limit = nil
                let linkAlias = hops[0].relation.alias
                let firstHop = hops[0]
                relation.filters.append(SQLExpression(.deferred { context in
                    let pairs = try firstHop.columnPairs(context.db)
                    let collations = try firstHop.keyCollations(context.db)
                    return SQLQueryGenerator.conjunction(pairs.enumerated().map { index, pair in
                        SQLExpression.linkComparison(
                            SQLExpression(.column(pair.child, linkAlias)), SQLExpression(.column(pair.parent, parentAlias)),
                            collation: index < collations.count ? collations[index] : nil)
                    })
                }))
                if let selection = makeSelection(relation.alias) {
                    relation.selection = [selection.sqlSelection]
                } else {
                    relation.selection = [SQLExpression.value(1).sqlSelection]
                }
                return try SQLQueryGenerator(relation: relation).subquerySQL(context)
            }
            return exists ? SQLExpression(.exists(subquery, negated: true)) : SQLExpression(.subquery(subquery))
        }, aggregate: source))
        return AssociationAggregate(expression: expression, name: name)
    }

    /// The name the aggregates derive their names from: the explicit key,
    /// or the destination table, singular (`Author.books.count` is
    /// `bookCount`), as GRDB names them.
    private var singularKey: String {
        Inflections.singularize(impl.explicitKey ?? impl.hops[impl.hops.count - 1].destinationTable)
    }

    private func capitalized(_ string: String) -> String {
        string.prefix(1).uppercased() + string.dropFirst()
    }

    /// The number of associated records (`bookCount`).
    public var count: AssociationAggregate<OriginRowDecoder> {
        aggregate("\(singularKey)Count") { _ in SQLExpression(.countAll) }
    }

    /// Whether there is no associated record (`hasNoBook`).
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        aggregate("hasNo\(capitalized(singularKey))", { _ in nil }, exists: true)
    }

    /// The name of an aggregate of `expression`: `min` + `Book` + `Year`
    /// for a column, nil for another expression (name it with `forKey`).
    private func aggregateName(_ expression: SQLExpression, _ name: (String) -> String) -> String? {
        guard case .column(let column, nil) = expression.impl else { return nil }
        return name(column)
    }

    private func aggregate(
        function: String, of expression: some SQLSpecificExpressible, name: (String) -> String)
        -> AssociationAggregate<OriginRowDecoder>
    {
        let expression = expression.sqlExpression
        return aggregate(aggregateName(expression, name)) { alias in
            SQLExpression(.function(function, [expression.qualified(with: alias)], distinct: false))
        }
    }

    /// The minimum of a column or expression of the associated records
    /// (`minBookYear` for a column).
    ///
    /// ```swift
    /// Author.annotated(with: Author.books.min(Column("year")))
    /// ```
    public func min(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(function: "MIN", of: expression) { "min\(capitalized(singularKey))\(capitalized($0))" }
    }

    /// The maximum of a column or expression of the associated records
    /// (`maxBookYear` for a column).
    public func max(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(function: "MAX", of: expression) { "max\(capitalized(singularKey))\(capitalized($0))" }
    }

    /// The average of a column or expression of the associated records
    /// (`averageBookPrice` for a column).
    public func average(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(function: "AVG", of: expression) { "average\(capitalized(singularKey))\(capitalized($0))" }
    }

    /// The sum of a column or expression of the associated records, NULL
    /// without any (`bookAwardsSum` for a column).
    public func sum(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(function: "SUM", of: expression) { "\(singularKey)\(capitalized($0))Sum" }
    }

    /// The sum of a column or expression of the associated records, 0
    /// without any (`bookAwardsSum` for a column).
    public func total(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(function: "TOTAL", of: expression) { "\(singularKey)\(capitalized($0))Sum" }
    }
}

// The closure forms receive the `Columns` of the associated record; key
// paths such as `\.year` stand for such closures.

extension AssociationToMany where RowDecoder: TableRecord {
    /// The minimum of a column of the associated records.
    ///
    /// ```swift
    /// Author.annotated(with: Author.books.min(\.year))
    /// Author.annotated(with: Author.books.min { $0.year })
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public func min(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder>
    {
        min(try expression(RowDecoder.Columns.self))
    }

    /// The maximum of a column of the associated records:
    /// `Author.books.max(\.year)`.
    ///
    /// - Throws: The error thrown by the closure.
    public func max(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder>
    {
        max(try expression(RowDecoder.Columns.self))
    }

    /// The average of a column of the associated records:
    /// `Author.books.average { $0.price }`.
    ///
    /// - Throws: The error thrown by the closure.
    public func average(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder>
    {
        average(try expression(RowDecoder.Columns.self))
    }

    /// The sum of a column of the associated records:
    /// `Author.books.sum(\.awards)`.
    ///
    /// - Throws: The error thrown by the closure.
    public func sum(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder>
    {
        sum(try expression(RowDecoder.Columns.self))
    }

    /// The total of a column of the associated records:
    /// `Author.books.total(\.awards)`.
    ///
    /// - Throws: The error thrown by the closure.
    public func total(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows
        -> AssociationAggregate<OriginRowDecoder>
    {
        total(try expression(RowDecoder.Columns.self))
    }
}

/// The aggregate, or `defaultValue` when it is NULL (`IFNULL`). Unlike
/// other operators, it keeps the name of the aggregate.
///
/// ```swift
/// // SELECT team.*, IFNULL((SELECT MIN(score) ...), 0) AS minPlayerScore
/// let request = Team.annotated(with: Team.players.min(Column("score")) ?? 0)
/// ```
public func ?? <RowDecoder>(
    aggregate: AssociationAggregate<RowDecoder>, defaultValue: some SQLExpressible) -> AssociationAggregate<RowDecoder>
{
    AssociationAggregate(expression: aggregate.expression ?? defaultValue, name: aggregate.name)
}
