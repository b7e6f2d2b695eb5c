/// The parts of a SELECT query on one table, with the associations joined
/// to it: what a `QueryInterfaceRequest` and an association are made of.
struct SQLRelation: @unchecked Sendable {
    /// The table, and its identity in the query.
    var tableName: String
    var alias: AliasIdentity

    /// The selected columns; nil selects the record's default selection.
    var selection: [SQLSelection]
    /// Whether the selection of an association was refined (`select`,
    /// `annotated(with:)`): it wins over the default selection when two
    /// joins of the association merge.
    var isSelectionExplicit = false
    var filters: [SQLExpression] = []
    var orderings: [SQLOrdering] = []
    var isReversed = false
    var groupBy: [SQLExpression] = []
    var having: [SQLExpression] = []
    var isDistinct = false
    var limit: (count: Int, offset: Int?)?

    /// The common table expressions defined by the request (`WITH`).
    var commonTableExpressions: [SQLCommonTableExpression] = []

    /// The associations joined to the table, by key, in order.
    var children: [(key: String, child: SQLJoinedChild)] = []

    /// An error found while the request was built (a misuse that can only
    /// be reported when the request runs).
    var buildError: DatabaseError?

    init(tableName: String, selection: [SQLSelection], alias: AliasIdentity? = nil) {
        self.tableName = tableName
        self.alias = alias ?? AliasIdentity(tableName: tableName)
        self.selection = selection
    }

    /// The ordering, with the reversal applied. Reversing a request with no
    /// ordering orders by descending rowid... or primary key, resolved in
    /// the generator.
    var effectiveOrderings: [SQLOrdering] {
        isReversed ? orderings.map(\.reversed) : orderings
    }

    /// The sources of the association aggregates of the relation: in its
    /// selection, filters, HAVING clause and orderings.
    var aggregateSources: [SQLAggregateSource] {
        var sources: [SQLAggregateSource] = []
        for selection in selection {
            if case .expression(let expression, _) = selection.impl { sources += expression.aggregateSources }
        }
        sources += filters.flatMap(\.aggregateSources)
        sources += having.flatMap(\.aggregateSources)
        sources += orderings.flatMap(\.expression.aggregateSources)
        return sources
    }

    /// Whether a join of the relation, or of its joined tables, gives a
    /// row for each of several associated records.
    var joinsSeveralRows: Bool {
        children.contains { $0.child.kind != .all && ($0.child.joinsSeveralRows || $0.child.relation.joinsSeveralRows) }
    }

    /// The relation with the association aggregates of its HAVING clause
    /// (`Author.having(Author.books.isEmpty)`) moved to WHERE when it has
    /// no GROUP BY: they are correlated subqueries that filter the rows.
    /// Other conditions stay in HAVING, where SQL makes the query an
    /// aggregate of one row, as GRDB's requests do.
    var withUngroupedAggregatesFiltering: SQLRelation {
        guard groupBy.isEmpty, having.contains(where: \.hasCorrelatedSubquery) else { return self }
        var relation = self
        relation.filters += having.filter(\.hasCorrelatedSubquery)
        relation.having = having.filter { !$0.hasCorrelatedSubquery }
        return relation
    }
}

/// An association joined to a relation: how it joins, whether it is
/// selected, and its own relation (filters, nested joins).
struct SQLJoinedChild: @unchecked Sendable {
    enum Kind: Sendable {
        case oneRequired, oneOptional, all
    }

    var kind: Kind
    /// Whether the columns of the child are selected.
    var isSelected: Bool
    var relation: SQLRelation
    /// The join condition, resolved against the schema when the request
    /// compiles: pairs of (parent column, child column).
    var condition: @Sendable (Database) throws -> [(parent: String, child: String)]
    /// For to-many prefetch: how to fetch and merge, supplied by the
    /// association layer, given the parent rows, the key, the relation
    /// of the child (merged with the other joins of the association), and
    /// the decoder of the records that the parents' record type reads
    /// from them, if any.
    var prefetch: PrefetchFunction?

    typealias PrefetchFunction = @Sendable (Database, [Row], String, SQLRelation, _PrefetchedRecordsDecoder?) throws -> Void
    /// The collation of each pair of the join condition, when the key the
    /// foreign key references does not compare with BINARY (see
    /// `AssociationHop.keyCollations(_:)`).
    var collations: (@Sendable (Database) throws -> [String?])?
    /// What identifies the association, to merge two joins of the same one.
    var identity = ""
    /// Whether the join gives a row for each of several associated records
    /// (a to-many association joined with `joining(required:)`...).
    var joinsSeveralRows = false
    /// A join condition written by the user (associations to common table
    /// expressions), from the aliases of the parent and of the child.
    var onCondition: (@Sendable (AliasIdentity, AliasIdentity) -> SQLExpression)?

    init(kind: Kind, isSelected: Bool, relation: SQLRelation,
         condition: @escaping @Sendable (Database) throws -> [(parent: String, child: String)],
         prefetch: PrefetchFunction?)
    {
        self.kind = kind
        self.isSelected = isSelected
        self.relation = relation
        self.condition = condition
        self.prefetch = prefetch
    }
}
