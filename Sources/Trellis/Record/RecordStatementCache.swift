/// The statements that persist records and look them up by key, cached per
/// connection so that the hot paths neither generate SQL nor hash it.
///
/// Entries are found by record type and operation, then by column list:
/// comparing the few column names a record encodes is cheaper than hashing
/// them. Statements stay valid across schema changes, since SQLite prepares
/// them again from their SQL.
@usableFromInline
final class RecordStatementCache {
    @usableFromInline
    struct Key: Hashable {
        @usableFromInline let type: ObjectIdentifier
        @usableFromInline let operation: Operation

        @inlinable
        init(type: ObjectIdentifier, operation: Operation) {
            self.type = type
            self.operation = operation
        }

        @inlinable @inline(__always)
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.type == rhs.type && lhs.operation == rhs.operation
        }
    }

    /// What a cached statement does: a code, and for the statements that
    /// depend on more than it, a text that tells them apart.
    ///
    /// Each persistence call compares operations: two integers and a nil
    /// text compare inline, where an enum with a text payload goes through
    /// its derived equality and copies of its payload.
    @usableFromInline
    struct Operation: Hashable, Sendable {
        @usableFromInline let code: UInt8
        @usableFromInline let text: String?

        @inlinable
        init(code: UInt8, text: String? = nil) {
            self.code = code
            self.text = text
        }

        @inlinable @inline(__always)
        static func == (lhs: Operation, rhs: Operation) -> Bool {
            // Only custom operations (code 0) have a text.
            lhs.code == rhs.code && (lhs.code != 0 || lhs.text == rhs.text)
        }

        @inlinable
        static func insert(_ conflict: Database.ConflictResolution?) -> Operation {
            Operation(code: 0x10 | conflictCode(conflict))
        }

        @inlinable
        static func update(_ conflict: Database.ConflictResolution?) -> Operation {
            Operation(code: 0x20 | conflictCode(conflict))
        }

        @inlinable static var fetchByPrimaryKey: Operation { Operation(code: 1) }
        @inlinable static var existsByPrimaryKey: Operation { Operation(code: 2) }
        @inlinable static var deleteByPrimaryKey: Operation { Operation(code: 3) }
        @inlinable static var selectAll: Operation { Operation(code: 4) }
        @inlinable static var selectOne: Operation { Operation(code: 5) }
        /// A lookup of a layer built on Trellis, whose key type is a type
        /// of that layer (see ``Database/withCachedLookup(for:sql:_:)``).
        @inlinable static var layerLookup: Operation { Operation(code: 6) }

        /// A statement told apart by its text alone.
        @inlinable
        static func custom(_ text: String) -> Operation {
            Operation(code: 0, text: text)
        }

        @inlinable
        static func conflictCode(_ conflict: Database.ConflictResolution?) -> UInt8 {
            switch conflict {
            case nil: 0
            case .rollback: 1
            case .abort: 2
            case .fail: 3
            case .ignore: 4
            case .replace: 5
            }
        }
    }

    @usableFromInline
    var entries: [Key: [(columns: [String], statement: Statement)]] = [:]

    /// The rowid column of each record type's table (inserts report it).
    @usableFromInline
    var rowIDColumns: [ObjectIdentifier: String?] = [:]

    /// The entry of `rowIDColumns` read last: loops of inserts of one
    /// type skip the hashing. Two properties rather than an optional
    /// tuple, which each insert would copy through generic witnesses.
    @usableFromInline @exclusivity(unchecked)
    var lastRowIDColumnType: ObjectIdentifier?
    @usableFromInline @exclusivity(unchecked)
    var lastRowIDColumn: String?

    /// The record type and operation code of ``lastKeyStatement``, whose
    /// operation has no text. Kept apart from the statement, and from a
    /// `Key`: reading a tuple or a key copies, and retains, its parts.
    @usableFromInline @exclusivity(unchecked)
    var lastKeyStatementType: ObjectIdentifier?
    @usableFromInline @exclusivity(unchecked)
    var lastKeyStatementCode: UInt8 = 0

    /// The last statement of a lookup by key.
    @usableFromInline @exclusivity(unchecked)
    var lastKeyStatement: Statement?

    /// The table and primary key of the record type persisted last:
    /// persistence methods of one type in a row skip the table name and
    /// the schema cache. (Statements are cached by type too: a record type
    /// has one table.)
    @exclusivity(unchecked)
    var lastPrimaryKey: (type: ObjectIdentifier, table: String, primaryKey: PrimaryKeyInfo)?

    /// The storage of the last inserted container, which the next insert
    /// empties and reuses when no one else holds it.
    @usableFromInline @exclusivity(unchecked)
    var spareStorage: PersistenceContainerStorage?

    /// An empty container, in the spare storage when it is free.
    @inlinable
    func takeSpareContainer() -> PersistenceContainer {
        if var storage = spareStorage {
            spareStorage = nil
            if isKnownUniquelyReferenced(&storage) {
                storage.recycle()
                return PersistenceContainer(storage: storage)
            }
        }
        return PersistenceContainer(minimumCapacity: 16)
    }

    /// An empty container for an insert of `key`, in the spare storage
    /// when it is free. When the storage holds the columns of the statement
    /// of `key`, as the last insert of a loop leaves it, the values that
    /// the record sets are bound to the statement's parameters at once
    /// (see ``boundStatement(for:container:)``).
    @inlinable
    func takeSpareContainer(bindingFor key: Key) -> PersistenceContainer {
        var container = takeSpareContainer()
        // The statement stays in `entries` while the container binds: it
        // is lent without a retain.
        if isLastEntry(key), container.storage.matchedColumns?.hasSameStorage(as: lastEntryColumns) == true,
           let statement = lastEntryStatement.map(Unmanaged.passUnretained)
        {
            container.startBinding(to: statement)
            bindingStatement = statement
        }
        return container
    }

    /// The statement of `key`, when its parameters hold the values of the
    /// container: those of all of its columns, which are the statement's.
    /// Nil when the insert must find its statement and bind the values.
    /// Called once `encode(to:)` returned: from then on, no container
    /// binds values to the statement, not even a copy that the record
    /// kept, or the container that it replaced.
    @inlinable
    func boundStatement(for key: Key, container: inout PersistenceContainer) -> Statement? {
        // The parameters hold the container's values only if its storage
        // is the one that the binding started with, and bound until the
        // end: not a container that the record kept from an earlier
        // insert, nor one whose statement another insert ran meanwhile
        // (an `encode(to:)` that inserts a record of its own type).
        let binder = container.storage.binderIdentity
        let isBound = bindingStatement?._withUnsafeGuaranteedRef { $0.valuesBinder == binder } ?? false
        endBinding()
        guard isBound, let statement = lastEntryStatement, isLastEntry(key),
              container.isKnownToHave(cachedColumns: lastEntryColumns)
        else { return nil }
        return statement
    }

    /// Stops the binding of values to the statement, by any container:
    /// after an encoding, and before the cache forgets its statements.
    @inlinable
    func endBinding() {
        if let bindingStatement {
            // The statement stays in `entries` until `clear()`, which
            // ends the binding first.
            bindingStatement._withUnsafeGuaranteedRef { PersistenceContainerStorage.endBinding(of: $0) }
            self.bindingStatement = nil
        }
    }

    /// The statement that a container binds values to, from
    /// ``takeSpareContainer(bindingFor:)`` to ``endBinding()``.
    @usableFromInline @exclusivity(unchecked) var bindingStatement: Unmanaged<Statement>?

    /// The names of the columns of the table updated last: updates write
    /// only the encoded columns that the table has, as in GRDB.
    @exclusivity(unchecked)
    var lastTableColumns: (table: String, names: [String])?

    /// Whether `column` is a column of `table`, compared as SQLite does.
    func table(_ db: Database, _ table: String, hasColumn column: String) throws -> Bool {
        let names: [String]
        if let last = lastTableColumns, last.table == table {
            names = last.names
        } else {
            names = try db.columns(in: table).map(\.name)
            lastTableColumns = (table, names)
        }
        // A table has few columns: comparing lengths first beats hashing.
        return names.contains { $0.isEqualIgnoringASCIICase(column) }
    }

    /// The name that selects the rowid of each table (by lowercased
    /// name), nil for a WITHOUT ROWID table: see ``rowIDName(_:_:)``.
    var rowIDNames: [String: String?] = [:]

    /// Forgets what depends on the schema: statements are prepared again
    /// from the new schema when they are next needed.
    func clear() {
        // A record's `encode(to:)` may change the schema, or release
        // memory: its binding ends before the statement goes.
        endBinding()
        if lentStatements > 0 {
            // A lent statement lives on until the lookup that lent it ends.
            entriesForgottenWhileLent.append(entries)
        }
        entries.removeAll()
        forgetLastEntry()
        rowIDColumns.removeAll()
        lastRowIDColumnType = nil
        lastRowIDColumn = nil
        rowIDNames.removeAll()
        lastKeyStatementType = nil
        lastKeyStatement = nil
        lastPrimaryKey = nil
        lastTableColumns = nil
    }

    /// Whether the table has a rowid (it is not a WITHOUT ROWID table).
    @usableFromInline
    func tableHasRowID(_ db: Database, _ table: String) throws -> Bool {
        try rowIDName(db, table) != nil
    }

    /// The SQL that selects the rowid of the table: `rowid`, or `_rowid_`
    /// or `oid` when a column of the table takes the name (tables imported
    /// from other systems often have a `RowID` column, which hides the
    /// rowid), or the column that is an alias of the rowid when the three
    /// are taken. Nil for a WITHOUT ROWID table, and for a table whose
    /// primary key must stand for a rowid that no name selects.
    @usableFromInline
    func rowIDName(_ db: Database, _ table: String) throws -> String? {
        // A server's tables have no rowid: their primary key stands for it.
        if db.usesServer { return nil }
        let key = table.lowercased()
        if let known = rowIDNames[key] { return known }
        let name: String?
        if let free = try db.freeRowIDNames(in: table).first {
            name = try db.isWithoutRowID(table, in: nil) ? nil : free
        } else {
            let primaryKey = try db.primaryKey(table)
            if let column = primaryKey.rowIDColumn {
                name = column.quotedDatabaseIdentifier
            } else if primaryKey.isHiddenRowID {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: "the rowid of table \(table) can not be selected: its columns rowid, _rowid_ and oid hide it")
            } else {
                name = nil
            }
        }
        rowIDNames[key] = .some(name)
        return name
    }

    @usableFromInline
    init() {}

    /// The last statement of a lookup by key, if it is the one of this
    /// record type and operation. Lookups come in series: this spares the
    /// hashing of the key.
    @inlinable @inline(__always)
    func lastKeyStatement(type: ObjectIdentifier, operation: Operation) -> Statement? {
        // Operations with a text (code 0) are told apart by it: not here.
        guard operation.code != 0, lastKeyStatementType == type, lastKeyStatementCode == operation.code else { return nil }
        return lastKeyStatement
    }

    @inlinable
    func setLastKeyStatement(_ statement: Statement, type: ObjectIdentifier, operation: Operation) {
        guard operation.code != 0 else { return }
        lastKeyStatementType = type
        lastKeyStatementCode = operation.code
        lastKeyStatement = statement
    }

    /// Lends the statement of a lookup by key, without a retain, until
    /// ``endLend()``: the last one when it is the one of this type and
    /// operation, or the one that `statement` finds or prepares. A
    /// statement that runs already (a lookup made while the rows of
    /// another are decoded) gives way to a new one.
    ///
    /// A lent statement stays alive until the lend ends: `clear()` keeps
    /// the entries it forgets until then, should the lookup change the
    /// schema.
    ///
    /// ```swift
    /// let statement = try cache.lendKeyStatement(db, type: type, operation: operation) { ... }
    /// defer { cache.endLend() }
    /// return try statement._withUnsafeGuaranteedRef { statement in ... }
    /// ```
    @inlinable @inline(__always)
    func lendKeyStatement(
        _ db: Database, type: ObjectIdentifier, operation: Operation, statement: () throws -> Statement
    ) throws -> Unmanaged<Statement> {
        if lastKeyStatementType == type, lastKeyStatementCode == operation.code,
           let last = lastKeyStatement.map(Unmanaged.passUnretained),
           last._withUnsafeGuaranteedRef({ $0.isIdle })
        {
            lentStatements += 1
            return last
        }
        return try lendOtherKeyStatement(db, type: type, operation: operation, statement: statement)
    }

    /// The statement of ``lendKeyStatement(_:type:operation:statement:)``
    /// when it is not the last one, or not idle.
    @usableFromInline @inline(never)
    func lendOtherKeyStatement(
        _ db: Database, type: ObjectIdentifier, operation: Operation, statement: () throws -> Statement
    ) throws -> Unmanaged<Statement> {
        var found = try statement()
        setLastKeyStatement(found, type: type, operation: operation)
        if !found.isIdle {
            found = try db.makeStatement(sql: found.sql)
            statementsMadeForLends.append(found)
        }
        lentStatements += 1
        return Unmanaged.passUnretained(found)
    }

    /// Ends a lend of ``lendKeyStatement(_:type:operation:statement:)``.
    @inlinable @inline(__always)
    func endLend() {
        lentStatements -= 1
        if lentStatements == 0 && !(entriesForgottenWhileLent.isEmpty && statementsMadeForLends.isEmpty) {
            entriesForgottenWhileLent.removeAll()
            statementsMadeForLends.removeAll()
        }
    }

    /// The lookups that run with a lent statement.
    @usableFromInline @exclusivity(unchecked) var lentStatements = 0

    /// The entries that `clear()` forgot during lookups with a lent
    /// statement, released when the last of them ends.
    @usableFromInline @exclusivity(unchecked) var entriesForgottenWhileLent: [[Key: [(columns: [String], statement: Statement)]]] = []

    /// The statements made for lends while the cached one was running,
    /// released when the last lend ends.
    @usableFromInline @exclusivity(unchecked) var statementsMadeForLends: [Statement] = []

    /// The cached statement for the operation and columns, or a new one
    /// prepared from `makeSQL`.
    @inlinable
    func statement(
        _ db: Database, key: Key, columns: [String], makeSQL: () throws -> String) throws -> Statement
    {
        // A loop of inserts or updates of one type hits the same entry:
        // comparing it costs less than hashing the key.
        if let statement = lastEntryStatement, isLastEntry(key), lastEntryColumns == columns {
            return statement
        }
        if let candidates = entries[key] {
            for candidate in candidates where candidate.columns == columns {
                setLastEntry(key: key, columns: candidate.columns, statement: candidate.statement)
                return candidate.statement
            }
        }
        return try prepare(db, key: key, columns: columns, makeSQL: makeSQL)
    }

    /// The cached statement for the operation and the columns of
    /// `container`, or a new one prepared from `makeSQL`, given the
    /// columns.
    ///
    /// The container comes straight from `encode(to:)`: when its columns
    /// are not those of a cached statement, which have no duplicates, its
    /// repeated columns are folded first.
    @inlinable
    func statement(
        _ db: Database, key: Key, container: inout PersistenceContainer,
        makeSQL: ([String]) throws -> String) throws -> Statement
    {
        if let statement = lastEntryStatement, isLastEntry(key),
           container.isKnownToHave(cachedColumns: lastEntryColumns) || container.hasColumns(ofCachedStatement: lastEntryColumns)
        {
            return statement
        }
        container.removeDuplicateColumns()
        let columns = container.columns
        let statement = try statement(db, key: key, columns: columns) { try makeSQL(columns) }
        // The entry just found or made, whose columns are those of the
        // container: the next insert of a loop finds it at once.
        container.rememberColumns(ofCachedStatement: lastEntryColumns)
        return statement
    }

    // The entry that `statement` returned last, in parts: reading a tuple
    // or a `Key` copies, and retains, all of its parts, where a loop of
    // inserts needs to compare the record type and the operation code.
    @usableFromInline @exclusivity(unchecked) var lastEntryType: ObjectIdentifier?
    @usableFromInline @exclusivity(unchecked) var lastEntryCode: UInt8 = 0
    @usableFromInline @exclusivity(unchecked) var lastEntryText: String?
    @usableFromInline @exclusivity(unchecked) var lastEntryColumns: [String] = []
    @usableFromInline @exclusivity(unchecked) var lastEntryStatement: Statement?

    /// Whether the entry returned last is the one of `key`.
    @inlinable @inline(__always)
    func isLastEntry(_ key: Key) -> Bool {
        // Only custom operations (code 0) have a text.
        lastEntryType == key.type && lastEntryCode == key.operation.code
            && (key.operation.code != 0 || lastEntryText == key.operation.text)
    }

    @usableFromInline
    func setLastEntry(key: Key, columns: [String], statement: Statement) {
        lastEntryType = key.type
        lastEntryCode = key.operation.code
        lastEntryText = key.operation.text
        lastEntryColumns = columns
        lastEntryStatement = statement
    }

    func forgetLastEntry() {
        lastEntryType = nil
        lastEntryText = nil
        lastEntryColumns = []
        lastEntryStatement = nil
    }

    @usableFromInline
    func prepare(_ db: Database, key: Key, columns: [String], makeSQL: () throws -> String) throws -> Statement {
        let statement = try db.makeStatement(sql: makeSQL())
        entries[key, default: []].append((columns, statement))
        setLastEntry(key: key, columns: columns, statement: statement)
        return statement
    }
}

extension TableRecord {
    /// The table of the record type, and its primary key.
    static func tableAndPrimaryKey(_ db: Database) throws -> (table: String, primaryKey: PrimaryKeyInfo) {
        let cache = db.recordStatementCache
        let type = ObjectIdentifier(Self.self)
        if let last = cache.lastPrimaryKey, last.type == type {
            return (last.table, last.primaryKey)
        }
        let table = databaseTableName
        let primaryKey = try db.primaryKey(table)
        cache.lastPrimaryKey = (type, table, primaryKey)
        return (table, primaryKey)
    }
}
