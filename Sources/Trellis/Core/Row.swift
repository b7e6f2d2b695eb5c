import Foundation
import TrellisSQLite

/// A database row: column names and values.
///
/// Rows come from fetch requests, or from dictionary literals:
///
/// ```swift
/// let rows = try Row.fetchAll(db, sql: "SELECT id, name FROM player")
/// for row in rows {
///     let id: Int64 = row["id"]      // lookup is case-insensitive
///     let name: String = row[1]      // by index, leftmost is 0
///     let nickname: String? = row["nickname"] // nil if NULL or missing
/// }
///
/// let row: Row = ["id": 1, "name": "Arthur"]
/// ```
///
/// A row given by a cursor reflects the cursor's current position: copy it
/// with ``copy()`` to keep it.
public final class Row {
    /// The statement whose current row this row reads, if any.
    @usableFromInline
    let statement: Statement?

    /// The same statement, read without reference counting on the hot
    /// paths: `statement` keeps it alive, or, for the reusable row of a
    /// statement, the statement detaches the row before it goes away (see
    /// ``detach(from:)``).
    @usableFromInline @exclusivity(unchecked)
    unowned(unsafe) var unretainedStatement: Statement?

    /// The SQLite handle of `statement`.
    @usableFromInline @exclusivity(unchecked)
    var sqliteStatement: SQLiteStatement?

    /// The column lookup memo of `statement` or `batch`, kept alive by them.
    @usableFromInline @exclusivity(unchecked)
    var columnLookup: Unmanaged<ColumnLookup>?

    /// The rows that this one was copied with, if any: see ``RowBatch``.
    @usableFromInline
    let batch: RowBatch?

    /// The values of a copied row (all columns of the base row), or of all
    /// the rows of its batch.
    @usableFromInline @exclusivity(unchecked)
    var storedValues: [DatabaseValue]

    /// The position in `storedValues` of the value of the first column.
    ///
    /// It moves when a decoding loop steps a row through the rows of its
    /// batch (see ``PrefetchedRows``); a row handed out is never moved.
    @usableFromInline @exclusivity(unchecked) var valuesOffset: Int

    /// The names of the columns of a copied row (all columns of the base row).
    @usableFromInline @exclusivity(unchecked)
    var storedNames: [String]

    /// The first base column of this row: scoped rows are windows over
    /// their base row.
    @usableFromInline
    let offset: Int

    /// The number of columns.
    public let count: Int

    /// The scopes defined on the row, by key.
    let layout: RowLayout?

    /// Rows fetched by to-many associations, by key.
    ///
    /// Prefetches fill it on the connection's thread, before the row is
    /// handed out: accesses are never concurrent, and are not checked at
    /// run time (each check costs as much as a small copy of a row).
    @usableFromInline @exclusivity(unchecked) var prefetched: [String: PrefetchedRows]

    /// Rows fetched by to-many associations of joined to-one associations,
    /// by scope and key: the root row keeps them, since scope rows are made
    /// on demand. Filled and checked as `prefetched` is.
    @exclusivity(unchecked) var scopePrefetched: [ScopeColumns: [String: PrefetchedRows]] = [:]

    /// The columns of a scope in the values that the root row reads.
    struct ScopeColumns: Hashable {
        let offset: Int
        let count: Int
    }

    /// What a fetch reuses while it steps through the rows of this
    /// statement row: see ``beginReuse()``. Nil when nothing is reused.
    @usableFromInline @exclusivity(unchecked) private(set) var reuse: RowReuse?

    /// The fetched row that a ``RowAdapter`` made this row from: see
    /// ``unadapted``.
    @exclusivity(unchecked) var adaptedRow: Row?

    /// The row this one is a scope of; decoding errors are reported to
    /// the root.
    private let parent: Row?

    /// The row that all scopes of this row are windows of.
    var root: Row { parent?.root ?? self }

    /// The columns of this row in the values that its root reads.
    var columnsInRoot: ScopeColumns { ScopeColumns(offset: offset, count: count) }

