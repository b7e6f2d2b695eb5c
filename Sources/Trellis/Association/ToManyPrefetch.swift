/// Fetches the records of a to-many association for a set of parent rows
/// with one query (`WHERE fk IN (...)`), and stores them, in the order of
/// the association, in the `prefetchedRows` of each parent.
///
/// The query starts from the associated table and joins the intermediate
/// tables of a `through` association back towards the parent table. It
/// selects the link columns under `grdb_` names to group the rows. A limit
/// on the association is a limit per parent, applied with `ROW_NUMBER()`.
struct ToManyPrefetch: Sendable {
    private(set) var hops: [AssociationHop]

    /// The number of parent keys bound in one query, under SQLite's
    /// default limit of bound parameters.
    private static let chunkSize = 30_000

    /// Prefetches for `parentRows` under `key`; `relation` is the relation
    /// of the associated table in the request, merged with the other
    /// `including(all:)` of the association under the same key.
    /// `recordsDecoder`, if any, decodes the records that the parents'
    /// record type reads from the rows, as the rows come.
    func run(_ db: Database, parentRows: [Row], key: String, relation: SQLRelation,
             recordsDecoder: _PrefetchedRecordsDecoder?) throws
    {
        var prefetch = self
        prefetch.hops[hops.count - 1].relation = relation
        try prefetch.run(db, parentRows: parentRows, key: key, recordsDecoder: recordsDecoder)
    }

