/// The tables and columns that a statement reads and writes, as SQLite's
/// authorizer reports them when the statement is prepared (writes of its
/// triggers and foreign key actions included). Names are lowercased.
struct StatementRegion: Sendable {
    /// The columns read, by table: all of them for a table read without
    /// naming a column (`SELECT COUNT(*) FROM player`).
    var readColumns: [String: ColumnSet] = [:]
    /// The columns written, by table: all of them for insertions and
    /// deletions, the updated ones for updates.
    var writtenColumns: [String: ColumnSet] = [:]

    /// Set when the statement begins, releases or rolls back a
    /// transaction or a savepoint: the connection keeps track of its
    /// savepoints, and forgets the previous transaction date.
    var transactionControl: TransactionControl? {
        didSet { controlsTransactions = transactionControl != nil }
    }

    /// Whether `transactionControl` is set: what each statement checks,
    /// at the cost of a byte, before it runs.
    private(set) var controlsTransactions = false

    /// Whether the statement rolls back a transaction or to a savepoint:
    /// the only statements a cancelled access still runs.
    var rollsBack: Bool {
        switch transactionControl {
        case .rollbackTransaction, .rollbackToSavepoint: return true
        default: return false
        }
    }

    /// The name SQLite gave last, and its lowercased string: it reports a
    /// read for each column, with the same pointer for the columns of one
    /// table, and comparing pointers spares a string per column.
    private nonisolated(unsafe) var lastReadName: UnsafePointer<CChar>?
    private var lastReadTable = ""

    mutating func recordRead(_ table: UnsafePointer<CChar>, column: UnsafePointer<CChar>?) {
        if table != lastReadName {
            lastReadName = table
            lastReadTable = String(cString: table).lowercased()
        }
        guard let column, column.pointee != 0 else {
            readColumns[lastReadTable] = .all
            return
        }
        readColumns[lastReadTable, default: .some([])].insert(String(cString: column))
    }

    /// The columns that the statement updates, by lowercased table name, as
    /// the statement spells them: what transaction observers are told.
    var updatedColumns: [String: Set<String>] = [:]

    mutating func recordWrite(_ table: UnsafePointer<CChar>) {
        writtenColumns[String(cString: table).lowercased()] = .all
    }

    mutating func recordUpdate(_ table: UnsafePointer<CChar>, column: UnsafePointer<CChar>?) {
        let name = String(cString: table).lowercased()
        guard let column else {
            writtenColumns[name] = .all
            return
        }
        writtenColumns[name, default: .some([])].insert(String(cString: column))
        updatedColumns[name, default: []].insert(String(cString: column))
    }
}

/// What a write access changed: the columns it wrote to, by lowercased
/// table name, and whether it changed the schema.
struct DatabaseChanges: Sendable {
    var tables: [String: ColumnSet] = [:]
    var schemaChanged = false
    /// Set when rows changed through statements Trellis did not prepare
    /// (the raw connection handle), whose tables are unknown.
    var tablesAreUnknown = false
    /// Set when the access told of changes SQLite does not see
    /// (`notifyChanges(in:)`), which count even if no row changed.
    var isNotified = false
    /// The number of row changes that were rolled back.
    var discardedChangesCount = 0

    /// Whether a value read from `readColumns` may have changed.
    func impacts(readColumns: [String: ColumnSet]) -> Bool {
        schemaChanged || tablesAreUnknown || tables.intersectsColumns(of: readColumns)
    }
}

/// The written columns of a transaction in progress, and the state of each
/// open savepoint, which a rollback to it restores.
struct TransactionChanges {
    var tables: [String: ColumnSet] = [:]
    /// The total changes count when the transaction began; nil when no
    /// transaction began through a statement that Trellis ran.
    var changesCountAtStart: Int?
    var savepoints: [(tables: [String: ColumnSet], changesCount: Int)] = []
}