    /// The number of columns that the row and its scopes read: more than
    /// `count` for a joined row, whose scopes follow its own columns.
    @usableFromInline
    var width: Int { Swift.max(count, layout?.width ?? 0) }

    /// A failure of a non-throwing accessor, thrown by the fetch that
    /// decodes the row.
    @usableFromInline @exclusivity(unchecked) var recordedDecodingError: (any Error)?

    @usableFromInline
    init(statement: Statement?, values: [DatabaseValue], names: [String], offset: Int, count: Int,
         layout: RowLayout?, prefetched: [String: PrefetchedRows] = [:], parent: Row?, retainsStatement: Bool = true,
         batch: RowBatch? = nil, valuesOffset: Int? = nil)
    {
        self.statement = retainsStatement ? statement : nil
        self.unretainedStatement = statement
        self.sqliteStatement = statement?.sqliteStatement
        if let statement {
            self.columnLookup = Unmanaged.passUnretained(statement.columnLookup)
        } else {
            self.columnLookup = batch.map { Unmanaged.passUnretained($0.columnLookup) }
        }
        self.batch = batch
        self.storedValues = values
        self.storedNames = names
        self.offset = offset
        self.valuesOffset = valuesOffset ?? offset
        self.count = count
        self.layout = layout
        self.prefetched = prefetched
        self.parent = parent
    }

    /// A row that reads the current row of a statement, without copying.
    @usableFromInline
    convenience init(statement: Statement, layout: RowLayout? = nil) {
        // A joined row has the columns of its table; its scopes read the
        // columns after them, as in GRDB.
        self.init(statement: statement, values: [], names: [], offset: 0, count: layout?.baseCount ?? statement.columnCount,
                  layout: layout, parent: nil)
    }

    /// Cuts the reusable row of `statement` off the statement, which goes
    /// away while a caller still holds the row (kept from `init(row:)`
    /// without ``copy()``): the row keeps its column names and reads NULL,
    /// where it would read freed memory.
    func detach(from statement: Statement) {
        storedNames = statement.columnNames
        storedValues = Array(repeating: .null, count: storedNames.count)
        valuesOffset = 0
        columnLookup = nil
        unretainedStatement = nil
        sqliteStatement = nil
    }

    /// The row that a statement reuses for the fetches that decode one row
    /// at a time: it does not retain the statement, which owns it.
    convenience init(reusableBy statement: Statement) {
        self.init(statement: statement, values: [], names: [], offset: 0, count: statement.columnCount,
                  layout: nil, parent: nil, retainsStatement: false)
    }

    /// An empty row.
    public convenience init() {
        self.init(statement: nil, values: [], names: [], offset: 0, count: 0, layout: nil, parent: nil)
    }

