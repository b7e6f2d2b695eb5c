import Trellis

/// The objects of one entity type in a store.
///
/// ```swift
/// let box = store.box(for: Person.self)
/// let id = try box.put(person)          // person.id is set
/// let again = try box.get(id)
/// let everybody = try box.all()
/// let amandas = try box.query { Column("name") == "Amanda" }.find()
/// try box.remove(person)
/// ```
///
/// The entities of a box may be structs, which get their ids from the
/// puts that hand them back:
///
/// ```swift
/// var author = Author(id: 0, name: "Nnedi Okorafor", age: 45)
/// try authorBox.put(&author)                   // author.id is set
/// let copy = try authorBox.put(struct: author)  // or a copy with the id
/// ```
///
/// The throwing methods of a box throw ``ObjectBoxError``:
/// `.uniqueViolation` for a put that repeats the value of a unique
/// property, `.cannotWriteWhileReading` for a put or a remove inside
/// `store.runInReadOnlyTransaction` or on a read-only store, and
/// `.illegalState` for a misuse, whose
/// message names it (a closed store, an entity type whose table another
/// type of the same name uses, `put(mode: .insert)` of an object that
/// exists). Other failures of SQLite (a full disk) are a `DatabaseError`.
public final class Box<T: Entity>: @unchecked Sendable {
    // A box holds no mutable state: the store serializes database work.
    /// The store of the box.
    public let store: Store

    /// What the boxes of `T` share in the store.
    let state: BoxState

    /// How the objects are read and written.
    let coding: EntityCoding<T>

    /// The table of the objects.
    var table: EntityTable { state.table }

    init(store: Store, state: BoxState) {
        self.store = store
        self.state = state
        // The state made the coding of `T`.
        coding = state.coding as? EntityCoding<T> ?? EntityCoding<T>.make()
    }

    var tableName: String { table.name }

    // MARK: Put

    /// Throws when `object` can not be put with `mode`.
    func check(_ object: T, _ mode: PutMode, _ db: Database) throws {
        var exists = false
        if object.id != 0, try db.tableExists(tableName) {
            exists = try Table(tableName).exists(db, key: Int64(bitPattern: object.id))
        }
        switch mode {
        case .put:
            break
        case .insert:
            if exists { throw ObjectBoxError.illegalState(message: "put(mode: .insert): \(T.entityName) \(object.id) exists already") }
        case .update:
            if !exists {
                throw ObjectBoxError.illegalState(message: object.id == 0
                    ? "put(mode: .update): this \(T.entityName) is not stored yet (its id is 0)"
                    : "put(mode: .update): there is no \(T.entityName) \(object.id)")
            }
        }
    }

    /// Writes `entity`, inserting it when its id is 0: a new entity gets its
    /// id. `identity` is the object of a class entity, which the put tracks
    /// (to stop at cycles, and so that a rollback gives it its id 0 back);
    /// nil for a struct, which no relation can lead back to.
    func write(_ entity: inout T, identity: AnyObject?, db: Database, context: PutContext) throws {
        try checkTable()
        // By identifier: a binding of the object would retain it.
        let putObject = identity.map(ObjectIdentifier.init)
        if let putObject { context.begin(putObject) }
        defer { if let putObject { context.end(putObject) } }
        // The state keeps its encoder, which is lent without a retain; the
        // targets put below may have the type of the entity, and then get
        // an encoder of their own.
        let shared = Unretained(state.encoder)
        if shared.read({ $0.isInUse }) {
            try write(&entity, identity: identity, db: db, context: context,
                      encoder: EntityEncoder(plan: state.encodingPlan, renamedIdKey: state.renamedIdKey, link: store.link))
        } else {
            try shared.read { encoder in
                try write(&entity, identity: identity, db: db, context: context, encoder: encoder)
            }
        }
    }

