import Foundation
import Trellis

/// The object store: a database of entities, with a ``Box`` for each
/// entity type.
///
/// ```swift
/// let store = try Store(directoryPath: "/path/to/objects")
/// let personBox = store.box(for: Person.self)
/// let amanda = Person()
/// amanda.name = "Amanda"
/// try personBox.put(amanda)
/// ```
///
/// Objects and records can share one file and one transaction: open the
/// store over a `DatabaseQueue` with ``init(queue:)``. Tables are created,
/// and new properties added as columns, the first time objects of a type
/// are put.
public final class Store: @unchecked Sendable {
    // Mutable state is guarded by `lock`; database work runs on the queue.
    /// The database of the store.
    public let queue: DatabaseQueue
    private let lock = NSLock()
    private var boxStates: [ObjectIdentifier: BoxState] = [:]
    /// What the relations of the objects refer to.
    let link: StoreLink
    /// The store that a clone shares its database and its state with
    /// (see ``clone()``); nil for a store that opened its database.
    let primary: Store?
    /// Whether ``close()`` was called on this instance.
    private var isClosedInstance = false
    /// Where async boxes run their writes, one after the other.
    private let ownAsyncQueue = DispatchQueue(label: "Trellis.Store.async")
    var asyncQueue: DispatchQueue { primary?.asyncQueue ?? ownAsyncQueue }
    /// The instances open on the database of a primary store, itself
    /// included; guarded by `StoreRegistry.lock`.
    var openInstanceCount = 1
    private var tables: [String: EntityTable] = [:]
    // The class objects that the write in progress inserted (structs are
    // values, out of reach); only touched inside database accesses, which
    // the queue serializes.
    @exclusivity(unchecked) private var insertedObjects: [InsertedObject] = []

    /// The name of the database file in the store's folder.
    public static let databaseFileName = "objects.sqlite"

    /// The folder of the store; ``inMemoryPrefix`` for a store in memory,
    /// and "" for a store opened over a `DatabaseQueue`.
    public let directoryPath: String

    /// A `directoryPath` that starts with this prefix (`"memory:test"`)
    /// opens a store in memory, which keeps no file.
    public static let inMemoryPrefix = "memory:"

    /// Opens a store in a folder, creating the folder and its database file
    /// when needed. A path that starts with ``inMemoryPrefix`` opens a
    /// store in memory.
    ///
    /// The other parameters are those of ObjectBox: `maxDbSizeInKByte`
    /// bounds the size of the database (writes beyond it throw
    /// `SQLITE_FULL`), `fileMode` gives the permissions of a new database
    /// file, and `maxReaders` bounds the read transactions that run at
    /// once (0: the default). A store has one connection, which reads and
    /// writes in turn: one reader at a time is within any bound.
    ///
    /// ```swift
    /// let store = try Store(directoryPath: "/path/to/objects")
    /// let small = try Store(directoryPath: "/path/to/cache", maxDbSizeInKByte: 10 * 1024)
    /// let scratch = try Store(directoryPath: Store.inMemoryPrefix + "scratch")
    /// let tuned = try Store(directoryPath: "/path/to/objects", fileMode: 0o600, maxReaders: 16)
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` when `readOnly`
    ///   names a folder without a store, or the database file can not be
    ///   created; Foundation's error when the folder can not be created;
    ///   a `DatabaseError` when SQLite can not open the file.
    public init(
        directoryPath: String, maxDbSizeInKByte: UInt64 = 1024 * 1024, fileMode: UInt32 = 0o644, maxReaders: UInt32 = 0,
        readOnly: Bool = false) throws
    {
        self.directoryPath = directoryPath
        link = StoreLink()
        primary = nil
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            // `UInt64.max` kilobytes, or any size beyond SQLite's page
            // count, leaves the database unlimited.
            let (bytes, overflow) = maxDbSizeInKByte.multipliedReportingOverflow(by: 1024)
            let pages = overflow ? UInt64.max : max(UInt64(1), bytes / UInt64(max(pageSize, 512)))
            try db.execute(sql: "PRAGMA max_page_count = \(min(pages, UInt64(Int32.max)))")
        }
        if directoryPath.hasPrefix(Self.inMemoryPrefix) {
            queue = try DatabaseQueue(configuration: configuration)
            link.attach(self)
            StoreRegistry.register(self)
            return
        }
        let path = (directoryPath as NSString).appendingPathComponent(Self.databaseFileName)
        if readOnly {
            // Nothing is created: a read-only store opens an existing one.
            guard FileManager.default.fileExists(atPath: path) else {
                throw ObjectBoxError.illegalState(message: "no store to open read-only in \(directoryPath): \(path) does not exist")
            }
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            queue = try DatabaseQueue(path: path, configuration: configuration)
            link.attach(self)
            StoreRegistry.register(self)
            return
        }
        try FileManager.default.createDirectory(atPath: directoryPath, withIntermediateDirectories: true)
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        if !FileManager.default.fileExists(atPath: path) {
            // SQLite gives its journal files the permissions of the database.
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: Int(fileMode)]) else {
                throw ObjectBoxError.illegalState(message: "could not create the database file \(path)")
            }
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        link.attach(self)
        StoreRegistry.register(self)
    }

    /// Opens a store in memory.
    ///
    /// - Throws: A `DatabaseError` if SQLite fails to open the in-memory
    ///   database.
    public init() throws {
        directoryPath = Self.inMemoryPrefix
        queue = try DatabaseQueue()
        link = StoreLink()
        primary = nil
        link.attach(self)
    }

    /// Opens a store over an existing database, shared with records.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue(path: path)
    /// let store = Store(queue: dbQueue)
    /// ```
    public init(queue: DatabaseQueue) {
        directoryPath = ""
        self.queue = queue
        link = StoreLink()
        primary = nil
        link.attach(self)
    }