    /// A row with the given columns, in the dictionary's order.
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        let pairs = dictionary.sorted { $0.key < $1.key }
        self.init(statement: nil, values: pairs.map { $0.value?.databaseValue ?? .null },
                  names: pairs.map(\.key), offset: 0, count: pairs.count, layout: nil, parent: nil)
    }

    /// A row from a dictionary of values of unknown types, such as decoded
    /// JSON; nil when a key is not a string or a value is not a database
    /// value.
    ///
    /// ```swift
    /// let payload: [AnyHashable: Any] = ["name": "Arthur", "score": 1000]
    /// if let row = Row(payload) { let player = try Player(row: row) }
    /// ```
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var columns: [(String, DatabaseValue)] = []
        for (key, element) in dictionary {
            guard let name = key.base as? String, let value = DatabaseValue(anyValue: element) else { return nil }
            columns.append((name, value))
        }
        columns.sort { $0.0 < $1.0 }
        self.init(columns: columns)
    }

    /// A row with the given columns, in order.
    public convenience init(columns: [(String, DatabaseValue)]) {
        self.init(statement: nil, values: columns.map(\.1), names: columns.map(\.0), offset: 0,
                  count: columns.count, layout: nil, parent: nil)
    }

    /// A copy of the row that no longer depends on a cursor.
    public func copy() -> Row {
        if unretainedStatement == nil && parent == nil {
            guard let reuse, reuse.stepsThroughBatch else { return self }
            // The row of a fetch that steps through a batch moves on: the
            // copy stays on the current row of the batch, as its own rows do.
            let copied = Row(statement: nil, values: storedValues, names: storedNames, offset: offset, count: count,
                             layout: layout, prefetched: prefetched, parent: nil, batch: batch, valuesOffset: valuesOffset)
            copied.adaptedRow = adaptedRow
            copied.scopePrefetched = scopePrefetched
            return copied
        }
        // The columns of the scopes too, which follow the row's own.
        let width = self.width
        let names = unretainedStatement?.columnNames ?? storedNames
        let copiedNames = offset == 0 && width == names.count ? names : Array(names[offset..<(offset + width)])
        var values: [DatabaseValue] = []
        values.reserveCapacity(width)
        for index in 0..<width {
            values.append(databaseValue(atIndex: index))
        }
        let copied = Row(statement: nil, values: values, names: copiedNames, offset: 0, count: count,
                         layout: layout, prefetched: prefetched, parent: nil)
        copied.adaptedRow = root.adaptedRow
        // The prefetched rows of the scopes inside this row, rebased.
        let scopePrefetched = root.scopePrefetched
        if scopePrefetched.isEmpty { return copied }
        for (columns, rows) in scopePrefetched
        where columns.offset >= offset && columns.offset + columns.count <= offset + width && columns != columnsInRoot {
            copied.scopePrefetched[ScopeColumns(offset: columns.offset - offset, count: columns.count)] = rows
        }
        return copied
    }

    /// The names of the columns, from left to right.
    public var columnNames: [String] {
        // A whole row shares its names with its statement, or with the
        // other copies of its rows.
        let names = unretainedStatement?.columnNames ?? storedNames
        if offset == 0 && count == names.count { return names }
        return Array(names[offset..<(offset + count)])
    }

    /// The values of the columns, from left to right.
    public var databaseValues: [DatabaseValue] {
        // A loop into reserved storage: `map` over the range grows the
        // array as it goes, which a copy of each row would pay for.
        var values: [DatabaseValue] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            values.append(databaseValue(atIndex: index))
        }
        return values
    }

    /// Whether the row has a column named `name` (case-insensitive).
    public func hasColumn(_ name: String) -> Bool {
        index(ofColumn: name) != nil
    }

    /// Whether the value at `index` is NULL (an index out of range reads as
    /// NULL).
    @inlinable
    public func hasNull(atIndex index: Int) -> Bool {
        if let sqliteStatement {
            // Asks for the type only: reading the value would copy text and
            // blobs. SQLite reads a column out of range as NULL.
            return sqlite3_column_type(sqliteStatement, CInt(clamping: offset &+ index)) == SQLITE_NULL
        }
        guard index >= 0 && (index < count || index < width) else { return true }
        return storedValues[valuesOffset + index].isNull
    }

    /// Whether one value of the row, scopes included, is not NULL.
    public var containsNonNullValue: Bool {
        (0..<count).contains { !hasNull(atIndex: $0) }
    }

    /// The index of the leftmost column named `name`, compared
    /// case-insensitively (ASCII case first, then Unicode case).
    ///
    /// A statement remembers the lookups of its rows: the lookup that the
    /// previous row made at the same point is confirmed inline, and only a
    /// new lookup searches the names.
    @inlinable @inline(__always)
    public func index(ofColumn name: String) -> Int? {
        if let columnLookup {
            let window = offset << 32 | count
            let cached = columnLookup._withUnsafeGuaranteedRef { $0.cachedIndex(ofColumn: name, window: window) }
            if cached >= 0 { return cached }
            if cached != ColumnLookup.unknown { return nil }
            return resolveIndex(ofColumn: name, window: window)
        }
        return Self.searchIndex(ofColumn: name, in: storedNames, offset: offset, count: count)
    }

    /// The number of `names` when they are the first columns of the row, in
    /// this order, each where ``index(ofColumn:)`` finds it, so that a
    /// record reads them by position; 0 otherwise. The statement remembers
    /// the answer for each record type and window of columns: `names` is
    /// evaluated once per statement.
    @inlinable
    func leadingColumnCount(of record: Any.Type, named names: () -> [String]) -> Int {
        guard let columnLookup else { return 0 }
        let window = offset << 32 | count
        let known = columnLookup._withUnsafeGuaranteedRef {
            $0.knownColumnOrder(of: ObjectIdentifier(record), window: window)
        }
        if let known { return known }
        return compareColumnOrder(of: record, names: names(), window: window)
    }

    @usableFromInline @inline(never)
    func compareColumnOrder(of record: Any.Type, names: [String], window: Int) -> Int {
        // The search of `index(ofColumn:)`, without its memo: this lookup is
        // not one of the row's sequence.
        let columnNames = unretainedStatement?.columnNames ?? storedNames
        let matches = names.count <= count && names.indices.allSatisfy { position in
            Self.searchIndex(ofColumn: names[position], in: columnNames, offset: offset, count: count) == position
        }
        let leadingCount = matches ? names.count : 0
        columnLookup?._withUnsafeGuaranteedRef {
            $0.rememberColumnOrder(of: ObjectIdentifier(record), window: window, leadingCount: leadingCount)
        }
        return leadingCount
    }

    /// Searches a column that the lookup memo does not know.
    @usableFromInline @inline(never)
    func resolveIndex(ofColumn name: String, window: Int) -> Int? {
        if let unretainedStatement {
            return unretainedStatement.resolveIndex(ofColumn: name, offset: offset, count: count, window: window)
        }
        let index = Self.searchIndex(ofColumn: name, in: storedNames, offset: offset, count: count)
        columnLookup?._withUnsafeGuaranteedRef { $0.remember(name, window: window, index: index) }
        return index
    }

    @usableFromInline
    static func searchIndex(ofColumn name: String, in names: [String], offset: Int, count: Int) -> Int? {
        names.withUnsafeBufferPointer { names in
            // The leftmost column whose name matches, case-insensitively, as
            // in GRDB: `SELECT 1 AS a, 2 AS A` gives 1 for "A". Names of
            // another length are skipped without comparing them; a name
            // equal to `name` in another Unicode form is found below.
            let length = name.utf8.count
            for index in offset..<(offset + count) where names[index].utf8.count == length
                && (names[index] == name || names[index].isEqualIgnoringASCIICase(name))
            {
                return index - offset
            }
            for index in offset..<(offset + count) where names[index].isEqualIgnoringASCIICase(name) {
                return index - offset
            }
            // Beyond ASCII, as GRDB does: "ANNÉE" finds "Année".
            guard name.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
            let lowercasedName = name.lowercased()
            for index in offset..<(offset + count) where names[index].lowercased() == lowercasedName {
                return index - offset
            }
            return nil
        }
    }

    /// The value at `index`, as stored (NULL for an index out of range).
    @inlinable
    public func databaseValue(atIndex index: Int) -> DatabaseValue {
        if let sqliteStatement {
            // SQLite reads a column out of range as NULL.
            return DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(clamping: offset &+ index))
        }
        guard index >= 0 && (index < count || index < width) else { return .null }
        return storedValues[valuesOffset + index]
    }

    // MARK: - Decoding failures

    /// Records the failure of a non-throwing accessor, for the fetch that
    /// decodes the row to throw, or else the access that runs.
    @usableFromInline
    func recordDecodingError(_ error: any Error) {
        if let parent {
            parent.recordDecodingError(error)
        } else if recordedDecodingError == nil {
            recordedDecodingError = error
            // A row used after its access ended keeps the failure to itself.
            CurrentAccess.database?.recordUnreportedDecodingError(error, of: ObjectIdentifier(self))
        }
    }

    /// Forgets what the prefetches of the row loaded, and the failures of
    /// its accessors, before the row is prefetched and decoded again.
    func forgetPrefetches() {
        prefetched = [:]
        scopePrefetched = [:]
        if recordedDecodingError != nil {
            recordedDecodingError = nil
            CurrentAccess.database?.forgetDecodingError(of: ObjectIdentifier(self))
        }
    }

    /// Throws, and forgets, the first failure of a non-throwing accessor.
    /// Inlined: each decoded record checks it, and it is rarely set.
    @inlinable @inline(__always)
    func checkRecordedDecodingError() throws {
        if recordedDecodingError != nil { try throwRecordedDecodingError() }
    }

    @usableFromInline
    func throwRecordedDecodingError() throws {
        guard let error = recordedDecodingError else { return }
        recordedDecodingError = nil
        CurrentAccess.database?.forgetDecodingError(of: ObjectIdentifier(self))
        throw error
    }

    // MARK: - Scopes

    /// The row of the scope at `treeIndex` in `layout.scopesTree`.
    func scopedRow(at treeIndex: Int, of layout: RowLayout) -> Row {
        // The scope row that an earlier row of the fetch made, found
        // before anything else is read: a copy of the scope, or a binding
        // of the reuse, would cost retains for each record read.
        if let row = reuse?.scopeRow(at: treeIndex) { return row }
        let scope = layout.scopesTree[treeIndex]
        // A reuse shared by copied rows keeps no scope rows: they are not
        // windows over one statement.
        guard let reuse, treeIndex < reuse.scopeRows.count else {
            return scopedRow(range: scope.range, layout: scope.layout)
        }
        let row = scopedRow(range: scope.range, layout: scope.layout)
        row.reuse = RowReuse(scopeCount: scope.layout?.scopesTree.count ?? 0)
        reuse.scopeRows[treeIndex] = row
        return row
    }

    /// The row of the scope `key`, or else of the shallowest nested scope
    /// `key`: `scopes[key] ?? scopesTree[key]` in one search, since the
    /// tree lists the scopes of the row first.
    @usableFromInline
    func nearestScope(forKey key: String) -> Row? {
        scopeRow(at: layout?.scopesTree.firstIndex(where: { $0.key == key }))
    }

    /// The row of the scope `key`, or nil when there is no such scope:
    /// `scopes[key]`, without the view and its references.
    @usableFromInline
    func scope(forKey key: String) -> Row? {
        // The scopes lead the tree: their indexes are the same in both.
        scopeRow(at: layout?.scopes.firstIndex(where: { $0.key == key }))
    }

    /// The row of ``nearestScope(forKey:)``, unretained, when an earlier
    /// row of the fetch made it: the reuse of this row keeps it while this
    /// row is current. A nested record decodes from it without the retain
    /// and the release of a returned row.
    @usableFromInline
    func reusedNearestScope(forKey key: String) -> Unmanaged<Row>? {
        reusedScopeRow(at: layout?.scopesTree.firstIndex(where: { $0.key == key }))
    }

    /// The row of ``scope(forKey:)``, unretained, when an earlier row of
    /// the fetch made it (see ``reusedNearestScope(forKey:)``).
    func reusedScope(forKey key: String) -> Unmanaged<Row>? {
        reusedScopeRow(at: layout?.scopes.firstIndex(where: { $0.key == key }))
    }

    /// The scope row at `treeIndex` in the layout's `scopesTree`. The row
    /// that the reuse kept is found before the layout is read: a binding
    /// of the layout would cost a retain for each record read.
    private func scopeRow(at treeIndex: Int?) -> Row? {
        guard let treeIndex else { return nil }
        if let row = reuse?.scopeRow(at: treeIndex) { return row }
        guard let layout else { return nil }
        return scopedRow(at: treeIndex, of: layout)
    }

    private func reusedScopeRow(at treeIndex: Int?) -> Unmanaged<Row>? {
        guard let treeIndex, let row = reuse?.scopeRow(at: treeIndex) else { return nil }
        return .passUnretained(row)
    }

    /// Starts reusing, for all the rows that a fetch steps through, what
    /// does not depend on the current row of the statement: scope rows
    /// (windows over the statement), and the objects that the layers above
    /// keep with the row, such as decoders. Ends with ``endReuse()``.
    @usableFromInline
    func beginReuse() {
        guard unretainedStatement != nil else { return }
        reuse = RowReuse(scopeCount: layout?.scopesTree.count ?? 0)
    }

    /// Starts reusing what ``beginReuse()`` reuses, for a row of a
    /// ``RowBatch`` that a fetch moves from row to row of the batch with
    /// ``move(toValuesOffset:)``: the rows of a server's answer then cost
    /// no row, scope row or decoder each, as the rows of a statement.
    /// Ends with ``endReuse()``.
    @usableFromInline
    func beginBatchReuse() {
        guard batch != nil, parent == nil else { return }
        reuse = RowReuse(scopeCount: layout?.scopesTree.count ?? 0, stepsThroughBatch: true)
    }

    /// Moves a row of a batch, and the scope rows that it reuses, to the
    /// row of the batch whose values start at `newOffset`.
    @usableFromInline
    func move(toValuesOffset newOffset: Int) {
        valuesOffset = newOffset
        guard let reuse else { return }
        for case let scope? in reuse.scopeRows {
            // A scope row reads the values of its columns in its parent's.
            scope.move(toValuesOffset: newOffset &+ (scope.offset &- offset))
        }
    }

    /// Ends what ``beginReuse()`` began: kept objects and scope rows refer
    /// to this row, and are released.
    @usableFromInline
    func endReuse() {
        reuse?.end()
        reuse = nil
    }

    /// Runs `body` with `reuse` as the reuse of this copied row, so that
    /// the copied rows of a to-many association share their decoders as
    /// the rows of a fetch do. A statement row keeps its own.
    func withReuse<T>(_ reuse: RowReuse, _ body: () throws -> T) rethrows -> T {
        guard self.reuse == nil else { return try body() }
        self.reuse = reuse
        // The reuse does not outlive the call: kept objects may refer to
        // this row, and would form a cycle with it.
        defer { self.reuse = nil }
        return try body()
    }

    /// A row that reads the columns `range` of this row: its own, then
    /// those of its scopes.
    private func scopedRow(range: Range<Int>, layout: RowLayout?) -> Row {
        let columns = ScopeColumns(offset: offset + range.lowerBound, count: layout?.baseCount ?? range.count)
        let root = self.root
        let prefetched = root.scopePrefetched.isEmpty ? [:] : root.scopePrefetched[columns] ?? [:]
        return Row(statement: unretainedStatement, values: storedValues, names: storedNames, offset: columns.offset,
                   count: columns.count, layout: layout, prefetched: prefetched, parent: self,
                   batch: batch, valuesOffset: valuesOffset + range.lowerBound)
    }

    /// Hands the prefetched rows of this scope row to its root, which
    /// gives them to the scope rows made later for the same columns.
    func storePrefetchedRowsInRoot() {
        root.scopePrefetched[columnsInRoot, default: [:]].merge(prefetched) { _, new in new }
    }
}