    private func run(_ db: Database, parentRows: [Row], key: String, recordsDecoder: _PrefetchedRecordsDecoder?) throws {
        let firstPairs = try hops[0].columnPairs(db)
        // The rows of one request have the same columns: a link column
        // that the request does not select would leave every parent
        // without associated records.
        if let row = parentRows.first, let missing = firstPairs.first(where: { !row.hasColumn($0.parent) }) {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "including(all:) of \(key) needs the column \(missing.parent) of \(hops[0].originTable), "
                    + "which the request does not select")
        }
        // One link column, the common case, groups rows by a single value:
        // no array is built per row.
        if firstPairs.count == 1 {
            let parentColumn = firstPairs[0].parent
            try run(db, parentRows: parentRows, key: key, recordsDecoder: recordsDecoder, linkColumns: [firstPairs[0].child],
                    parentKey: { row in row.index(ofColumn: parentColumn).flatMap { index in
                        let value = row.databaseValue(atIndex: index)
                        return value.isNull ? nil : value
                    } },
                    bindings: { [$0] }, childKey: { row, positions in row.databaseValue(atIndex: positions[0]) },
                    looseKey: { $0.looseComparisonKey })
        } else {
            let parentColumns = firstPairs.map(\.parent)
            try run(db, parentRows: parentRows, key: key, recordsDecoder: recordsDecoder, linkColumns: firstPairs.map(\.child),
                    parentKey: { row in
                        var values: [DatabaseValue] = []
                        for column in parentColumns {
                            guard let value = row[column] as DatabaseValue?, !value.isNull else { return nil }
                            values.append(value)
                        }
                        return values
                    },
                    bindings: { $0 }, childKey: { row, positions in positions.map { row.databaseValue(atIndex: $0) } },
                    looseKey: { $0.map(\.looseComparisonKey) })
        }
    }

    /// Fetches the associated rows of the parents, grouped by link value:
    /// `parentKey` reads the link of a parent (nil when NULL, which matches
    /// no row, as in SQLite), `bindings` turns a link into the values a
    /// query compares, and `childKey` reads the link of an associated row
    /// at the positions of its link columns. `looseKey` gives the link as
    /// SQLite's comparisons may match it after a conversion.
    private func run<LinkKey: Hashable>(
        _ db: Database, parentRows: [Row], key: String, recordsDecoder: _PrefetchedRecordsDecoder?, linkColumns: [String],
        parentKey: (Row) -> LinkKey?, bindings: (LinkKey) -> [DatabaseValue],
        childKey: (Row, [Int]) -> LinkKey, looseKey: (LinkKey) -> LinkKey) throws
    {
        // Each distinct link has a group of rows; parents share groups.
        var groupIndexes: [LinkKey: Int] = [:]
        var distinctKeys: [LinkKey] = []
        var parentGroups: [Int?] = []
        parentGroups.reserveCapacity(parentRows.count)
        for row in parentRows {
            guard let link = parentKey(row) else {
                parentGroups.append(nil)
                continue
            }
            if let index = groupIndexes[link] {
                parentGroups.append(index)
            } else {
                groupIndexes[link] = distinctKeys.count
                parentGroups.append(distinctKeys.count)
                distinctKeys.append(link)
            }
        }
        let recordGroups = recordsDecoder?.makeGroups(distinctKeys.count)
        let groups = PrefetchGroups<LinkKey>(count: distinctKeys.count, records: recordGroups)
        let keysPerQuery = Self.chunkSize / max(1, linkColumns.count)
        var start = 0
        // A row that SQLite matched (with a collation Trellis does not
        // know, such as RTRIM or an application's) but that no parent's
        // key equals, even loosely: an error rather than a row left out.
        var unmatchedLink: LinkKey?
        while start < distinctKeys.count {
            let end = min(start + keysPerQuery, distinctKeys.count)
            groups.previous = nil
            try fetch(db, keys: distinctKeys[start..<end].map(bindings), linkColumns: linkColumns,
                      recordGroups: recordGroups) { row, positions, storage in
                let link = childKey(row, positions)
                let index: Int
                if let previous = groups.previous, previous.link == link {
                    index = previous.index
                } else if let linkIndex = groupIndexes[link] {
                    index = linkIndex
                    groups.previous = (link, index)
                } else {
                    // SQLite matched the row after a conversion: the text
                    // '42' of an untyped column equals the integer 42 of a
                    // numeric key, 'Ann' equals 'ann' in a NOCASE column.
                    // The row goes to the parents whose link compares the
                    // same way, as a join would give it to them.
                    if groups.looseGroups == nil {
                        var looseGroups: [LinkKey: [Int]] = [:]
                        for (index, key) in distinctKeys.enumerated() { looseGroups[looseKey(key), default: []].append(index) }
                        groups.looseGroups = looseGroups
                    }
                    let indexes = groups.looseGroups?[looseKey(link)] ?? []
                    if indexes.isEmpty, unmatchedLink == nil { unmatchedLink = link }
                    for index in indexes { try groups.add(row, to: index, storage: storage) }
                    return
                }
                try groups.add(row, to: index, storage: storage)
            }
            start = end
        }
        if let unmatchedLink {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "including(all:) of \(key): SQLite matched an associated row whose link \(unmatchedLink) equals "
                    + "no parent's key as Trellis compares them (a collation other than BINARY or NOCASE): "
                    + "fetch the associated rows with a request of their own")
        }
        let prefetched = groups.prefetchedRows()
        let noRows = PrefetchedRows([])
        for (row, group) in zip(parentRows, parentGroups) {
            row.prefetched[key] = group.map { prefetched[$0] } ?? noRows
        }
    }

    /// The parent table and column of a single-column link, when SQLite
    /// compares the link column with another affinity than that column
    /// (numeric, text, or none); nil when they compare alike.
    private func parentOfOtherAffinity(_ db: Database, linkColumn: String) throws -> (table: String, column: String)? {
        guard !db.usesServer, hops[0].onCondition == nil, let pair = try hops[0].columnPairs(db).first else { return nil }
        let parentTable = hops[0].originTable
        let childTable = hops[0].destinationTable
        func comparisonClass(_ table: String, _ column: String) throws -> Int? {
            guard let info = try db.columns(in: table).first(where: { $0.name.lowercased() == column.lowercased() }) else {
                return nil
            }
            let type = info.type.uppercased()
            if type.contains("INT") { return 0 }
            if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return 1 }
            if type.contains("BLOB") || type.isEmpty { return 2 }
            return 0  // REAL and NUMERIC compare as numbers, as INTEGER.
        }
        guard let parentClass = try comparisonClass(parentTable, pair.parent),
              let childClass = try comparisonClass(childTable, linkColumn),
              parentClass != childClass
        else { return nil }
        return (parentTable, pair.parent)
    }

    /// Runs the query of the associated rows for `keys`, and gives each
    /// row, with the positions of its link columns, to `receive`, with
    /// where to keep it: as records in `recordGroups`, if any, when the
    /// rows have no prefetched rows in turn; else in one batch of copies,
    /// unless they have prefetched rows in turn (each is then a copied row
    /// of its own).
    private func fetch(_ db: Database, keys: [[DatabaseValue]], linkColumns: [String], recordGroups: PrefetchedRecordGroups?,
                       receive: (Row, [Int], PrefetchStorage) throws -> Void) throws
    {
        // The associated table, with the intermediate tables joined back.
        var relation = AssociationImpl.reversedRelation(hops)
        let limit = relation.limit
        relation.limit = nil
        let linkAlias = hops[0].relation.alias
        // The link columns compare with the collation of the key they
        // reference (a NOCASE parent key matches 'AB' and 'ab').
        let collations = try hops[0].keyCollations(db)
        let linkExpressions = linkColumns.enumerated().map { index, column in
            let expression = SQLExpression(.column(column, linkAlias))
            guard index < collations.count, let collation = collations[index] else { return expression }
            return SQLExpression(.collated(expression, collation))
        }

        // WHERE link IN (keys)
        let condition: SQLExpression
        if linkExpressions.count == 1, let parent = try parentOfOtherAffinity(db, linkColumn: linkColumns[0]) {
            // The link column compares with another affinity than the
            // parent key: an untyped `messageId` holds the text '42' that
            // a join finds equal to the integer 42 of a STRING key, and
            // that the bound 42 does not match. The parents' own column
            // compares as the join does.
            var elements: [SQL.Element] = [
                .expression(linkExpressions[0]), .sql(" IN (SELECT ", StatementArguments()), .identifier(parent.column),
                .sql(" FROM ", StatementArguments()), .identifier(parent.table), .sql(" WHERE ", StatementArguments()),
                .identifier(parent.column), .sql(" IN (", StatementArguments()),
            ]
            for (index, values) in keys.enumerated() {
                if index > 0 { elements.append(.sql(", ", StatementArguments())) }
                elements.append(.expression(SQLExpression(.value(values[0]))))
            }
            elements.append(.sql("))", StatementArguments()))
            condition = SQLExpression(.literal(SQL(elements: elements)))
        } else if linkExpressions.count == 1 {
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
        // Named as in GRDB: the rows keep these columns.
        let linkAliases = linkColumns.map { "grdb_" + $0 }
        let keySelections = zip(linkExpressions, linkAliases).map { SQLSelection.expression($0, alias: $1) }
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
            // A limit that reaches past Int.max has no upper bound.
            let (sum, overflow) = lower.addingReportingOverflow(limit.count)
            let upper = overflow ? Int.max : sum
            let subqueryName = db.dialect.subqueryName("trellis_ranked")
            wrap = { sql in
                "SELECT * FROM (\(sql))\(subqueryName) WHERE \"grdb_rank\" > \(lower) AND \"grdb_rank\" <= \(upper) ORDER BY \"grdb_rank\""
            }
        }

        let generator = SQLQueryGenerator(relation: relation)
        let prepared = try generator.makePreparedRequest(db, singleResult: false, wrap: wrap)
        let names = prepared.statement.columnNames
        // The link columns follow the selection of the associated table.
        let positions = linkAliases.compactMap { alias in names.lastIndex(of: alias) }
        let storage: PrefetchStorage
        if prepared.supplementaryFetch != nil || prepared.withoutAdaptation != nil {
            storage = .copies
        } else if let recordGroups {
            storage = .records(recordGroups)
        } else {
            storage = .batch(RowBatch(statement: prepared.statement, layout: prepared.layout))
        }
        _ = try db.fetchAll(prepared) { row in try receive(row, positions, storage) }
    }
}