    /// Writes `entity` with `encoded`, the encoder of the put, which the
    /// caller keeps alive: given as an argument, it costs no retain here.
    private func write(_ entity: inout T, identity: AnyObject?, db: Database, context: PutContext, encoder encoded: EntityEncoder) throws {
        encoded.isInUse = true
        defer {
            encoded.removeAll()
            encoded.isInUse = false
        }
        try encoded.encode(entity, with: coding)
        if encoded.hasToOneLoadError {
            // A load that `target` could not throw is reported here.
            for index in encoded.toOnes.indices {
                if let error = encoded.toOnes[index].relation.takeLoadError() { throw error }
            }
        }
        var cycle = false
        var hadUnsavedTargets = false
        if encoded.hasToOneWithoutTargetId {
            for index in encoded.toOnes.indices {
                let relation = encoded.toOnes[index].relation
                guard relation.targetId == nil else { continue }
                if context.isDeep {
                    // Stored without the relation for now, and put again
                    // once the target has its id.
                    cycle = relation.hasUnsavedTarget || cycle
                    continue
                }
                hadUnsavedTargets = true
                if try !relation.putUnsavedTarget(db, store: store, context: context) {
                    cycle = true
                }
            }
        }
        if hadUnsavedTargets {
            try encoded.encode(entity, with: coding)
        }
        // The state keeps its table: it is lent without a retain.
        try Unretained(state.table).read { table in
            try writeRow(of: &entity, identity: identity, encoder: encoded, table: table, db: db)
        }
        if cycle {
            // Only a class object is put again: a cycle goes through
            // relations, whose targets are classes.
            let pending = entity
            context.putAgain.append {
                var entity = pending
                try self.write(&entity, identity: identity, db: db, context: context)
            }
        }
        // Every list is attached to its stored owner, so that later changes
        // can be applied and reads reach the database; modified ones are
        // written.
        if !encoded.toManys.isEmpty {
            let ownerId = entity.id
            for toMany in encoded.toManys {
                let relation = toMany.relation
                let property = toMany.property
                if context.isDeep {
                    context.putAgain.append {
                        try relation.save(db, store: self.store, ownerType: T.self, ownerId: ownerId, propertyName: property, context: context)
                    }
                } else {
                    try relation.save(db, store: store, ownerType: T.self, ownerId: ownerId, propertyName: property, context: context)
                }
            }
        }
    }

    /// Inserts or updates the row of `entity`, whose columns `encoded`
    /// holds, in `table`: a new entity gets its id.
    private func writeRow(of entity: inout T, identity: AnyObject?, encoder encoded: EntityEncoder, table: EntityTable, db: Database) throws {
        try table.prepare(db, for: encoded)
        if entity.id == 0 {
            let insert = try table.insertStatement(db, encodedColumns: encoded.columns)
            // In place: the values are not read again before the next
            // encode, and a copy would cost an allocation per object.
            if let idIndex = insert.idIndex { encoded.values.remove(at: idIndex) }
            try insert.statement.execute(values: encoded.values)
            let newId = Id(bitPattern: db.lastInsertedRowID)
            entity.id = newId
            guard entity.id == newId else {
                throw ObjectBoxError.illegalState(message: T.missingIdProblem)
            }
            if let identity { store.didInsert(identity, of: T.self) }
        } else {
            try table.upsertStatement(db, columns: encoded.columns).execute(values: encoded.values)
        }
    }

    // MARK: Get

    /// The object with the given id, or nil.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a stored row cannot be decoded as an object; a
    ///   `DatabaseError` if SQLite fails.
    public func get(_ id: Id) throws -> T? {
        try coding.get(id, in: self)
    }

    /// The objects with the given ids, in the order of the ids; missing
    /// objects are skipped.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a stored row cannot be decoded as an object; a
    ///   `DatabaseError` if SQLite fails.
    public func get(_ ids: [Id]) throws -> [T] {
        guard !ids.isEmpty else { return [] }
        return try readTable(orIfMissing: []) { db in
            let request = Table(tableName).filter(keys: ids.map { Int64(bitPattern: $0) })
            let statement = try request.makePreparedRequest(db).statement
            var objects: [Id: T] = [:]
            for object in try decodeAll(statement) {
                objects[object.id] = object
            }
            return ids.compactMap { objects[$0] }
        }
    }

    /// All objects, by increasing id.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a stored row cannot be decoded as an object; a
    ///   `DatabaseError` if SQLite fails.
    public func all() throws -> [T] {
        try readTable(orIfMissing: []) { db in
            try decodeAll(db.cachedStatement(sql: table.selectAllSQL(db)))
        }
    }

    /// The number of objects, or, with a `limit` other than 0, the number
    /// of objects up to that limit.
    ///
    /// ```swift
    /// let count = try personBox.count()
    /// let atLeastTen = try personBox.count(limit: 10) == 10
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed; a `DatabaseError` if SQLite fails.
    public func count(limit: Int = 0) throws -> Int {
        try readTable(orIfMissing: 0) { db in
            if limit > 0 {
                return try Table(tableName).limit(limit).fetchCount(db)
            }
            return try Table(tableName).fetchCount(db)
        }
    }

    /// Whether the box has no object.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed; a `DatabaseError` if SQLite fails.
    public func isEmpty() throws -> Bool {
        try count() == 0
    }

    /// Whether an object has the given id.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed; a `DatabaseError` if SQLite fails.
    public func contains(_ id: Id) throws -> Bool {
        try readTable(orIfMissing: false) { db in
            try Table(tableName).exists(db, key: Int64(bitPattern: id))
        }
    }