/// How the columns of a row split into scopes: the columns of joined
/// associations, by key.
@usableFromInline
final class RowLayout: @unchecked Sendable {
    typealias Scope = (key: String, range: Range<Int>, layout: RowLayout?)

    /// The scopes, by key: the columns of the scope relative to the row,
    /// and the layout inside the scope.
    let scopes: [Scope]

    /// The scopes and the scopes of scopes, breadth-first, with columns
    /// relative to the row: ``Row/scopesTree`` finds a nested scope without
    /// making the rows in between.
    let scopesTree: [Scope]

    /// The number of columns of the row itself, before those of its
    /// scopes; nil when the row has as many columns as it reads (the rows
    /// of adapters, which count their own columns).
    let baseCount: Int?

    /// The number of columns that the row and its scopes read.
    var width: Int { scopes.reduce(baseCount ?? 0) { max($0, $1.range.upperBound) } }

    init(scopes: [Scope], baseCount: Int? = nil) {
        self.scopes = scopes
        self.baseCount = baseCount
        var tree: [Scope] = []
        var level = scopes
        while !level.isEmpty {
            tree.append(contentsOf: level)
            level = level.flatMap { parent in
                (parent.layout?.scopes ?? []).map { child in
                    let lowerBound = parent.range.lowerBound + child.range.lowerBound
                    return (child.key, lowerBound..<(lowerBound + child.range.count), child.layout)
                }
            }
        }
        self.scopesTree = tree
    }
}