/// Where a to-many prefetch keeps the rows of its query.
private enum PrefetchStorage {
    /// Rows of their own: rows with prefetched rows in turn.
    case copies
    /// Copies in the batch of the query.
    case batch(RowBatch)
    /// The records that the record type of the parents reads from them
    /// (see `_PrefetchedRecordsDecoding`), in their groups.
    case records(PrefetchedRecordGroups)
}

/// The rows of the groups of a to-many prefetch, as its query gives them:
/// copied rows when they have prefetched rows in turn, the records decoded
/// from them when the parents' record type asks for them, else positions in
/// the batch of the query.
///
/// Only the prefetch that fills them touches them, on the connection's
/// thread: the closure that receives the rows does not check its accesses
/// at run time, as it would for variables it captured (the check costs
/// more than the grouping of a row).
private final class PrefetchGroups<LinkKey: Hashable> {
    @exclusivity(unchecked) private var rows: [[Row]]
    @exclusivity(unchecked) private var positions: [[Int]]
    @exclusivity(unchecked) private var batches: [RowBatch?]
    /// The records of the groups, when the parents' record type decodes
    /// them as the rows come (unless they have prefetched rows in turn).
    private let records: PrefetchedRecordGroups?
    /// Whether the rows were decoded as records.
    @exclusivity(unchecked) private var decodedRecords = false
    /// The link and group of the previous row: rows usually come grouped
    /// by link (the link's index orders them), and the group of the
    /// previous row is checked first, without hashing.
    @exclusivity(unchecked) var previous: (link: LinkKey, index: Int)?
    /// The groups of the parents by loose link, built on the first row
    /// that SQLite matched with a conversion.
    @exclusivity(unchecked) var looseGroups: [LinkKey: [Int]]?

    init(count: Int, records: PrefetchedRecordGroups?) {
        rows = Array(repeating: [], count: count)
        positions = Array(repeating: [], count: count)
        batches = Array(repeating: nil, count: count)
        self.records = records
    }

    func add(_ row: Row, to index: Int, storage: PrefetchStorage) throws {
        switch storage {
        case .batch(let batch):
            positions[index].append(batch.append(row))
            batches[index] = batch
        case .records(let records):
            try records.add(row, index)
            decodedRecords = true
        case .copies:
            rows[index].append(row.copy())
        }
    }

    /// The rows of each group.
    func prefetchedRows() -> [PrefetchedRows] {
        if let records, decodedRecords {
            return rows.indices.map(records.prefetchedRows)
        }
        return rows.indices.map { index in
            batches[index].map { PrefetchedRows(batch: $0, positions: positions[index]) } ?? PrefetchedRows(rows[index])
        }
    }
}
