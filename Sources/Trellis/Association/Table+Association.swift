// Associations between tables without record types: `Table("book")`.

extension Table {
    /// A BelongsTo association to another table.
    ///
    /// ```swift
    /// let book = Table("book")
    /// let author = Table("author")
    /// let rows = try book.including(required: book.belongsTo(author)).fetchAll(db)
    /// ```
    public func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(_storage: .direct(
            from: tableName, to: destination.tableName, selection: [AllColumns().sqlSelection], key: key,
            foreignKey: foreignKey, direction: .belongsTo, isToMany: false))
    }

    /// A BelongsTo association to a record type.
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(_storage: .direct(
            from: tableName, to: Destination.databaseTableName, selection: Destination.defaultSelection, key: key,
            foreignKey: foreignKey, direction: .belongsTo, isToMany: false))
    }

    /// A HasOne association to another table.
    public func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(_storage: .direct(
            from: tableName, to: destination.tableName, selection: [AllColumns().sqlSelection], key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: false))
    }

    /// A HasOne association to a record type.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(_storage: .direct(
            from: tableName, to: Destination.databaseTableName, selection: Destination.defaultSelection, key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: false))
    }

    /// A HasMany association to another table.
    ///
    /// ```swift
    /// let author = Table("author")
    /// let rows = try author.including(all: author.hasMany(Table("book"))).fetchAll(db)
    /// ```
    public func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(_storage: .direct(
            from: tableName, to: destination.tableName, selection: [AllColumns().sqlSelection], key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: true))
    }

    /// A HasMany association to a record type.
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(_storage: .direct(
            from: tableName, to: Destination.databaseTableName, selection: Destination.defaultSelection, key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: true))
    }

    /// A HasManyThrough association from this table.
    public func hasMany<Pivot: Association, Target: Association>(
        _ destination: Table<Target.RowDecoder>, through pivot: Pivot, using target: Target, key: String? = nil)
        -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(_storage: _AssociationStorage(
            impl: .through(pivot.impl, using: target.impl, isToMany: true, key: key)))
    }

    /// A HasOneThrough association from this table.
    public func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Table<Target.RowDecoder>, through pivot: Pivot, using target: Target, key: String? = nil)
        -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(_storage: _AssociationStorage(
            impl: .through(pivot.impl, using: target.impl, isToMany: false, key: key)))
    }

    /// The rows of the table, with a required to-one association.
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().including(required: association)
    }

    /// The rows of the table, with an optional to-one association.
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().including(optional: association)
    }

    /// The rows of the table, with all the records of a to-many association.
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().including(all: association)
    }

    /// The rows of the table that have an associated record.
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().joining(required: association)
    }

    /// The rows of the table, joined with an optional association.
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().joining(optional: association)
    }
}
