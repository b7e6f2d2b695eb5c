/// What an association aggregate (`Author.books.count`) aggregates: the key
/// of its association, what links it, and the filters of each table it
/// goes through.
///
/// The aggregates of one request that share a key aggregate one population
/// of associated records, as the association merging rules say: all their
/// filters apply to each of them. `Author.books.filter(novel).count` and
/// `Author.books.filter(poem).count` both count the books that are novels
/// and poems, zero; give them distinct keys with `forKey(_:)` to count two
/// populations. A join of the same association in the request
/// (`joining(required: Author.books)`) is that population too: its filters
/// and those of the aggregates apply to both.
final class SQLAggregateSource: @unchecked Sendable {
    /// The association key (`books`, or the key given with `forKey(_:)`).
    let key: String
    /// What links the tables, to tell two associations under one key apart.
    let identity: String
    /// The filters of each table of the association, from the first one
    /// after the origin to the aggregated one.
    let hopFilters: [[SQLExpression]]
    /// Whether a table of the association has a `TableAlias` of the user:
    /// its filters may name it, and can not apply to another aggregate.
    let hasExplicitAlias: Bool
    /// The keys under which a request joins the tables of the association
    /// (`joining(required: Author.books)`), from the first one after the
    /// origin to the aggregated one, and what links each of them.
    let joinKeys: [(key: String, identity: String)]

    init(key: String, identity: String, hopFilters: [[SQLExpression]], hasExplicitAlias: Bool,
         joinKeys: [(key: String, identity: String)])
    {
        self.key = key
        self.identity = identity
        self.hopFilters = hopFilters
        self.hasExplicitAlias = hasExplicitAlias
        self.joinKeys = joinKeys
    }

    /// Merges the aggregates of `sources` that share a key, and the joins of
    /// `relation` of the same associations: returns the filters of each
    /// table of the aggregates, by key, and adds the filters of the
    /// aggregates to the joins. Keys whose aggregates need no merge are left
    /// out.
    static func merge(_ sources: [SQLAggregateSource], into relation: inout SQLRelation) -> [String: [[SQLExpression]]] {
        var groups: [String: [SQLAggregateSource]] = [:]
        var order: [String] = []
        for source in sources {
            if groups[source.key] == nil { order.append(source.key) }
            if !(groups[source.key, default: []].contains { $0 === source }) {
                groups[source.key, default: []].append(source)
            }
        }
        var result: [String: [[SQLExpression]]] = [:]
        for key in order {
            guard let group = groups[key], let first = group.first,
                  group.allSatisfy({
                      $0.identity == first.identity && $0.hopFilters.count == first.hopFilters.count && !$0.hasExplicitAlias
                  })
            else { continue }
            var filters = first.hopFilters.indices.map { index in group.flatMap { $0.hopFilters[index] } }
            if let joinFilters = relation.mergeJoin(first.joinKeys[...], adding: filters[...]) {
                for index in filters.indices { filters[index] += joinFilters[index] }
                result[key] = filters
            } else if group.count > 1 {
                result[key] = filters
            }
        }
        return result
    }
}

extension SQLRelation {
    /// When the relation joins the chain of tables `keys` (without table
    /// aliases of the user), adds `filters` to the joined tables, and
    /// returns the filters they had. Returns nil, and changes nothing, when
    /// the chain is not joined.
    fileprivate mutating func mergeJoin(
        _ keys: ArraySlice<(key: String, identity: String)>,
        adding filters: ArraySlice<[SQLExpression]>) -> [[SQLExpression]]?
    {
        guard let (key, identity) = keys.first else { return [] }
        guard let index = children.firstIndex(where: { $0.key == key }),
              children[index].child.kind != .all,
              children[index].child.identity == identity,
              !children[index].child.relation.alias.isExplicit
        else { return nil }
        var child = children[index].child
        guard let nested = child.relation.mergeJoin(keys.dropFirst(), adding: filters.dropFirst()) else { return nil }
        let own = child.relation.filters
        child.relation.filters += filters.first ?? []
        children[index].child = child
        return [own] + nested
    }
}