    /// Whether objects have all the given ids (true for no id).
    ///
    /// ```swift
    /// let both = try personBox.contains([amanda.id, bob.id])
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed; a `DatabaseError` if SQLite fails.
    public func contains(_ ids: [Id]) throws -> Bool {
        let wanted = Set(ids)
        guard !wanted.isEmpty else { return true }
        return try readTable(orIfMissing: false) { db in
            let found = try Table(tableName).filter(keys: wanted.map { Int64(bitPattern: $0) }).fetchCount(db)
            return found == wanted.count
        }
    }

    /// Whether objects have all the given ids: `try personBox.contains(amanda.id, bob.id)`.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed; a `DatabaseError` if SQLite fails.
    public func contains(_ ids: Id...) throws -> Bool {
        try contains(ids)
    }

    // MARK: Remove

    /// Removes the object with the given id; returns whether it existed.
    /// Relations to it follow their delete rule (removed by default).
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove(_ id: Id) throws -> Bool {
        try writeTable { db in
            try delete([id], db) == 1
        }
    }

    /// Removes an object; returns whether it existed. The id of a class
    /// object is reset to 0 (a struct passed here is a copy: keep in mind
    /// that yours keeps its id).
    ///
    /// ```swift
    /// try personBox.remove(person)   // person.id == 0
    /// try authorBox.remove(author)   // a struct: author.id is unchanged
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove(_ object: T) throws -> Bool {
        let removed = try remove(object.id)
        Self.resetId(of: object)
        return removed
    }

    /// Removes objects, in one transaction; returns how many existed.
    /// The ids of class objects are reset to 0.
    ///
    /// ```swift
    /// try personBox.remove([amanda, bob])
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove(_ objects: [T]) throws -> Int {
        let count = try writeTable { db in
            try delete(objects.map(\.id), db)
        }
        for object in objects { Self.resetId(of: object) }
        return count
    }

    /// Sets the id of a class object to 0; a struct is a copy, unchanged
    /// outside.
    private static func resetId(of object: T) {
        var object = object
        object.id = 0
    }

    /// Removes the objects with the given ids, in one transaction; returns
    /// how many existed.
    ///
    /// ```swift
    /// try personBox.remove([amanda.id, bob.id])
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove(_ ids: [Id]) throws -> Int {
        try writeTable { db in
            try delete(ids, db)
        }
    }

    /// Deletes the rows of `ids`; returns how many there were.
    func delete(_ ids: [Id], _ db: Database) throws -> Int {
        guard !ids.isEmpty, try db.tableExists(tableName) else { return 0 }
        return try Table(tableName).deleteAll(db, keys: ids.map { Int64(bitPattern: $0) })
    }

    /// Removes objects in one transaction: `try personBox.remove(amanda, bob)`.
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove(_ first: T, _ second: T, _ others: T...) throws -> Int {
        try remove([first, second] + others)
    }

    /// Removes the objects with the given ids: `try personBox.remove(amanda.id, bob.id)`.
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove(_ ids: Id...) throws -> Int {
        try remove(ids)
    }

    /// Removes all objects; returns how many there were (a `UInt64`, as
    /// ObjectBox counts).
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func removeAll() throws -> UInt64 {
        try writeTable { db in
            guard try db.tableExists(tableName) else { return 0 }
            return try UInt64(Table(tableName).deleteAll(db))
        }
    }

    // MARK: Query

    /// A query of the objects that match a condition on their columns.
    ///
    /// ```swift
    /// let adults = try personBox.query { Column("age") >= 18 }.ordered(by: Column("name")).find()
    /// ```
    public func query(_ condition: () -> any SQLExpressible) -> Query<T> {
        Query(box: self, conditions: [condition().sqlExpression], orderings: [])
    }

    /// A query of the objects that match a condition on their properties,
    /// written with the ``Property`` values declared for the entity.
    ///
    /// ```swift
    /// extension Person {
    ///     static let name = Property<Person, String>("name")
    ///     static let age = Property<Person, Int>("age")
    /// }
    /// let query = try personBox.query { Person.name.startsWith("Andrea") && Person.age > 18 }.build()
    /// let andreas = try query.find()
    /// ```
    public func query(_ condition: () -> QueryCondition<T>) -> Query<T> {
        Query(box: self, conditions: [], condition: condition().node, orderings: [])
    }

    /// A query of all objects.
    public func query() -> Query<T> {
        Query(box: self, conditions: [], orderings: [])
    }

    // MARK: Decoding

    /// The objects of the rows of `statement`, run with `arguments`.
    func decodeAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [T] {
        try withDecoder(reading: statement) { decoder in
            try coding.decodeAll(statement, arguments: arguments, with: decoder)
        }
    }

