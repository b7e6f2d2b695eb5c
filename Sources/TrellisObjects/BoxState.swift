/// What the boxes of one entity type share in a store: the table, the
/// plans of the properties, and the coders that read and write objects one
/// after the other.
///
/// The store keeps one per entity type, and each ``Box`` it gives refers to
/// it. It refers to no store: a box keeps its store alive, and a store its
/// states, without a reference cycle that would keep a store, and its
/// connection, alive once its user lets go of it.
final class BoxState: @unchecked Sendable {
    // Only touched inside database accesses, which the store serializes.
    let table: EntityTable
    /// How objects read their relations and non-primitive properties.
    let decodingPlan = PropertyPlan()
    /// How objects write their relations and non-primitive properties.
    let encodingPlan = PropertyPlan()
    /// Decodes the objects, one row after the other.
    let decoder: EntityDecoder
    /// Encodes the objects, one put after the other.
    let encoder: EntityEncoder
    /// The coding key of the id property, when it is not `id`.
    let renamedIdKey: String?
    /// How objects are read and written: an `EntityCoding` of the entity
    /// type, which each box takes back with its type.
    let coding: AnyObject
    /// Whether the entity type is a class: its objects are references,
    /// which the store tracks while it puts them, and reads as such.
    let isClass: Bool
    /// Why the boxes of the type can not be used: another entity type of
    /// the same name has the table.
    let tableConflict: String?
    /// The type whose cached lookup on a connection reads an object by id
    /// (see `Database.withCachedLookup(for:sql:_:)`): the box's, kept here
    /// since each read would look up the metadata of a generic type.
    let selectByIdOwner: Any.Type

    init<T: Entity>(table: EntityTable, link: StoreLink, entityType: T.Type) {
        self.table = table
        selectByIdOwner = Box<T>.self
        tableConflict = !Self.collide(table.entityType, entityType) ? nil : """
            two entity types have the name \(table.name): \(String(reflecting: table.entityType)) and \(String(reflecting: entityType)); \
            give one of them another name (static var entityName) so that each has a table of its own
            """
        decoder = EntityDecoder(plan: decodingPlan, link: link, entityType: entityType)
        renamedIdKey = entityType.renamedIdKey
        encoder = EntityEncoder(plan: encodingPlan, renamedIdKey: renamedIdKey, link: link)
        let coding = EntityCoding<T>.make()
        self.coding = coding
        isClass = coding.isClass
    }

    /// Whether two entity types share a table by accident: two types of
    /// the same name in different scopes, neither of which names its
    /// entity. A type that names its entity like another type's shares its
    /// table on purpose (a later version of the type, for example).
    private static func collide(_ first: any Entity.Type, _ second: any Entity.Type) -> Bool {
        ObjectIdentifier(first) != ObjectIdentifier(second)
            && first.entityName == String(describing: first)
            && second.entityName == String(describing: second)
    }
}