    /// Another instance of `primary`: the same database, boxes and
    /// transactions.
    init(cloning primary: Store) {
        directoryPath = primary.directoryPath
        queue = primary.queue
        link = primary.link
        self.primary = primary
    }

    /// The box of an entity type.
    ///
    /// A box is cheap to get: the boxes of a type share what they learn
    /// about it. It keeps its store open.
    public func box<T: Entity>(for type: T.Type = T.self) -> Box<T> {
        if let primary { return Box(store: self, state: primary.boxState(for: T.self)) }
        return Box(store: self, state: boxState(for: T.self))
    }

    /// What the boxes of `T` share.
    private func boxState<T: Entity>(for type: T.Type) -> BoxState {
        let key = ObjectIdentifier(type)
        lock.lock()
        if let state = boxStates[key] {
            lock.unlock()
            return state
        }
        lock.unlock()
        // Made outside the lock: `table(for:)` takes it.
        let newState = BoxState(table: table(for: T.self), link: link, entityType: T.self)
        lock.lock()
        let state = boxStates[key] ?? newState
        boxStates[key] = state
        lock.unlock()
        return state
    }

    /// Runs `body` in a transaction. Box operations inside join it, and so
    /// do nested calls; a thrown error rolls all of it back.
    ///
    /// ```swift
    /// try store.runInTransaction {
    ///     try personBox.put(amanda)
    ///     try personBox.put(bob)
    /// }
    /// ```
    ///
    /// - Throws: The error thrown by `body`, after the rollback;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails to begin or commit.
    @discardableResult
    public func runInTransaction<R>(_ body: () throws -> R) throws -> R {
        try write { _ in try body() }
    }

    /// Runs `body` in a transaction: the form for closures that return
    /// nothing, such as `{ try box.put(user) }`.
    ///
    /// - Throws: The error thrown by `body`, after the rollback;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails to begin or commit.
    public func runInTransaction(_ body: () throws -> Void) throws {
        try write { _ in try body() }
    }

