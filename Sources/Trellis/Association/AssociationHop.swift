/// One step of an association: from a table to the next one, through a
/// foreign key. A direct association has one hop; `hasMany(_:through:using:)`
/// chains the hops of two associations.
struct AssociationHop: @unchecked Sendable {
    enum Direction: String, Sendable {
        /// The foreign key is on the origin table (belongsTo).
        case belongsTo
        /// The foreign key is on the destination table (hasOne, hasMany).
        case hasMany
    }

    let originTable: String
    var relation: SQLRelation
    let foreignKey: ForeignKey?
    let direction: Direction
    /// A join condition written by the user instead of a foreign key
    /// (associations to common table expressions), from the aliases of
    /// the origin and of the destination, and what identifies it.
    var onCondition: (@Sendable (AliasIdentity, AliasIdentity) -> SQLExpression)? = nil
    var onConditionIdentity: String? = nil
    /// The key of the destination table when it is the pivot of a
    /// `through` association: the key of the pivot association, joined to
    /// one record. Requests join the pivot under this key, so that the
    /// pivot association merges with it, and rows nest the associated
    /// record in the scope of the pivot.
    var pivotKey: String? = nil

    var destinationTable: String { relation.tableName }

    /// The join columns: parent columns on the origin table, child columns
    /// on the destination table.
    func columnPairs(_ db: Database) throws -> [(parent: String, child: String)] {
        if onCondition != nil { return [] }
        switch direction {
        case .belongsTo:
            let resolved = try db.resolveForeignKey(foreignKey, from: originTable, to: destinationTable)
            return resolved.mapping.map { (parent: $0.origin, child: $0.destination) }
        case .hasMany:
            let resolved = try db.resolveForeignKey(foreignKey, from: destinationTable, to: originTable)
            return resolved.mapping.map { (parent: $0.destination, child: $0.origin) }
        }
    }

    /// The collation of each pair of `columnPairs(_:)`, when the key that
    /// the foreign key references does not compare with BINARY: SQLite
    /// matches a foreign key with the collation of its parent key (a child
    /// 'AB' references the parent 'ab' of a NOCASE column). Joins, counts,
    /// prefetches and `request(for:)` compare that way, whatever side of
    /// the comparison the child's column is on. Empty when all compare
    /// with BINARY.
    func keyCollations(_ db: Database) throws -> [String?] {
        guard !db.usesServer, onCondition == nil else { return [] }
        let pairs = try columnPairs(db)
        switch direction {
        case .belongsTo:
            return try db.keyCollations(table: destinationTable, columns: pairs.map(\.child))
        case .hasMany:
            return try db.keyCollations(table: originTable, columns: pairs.map(\.parent))
        }
    }

    /// What identifies the link, to tell two associations with the same key
    /// apart.
    var linkDescription: String {
        // Built from strings only: the interpolation of an enum or an array
        // goes through reflection, which costs more than the whole join.
        // Columns are separated by NUL, which no SQLite name contains.
        let link = onConditionIdentity ?? foreignKey.map { foreignKey in
            foreignKey.originColumns.joined(separator: "\u{0}")
                + (foreignKey.destinationColumns.map { ">" + $0.joined(separator: "\u{0}") } ?? "")
        }
        return originTable + ">" + destinationTable + ":" + direction.rawValue + ":" + (link ?? "")
    }
}

/// The shared implementation of all associations.
struct AssociationImpl: @unchecked Sendable {
    /// The hops, from the origin table to the destination table.
    var hops: [AssociationHop]
    /// The explicit key, if any.
    var explicitKey: String? {
        didSet { explicitKeyIsPlural = isToMany }
    }
    /// Whether the explicit key was given to a to-many association: it
    /// names several records, and is singularized when the association is
    /// joined to one record (`including(required:)`).
    private(set) var explicitKeyIsPlural: Bool
    var isToMany: Bool

    init(hops: [AssociationHop], explicitKey: String?, isToMany: Bool) {
        self.hops = hops
        self.explicitKey = explicitKey
        self.isToMany = isToMany
        self.explicitKeyIsPlural = isToMany
    }