extension Row {
    /// The rows of joined associations, by key.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Book.including(required: Book.author))!
    /// let authorRow = row.scopes["author"]
    /// ```
    public var scopes: ScopesView { ScopesView(row: self) }

    /// A view of the scopes of a row.
    ///
    /// ```swift
    /// for (name, scopedRow) in row.scopes {
    ///     print(name, scopedRow)
    /// }
    /// ```
    public struct ScopesView: RandomAccessCollection {
        let row: Row

        /// The layout of the row; a row without scopes has an empty one,
        /// so that the positions of the collection are those of a layout.
        private let layout: RowLayout

        private static let emptyLayout = RowLayout(scopes: [])

        init(row: Row) {
            self.row = row
            self.layout = row.layout ?? Self.emptyLayout
        }

        /// The keys of the scopes.
        public var names: [String] { layout.scopes.map(\.key) }

        public var startIndex: Int { 0 }
        public var endIndex: Int { layout.scopes.count }

        /// The name and the row of a scope.
        public subscript(position: Int) -> (name: String, row: Row) {
            (layout.scopes[position].key, row.scopedRow(at: position, of: layout))
        }

        /// The row of the scope `key`, or nil when there is no such scope.
        public subscript(_ key: String) -> Row? {
            // The scopes lead the tree: their indexes are the same in both.
            guard let index = layout.scopes.firstIndex(where: { $0.key == key }) else { return nil }
            return row.scopedRow(at: index, of: layout)
        }
    }