    /// Runs `body` in a transaction that can not write. Nested calls join
    /// the outer transaction.
    ///
    /// - Throws: The error thrown by `body`, after the rollback;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` if `body` writes;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func runInReadOnlyTransaction<R>(_ body: () throws -> R) throws -> R {
        try read { _ in try body() }
    }

    /// Runs `body` in a transaction that can not write: the form for
    /// closures that return nothing.
    ///
    /// - Throws: The error thrown by `body`, after the rollback;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` if `body` writes;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    public func runInReadOnlyTransaction(_ body: () throws -> Void) throws {
        try read { _ in try body() }
    }

    /// Closes the store. Later operations on this instance throw. The
    /// database closes with the last of its instances (see ``clone()``).
    ///
    /// ```swift
    /// try store.close()
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if it is called from
    ///   one of the store's transactions; a `DatabaseError` if SQLite fails to
    ///   close the database.
    public func close() throws {
        // Checked first, so that the store stays open when it refuses.
        if StoreAccess.database(of: primary ?? self) != nil {
            throw ObjectBoxError.illegalState(message: "the store \(directoryPath) can not be closed from one of its transactions")
        }
        lock.lock()
        let wasClosed = isClosedInstance
        isClosedInstance = true
        lock.unlock()
        guard !wasClosed else { return }
        if try StoreRegistry.closeInstance(of: primary ?? self) {
            try queue.close()
        }
    }

    /// The error of an operation on a closed instance.
    private var closedError: ObjectBoxError {
        ObjectBoxError.illegalState(message: "the store \(directoryPath) is closed")
    }

    /// Closes the store and deletes its database files, and its folder
    /// when nothing else is left in it. Later operations throw.
    ///
    /// ```swift
    /// try store.closeAndDeleteAllFiles()
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if it is called from
    ///   one of the store's transactions; a `DatabaseError` if SQLite fails to
    ///   close the database; the error of `FileManager` if a file cannot be
    ///   deleted.
    public func closeAndDeleteAllFiles() throws {
        try close()
        try queue.close()
        guard !directoryPath.isEmpty, !directoryPath.hasPrefix(Self.inMemoryPrefix) else { return }
        let fileManager = FileManager.default
        let database = (directoryPath as NSString).appendingPathComponent(Self.databaseFileName)
        for path in [database, database + "-wal", database + "-shm", database + "-journal"] where fileManager.fileExists(atPath: path) {
            try fileManager.removeItem(atPath: path)
        }
        if (try? fileManager.contentsOfDirectory(atPath: directoryPath))?.isEmpty == true {
            try fileManager.removeItem(atPath: directoryPath)
        }
    }

    // MARK: Database access

    /// Runs `body` in a transaction, or, inside one, in a savepoint: a
    /// failed operation inside `runInTransaction` leaves nothing behind,
    /// even when the caller catches its error and goes on. The objects
    /// that a rolled back write inserted get their id 0 back, so that a
    /// later put inserts them again.
    func write<R>(_ body: (Database) throws -> R) throws -> R {
        if let primary {
            if isClosed { throw closedError }
            return try primary.writeOnDatabase(body, checkingClosed: false)
        }
        return try writeOnDatabase(body, checkingClosed: true)
    }

    /// Whether ``close()`` was called on this instance.
    private var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isClosedInstance
    }

    /// The write of a primary store, for itself and its clones.
    private func writeOnDatabase<R>(_ body: (Database) throws -> R, checkingClosed: Bool) throws -> R {
        let current = StoreAccess.database(of: self)?.takeUnretainedValue()
        if checkingClosed && current == nil && isClosed { throw closedError }
        if let db = current, db.isInsideTransaction {
            let insertedCount = insertedObjects.count
            var result: R?
            do {
                try db.inSavepoint {
                    result = try body(db)
                    return .commit
                }
            } catch {
                resetIds(from: insertedCount)
                invalidateTables()
                throw ObjectBoxError.translating(error)
            }
            guard let result else { throw ObjectBoxError.illegalState(message: "a write of the object store returned no result") }
            return result
        }
        var inserted: [InsertedObject] = []
        do {
            return try queue.write { db in
                defer {
                    // Moved out while the queue still serializes accesses.
                    inserted = insertedObjects
                    insertedObjects = []
                }
                return try StoreAccess.run(self, database: db) { try body(db) }
            }
        } catch {
            // The transaction rolled back, and tables it created with it.
            for object in inserted { Self.resetId(of: object) }
            invalidateTables()
            throw ObjectBoxError.translating(error)
        }
    }

    /// Records a class object of `type` that the write in progress
    /// inserted.
    func didInsert(_ object: AnyObject, of type: any Entity.Type) {
        if let primary { return primary.didInsert(object, of: type) }
        insertedObjects.append(InsertedObject(object: object, type: type))
    }

    private func resetIds(from index: Int) {
        guard index < insertedObjects.count else { return }
        for object in insertedObjects[index...] { Self.resetId(of: object) }
        insertedObjects.removeSubrange(index...)
    }

    /// Gives a class object that a rolled back write inserted its id 0
    /// back.
    private static func resetId(of inserted: InsertedObject) {
        func reset<E: Entity>(_ type: E.Type) {
            // `E` is the class of the object: the copy refers to it.
            guard var entity = inserted.object as? E else { return }
            entity.id = 0
        }
        reset(inserted.type)
    }

    private func invalidateTables() {
        lock.lock()
        defer { lock.unlock() }
        for table in tables.values { table.invalidate() }
    }

    /// Runs `body` in the current read or write of the thread, or in a new
    /// read.
    ///
    /// Inlined, as are the box's layers above it (`readTable`,
    /// `withDecoder`): a read by id runs them all for one object, and as
    /// functions of their own, each in its own place in memory, they push
    /// SQLite's code out of the processor's instruction cache. Inlined,
    /// a read by id takes about 5% less time (O3m).
    @inline(__always)
    func read<R>(_ body: (Database) throws -> R) throws -> R {
        if let primary {
            if isClosed { throw closedError }
            return try primary.readOnDatabase(body, checkingClosed: false)
        }
        return try readOnDatabase(body, checkingClosed: true)
    }

    /// The read of a primary store, for itself and its clones.
    @inline(__always)
    private func readOnDatabase<R>(_ body: (Database) throws -> R, checkingClosed: Bool) throws -> R {
        // An operation inside a transaction of the store joins it: the
        // store closed from another thread meanwhile refuses the
        // operations that follow the transaction, not those inside it.
        if let db = StoreAccess.database(of: self) { return try db._withUnsafeGuaranteedRef(body) }
        if checkingClosed && isClosed { throw closedError }
        return try queue.read { db in
            try StoreAccess.run(self, database: db) { try body(db) }
        }
    }

    // MARK: Schema

    func table(for type: any Entity.Type) -> EntityTable {
        if let primary { return primary.table(for: type) }
        let name = type.entityTableName
        lock.lock()
        defer { lock.unlock() }
        if let table = tables[name] { return table }
        let table = EntityTable(name: name, entityType: type, deleteRules: type.deleteRules,
                                indexed: type.indexedProperties, unique: type.uniqueProperties)
        tables[name] = table
        return table
    }
}

