/// One step of an association: from a table to the next one, through a
/// foreign key. A direct association has one hop; `hasMany(_:through:using:)`
/// chains the hops of two associations.
struct AssociationHop: @unchecked Sendable {
    enum Direction: Sendable {
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

    /// What identifies the link, to tell two associations with the same key
    /// apart.
    var linkDescription: String {
        "\(originTable)>\(destinationTable):\(direction):\(onConditionIdentity ?? foreignKey?.description ?? "")"
    }
}

/// The shared implementation of all associations.
struct AssociationImpl: @unchecked Sendable {
    /// The hops, from the origin table to the destination table.
    var hops: [AssociationHop]
    /// The explicit key, if any.
    var explicitKey: String?
    var isToMany: Bool

    /// The key of the association in requests and decoded rows: explicit,
    /// or the destination table name, singular for to-one and plural for
    /// to-many associations.
    var key: String {
        if let explicitKey { return explicitKey }
        let table = hops[hops.count - 1].destinationTable
        return isToMany ? Inflections.pluralize(table) : Inflections.singularize(table)
    }

    /// The association joined as a to-one association (`including(required:)`
    /// of a to-many one): a row for each associated record, under the
    /// singular key unless the key is explicit.
    var joinedAsToOne: AssociationImpl {
        var impl = self
        impl.isToMany = false
        return impl
    }

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
    /// destination of `through`.
    static func through(_ through: AssociationImpl, using: AssociationImpl, isToMany: Bool, key: String?) -> AssociationImpl {
        AssociationImpl(hops: through.hops + using.hops, explicitKey: key ?? using.explicitKey, isToMany: isToMany)
    }
}
