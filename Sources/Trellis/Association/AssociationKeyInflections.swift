/// The English inflections of default association keys, for tools that
/// suggest association declarations, such as `trellis inspect`: the names
/// they suggest are the keys the library infers.
///
/// ```swift
/// AssociationKeyInflections.plural("child")     // "children"
/// AssociationKeyInflections.singular("people")  // "person"
/// ```
public enum AssociationKeyInflections {
    /// The key of a to-many association to the table.
    public static func plural(_ name: String) -> String { Inflections.pluralize(name) }

    /// The key of a to-one association to the table.
    public static func singular(_ name: String) -> String { Inflections.singularize(name) }
}