    /// The scopes of the row and of its scopes, searched breadth-first.
    public var scopesTree: ScopesTreeView { ScopesTreeView(row: self) }

    /// A view of the scopes of a row and of its scopes.
    public struct ScopesTreeView {
        let row: Row

        /// The keys of all scopes of the tree.
        public var names: Set<String> { Set(row.layout?.scopesTree.map(\.key) ?? []) }

        /// The row of the first scope `key` found breadth-first.
        public subscript(_ key: String) -> Row? {
            guard let layout = row.layout, let index = layout.scopesTree.firstIndex(where: { $0.key == key }) else { return nil }
            return row.scopedRow(at: index, of: layout)
        }
    }

    /// The rows of to-many associations fetched with `including(all:)`, by
    /// key: those of the row, then those of its scopes, as in GRDB (the
    /// `siblings` of `Book.including(required: Book.author.including(all:
    /// Author.books.forKey("siblings")))` are prefetched rows of the book
    /// row too).
    public var prefetchedRows: PrefetchedRowsView { PrefetchedRowsView(row: self) }

    /// A view of the prefetched rows of a row and of its scopes.
    public struct PrefetchedRowsView {
        let row: Row

        /// The keys of the prefetched associations.
        public var keys: Set<String> {
            var keys = Set(row.prefetched.keys)
            for scope in row.scopeRowsWithPrefetches { keys.formUnion(scope.prefetched.keys) }
            return keys
        }

