import Trellis

/// An entity that reads and writes its objects itself, without `Codable`
/// and without reflection: what the ``Entity()`` macro generates. A box
/// uses the binding when its entity type has one; other entities go
/// through their `Codable` conformance.
///
/// ```swift
/// @Entity
/// final class Person {
///     var id: Id = 0
///     var name = ""
/// }
///
/// // The macro writes, among other members:
/// extension Person: EntityBinding {
///     convenience init(reading reader: EntityReader) throws {
///         self.init()
///         self.id = try reader.read("id")
///         self.name = try reader.read("name")
///     }
///     func write(to writer: EntityWriter) throws {
///         try writer.write(self.id, to: "id")
///         try writer.write(self.name, to: "name")
///     }
///     var entityId: Id {
///         get { self.id }
///         set { self.id = newValue }
///     }
/// }
/// ```
///
/// A binding may be written by hand too. It reads and writes the same
/// columns as the `Codable` conformance would: the id in the column `id`,
/// a `ToOne` property `spouse` in `spouseId`, and nothing for a `ToMany`.
public protocol EntityBinding: Entity {
    /// Makes an object from a stored row, read column by column.
    ///
    /// - Throws: The error of an `EntityReader` method, for a column that
    ///   cannot be read; an implementation should throw, not stop the program,
    ///   for a row it cannot read.
    init(reading reader: EntityReader) throws

    /// Writes the stored properties of the object, column by column, in
    /// the order of their declaration (the order of the table's columns).
    ///
    /// - Throws: The error of an `EntityWriter` method, for a value that cannot
    ///   be written; an implementation should throw, not stop the program.
    func write(to writer: EntityWriter) throws

    /// The id of the object, whatever the type and the name of its id
    /// property: the store reads it, and writes the id of a new object
    /// into it.
    var entityId: Id { get set }
}

/// The loops that read the objects of an entity with a binding, compiled
/// where the type conforms, for the type itself: a box reads objects through
/// them with no dynamic call or type lookup per object. The ``Entity()``
/// macro adds this conformance to final classes and structs (a class that
/// may have subclasses can not return `[Self]`); there is nothing to
/// implement.
public protocol _EntityReadLoops: EntityBinding {
    /// The objects of the rows of `statement`, run with `arguments`.
    static func _readAll(_ statement: Statement, arguments: StatementArguments?, with reader: EntityReader) throws -> [Self]

    /// The object of the first row of `statement`, run with its one
    /// parameter set to `argument`: the read by id.
    static func _readOne(_ statement: Statement, argument: DatabaseValue, with reader: EntityReader) throws -> Self?
}

extension _EntityReadLoops {
    @inlinable
    public static func _readAll(_ statement: Statement, arguments: StatementArguments?, with reader: EntityReader) throws -> [Self] {
        try statement.decodeAll(arguments: arguments) { row in try reader.readObject(Self.self, from: row) }
    }

    @inlinable
    public static func _readOne(_ statement: Statement, argument: DatabaseValue, with reader: EntityReader) throws -> Self? {
        try statement.decodeOne(argument: argument) { row in try reader.readObject(Self.self, from: row) }
    }
}

extension EntityBinding {
    /// The id of an entity whose id property is not `var id: Id` (an
    /// `EntityId<Self>`, or a property of another name), read and written
    /// by the binding rather than found by reflection.
    public var id: Id {
        get { entityId }
        set { entityId = newValue }
    }
}

extension EntityBinding where Self: AnyObject {
    /// The id of a class entity whose id property is not `var id: Id`,
    /// read and written by the binding.
    public var id: Id {
        get { entityId }
        set {
            var object = self
            object.entityId = newValue
        }
    }
}
