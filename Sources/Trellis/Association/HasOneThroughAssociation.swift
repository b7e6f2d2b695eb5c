/// The HasOneThrough association: the record of the destination table reached through an intermediate to-one association.
///
/// ```swift
/// struct Book: TableRecord {
///     static let library = belongsTo(Library.self)
///     static let returnAddress = hasOne(Address.self, through: library, using: Library.address)
/// }
/// ```
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _storage: _AssociationStorage

    public init(_storage: _AssociationStorage) {
        self._storage = _storage
    }
}
