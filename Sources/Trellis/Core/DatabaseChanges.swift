/// The tables that a statement reads and writes, as SQLite's authorizer
/// reports them when the statement is prepared (writes of its triggers
/// included). Names are lowercased.
struct StatementRegion: Sendable {
    var readTables: Set<String> = []
    var writtenTables: Set<String> = []

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

    /// The name SQLite gave last: it reports a read for each column, with
    /// the same pointer for the columns of one table, and comparing
    /// pointers spares a string per column.
    private nonisolated(unsafe) var lastReadName: UnsafePointer<CChar>?

    mutating func recordRead(_ table: UnsafePointer<CChar>) {
        guard table != lastReadName else { return }
        lastReadName = table
        readTables.insert(String(cString: table).lowercased())
    }

    /// The columns that the statement updates, by lowercased table name.
    var updatedColumns: [String: Set<String>] = [:]

    mutating func recordWrite(_ table: UnsafePointer<CChar>) {
        writtenTables.insert(String(cString: table).lowercased())
    }

    mutating func recordUpdate(_ table: UnsafePointer<CChar>, column: UnsafePointer<CChar>?) {
        let name = String(cString: table).lowercased()
        writtenTables.insert(name)
        if let column { updatedColumns[name, default: []].insert(String(cString: column)) }
    }
}

/// What a write access changed: the tables it wrote to (lowercased), and
/// whether it changed the schema.
struct DatabaseChanges: Sendable {
    var tables: Set<String> = []
    var schemaChanged = false
    /// Set when rows changed through statements Trellis did not prepare
    /// (the raw connection handle), whose tables are unknown.
    var tablesAreUnknown = false
    /// Set when the access told of changes SQLite does not see
    /// (`notifyChanges(in:)`), which count even if no row changed.
    var isNotified = false

    /// Whether a value read from `readTables` may have changed.
    func impacts(readTables: Set<String>) -> Bool {
        schemaChanged || tablesAreUnknown || !tables.isDisjoint(with: readTables)
    }
}
