extension _AssociationStorage {
    /// A direct association from `originTable`: belongsTo, hasOne, hasMany.
    static func direct(
        from originTable: String, to destinationTable: String, selection: [SQLSelection], key: String?,
        foreignKey: ForeignKey?, direction: AssociationHop.Direction, isToMany: Bool) -> _AssociationStorage
    {
        let hop = AssociationHop(
            originTable: originTable,
            relation: SQLRelation(tableName: destinationTable, selection: selection),
            foreignKey: foreignKey, direction: direction)
        return _AssociationStorage(impl: AssociationImpl(hops: [hop], explicitKey: key, isToMany: isToMany))
    }
}

extension TableRecord {
    private static func directAssociation(
        to destinationTable: String, selection: [SQLSelection], key: String?, foreignKey: ForeignKey?,
        direction: AssociationHop.Direction, isToMany: Bool) -> _AssociationStorage
    {
        .direct(from: databaseTableName, to: destinationTable, selection: selection, key: key,
                foreignKey: foreignKey, direction: direction, isToMany: isToMany)
    }

    /// A BelongsTo association: the record referenced by a foreign key of
    /// this table.
    ///
    /// ```swift
    /// struct Book: TableRecord {
    ///     static let author = belongsTo(Author.self)
    /// }
    /// ```
    ///
    /// - parameter destination: the associated record type.
    /// - parameter key: the association key; default: the singular name
    ///   of the destination table.
    /// - parameter foreignKey: the foreign key, when the schema has none
    ///   or several between the two tables.
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(_storage: directAssociation(
            to: Destination.databaseTableName, selection: Destination.defaultSelection, key: key,
            foreignKey: foreignKey, direction: .belongsTo, isToMany: false))
    }

    /// A HasOne association: the record that references this one through a
    /// unique foreign key.
    ///
    /// ```swift
    /// struct Country: TableRecord {
    ///     static let demographics = hasOne(Demographics.self)
    /// }
    /// ```
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(_storage: directAssociation(
            to: Destination.databaseTableName, selection: Destination.defaultSelection, key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: false))
    }

    /// A HasMany association: the records that reference this one.
    ///
    /// ```swift
    /// struct Author: TableRecord {
    ///     static let books = hasMany(Book.self)
    /// }
    /// ```
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(_storage: directAssociation(
            to: Destination.databaseTableName, selection: Destination.defaultSelection, key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: true))
    }

    /// A BelongsTo association to a table without a record type.
    ///
    /// ```swift
    /// struct Book: TableRecord {
    ///     static let author = belongsTo(Table("author"))
    /// }
    /// let rows = try Row.fetchAll(db, Book.including(required: Book.author))
    /// ```
    public static func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(_storage: directAssociation(
            to: destination.tableName, selection: [AllColumns().sqlSelection], key: key,
            foreignKey: foreignKey, direction: .belongsTo, isToMany: false))
    }

    /// A HasOne association to a table without a record type.
    ///
    /// ```swift
    /// struct Country: TableRecord {
    ///     static let demographics = hasOne(Table("demographics"))
    /// }
    /// ```
    public static func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(_storage: directAssociation(
            to: destination.tableName, selection: [AllColumns().sqlSelection], key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: false))
    }

    /// A HasMany association to a table without a record type.
    ///
    /// ```swift
    /// struct Author: TableRecord {
    ///     static let books = hasMany(Table("book"))
    /// }
    /// let rows = try Row.fetchAll(db, Author.including(all: Author.books))
    /// ```
    public static func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil)
        -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(_storage: directAssociation(
            to: destination.tableName, selection: [AllColumns().sqlSelection], key: key,
            foreignKey: foreignKey, direction: .hasMany, isToMany: true))
    }

    /// A HasManyThrough association: the records reached through another
    /// association.
    ///
    /// ```swift
    /// static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
    /// ```
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil)
        -> HasManyThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(_storage: _AssociationStorage(
            impl: .through(pivot.impl, using: target.impl, isToMany: true, key: key)))
    }

    /// A HasOneThrough association: the record reached through two to-one
    /// associations.
    ///
    /// ```swift
    /// static let returnAddress = hasOne(Address.self, through: library, using: Library.address)
    /// ```
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil)
        -> HasOneThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(_storage: _AssociationStorage(
            impl: .through(pivot.impl, using: target.impl, isToMany: false, key: key)))
    }
}

extension TableRecord where Self: EncodableRecord {
    /// A request of the records associated with this one.
    ///
    /// ```swift
    /// let books = try author.request(for: Author.books).fetchAll(db)
    /// ```
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder> where A.OriginRowDecoder == Self {
        let impl = association.impl
        if impl.hops.contains(where: { $0.onCondition != nil }) {
            var relation = impl.destination
            relation.buildError = DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "request(for:) does not support associations to common table expressions: join them with including or joining")
            return QueryInterfaceRequest(relation: relation)
        }
        let container: PersistenceContainer
        do {
            container = try persistenceContainer()
        } catch {
            var relation = impl.destination
            relation.buildError = DatabaseError(resultCode: .SQLITE_MISUSE, message: "could not encode \(Self.self): \(error)")
            return QueryInterfaceRequest(relation: relation)
        }
        // Start from the associated table, join back to the first hop, and
        // match its link columns with the record's values.
        let hops = impl.hops.map { hop -> AssociationHop in
            var hop = hop
            hop.relation = hop.relation.withFreshAliases()
            return hop
        }
        var relation = AssociationImpl.reversedRelation(hops)
        let firstHop = hops[0]
        let linkAlias = firstHop.relation.alias
        relation.filters.append(SQLExpression(.deferred { context in
            let pairs = try firstHop.columnPairs(context.db)
            let values = pairs.map { container.databaseValue(forColumn: $0.parent) ?? .null }
            // A nil link value (a record not saved yet, a nil foreign key)
            // links to nothing, not to the rows whose column IS NULL.
            if values.contains(where: \.isNull) { return SQLExpression.matchesNothing }
            let collations = try firstHop.keyCollations(context.db)
            return SQLQueryGenerator.conjunction(zip(pairs, values).enumerated().map { index, element in
                SQLExpression.linkComparison(
                    SQLExpression(.column(element.0.child, linkAlias)), element.1.sqlExpression,
                    collation: index < collations.count ? collations[index] : nil)
            })
        }))
        return QueryInterfaceRequest(relation: relation)
    }
}
