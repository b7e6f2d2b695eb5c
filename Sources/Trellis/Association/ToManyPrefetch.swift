/// Fetches the records of a to-many association for a set of parent rows
/// with one query (`WHERE fk IN (...)`), and stores them, in the order of
/// the association, in the `prefetchedRows` of each parent.
///
/// The query starts from the associated table and joins the intermediate
/// tables of a `through` association back towards the parent table. It
/// selects the link columns under `grdb_` names to group the rows. A limit
/// on the association is a limit per parent, applied with `ROW_NUMBER()`.
struct ToManyPrefetch: Sendable {
    let hops: [AssociationHop]

    /// The number of parent keys bound in one query, under SQLite's
    /// default limit of bound parameters.
    private static let chunkSize = 30_000

    func run(_ db: Database, parentRows: [Row], key: String) throws {
        let firstPairs = try hops[0].columnPairs(db)
        let parentColumns = firstPairs.map(\.parent)
        var parentKeys: [[DatabaseValue]?] = []
        parentKeys.reserveCapacity(parentRows.count)
        var distinctKeys: [[DatabaseValue]] = []
        var seen = Set<[DatabaseValue]>()
        for row in parentRows {
            var values: [DatabaseValue] = []
            for column in parentColumns {
                guard let value = row[column] as DatabaseValue?, !value.isNull else { break }
                values.append(value)
            }
            // A NULL in the link matches no row, as in SQLite.
            guard values.count == parentColumns.count else {
                parentKeys.append(nil)
                continue
            }
            parentKeys.append(values)
            if seen.insert(values).inserted { distinctKeys.append(values) }
        }
        var groups: [[DatabaseValue]: [Row]] = [:]
        var start = 0
        while start < distinctKeys.count {
            let chunk = Array(distinctKeys[start..<min(start + Self.chunkSize / max(1, parentColumns.count), distinctKeys.count)])
            start += chunk.count
            try fetch(db, keys: chunk, linkColumns: firstPairs.map(\.child), into: &groups)
        }
        for (row, keyValues) in zip(parentRows, parentKeys) {
            row.prefetched[key] = keyValues.flatMap { groups[$0] } ?? []
        }
    }

    private func fetch(_ db: Database, keys: [[DatabaseValue]], linkColumns: [String], into groups: inout [[DatabaseValue]: [Row]]) throws {
        // The associated table, with the intermediate tables joined back.
        var relation = AssociationImpl.reversedRelation(hops)
        let limit = relation.limit
        relation.limit = nil
        let linkAlias = hops[0].relation.alias
        let linkExpressions = linkColumns.map { SQLExpression(.column($0, linkAlias)) }

        // WHERE link IN (keys)
        let condition: SQLExpression
        if linkExpressions.count == 1 {
            condition = SQLExpression(.inList(linkExpressions[0], keys.map { .value($0[0]) }, negated: false))
        } else {
            condition = SQLExpression(.associative("OR", keys.map { values in
                SQLQueryGenerator.conjunction(zip(linkExpressions, values).map { $0 == $1 })
            }))
        }
        relation.filters.append(condition)
        // Groups never span two parents.
        if !relation.groupBy.isEmpty {
            relation.groupBy += linkExpressions
        }
        let keySelections = linkExpressions.enumerated().map { SQLSelection.expression($1, alias: "grdb_link\($0)") }
        relation.selection = relation.selection + keySelections

        var wrap: ((String) -> String)?
        if let limit {
            var partition: [SQL.Element] = [.sql("ROW_NUMBER() OVER (PARTITION BY ", StatementArguments())]
            for (index, expression) in linkExpressions.enumerated() {
                if index > 0 { partition.append(.sql(", ", StatementArguments())) }
                partition.append(.expression(expression))
            }
            let orderings = relation.orderingsWithJoins
            if !orderings.isEmpty {
                partition.append(.sql(" ORDER BY ", StatementArguments()))
                for (index, ordering) in orderings.enumerated() {
                    if index > 0 { partition.append(.sql(", ", StatementArguments())) }
                    partition.append(.ordering(ordering))
                }
            }
            partition.append(.sql(")", StatementArguments()))
            relation.selection.append(.expression(.literal(SQL(elements: partition)), alias: "grdb_rank"))
            let lower = limit.offset ?? 0
            wrap = { sql in
                "SELECT * FROM (\(sql)) WHERE \"grdb_rank\" > \(lower) AND \"grdb_rank\" <= \(lower + limit.count) ORDER BY \"grdb_rank\""
            }
        }

        let generator = SQLQueryGenerator(relation: relation)
        let prepared = try generator.makePreparedRequest(db, singleResult: false, wrap: wrap)
        let rows = try db.fetchAll(prepared) { $0.copy() }
        guard let first = rows.first else { return }
        let names = first.columnNames
        let positions = (0..<linkExpressions.count).compactMap { names.firstIndex(of: "grdb_link\($0)") }
        for row in rows {
            groups[positions.map { row.databaseValue(atIndex: $0) }, default: []].append(row)
        }
    }
}
