import TrellisSQLite

/// The column values of a record, in the order the record encodes them.
///
/// ```swift
/// func encode(to container: inout PersistenceContainer) {
///     container["id"] = id
///     container[Columns.name] = name
/// }
/// ```
public struct PersistenceContainer: Sendable {
    /// The encoded columns and values, shared by copies until one of them
    /// changes.
    @usableFromInline
    var storage: PersistenceContainerStorage

    @inlinable
    public init() {
        // Empty containers share one storage until their first column.
        storage = PersistenceContainerStorage.empty
    }

    @inlinable
    init(minimumCapacity: Int) {
        storage = PersistenceContainerStorage(capacity: minimumCapacity)
    }

    @inlinable
    init(storage: PersistenceContainerStorage) {
        self.storage = storage
    }

    /// The value of a column, read case-insensitively; setting a column
    /// twice keeps the last value.
    @inlinable
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { databaseValue(forColumn: column) }
        @inline(__always) set {
            // Consuming the value spares a copy of the existential.
            if let value = consume newValue {
                setValue(value.databaseValue, forColumn: column)
            } else {
                setValue(.null, forColumn: column)
            }
        }
    }

    /// The value of a column.
    // The column is an existential, not `some ColumnExpression`: this
    // subscript must be more specific than the generic setter below for
    // the optional values that only it takes.
    @inlinable
    public subscript(_ column: any ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// Sets a column to a value of a known type: `container["id"] = id`
    /// picks this subscript when `id` is not optional, and converts it
    /// without the existential box of the subscript above (that box cost a
    /// third of the time of a hand-written insert).
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value {
        @available(*, unavailable, message: "read the value with container[column] as (any DatabaseValueConvertible)?")
        get { fatalError("unavailable") }  // crash-ok: the getter is @available(*, unavailable): no code compiles a call to it
        @inline(__always) set { setValue(newValue.databaseValue, forColumn: column) }
    }

    /// Sets a column to a value of a known type.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        @available(*, unavailable, message: "read the value with container[column] as (any DatabaseValueConvertible)?")
        get { fatalError("unavailable") }  // crash-ok: the getter is @available(*, unavailable): no code compiles a call to it
        @inline(__always) set { setValue(newValue.databaseValue, forColumn: column.name) }
    }

    /// Sets the value of a column.
    @inlinable @inline(__always)
    public mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        // Appends without a search: comparing different names is the
        // costly case, and a record usually writes each column once.
        // Lookups read the last value of a column, and
        // `removeDuplicateColumns()` folds repeated columns before SQL is
        // made from them.
        makeUnique()
        storage.append(column, value)
    }

    /// Sets the value of a column in a storage that is known to be the
    /// container's own: the writes of an encoder that made it so.
    @inlinable @inline(__always)
    mutating func appendToOwnStorage(_ value: DatabaseValue, forColumn column: String) {
        storage.append(column, value)
    }

    /// Replaces the value of a column, or appends it: the update of a
    /// container whose columns are each there once.
    @inlinable
    mutating func replaceValue(_ value: DatabaseValue, forColumn column: String) {
        makeUnique()
        let entries = storage.entries
        for index in 0..<storage.count where entries[index].column == column {
            entries[index].value = value
            return
        }
        for index in 0..<storage.count where entries[index].column.isEqualIgnoringASCIICase(column) {
            entries[index].value = value
            return
        }
        storage.append(column, value)
    }

    /// Folds the columns set more than once into their first position,
    /// with their last value.
    @inlinable
    mutating func removeDuplicateColumns() {
        guard storage.count > 1 else { return }
        var index = 1
        while index < storage.count {
            let column = storage.entries[index].column
            // Column names ignore case, in SQLite as in GRDB's containers.
            if let first = (0..<index).first(where: { storage.entries[$0].column.isEqualIgnoringASCIICase(column) }) {
                makeUnique()
                storage.entries[first].value = storage.remove(at: index).value
            } else {
                index += 1
            }
        }
    }

    /// The encoded column names, each once.
    public var columnNames: [String] {
        var container = self
        container.removeDuplicateColumns()
        return container.columns
    }

    /// Whether a column is encoded.
    public func hasColumn(_ column: String) -> Bool { index(of: column) != nil }

    /// The database value of a column, if encoded.
    @inlinable
    public func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(of: column).map { storage.entries[$0].value }
    }

    /// The encoded columns, in order (repeated columns included).
    @inlinable
    var columns: [String] {
        (0..<storage.count).map { storage.entries[$0].column }
    }

    /// The encoded values, in the order of `columns`.
    @inlinable
    var values: [DatabaseValue] {
        (0..<storage.count).map { storage.entries[$0].value }
    }

    /// Whether the container holds exactly these columns, in this order.
    @inlinable
    func hasColumns(_ columns: [String]) -> Bool {
        guard columns.count == storage.count else { return false }
        let entries = storage.entries
        for index in 0..<columns.count {
            let column = entries[index].column
            // The columns of a record are usually the same string values
            // as those of its cached statement: no need to call `==`.
            if column.hasIdenticalRepresentation(columns[index]) { continue }
            if column != columns[index] { return false }
        }
        return true
    }

    /// The position of the last value of the column.
    @inlinable
    func index(of column: String) -> Int? {
        // Columns are few: a linear search with the exact name first beats
        // hashing.
        let entries = storage.entries
        if let index = (0..<storage.count).last(where: { entries[$0].column == column }) {
            return index
        }
        return (0..<storage.count).last { entries[$0].column.isEqualIgnoringASCIICase(column) }
    }

    /// Whether the container holds exactly the columns of a cached
    /// statement, as an earlier comparison found when its storage is
    /// recycled with the same columns: a loop of inserts of one type finds
    /// its statement without comparing column names. Inline, so that the
    /// cache's columns are compared without a retain.
    @inlinable @inline(__always)
    func isKnownToHave(cachedColumns columns: [String]) -> Bool {
        guard let matched = storage.matchedColumns else { return false }
        return matched.count == storage.count && matched.hasSameStorage(as: columns)
    }

    /// Whether the container holds exactly the columns of a cached
    /// statement, which it then remembers (see
    /// ``isKnownToHave(cachedColumns:)``).
    @inlinable
    mutating func hasColumns(ofCachedStatement columns: [String]) -> Bool {
        guard hasColumns(columns) else { return false }
        rememberColumns(ofCachedStatement: columns)
        return true
    }

    /// Remembers that the container holds exactly these columns, those of
    /// a cached statement, until one of them changes.
    @inlinable
    mutating func rememberColumns(ofCachedStatement columns: [String]) {
        // Another owner may read the storage on another thread.
        if isKnownUniquelyReferenced(&storage) { storage.matchedColumns = columns }
    }

    /// Starts binding the values of the columns, as they are set, to the
    /// parameters of `statement` (see ``PersistenceContainerStorage``).
    @inlinable
    mutating func startBinding(to statement: Unmanaged<Statement>) {
        storage.startBinding(to: statement)
    }

    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
        }
    }

    /// The encoder that the storage keeps for records of `recordType`,
    /// taken out of it: nil when it keeps none, or when copies of the
    /// container share the storage (they may be on other threads).
    @inlinable
    mutating func takeKeptEncoder(for recordType: Any.Type) -> DatabaseRecordEncoder? {
        guard isKnownUniquelyReferenced(&storage), let encoder = storage.keptEncoder,
              ObjectIdentifier(encoder.recordType) == ObjectIdentifier(recordType)
        else { return nil }
        storage.keptEncoder = nil
        return encoder
    }

    /// Keeps `encoder` in the storage for the next record, when no copy of
    /// the container shares the storage.
    @inlinable
    mutating func keep(_ encoder: DatabaseRecordEncoder) {
        if isKnownUniquelyReferenced(&storage) { storage.keptEncoder = encoder }
    }
}

