/// Makes a class or a struct an ``Entity`` that the store reads and writes
/// without `Codable` and without reflection, and declares the ``Property``
/// of each stored property for queries, as ObjectBox's code generator does.
///
/// ```swift
/// @Entity
/// final class Person {
///     var id: Id = 0
///     var name = ""
///     var spouse: ToOne<Person> = nil
/// }
///
/// let amandas = try personBox.query { Person.name == "Amanda" }
///     .ordered(by: Person.name)
///     .build()
///     .find()
/// ```
///
/// The macro writes an ``EntityBinding`` (the reads and writes of the
/// objects, and the access to their ids) and a static `Property` per stored
/// property: `Person.id`, `Person.name`, `Person.spouse`. The type may
/// already say `: Entity`; its id may be an `EntityId<Person>`, or another
/// property named with `// objectbox: id` or `static let idPropertyName`.
///
/// The comments of a property carry ObjectBox's annotations:
///
/// ```swift
/// @Entity
/// final class Customer {
///     var id: Id = 0
///     // objectbox: backlink = "customer"
///     var orders: ToMany<Order> = nil
///     var email = ""  // objectbox: unique
/// }
/// ```
///
/// `backlink` names the `ToOne` property that a `ToMany` follows (see
/// ``Entity/backlinks``; `// sourcery: backlink = ...` works too), `index`
/// and `unique` index a property (``Entity/indexedProperties``,
/// ``Entity/uniqueProperties``), `transient` leaves a property out of
/// the store (it keeps the value that `init()` or its default gives when
/// read; a struct's needs a default), and `convert` stores
/// an enum as its raw value, or another type through a converter:
///
/// ```swift
/// enum TestEnum: Int { case unknown = 0, first = 100, second = 200 }
///
/// @Entity
/// final class EnumEntity {
///     var id: Id = 0
///     // objectbox: convert = { "default": ".unknown" }
///     var custom: TestEnum = .first
///     // objectbox: convert = { "dbType": "Int", "converter": "RoleConverter" }
///     var role: Role = .guest
/// }
/// let seconds = try box.query { EnumEntity.custom == TestEnum.second.rawValue }.find()
/// ```
///
/// A converted property's `Property` has the stored type (the enum's raw
/// value, or `dbType`); a missing or unknown raw value reads as `default`
/// (nil for an optional without one; without a default it throws). A
/// converter has a static `convert(_:)` from the property to `dbType` and
/// one from `dbType?` back. The macro writes the `Codable` conformance of
/// an entity with converted properties, so that their types need not be
/// `Codable`.
///
/// A property without a type annotation needs a literal for its value
/// (`var name = ""`, `var age = 0`, `var score = 0.0`, `var active = true`),
/// since the macro sees no types: annotate the others (`var born: Date =
/// .now`). A class needs an `init()`, with which objects are made before
/// their properties are read; a class that is not `final` says `: Entity`
/// in its declaration, so that its `Codable` conformance is complete.
///
/// The stored `var`s of a class are marked `@exclusivity(unchecked)`:
/// Swift's run-time check that accesses to a class property do not
/// overlap costs more than the store's reading or writing of the property.
/// Overlapping accesses to them (`swap(&a.name, &a.name)`) are then not
/// caught at run time.
@attached(extension, conformances: EntityBinding, _EntityReadLoops, names: named(init(reading:)), named(write(to:)), named(entityId), named(init(from:)), named(encode(to:)))
@attached(member, names: arbitrary)
@attached(memberAttribute)
public macro Entity() = #externalMacro(module: "TrellisMacrosPlugin", type: "EntityMacro")
