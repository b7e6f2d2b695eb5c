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
    private func aggregate(_ name: String?, _ makeSelection: @escaping @Sendable (AliasIdentity) -> SQLExpression?, exists: Bool = false)
        -> AssociationAggregate<OriginRowDecoder>
    {
        let impl = self.impl
        let expression = SQLExpression(.correlated { parentAlias in
            let hops = impl.hops.map { hop -> AssociationHop in
                var hop = hop
                hop.relation = hop.relation.withFreshAliases()
                return hop
            }
            var relation = AssociationImpl.reversedRelation(hops).removingOrderings()
            relation.limit = nil
            let linkAlias = hops[0].relation.alias
            let firstHop = hops[0]
            relation.filters.append(SQLExpression(.deferred { context in
                let pairs = try firstHop.columnPairs(context.db)
                return SQLQueryGenerator.conjunction(pairs.map { pair in
                    SQLExpression(.column(pair.child, linkAlias)) == SQLExpression(.column(pair.parent, parentAlias))
                })
            }))
            if let selection = makeSelection(relation.alias) {
                relation.selection = [selection.sqlSelection]
            } else {
                relation.selection = [SQLExpression.value(1).sqlSelection]
            }
            let finalRelation = relation
            let subquery = SQLSubquery { context in try SQLQueryGenerator(relation: finalRelation).subquerySQL(context) }
            return exists ? SQLExpression(.exists(subquery, negated: true)) : SQLExpression(.subquery(subquery))
        })
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

    /// The minimum of a column of the associated records (`minBookYear`).
    public func min(_ column: some ColumnExpression) -> AssociationAggregate<OriginRowDecoder> {
        let name = column.name
        return aggregate("min\(capitalized(singularKey))\(capitalized(name))") { alias in
            SQLExpression(.function("MIN", [SQLExpression(.column(name, alias))], distinct: false))
        }
    }

    /// The maximum of a column of the associated records (`maxBookYear`).
    public func max(_ column: some ColumnExpression) -> AssociationAggregate<OriginRowDecoder> {
        let name = column.name
        return aggregate("max\(capitalized(singularKey))\(capitalized(name))") { alias in
            SQLExpression(.function("MAX", [SQLExpression(.column(name, alias))], distinct: false))
        }
    }

    /// The average of a column of the associated records
    /// (`averageBookPrice`).
    public func average(_ column: some ColumnExpression) -> AssociationAggregate<OriginRowDecoder> {
        let name = column.name
        return aggregate("average\(capitalized(singularKey))\(capitalized(name))") { alias in
            SQLExpression(.function("AVG", [SQLExpression(.column(name, alias))], distinct: false))
        }
    }

    /// The sum of a column of the associated records, NULL without any
    /// (`bookAwardsSum`).
    public func sum(_ column: some ColumnExpression) -> AssociationAggregate<OriginRowDecoder> {
        let name = column.name
        return aggregate("\(singularKey)\(capitalized(name))Sum") { alias in
            SQLExpression(.function("SUM", [SQLExpression(.column(name, alias))], distinct: false))
        }
    }

    /// The sum of a column of the associated records, 0 without any
    /// (`bookAwardsSum`).
    public func total(_ column: some ColumnExpression) -> AssociationAggregate<OriginRowDecoder> {
        let name = column.name
        return aggregate("\(singularKey)\(capitalized(name))Sum") { alias in
            SQLExpression(.function("TOTAL", [SQLExpression(.column(name, alias))], distinct: false))
        }
    }
}

extension AssociationToMany where RowDecoder: TableRecord {
    /// The minimum of a column of the associated records: `Author.books.min(\.year)`.
    public func min(_ keyPath: KeyPath<RowDecoder.Columns.Type, some ColumnExpression>) -> AssociationAggregate<OriginRowDecoder> {
        min(RowDecoder.Columns.self[keyPath: keyPath])
    }

    /// The maximum of a column of the associated records: `Author.books.max(\.year)`.
    public func max(_ keyPath: KeyPath<RowDecoder.Columns.Type, some ColumnExpression>) -> AssociationAggregate<OriginRowDecoder> {
        max(RowDecoder.Columns.self[keyPath: keyPath])
    }

    /// The average of a column of the associated records.
    public func average(_ keyPath: KeyPath<RowDecoder.Columns.Type, some ColumnExpression>) -> AssociationAggregate<OriginRowDecoder> {
        average(RowDecoder.Columns.self[keyPath: keyPath])
    }

    /// The sum of a column of the associated records.
    public func sum(_ keyPath: KeyPath<RowDecoder.Columns.Type, some ColumnExpression>) -> AssociationAggregate<OriginRowDecoder> {
        sum(RowDecoder.Columns.self[keyPath: keyPath])
    }

    /// The total of a column of the associated records.
    public func total(_ keyPath: KeyPath<RowDecoder.Columns.Type, some ColumnExpression>) -> AssociationAggregate<OriginRowDecoder> {
        total(RowDecoder.Columns.self[keyPath: keyPath])
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
