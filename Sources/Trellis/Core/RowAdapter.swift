/// A view on the columns of fetched rows: a subset of the columns, renamed
/// columns, or scopes that split a joined row into the rows of each table,
/// for `init(row:)` and Decodable records to read.
///
/// ```swift
/// // SELECT player.*, team.* FROM player JOIN team ON ...
/// let adapters = splittingRowAdapters(columnCounts: [playerColumnCount, teamColumnCount])
/// let adapter = ScopeAdapter(base: adapters[0], scopes: ["team": adapters[1]])
/// let rows = try Row.fetchAll(db, sql: sql, adapter: adapter)
/// rows[0]["name"]                 // a column of player
/// rows[0].scopes["team"]?["name"] // a column of team
/// ```
///
/// Adapted rows are copies of the fetched rows.
public protocol RowAdapter: Sendable {
    /// The columns of the adapted row, from the names of the fetched
    /// columns. You do not call it: adapters are given to fetch methods.
    func _adaptation(columnNames: [String]) throws -> RowAdaptation
}

/// The columns an adapter takes from fetched rows, under which names, and
/// its scopes.
public struct RowAdaptation: Sendable {
    /// Indexes into the fetched columns, with the names they take.
    let columns: [(index: Int, name: String)]
    /// Named scopes, in order.
    let scopes: [(key: String, adaptation: RowAdaptation)]

    // The adapted row, computed once per statement: the fetched columns it
    // copies, in order (the row's, then its scopes'), their names, and the
    // layout of its scopes.
    private let copiedIndexes: [Int]
    private let copiedNames: [String]
    private let layout: RowLayout?

    init(columns: [(index: Int, name: String)], scopes: [(key: String, adaptation: RowAdaptation)] = []) {
        self.columns = columns
        self.scopes = scopes
        var indexes = columns.map(\.index)
        var names = columns.map(\.name)
        var layoutScopes: [RowLayout.Scope] = []
        for (key, adaptation) in scopes {
            let lowerBound = indexes.count
            indexes += adaptation.copiedIndexes
            names += adaptation.copiedNames
            layoutScopes.append((key, lowerBound..<(lowerBound + adaptation.columns.count), adaptation.layout))
        }
        copiedIndexes = indexes
        copiedNames = names
        layout = layoutScopes.isEmpty ? nil : RowLayout(scopes: layoutScopes)
    }

    /// This adaptation of the columns of `inner`'s adapted row, as an
    /// adaptation of the fetched row: the adapter of a request adapted
    /// twice applies to the row the first one made, as in GRDB.
    func composed(after inner: RowAdaptation) -> RowAdaptation {
        mapped(through: inner.columns.map(\.index))
    }

    private func mapped(through indexes: [Int]) -> RowAdaptation {
        RowAdaptation(
            columns: columns.map { (index: indexes[$0.index], name: $0.name) },
            scopes: scopes.map { (key: $0.key, adaptation: $0.adaptation.mapped(through: indexes)) })
    }

    /// The adapted copy of `row`.
    @usableFromInline
    func adapt(_ row: Row) -> Row {
        let values = copiedIndexes.map { row.databaseValue(atIndex: $0) }
        let adapted = Row(statement: nil, values: values, names: copiedNames, offset: 0, count: columns.count, layout: layout, parent: nil)
        adapted.adaptedRow = row.copy()
        return adapted
    }
}

/// An adapter of no column.
public struct EmptyRowAdapter: RowAdapter {
    public init() {}

    public func _adaptation(columnNames: [String]) throws -> RowAdaptation {
        RowAdaptation(columns: [])
    }
}

/// An adapter that renames columns: its keys are the names of the adapted
/// row, its values the names of fetched columns.
///
/// ```swift
/// let adapter = ColumnMapping(["consumed": "produced"])
/// let row = try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: adapter)!
/// row["consumed"] // "Hello"
/// ```
public struct ColumnMapping: RowAdapter {
    public let mapping: [String: String]

    public init(_ mapping: [String: String]) {
        self.mapping = mapping
    }

    public func _adaptation(columnNames: [String]) throws -> RowAdaptation {
        let lowercased = columnNames.map { $0.lowercased() }
        let columns = try mapping.map { name, column -> (index: Int, name: String) in
            guard let index = columnNames.firstIndex(of: column) ?? lowercased.firstIndex(of: column.lowercased()) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "ColumnMapping: no column \(column) in [\(columnNames.joined(separator: ", "))]")
            }
            return (index, name)
        }
        return RowAdaptation(columns: columns.sorted { ($0.index, $0.name) < ($1.index, $1.name) })
    }
}

/// An adapter that renames every column with a function.
///
/// ```swift
/// let adapter = RenameColumnAdapter { $0.replacingOccurrences(of: "player_", with: "") }
/// ```
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    public func _adaptation(columnNames: [String]) throws -> RowAdaptation {
        RowAdaptation(columns: columnNames.enumerated().map { ($0.offset, transform($0.element)) })
    }
}

/// An adapter of the columns from an index to the last.
public struct SuffixRowAdapter: RowAdapter {
    public let index: Int

    public init(fromIndex index: Int) {
        self.index = index
    }

