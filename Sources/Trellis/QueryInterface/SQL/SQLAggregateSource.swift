/// What an association aggregate (`Author.books.count`) aggregates: the key
/// of its association, what links it, and the filters of each table it
/// goes through.
///
/// The aggregates of one request that share a key aggregate one population
/// of associated records, as the association merging rules say: all their
/// filters apply to each of them. `Author.books.filter(novel).count` and
/// `Author.books.filter(poem).count` both count the books that are novels
/// and poems, zero; give them distinct keys with `forKey(_:)` to count two
/// populations.
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

    init(key: String, identity: String, hopFilters: [[SQLExpression]], hasExplicitAlias: Bool) {
        self.key = key
        self.identity = identity
        self.hopFilters = hopFilters
        self.hasExplicitAlias = hasExplicitAlias
    }

    /// The filters of each table, merged for the aggregates of `sources`
    /// that share a key and a link, by key. Keys that only one aggregate
    /// uses are left out.
    static func mergedFilters(_ sources: [SQLAggregateSource]) -> [String: [[SQLExpression]]] {
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
            guard let group = groups[key], group.count > 1,
                  let first = group.first,
                  group.allSatisfy({
                      $0.identity == first.identity && $0.hopFilters.count == first.hopFilters.count && !$0.hasExplicitAlias
                  })
            else { continue }
            result[key] = first.hopFilters.indices.map { index in group.flatMap { $0.hopFilters[index] } }
        }
        return result
    }
}