/// The columns and values of a ``PersistenceContainer``, in one buffer
/// that grows as columns are set.
///
/// A class rather than two arrays: a connection keeps the storage of its
/// last insert and recycles it for the next one, so that loops of inserts
/// allocate nothing. A recycled storage keeps the entries of its previous
/// use, and the next appends overwrite them: a record that writes the
/// same column names as the last one only replaces the values.
@usableFromInline
final class PersistenceContainerStorage: @unchecked Sendable {
    // Mutated only by the container that holds the one reference to it
    // (copy on write), which makes the sharing of copies safe.
    @usableFromInline
    struct Entry {
        @usableFromInline var column: String
        @usableFromInline var value: DatabaseValue

        @inlinable
        init(column: String, value: DatabaseValue) {
            self.column = column
            self.value = value
        }
    }

    // No dynamic exclusivity checks: they would cost more than the
    // writes they guard, and only the unique owner mutates.
    @usableFromInline @exclusivity(unchecked) var entries: UnsafeMutablePointer<Entry>
    @usableFromInline @exclusivity(unchecked) var count = 0
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    /// The entries up to here are initialized: after `count` come those
    /// of the previous use of a recycled storage. Never below `count`.
    @usableFromInline @exclusivity(unchecked) var initializedCount = 0
    /// The columns of a cached statement that the entries match, position
    /// by position, up to its count: set by the statement cache, dropped
    /// when a write changes a column. A loop of inserts of one type finds
    /// its statement without comparing column names.
    @usableFromInline @exclusivity(unchecked) var matchedColumns: [String]?
    /// The statement of an insert whose parameters take the values as they
    /// are set, while they fill the columns of the storage's previous use,
    /// which were those of the statement: set by the statement cache for
    /// the insert's `encode(to:)` (see ``startBinding(to:)``), dropped at
    /// the first other write, and by the cache once the encoding ends.
    /// Not retained, so that a copy of the container that a record keeps
    /// keeps no statement: the statement names the storage as its binder,
    /// and the cache clears this reference through it before the statement
    /// can go (see `RecordStatementCache.endBinding()`).
    @usableFromInline @exclusivity(unchecked) var unretainedBindingStatement: Unmanaged<Statement>?