    /// The key of the association in requests and decoded rows: explicit,
    /// or the destination table name, singular for to-one and plural for
    /// to-many associations. An explicit key is inflected only when the
    /// association is used with the other cardinality: the key of a to-one
    /// association is kept as is in to-one contexts, as GRDB does.
    var key: String {
        guard let explicitKey else {
            let table = hops[hops.count - 1].destinationTable
            return isToMany ? Inflections.pluralize(table) : Inflections.singularize(table)
        }
        if isToMany == explicitKeyIsPlural { return explicitKey }
        return isToMany ? Inflections.pluralize(explicitKey) : Inflections.singularize(explicitKey)
    }

    /// The association joined as a to-one association (`including(required:)`
    /// or `joining` of a to-many one): a row for each associated record,
    /// under the singular key, so that all joins of one association merge.
    var joinedAsToOne: AssociationImpl {
        var impl = self
        impl.joinsSeveralRows = impl.joinsSeveralRows || isToMany
        impl.isToMany = false
        return impl
    }

    /// Whether the association is a to-many one joined to one record: the
    /// join gives a row for each associated record.
    private(set) var joinsSeveralRows = false

    /// The relation of the destination table.
    var destination: SQLRelation {
        get { hops[hops.count - 1].relation }
        set { hops[hops.count - 1].relation = newValue }
    }

    /// A relation that starts from the associated table and joins the
    /// tables of the other hops back towards the origin, nested in order.
    /// Columns of the first hop (the one linked to the origin) are reached
    /// with `hops[0].relation.alias`.
    static func reversedRelation(_ hops: [AssociationHop]) -> SQLRelation {
        var node: SQLRelation?
        for index in hops.indices {
            var relation = hops[index].relation
            if index < hops.count - 1 {
                // The ordering of an intermediate table (an ordered pivot)
                // sorts the associated records after their own ordering.
                relation.selection = []
                relation.limit = nil
            }
            if let inner = node {
                let hop = hops[index]
                var back = SQLJoinedChild(
                    kind: .oneRequired, isSelected: false, relation: inner,
                    condition: { db in try hop.columnPairs(db).map { (parent: $0.child, child: $0.parent) } },
                    prefetch: nil)
                if let onCondition = hop.onCondition {
                    // Joined back: the destination of the hop is the parent.
                    back.onCondition = { parent, child in onCondition(child, parent) }
                }
                relation.children.append((key: "grdb_back\(index)", child: back))
            }
            node = relation
        }
        return node ?? hops[0].relation
    }

    var identity: String {
        hops.map(\.linkDescription).joined(separator: "/")
    }

    /// Chains `through` and `using`: the hops of `using` start from the
    /// destination of `through`, which requests join under the key of
    /// `through`.
    static func through(_ through: AssociationImpl, using: AssociationImpl, isToMany: Bool, key: String?) -> AssociationImpl {
        var pivotHops = through.hops
        pivotHops[pivotHops.count - 1].pivotKey = through.joinedAsToOne.key
        var impl = AssociationImpl(hops: pivotHops + using.hops, explicitKey: nil, isToMany: using.isToMany)
        if let key {
            impl.isToMany = isToMany
            impl.explicitKey = key
        } else if let usingKey = using.explicitKey {
            // The key of `using` keeps its cardinality, and is inflected
            // for the cardinality of the chained association.
            impl.explicitKey = usingKey
            impl.explicitKeyIsPlural = using.explicitKeyIsPlural
            impl.isToMany = isToMany
        } else {
            impl.isToMany = isToMany
        }
        return impl
    }
}

extension SQLExpression {
    /// `lhs = rhs`, or `lhs COLLATE name = rhs` when the referenced key of
    /// the link compares with a collation other than BINARY.
    static func linkComparison(_ lhs: SQLExpression, _ rhs: SQLExpression, collation: String?) -> SQLExpression {
        guard let collation else { return lhs == rhs }
        return SQLExpression(.collated(lhs, collation)) == rhs
    }
}