        /// Whether no association was prefetched.
        public var isEmpty: Bool {
            row.prefetched.isEmpty && row.scopeRowsWithPrefetches.allSatisfy(\.prefetched.isEmpty)
        }

        /// The prefetched rows of the association `key`: the row's own, or
        /// else the first scope's found breadth-first.
        ///
        /// The records that a prefetch decoded for the `init(row:)` of a
        /// record type have no rows: the fetch fails rather than see none.
        public subscript(_ key: String) -> [Row]? {
            guard let prefetched = self[prefetched: key] else { return nil }
            do {
                return try prefetched.rows(forKey: key, as: [Row].self)
            } catch {
                row.recordDecodingError(error)
                return nil
            }
        }

        /// What the prefetch of the association `key` kept: the row's own,
        /// or else the first scope's found breadth-first.
        subscript(prefetched key: String) -> PrefetchedRows? {
            if !row.prefetched.isEmpty, let prefetched = row.prefetched[key] { return prefetched }
            // The common case, asked for each key a decoder of joined rows
            // does not find in columns: no scope has prefetched rows.
            guard row.layout != nil, !row.root.scopePrefetched.isEmpty else { return nil }
            for scope in row.scopeRowsWithPrefetches {
                if let prefetched = scope.prefetched[key] { return prefetched }
            }
            return nil
        }
    }