    /// The identity of the storage as a statement's binder.
    @inlinable
    var binderIdentity: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    /// The encoder of the last Encodable record written here (see
    /// ``PersistenceContainer/keep(_:)``).
    @usableFromInline @exclusivity(unchecked) var keptEncoder: DatabaseRecordEncoder?

    /// The storage of empty containers, never mutated: copies are made
    /// before the first column is set.
    @usableFromInline
    static let empty = PersistenceContainerStorage(capacity: 0)

    @inlinable
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        entries = .allocate(capacity: self.capacity)
    }

    deinit {
        stopBinding()
        destroyEntries(from: 0)
        entries.deallocate()
    }

    @inlinable @inline(__always)
    func append(_ column: String, _ value: DatabaseValue) {
        // The loop of inserts of one type, inline; the rest is a call, so
        // that an `encode(to:)` of many columns stays small enough for the
        // instruction cache to keep it along with SQLite's own code.
        if count < initializedCount {
            let entry = entries + count
            if entry.pointee.column.hasIdenticalRepresentation(column) && entry.pointee.value.holdsNoReference {
                // Nothing to release: the old value is overwritten.
                withUnsafeMutablePointer(to: &entry.pointee.value) { $0.initialize(to: value) }
                if let unretainedBindingStatement { bind(value, to: unretainedBindingStatement) }
                count += 1
                return
            }
        }
        appendOutOfLine(column, value)
    }

    /// Binds the value of the column at `count` to its parameter, unless
    /// another object binds values to the statement now; a value that does
    /// not bind leaves the insert to bind its values again, and report the
    /// error.
    @inlinable @inline(__always)
    func bind(_ value: DatabaseValue, to statement: Unmanaged<Statement>) {
        statement._withUnsafeGuaranteedRef { statement in
            guard statement.valuesBinder == binderIdentity else { return }
            if value.bind(to: statement.sqliteStatement, at: CInt(truncatingIfNeeded: count + 1)) != SQLITE_OK {
                stopBinding()
            }
        }
    }

    @usableFromInline @inline(never)
    func appendOutOfLine(_ column: String, _ value: DatabaseValue) {
        if count < initializedCount {
            let entry = entries + count
            if entry.pointee.column.hasIdenticalRepresentation(column) {
                entry.pointee.value = value
                if let unretainedBindingStatement { bind(value, to: unretainedBindingStatement) }
            } else {
                entry.pointee = Entry(column: column, value: value)
                matchedColumns = nil
                stopBinding()
            }
        } else {
            matchedColumns = nil
            stopBinding()
            if count == capacity { grow() }
            (entries + count).initialize(to: Entry(column: column, value: value))
            initializedCount = count + 1
        }
        count += 1
    }

    /// Starts binding the values of the columns, as they are set, to the
    /// parameters of `statement`, whose columns the storage holds from its
    /// previous use.
    @inlinable
    func startBinding(to statement: Unmanaged<Statement>) {
        statement._withUnsafeGuaranteedRef { statement in
            statement.reset()
            statement.valuesBinder = binderIdentity
        }
        unretainedBindingStatement = statement
    }

    /// Stops binding values to the statement.
    @usableFromInline
    func stopBinding() {
        guard let unretainedBindingStatement else { return }
        unretainedBindingStatement._withUnsafeGuaranteedRef { statement in
            if statement.valuesBinder == binderIdentity { statement.valuesBinder = nil }
        }
        self.unretainedBindingStatement = nil
    }

    /// Stops the binding of the storage that binds values to `statement`,
    /// if any: a binder that went cleared the statement's reference to it.
    @usableFromInline
    static func endBinding(of statement: Statement) {
        guard let binder = statement.valuesBinder else { return }
        Unmanaged<PersistenceContainerStorage>.fromOpaque(binder)._withUnsafeGuaranteedRef { $0.stopBinding() }
        statement.valuesBinder = nil
    }

    @usableFromInline
    func grow() {
        let newCapacity = capacity * 2
        let newEntries = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        newEntries.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = newEntries
        capacity = newCapacity
    }

    @usableFromInline
    func copy() -> PersistenceContainerStorage {
        let copy = PersistenceContainerStorage(capacity: Swift.max(capacity, 8))
        copy.entries.initialize(from: entries, count: count)
        copy.count = count
        copy.initializedCount = count
        return copy
    }

    /// Removes and returns the entry at `index`.
    @usableFromInline
    func remove(at index: Int) -> Entry {
        dropRecycledEntries()
        matchedColumns = nil
        stopBinding()
        let removed = (entries + index).move()
        (entries + index).moveInitialize(from: entries + index + 1, count: count - index - 1)
        count -= 1
        initializedCount = count
        return removed
    }

    /// Empties the storage for a new use, and keeps its entries for the
    /// appends to overwrite.
    @inlinable
    func recycle() {
        count = 0
    }

    /// Releases the entries of the previous use of a recycled storage that
    /// the new use did not overwrite: the values of a larger record.
    @inlinable
    func dropRecycledEntries() {
        if initializedCount > count { destroyEntries(from: count) }
    }

    @usableFromInline
    func destroyEntries(from start: Int) {
        // One entry at a time: `deinitialize(count:)` goes through the
        // runtime's generic destruction of arrays, which costs several
        // times more than the concrete release of each entry.
        for index in start..<initializedCount {
            _ = (entries + index).move()
        }
        initializedCount = start
    }
}

extension Array {
    /// Whether the two arrays share one buffer, and so are equal (equal
    /// arrays may have two buffers).
    @inlinable @inline(__always)
    func hasSameStorage(as other: [Element]) -> Bool {
        withUnsafeBufferPointer { lhs in
            other.withUnsafeBufferPointer { rhs in lhs.baseAddress == rhs.baseAddress }
        }
    }
}
