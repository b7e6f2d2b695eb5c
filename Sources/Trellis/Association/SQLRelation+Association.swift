extension SQLRelation {
    /// The relation with an association joined under its key. Joining the
    /// same association twice under one key merges the two (`including`
    /// wins over `joining`, required over optional, filters add up); two
    /// different associations under one key are an error.
    func appending(_ impl: AssociationImpl, kind: SQLJoinedChild.Kind, selected: Bool) -> SQLRelation {
        var relation = self
        let key = impl.key
        var child = Self.joinedChild(impl, kind: kind, selected: selected)
        if let error = child.relation.buildError {
            relation.buildError = error
            return relation
        }
        if let index = relation.children.firstIndex(where: { $0.key == key }) {
            let existing = relation.children[index].child
            guard existing.identity == child.identity else {
                relation.buildError = DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Two different associations use the key \"\(key)\" in one request: give them distinct keys with forKey(_:)")
                return relation
            }
            child = existing.merged(with: child)
            relation.children[index].child = child
        } else {
            relation.children.append((key, child))
        }
        return relation
    }

    /// The child of a request for an association: a chain of joined tables
    /// for to-one associations, a prefetch for to-many ones.
    private static func joinedChild(_ impl: AssociationImpl, kind: SQLJoinedChild.Kind, selected: Bool) -> SQLJoinedChild {
        let hops = impl.hops.map { hop -> AssociationHop in
            var hop = hop
            hop.relation = hop.relation.withFreshAliases()
            return hop
        }
        if kind == .all {
            if hops.contains(where: { $0.onCondition != nil }) {
                var relation = hops[hops.count - 1].relation
                relation.buildError = DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Associations to common table expressions are to-one: they can not be used with including(all:)")
                return SQLJoinedChild(kind: .oneOptional, isSelected: false, relation: relation, condition: { _ in [] }, prefetch: nil)
            }
            var child = SQLJoinedChild(
                kind: .all, isSelected: true, relation: hops[hops.count - 1].relation,
                condition: { _ in [] }, prefetch: ToManyPrefetch(hops: hops).run)
            child.identity = impl.identity
            return child
        }
        // The last hop is the associated table; the others are the
        // intermediate tables of a `through` association.
        let last = hops[hops.count - 1]
        var child = SQLJoinedChild(
            kind: kind, isSelected: selected, relation: last.relation,
            condition: { db in try last.columnPairs(db) }, prefetch: nil)
        child.onCondition = last.onCondition
        var childKey = impl.key
        for (index, hop) in hops.dropLast().enumerated().reversed() {
            var intermediate = hop.relation
            intermediate.children.append((key: childKey, child: child))
            childKey = "\(impl.key)#through\(index)"
            child = SQLJoinedChild(
                kind: kind, isSelected: false, relation: intermediate,
                condition: { db in try hop.columnPairs(db) }, prefetch: nil)
            child.onCondition = hop.onCondition
        }
        child.identity = impl.identity
        return child
    }

    /// The relation without any ordering, in its joined tables too: for
    /// subqueries whose order does not matter.
    func removingOrderings() -> SQLRelation {
        var relation = self
        relation.orderings = []
        relation.isReversed = false
        relation.children = relation.children.map { key, child in
            var child = child
            child.relation = child.relation.removingOrderings()
            return (key, child)
        }
        return relation
    }

    /// The orderings of the relation then of its joined to-one tables,
    /// qualified with their aliases: how the generator sorts a request.
    var orderingsWithJoins: [SQLOrdering] {
        var result = effectiveOrderings.map { $0.qualified(with: alias) }
        for (_, child) in children where child.kind != .all {
            result += child.relation.orderingsWithJoins
        }
        return result
    }

    /// The relation with new aliases for the tables that the user did not
    /// alias, so that an association joined twice names two tables.
    func withFreshAliases() -> SQLRelation {
        var relation = self
        if !relation.alias.isExplicit {
            relation.alias = AliasIdentity(tableName: relation.tableName)
        }
        relation.children = relation.children.map { key, child in
            var child = child
            child.relation = child.relation.withFreshAliases()
            return (key, child)
        }
        return relation
    }
}

extension SQLJoinedChild {
    /// Merges two joins of the same association under one key.
    func merged(with other: SQLJoinedChild) -> SQLJoinedChild {
        var merged = other
        if kind == .oneRequired || other.kind == .oneRequired, kind != .all {
            merged.kind = .oneRequired
        }
        merged.isSelected = isSelected || other.isSelected
        merged.relation.filters = relation.filters + other.relation.filters
        if other.relation.orderings.isEmpty { merged.relation.orderings = relation.orderings }
        merged.relation.alias = other.relation.alias.isExplicit ? other.relation.alias : relation.alias
        for (key, child) in relation.children where !merged.relation.children.contains(where: { $0.key == key }) {
            merged.relation.children.append((key, child))
        }
        return merged
    }
}