    /// The object of the first row of `statement`, run with `arguments`.
    func decodeOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> T? {
        try withDecoder(reading: statement) { decoder in
            try coding.decodeOne(statement, arguments: arguments, with: decoder)
        }
    }

    /// Runs `body` with the decoder of the box, or with a decoder of its
    /// own when the decoder of the box is busy: an entity whose decoding
    /// fetches other objects of its type.
    @inline(__always)
    func withDecoder<R>(reading statement: Statement?, _ body: (EntityDecoder) throws -> R) throws -> R {
        // The state keeps its decoder: it is lent without a retain.
        let shared = Unretained(state.decoder)
        if shared.read({ $0.isInUse }) {
            return try Self.decode(with: EntityDecoder(plan: state.decodingPlan, link: store.link, entityType: T.self), reading: statement, body)
        }
        return try shared.read { try Self.decode(with: $0, reading: statement, body) }
    }

    /// Runs `body` with `decoder`, which the caller keeps alive: given as
    /// an argument, it costs no retain here.
    @inline(__always)
    private static func decode<R>(with decoder: EntityDecoder, reading statement: Statement?, _ body: (EntityDecoder) throws -> R) throws -> R {
        decoder.begin(statement)
        defer { decoder.end() }
        return try body(decoder)
    }

    /// Runs `body` with the statement that reads an object by id, on the
    /// connection `db`.
    @inline(__always)
    func withSelectByIdStatement<R>(_ db: Database, _ body: (Statement) throws -> R) throws -> R {
        // The state keeps its table: it is lent without a retain.
        try db.withCachedLookup(for: state.selectByIdOwner, sql: { try Unretained(state.table).read { try $0.selectByIdSQL(db) } }, body)
    }

    /// Reads the table of the objects, or returns `empty` when there is
    /// no table: no object of this type was ever put. The table is looked
    /// for only when a statement fails, so that reads do not pay for it.
    @inline(__always)
    func readTable<R>(orIfMissing empty: R, _ body: (Database) throws -> R) throws -> R {
        try checkTable()
        return try store.read { db in
            do {
                return try body(db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
                if try !db.tableExists(tableName) { return empty }
                throw error
            }
        }
    }

    /// Runs `body` in a write of the store, for an operation on the
    /// table of the box.
    func writeTable<R>(_ body: (Database) throws -> R) throws -> R {
        try checkTable()
        return try store.write(body)
    }

    /// Throws when the box can not use its table.
    @inline(__always)
    func checkTable() throws {
        if let conflict = state.tableConflict { throw ObjectBoxError.illegalState(message: conflict) }
    }
}

// MARK: Put of class objects

extension Box where T: AnyObject {
    /// Stores an object, inserting it when its id is 0, and returns its id:
    /// a new object gets its id. Targets of its relations that are not
    /// stored yet are put first, in the same transaction.
    ///
    /// With `mode: .insert`, the put throws when an object with the id
    /// exists already; with `mode: .update`, when none does.
    ///
    /// ```swift
    /// let id = try personBox.put(person)
    /// try personBox.put(person, mode: .update)
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func put(_ object: T, mode: PutMode = .put) throws -> Id {
        try writeTable { db in
            if mode != .put { try check(object, mode, db) }
            let context = PutContext()
            try put(object, db: db, context: context)
            try context.finish()
            return object.id
        }
    }

    /// Stores objects in one transaction, and returns their ids. With a
    /// `mode` other than `.put`, nothing is stored when one object fails
    /// its check.
    ///
    /// ```swift
    /// let ids = try personBox.put([amanda, bob])
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func put(_ objects: [T], mode: PutMode = .put) throws -> [Id] {
        try writeTable { db in
            if mode != .put {
                for object in objects { try check(object, mode, db) }
            }
            let context = PutContext()
            for object in objects {
                try put(object, db: db, context: context)
            }
            try context.finish()
            // A closure, where a key path to a requirement of a generic
            // type is read through the runtime.
            return objects.map { $0.id }
        }
    }

    /// Stores objects in one transaction: `try personBox.put(amanda, bob)`.
    ///
    /// - Throws: ``ObjectBoxError/uniqueViolation(message:)`` if a unique
    ///   property repeats a stored value;
    ///   ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a read-only
    ///   transaction or store; ``ObjectBoxError/illegalState(message:)`` for a
    ///   misuse (a closed store, `.insert` of an object that exists, `.update`
    ///   of one that does not); a `DatabaseError` if SQLite fails.
    @discardableResult
    public func put(_ first: T, _ second: T, _ others: T...) throws -> [Id] {
        try put([first, second] + others)
    }

    /// Puts `object` in the write in progress.
    func put(_ object: T, db: Database, context: PutContext) throws {
        var entity = object
        try write(&entity, identity: object, db: db, context: context)
    }
}
