/// The HasOne association: each record of the origin table is referenced by at most one record of the destination table, through a foreign key on the destination table.
///
/// ```swift
/// struct Country: TableRecord {
///     static let demographics = hasOne(Demographics.self)
/// }
/// let request = Country.including(optional: Country.demographics)
/// ```
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _storage: _AssociationStorage

    public init(_storage: _AssociationStorage) {
        self._storage = _storage
    }
}
