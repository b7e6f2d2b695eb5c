/// The HasMany association: each record of the origin table is referenced by any number of records of the destination table, through a foreign key on the destination table.
///
/// ```swift
/// struct Author: TableRecord {
///     static let books = hasMany(Book.self)
/// }
/// let request = Author.including(all: Author.books)
/// ```
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _storage: _AssociationStorage

    public init(_storage: _AssociationStorage) {
        self._storage = _storage
    }
}
