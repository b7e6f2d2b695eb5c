extension SQLRelation {
    /// The relation with an association joined under its key. Joining the
    /// same association twice under one key merges the two, as GRDB
    /// documents (`including` wins over `joining`, required over optional,
    /// filters add up, the last ordering and selection win); two different
    /// associations under one key are an error.
    func appending(_ impl: AssociationImpl, kind: SQLJoinedChild.Kind, selected: Bool) -> SQLRelation {
        var relation = self
        let (key, child) = Self.joinedChild(impl, kind: kind, selected: selected)
        if let error = child.relation.buildError {
            relation.buildError = error
            return relation
        }
        relation.merge(child, forKey: key)
        return relation
    }

    /// Joins `child` under `key`, merged with the association already
    /// joined under this key, if any.
    mutating func merge(_ child: SQLJoinedChild, forKey key: String) {
        guard let index = children.firstIndex(where: { $0.key == key }) else {
            children.append((key, child))
            return
        }
        let existing = children[index].child
        guard existing.identity == child.identity, (existing.kind == .all) == (child.kind == .all) else {
            buildError = buildError ?? DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Two different associations use the key \"\(key)\" in one request: give them distinct keys with forKey(_:)")
            return
        }
        children[index].child = existing.merged(with: child)
    }

    /// The child of a request for an association: a chain of joined tables
    /// for to-one associations, a prefetch for to-many ones.
    ///
    /// The intermediate tables of a `through` association are joined under
    /// the keys of their associations, and the associated table under them,
    /// as GRDB does: `Book.including(required: Book.returnAddress)` joins
    /// `library`, and the address under it. Each table of the chain merges
    /// with the same association joined under the same key.
    private static func joinedChild(_ impl: AssociationImpl, kind: SQLJoinedChild.Kind, selected: Bool) -> (key: String, child: SQLJoinedChild) {
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
                return (impl.key, SQLJoinedChild(kind: .oneOptional, isSelected: false, relation: relation, condition: { _ in [] }, prefetch: nil))
            }
            let prefetch = ToManyPrefetch(hops: hops)
            var child = SQLJoinedChild(
                kind: .all, isSelected: true, relation: hops[hops.count - 1].relation,
                condition: { _ in [] },
                prefetch: { db, rows, key, relation, recordsDecoder in
                    try prefetch.run(db, parentRows: rows, key: key, relation: relation, recordsDecoder: recordsDecoder)
                })
            child.identity = impl.identity
            return (impl.key, child)
        }
        // The last hop is the associated table; the others are the
        // intermediate tables of a `through` association.
        let last = hops[hops.count - 1]
        var child = SQLJoinedChild(
            kind: kind, isSelected: selected, relation: last.relation,
            condition: { db in try last.columnPairs(db) }, prefetch: nil)
        child.onCondition = last.onCondition
        child.collations = { db in try last.keyCollations(db) }
        child.identity = last.linkDescription
        child.joinsSeveralRows = impl.joinsSeveralRows
        var childKey = impl.key
        for (index, hop) in hops.dropLast().enumerated().reversed() {
            var intermediate = hop.relation
            intermediate.children.append((key: childKey, child: child))
            childKey = hop.pivotKey ?? "\(impl.key)#through\(index)"
            child = SQLJoinedChild(
                kind: kind, isSelected: false, relation: intermediate,
                condition: { db in try hop.columnPairs(db) }, prefetch: nil)
            child.onCondition = hop.onCondition
            child.collations = { db in try hop.keyCollations(db) }
            child.identity = hop.linkDescription
            child.joinsSeveralRows = impl.joinsSeveralRows
        }
        return (childKey, child)
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
    /// Merges two joins of the same association under one key, as GRDB
    /// documents for refining association requests: `including` wins over
    /// `joining`, required over optional, all filters apply, the last
    /// ordering wins, and the last selection of an included association
    /// wins, a refined selection (`select`, `annotated(with:)`) over the
    /// default one. The associations joined to both merge in turn.
    func merged(with other: SQLJoinedChild) -> SQLJoinedChild {
        var merged = self
        if kind != .all, kind == .oneRequired || other.kind == .oneRequired {
            merged.kind = .oneRequired
        }
        merged.isSelected = isSelected || other.isSelected
        merged.joinsSeveralRows = joinsSeveralRows || other.joinsSeveralRows
        merged.relation = relation.merged(with: other.relation)
        // The selection of a table that is only joined selects nothing.
        let selections = [(isSelected, relation), (other.isSelected, other.relation)].filter(\.0).map(\.1)
        if let chosen = selections.last(where: \.isSelectionExplicit) ?? selections.last {
            merged.relation.selection = chosen.selection
            merged.relation.isSelectionExplicit = chosen.isSelectionExplicit
        }
        return merged
    }
}

extension SQLRelation {
    /// Merges the relation of a second join of the same association (see
    /// ``SQLJoinedChild/merged(with:)``), but the selection.
    fileprivate func merged(with other: SQLRelation) -> SQLRelation {
        var merged = self
        merged.filters = filters + other.filters
        merged.having = having + other.having
        if !other.orderings.isEmpty {
            merged.orderings = other.orderings
            merged.isReversed = other.isReversed
        }
        if !other.groupBy.isEmpty { merged.groupBy = other.groupBy }
        if let limit = other.limit { merged.limit = limit }
        merged.isDistinct = isDistinct || other.isDistinct
        for cte in other.commonTableExpressions
        where !merged.commonTableExpressions.contains(where: { $0.tableName.lowercased() == cte.tableName.lowercased() }) {
            merged.commonTableExpressions.append(cte)
        }
        merged.buildError = buildError ?? other.buildError
        // One table, under the name the user gave it: the aliases of both
        // joins refer to it.
        switch (alias.isExplicit, other.alias.isExplicit) {
        case (true, true):
            if let error = alias.merge(other.alias) {
                merged.buildError = merged.buildError ?? error
            }
        case (false, true):
            merged.alias = other.alias
        default:
            break
        }
        for (key, child) in other.children {
            merged.merge(child, forKey: key)
        }
        return merged
    }
}
