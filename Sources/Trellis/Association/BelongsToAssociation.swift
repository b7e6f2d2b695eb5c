/// The BelongsTo association: each record of the origin table references one record of the destination table, through a foreign key on the origin table.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// let request = Book.including(required: Book.author)
/// ```
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _storage: _AssociationStorage

    public init(_storage: _AssociationStorage) {
        self._storage = _storage
    }
}