/// A class object that a write inserted, and its entity type: kept apart
/// (rather than as `any Entity`, a container of five words that every copy
/// and release goes through) since only a rollback reads them.
struct InsertedObject {
    let object: AnyObject
    let type: any Entity.Type
}

/// The state of one `put`: the objects being put (to stop at cycles), and
/// the objects to put again once the objects they point to have ids. Only
/// class objects are tracked: relations point to classes, so a cycle never
/// goes through a struct.
final class PutContext {
    // Only touched by its put, inside a database access.
    /// The objects being put, each waiting for the relations of the next:
    /// a stack, no deeper than `maximumDepth`, which a scan searches for
    /// less than a hash of each object costs.
    @exclusivity(unchecked) private var putting: [ObjectIdentifier] = []
    @exclusivity(unchecked) var putAgain: [() throws -> Void] = []

    func isPutting(_ object: AnyObject) -> Bool {
        putting.contains(ObjectIdentifier(object))
    }

    /// Whether the objects being put, each waiting for the relations of
    /// the next, are too many to put one more on the stack: a put follows
    /// relations recursively, and a chain of thousands of new objects
    /// overflowed the stack. Past this depth, the put of a relation waits
    /// in `putAgain`, whose puts start again from the bottom of the stack.
    var isDeep: Bool {
        putting.count >= Self.maximumDepth
    }

    /// Deep enough for any ordinary object graph to be put in one pass, and
    /// shallow enough for a thread with a small stack (512 KB), sanitizers
    /// included.
    static let maximumDepth = 48

    func begin(_ identifier: ObjectIdentifier) {
        putting.append(identifier)
    }

    /// Ends the put of the object of `identifier`, the last one begun:
    /// puts nest.
    func end(_ identifier: ObjectIdentifier) {
        if putting.last == identifier {
            putting.removeLast()
        } else if let index = putting.lastIndex(of: identifier) {
            putting.remove(at: index)
        }
    }

    /// Puts again the objects that waited for the ids of their targets.
    func finish() throws {
        while !putAgain.isEmpty {
            let pending = putAgain
            putAgain = []
            for putAgain in pending { try putAgain() }
        }
    }
}