    /// The rows of the scopes and of their scopes, breadth-first, when
    /// some of them have prefetched rows (the root row keeps those): none
    /// otherwise, without making the scope rows, as a decoder of joined
    /// rows asks for each of its keys.
    var scopeRowsWithPrefetches: [Row] {
        guard let layout, !root.scopePrefetched.isEmpty else { return [] }
        return layout.scopesTree.indices.map { scopedRow(at: $0, of: layout) }
    }
}

// MARK: - Equality and description

extension Row: Equatable {
    /// Rows are equal when they have the same columns, values and scopes.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.count == rhs.count, lhs.columnNames == rhs.columnNames,
              lhs.databaseValues == rhs.databaseValues else { return false }
        guard lhs.scopes.names == rhs.scopes.names else { return false }
        for name in lhs.scopes.names where lhs.scopes[name] != rhs.scopes[name] {
            return false
        }
        return true
    }
}

extension Row: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(databaseValues)
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// `[id:1 name:'Arthur']`
    public var description: String {
        "[" + zip(columnNames, databaseValues).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }

    /// The row, its scopes and its prefetched rows, as a tree:
    ///
    /// ```
    /// ▿ [id:1 authorId:2 title:"Moby-Dick"]
    ///   unadapted: [id:1 authorId:2 title:"Moby-Dick" id:2 name:"Herman Melville"]
    ///   - author: [id:2 name:"Herman Melville"]
    ///   + prizes: 3 rows
    /// ```
    public var debugDescription: String {
        let isAdapted = unadapted !== self
        guard isAdapted || !prefetchedRows.isEmpty || !scopes.isEmpty else { return description }
        var lines = ["▿ " + description]
        if isAdapted { lines.append("  unadapted: " + unadapted.description) }
        appendTree(to: &lines, indent: "  ")
        return lines.joined(separator: "\n")
    }

    /// The scopes and prefetched rows of the row, one line each.
    private func appendTree(to lines: inout [String], indent: String) {
        for (name, scope) in scopes {
            lines.append(indent + "- \(name): " + scope.description)
            scope.appendTree(to: &lines, indent: indent + "  ")
        }
        let prefetchedRows = self.prefetchedRows
        for key in prefetchedRows.keys.sorted() {
            let count = prefetchedRows[prefetched: key]?.count ?? 0
            lines.append(indent + "+ \(key): \(count) row" + (count > 1 ? "s" : ""))
        }
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// A row with the columns of the literal, in order.
    ///
    /// ```swift
    /// let row: Row = ["id": 1, "name": "Arthur"]
    /// ```
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(columns: elements.map { ($0.0, $0.1?.databaseValue ?? .null) })
    }
}

// MARK: - Collection

/// A position in a row.
public struct RowIndex: Comparable, Strideable, Sendable {
    public let index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (lhs: RowIndex, rhs: RowIndex) -> Bool { lhs.index < rhs.index }
    public func distance(to other: RowIndex) -> Int { other.index - index }
    public func advanced(by n: Int) -> RowIndex { RowIndex(index + n) }
}

extension Row: RandomAccessCollection {
    public typealias Index = RowIndex

    public var startIndex: RowIndex { RowIndex(0) }
    public var endIndex: RowIndex { RowIndex(count) }

    /// The column name and value at `position`.
    public subscript(position: RowIndex) -> (String, DatabaseValue) {
        (columnNames[position.index], databaseValue(atIndex: position.index))
    }
}
