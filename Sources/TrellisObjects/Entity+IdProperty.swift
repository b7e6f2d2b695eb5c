extension Entity {
    /// The name of the id property: `"id"` by default. The counterpart of
    /// ObjectBox's `// objectbox: id` annotation, for an entity whose id
    /// has another name.
    public static var idPropertyName: String { "id" }

    /// The id of an entity that declares no `var id: Id`: always 0, and a
    /// put of such an entity throws, since the store has no way to write
    /// the id of a new object into it.
    ///
    /// An id property of another type or name (an `EntityId<Self>`, a
    /// `UInt64` named in ``idPropertyName``) needs the ``Entity()`` macro,
    /// which reads and writes it, or an `id` that forwards to it:
    ///
    /// ```swift
    /// @Entity
    /// final class Teacher {
    ///     var id: EntityId<Teacher> = 0
    ///     var name = ""
    /// }
    ///
    /// // Without the macro:
    /// final class Thing: Entity {
    ///     static let idPropertyName = "thisIsMyId"   // its column is `id`
    ///     var thisIsMyId: UInt64 = 0
    ///     var id: Id {
    ///         get { thisIsMyId }
    ///         set { thisIsMyId = newValue }
    ///     }
    /// }
    /// ```
    public var id: Id {
        get { 0 }
        set {}
    }

    /// The coding key of the id property when it is not `id`: its column is
    /// `id` all the same, so that relations and queries find it.
    static var renamedIdKey: String? {
        idPropertyName == "id" ? nil : idPropertyName
    }

    /// Why a put could not give an object of this type its id.
    static var missingIdProblem: String {
        "\(entityName) has no id property that the store can write: declare `var id: Id = 0`; "
            + "for an id of another type or name (EntityId, idPropertyName), add @Entity to the type or declare `var id: Id { get set }` that forwards to it"
    }
}