    public func _adaptation(columnNames: [String]) throws -> RowAdaptation {
        try RangeRowAdapter(index..<max(index, columnNames.count))._adaptation(columnNames: columnNames)
    }
}

/// An adapter of a range of columns.
public struct RangeRowAdapter: RowAdapter {
    public let range: Range<Int>

    public init(_ range: Range<Int>) {
        self.range = range
    }

    public init(_ range: ClosedRange<Int>) {
        // A range that ends at Int.max can not include its upper bound:
        // it reaches past any row, which `_adaptation` reports.
        self.range = range.lowerBound..<(range.upperBound == Int.max ? Int.max : range.upperBound + 1)
    }

    public func _adaptation(columnNames: [String]) throws -> RowAdaptation {
        guard range.lowerBound >= 0, range.upperBound <= columnNames.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "RangeRowAdapter: columns \(range) out of a row of \(columnNames.count) columns")
        }
        return RowAdaptation(columns: range.map { ($0, columnNames[$0]) })
    }
}

/// An adapter that defines scopes: named rows, read with `row.scopes`
/// and by Decodable records from properties of the same name.
///
/// ```swift
/// let adapter = ScopeAdapter(["player": RangeRowAdapter(0..<3), "team": SuffixRowAdapter(fromIndex: 3)])
/// ```
public struct ScopeAdapter: RowAdapter {
    let base: any RowAdapter
    let scopes: [String: any RowAdapter]

    /// The scopes, on top of all the fetched columns.
    public init(_ scopes: [String: any RowAdapter]) {
        self.init(base: RenameColumnAdapter { $0 }, scopes: scopes)
    }

    /// The scopes, on top of the columns of `base`.
    public init(base: any RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    public func _adaptation(columnNames: [String]) throws -> RowAdaptation {
        let base = try self.base._adaptation(columnNames: columnNames)
        let scopes = try self.scopes.sorted { $0.key < $1.key }.map { key, adapter in
            (key: key, adaptation: try adapter._adaptation(columnNames: columnNames))
        }
        // A scope of the base with the name of a new one gives way to it.
        let kept = base.scopes.filter { scope in !scopes.contains { $0.key == scope.key } }
        return RowAdaptation(columns: base.columns, scopes: kept + scopes)
    }
}

extension RowAdapter {
    /// This adapter, with more scopes: a scope of the same name as one of
    /// this adapter's replaces it.
    ///
    /// ```swift
    /// let adapter = RangeRowAdapter(0..<2).addingScopes(["team": SuffixRowAdapter(fromIndex: 2)])
    /// ```
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        ScopeAdapter(base: self, scopes: scopes)
    }
}

/// Adapters that split joined rows into consecutive runs of columns: one
/// adapter per count, and one for the columns after them.
///
/// ```swift
/// // SELECT player.*, team.* FROM ...
/// let adapters = splittingRowAdapters(columnCounts: [playerColumnCount])
/// let adapter = ScopeAdapter(base: adapters[0], scopes: ["team": adapters[1]])
/// ```
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    var adapters: [any RowAdapter] = []
    var start = 0
    for count in columnCounts {
        // Counts past Int.max reach past any row, which the adapters report.
        let (end, overflow) = start.addingReportingOverflow(max(0, count))
        let next = overflow ? Int.max : end
        adapters.append(RangeRowAdapter(start..<next))
        start = next
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}

/// A request whose fetched rows go through a row adapter: see
/// ``FetchRequest/adapted(_:)``.
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    public var sqlSubquery: SQLSubquery { base.sqlSubquery }

    /// Compiles the base request, and adapts its rows.
    ///
    /// - Throws: A ``DatabaseError`` if the base request cannot be compiled, or
    ///   if the adapter names a column that the rows do not have.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        var prepared = try base.makePreparedRequest(db, forSingleResult: singleResult)
        let adapter = try adapter(db)
        if let inner = prepared.adaptation {
            // Adapted twice: the adapter sees the row of the first one.
            let names = inner.columns.map(\.name)
            prepared.adaptation = try adapter._adaptation(columnNames: names).composed(after: inner)
        } else if let layout = prepared.layout {
            // A joined row: the adapter sees the columns of the row, not
            // those of its scopes.
            let names = Array(prepared.statement.columnNames.prefix(layout.baseCount ?? prepared.statement.columnCount))
            prepared.adaptation = try adapter._adaptation(columnNames: names)
        } else {
            prepared.adaptation = try adapter._adaptation(columnNames: prepared.statement.columnNames)
        }
        return prepared
    }

    /// The number of rows of the base request.
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails.
    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }
}

extension FetchRequest {
    /// The request, with its rows adapted by the adapter that `adapter`
    /// makes from the database.
    ///
    /// ```swift
    /// let request = SQLRequest<BookInfo>(sql: "SELECT book.*, author.* FROM book JOIN author ON ...")
    ///     .adapted { db in
    ///         let adapters = try splittingRowAdapters(columnCounts: [db.columns(in: "book").count])
    ///         return ScopeAdapter(base: adapters[0], scopes: ["author": adapters[1]])
    ///     }
    /// ```
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self> {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}
