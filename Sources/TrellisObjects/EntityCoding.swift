import Trellis

/// How the boxes of `T` turn objects into columns and rows into objects:
/// through the `Codable` conformance of `T`, or, in the subclasses, through
/// the binding that the ``Entity()`` macro generates, and for classes with
/// fetch loops that collect references.
///
/// A box gets the coding of its type once (see ``make()``), so that the
/// choice between these ways costs no cast per object: the subclass that
/// fits `T` overrides the methods, and the generic type parameter carries
/// the type through, where a dynamic cast to `T` would be needed otherwise.
class EntityCoding<T: Entity> {
    /// The coding that fits `T`.
    static func make() -> EntityCoding<T> {
        if let classType = T.self as? any (_EntityReadLoops & AnyObject).Type,
           let coding = loopedClassCoding(classType) as? EntityCoding<T>
        {
            return coding
        }
        if let loopedType = T.self as? any _EntityReadLoops.Type, let coding = loopedValueCoding(loopedType) as? EntityCoding<T> {
            return coding
        }
        if let classType = T.self as? any (EntityBinding & AnyObject).Type,
           let coding = boundClassCoding(classType) as? EntityCoding<T>
        {
            return coding
        }
        if let boundType = T.self as? any EntityBinding.Type, let coding = boundValueCoding(boundType) as? EntityCoding<T> {
            return coding
        }
        if let classType = T.self as? any (Entity & AnyObject).Type, let coding = classCoding(classType) as? EntityCoding<T> {
            return coding
        }
        return EntityCoding<T>()
    }

    private static func loopedClassCoding<C: _EntityReadLoops & AnyObject>(_ type: C.Type) -> AnyObject { LoopedClassCoding<C>() }
    private static func loopedValueCoding<B: _EntityReadLoops>(_ type: B.Type) -> AnyObject { LoopedValueCoding<B>() }
    private static func boundClassCoding<C: EntityBinding & AnyObject>(_ type: C.Type) -> AnyObject { BoundClassCoding<C>() }
    private static func boundValueCoding<B: EntityBinding>(_ type: B.Type) -> AnyObject { BoundValueCoding<B>() }
    private static func classCoding<C: Entity & AnyObject>(_ type: C.Type) -> AnyObject { ClassCoding<C>() }

    /// Whether `T` is a class: its objects are references, which the store
    /// tracks while it puts them.
    var isClass: Bool { false }

    /// Writes the columns of `entity` into `encoder`.
    func encode(_ entity: T, into encoder: EntityEncoder) throws {
        try encoder.encodeCodable(entity)
    }

    /// The object of `row`.
    func decode(_ row: Row, with decoder: EntityDecoder) throws -> T {
        try decoder.decodeCodable(T.self, from: row)
    }

    /// The objects of the rows of `statement`, run with `arguments`.
    func decodeAll(_ statement: Statement, arguments: StatementArguments?, with decoder: EntityDecoder) throws -> [T] {
        try statement.decodeAll(arguments: arguments) { row in try decode(row, with: decoder) }
    }

    /// The object of the first row of `statement`, run with `arguments`.
    func decodeOne(_ statement: Statement, arguments: StatementArguments?, with decoder: EntityDecoder) throws -> T? {
        try statement.decodeOne(arguments: arguments) { row in try decode(row, with: decoder) }
    }

    /// The object of the first row of `statement`, run with its one
    /// parameter set to `argument`.
    func decodeOne(_ statement: Statement, argument: DatabaseValue, with decoder: EntityDecoder) throws -> T? {
        try statement.decodeOne(argument: argument) { row in try decode(row, with: decoder) }
    }

    /// The object of `box` with the given id, or nil.
    func get(_ id: Id, in box: Box<T>) throws -> T? {
        try box.readTable(orIfMissing: nil) { db in
            try box.withSelectByIdStatement(db) { statement in
                try box.withDecoder(reading: statement) { decoder in
                    try decodeOne(statement, argument: Int64(bitPattern: id).databaseValue, with: decoder)
                }
            }
        }
    }
}

/// A struct entity with a binding: read and written without `Codable`.
class BoundValueCoding<B: EntityBinding>: EntityCoding<B> {
    override func encode(_ entity: B, into encoder: EntityEncoder) throws {
        try encoder.encodeBound(entity)
    }

    override func decode(_ row: Row, with decoder: EntityDecoder) throws -> B {
        try decoder.decodeBound(B.self, from: row)
    }
}

/// A class entity: its fetch loops collect `AnyObject` references, for
/// which they are specialized, where a loop that appends values of the
/// generic `C` goes through its metadata for every object.
class ClassCoding<C: Entity & AnyObject>: EntityCoding<C> {
    override var isClass: Bool { true }

    /// The object of `row`, as a reference.
    func decodeObject(_ row: Row, with decoder: EntityDecoder) throws -> AnyObject {
        try decoder.decodeCodable(C.self, from: row)
    }

    override func decode(_ row: Row, with decoder: EntityDecoder) throws -> C {
        // `decodeObject` made a `C`.
        unsafeDowncast(try decodeObject(row, with: decoder), to: C.self)
    }

    override func decodeAll(_ statement: Statement, arguments: StatementArguments?, with decoder: EntityDecoder) throws -> [C] {
        let objects = try statement.decodeAll(arguments: arguments) { row in try decodeObject(row, with: decoder) }
        return objects.map { unsafeDowncast($0, to: C.self) }
    }

    override func decodeOne(_ statement: Statement, arguments: StatementArguments?, with decoder: EntityDecoder) throws -> C? {
        let object = try statement.decodeOne(arguments: arguments) { row in try decodeObject(row, with: decoder) }
        return object.map { unsafeDowncast($0, to: C.self) }
    }

    /// The object of the first row of `statement`, run with its one
    /// parameter set to `argument`, as a reference.
    func decodeObject(_ statement: Statement, argument: DatabaseValue, with decoder: EntityDecoder) throws -> AnyObject? {
        try statement.decodeOne(argument: argument) { row in try decodeObject(row, with: decoder) }
    }

    /// The read by id runs with `AnyObject?` results, whose type is known
    /// where the store is compiled: with `C?`, each read would look up the
    /// metadata of `Optional<C>` for the generic calls it goes through.
    override func get(_ id: Id, in box: Box<C>) throws -> C? {
        let object: AnyObject? = try box.readTable(orIfMissing: nil) { db in
            try box.withSelectByIdStatement(db) { statement in
                try box.withDecoder(reading: statement) { decoder in
                    try decodeObject(statement, argument: Int64(bitPattern: id).databaseValue, with: decoder)
                }
            }
        }
        guard let object else { return nil }
        // `decodeObject` made a `C`.
        return unsafeDowncast(object, to: C.self)
    }
}

/// A class entity with a binding: read and written without `Codable`.
class BoundClassCoding<C: EntityBinding & AnyObject>: ClassCoding<C> {
    override func encode(_ entity: C, into encoder: EntityEncoder) throws {
        try encoder.encodeBound(entity)
    }

    override func decodeObject(_ row: Row, with decoder: EntityDecoder) throws -> AnyObject {
        try decoder.decodeBound(C.self, from: row)
    }
}

/// A struct entity whose binding has its read loops: they are compiled for
/// its type (see `_EntityReadLoops`).
final class LoopedValueCoding<B: _EntityReadLoops>: BoundValueCoding<B> {
    override func decodeAll(_ statement: Statement, arguments: StatementArguments?, with decoder: EntityDecoder) throws -> [B] {
        try B._readAll(statement, arguments: arguments, with: EntityReader(decoder))
    }

    override func decodeOne(_ statement: Statement, argument: DatabaseValue, with decoder: EntityDecoder) throws -> B? {
        try B._readOne(statement, argument: argument, with: EntityReader(decoder))
    }
}

/// A final class entity whose binding has its read loops: they are
/// compiled for its type (see `_EntityReadLoops`).
final class LoopedClassCoding<C: _EntityReadLoops & AnyObject>: BoundClassCoding<C> {
    override func decodeObject(_ statement: Statement, argument: DatabaseValue, with decoder: EntityDecoder) throws -> AnyObject? {
        guard let object = try C._readOne(statement, argument: argument, with: EntityReader(decoder)) else { return nil }
        return object
    }

    override func decodeAll(_ statement: Statement, arguments: StatementArguments?, with decoder: EntityDecoder) throws -> [C] {
        try C._readAll(statement, arguments: arguments, with: EntityReader(decoder))
    }
}
