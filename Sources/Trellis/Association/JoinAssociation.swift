/// An association to one record, defined by a join condition instead of a
/// foreign key: the associations to common table expressions.
///
/// ```swift
/// // WITH latestMessage AS (SELECT *, MAX(date) FROM message GROUP BY chatID)
/// // SELECT chat.*, latestMessage.* FROM chat
/// // LEFT JOIN latestMessage ON chat.id = latestMessage.chatID
/// let latestMessageCTE = CommonTableExpression<Void>(
///     named: "latestMessage",
///     request: Message.annotated(with: max(Column("date"))).group(Column("chatID")))
/// let latestMessage = Chat.association(to: latestMessageCTE) { chat, latestMessage in
///     chat[Column("id")] == latestMessage[Column("chatID")]
/// }
/// let request = Chat.with(latestMessageCTE).including(optional: latestMessage)
/// ```
///
/// Such associations are joined to one record: `including(all:)` and
/// `request(for:)` make the request throw an error when it runs.
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _storage: _AssociationStorage

    public init(_storage: _AssociationStorage) {
        self._storage = _storage
    }
}

/// The storage of an association from `originTable` to `destination`, on
/// a condition built from the aliases of both tables.
private func joinStorage<Origin, Destination>(
    originTable: String, destination: SQLRelation,
    on condition: @escaping @Sendable (TableAlias<Origin>, TableAlias<Destination>) -> any SQLExpressible)
    -> _AssociationStorage
{
    var hop = AssociationHop(originTable: originTable, relation: destination, foreignKey: nil, direction: .belongsTo)
    hop.onCondition = { origin, destination in
        condition(TableAlias<Origin>(identity: origin), TableAlias<Destination>(identity: destination)).sqlExpression
    }
    hop.onConditionIdentity = "on"
    return _AssociationStorage(impl: AssociationImpl(hops: [hop], explicitKey: nil, isToMany: false))
}

extension TableRecord {
    /// An association from this record type to a common table expression,
    /// on the given condition.
    ///
    /// ```swift
    /// let latestMessage = Chat.association(to: latestMessageCTE) { chat, latestMessage in
    ///     chat[Column("id")] == latestMessage[Column("chatID")]
    /// }
    /// let request = Chat.with(latestMessageCTE).including(optional: latestMessage)
    /// ```
    ///
    /// The association key is the name of the common table expression.
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<Self>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<Self, Destination>
    {
        JoinAssociation(_storage: joinStorage(
            originTable: databaseTableName,
            destination: SQLRelation(tableName: cte.tableName, selection: [AllColumns().sqlSelection]),
            on: condition))
    }
}

extension CommonTableExpression {
    /// An association from this common table expression to another one, on
    /// the given condition.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(_storage: joinStorage(
            originTable: tableName,
            destination: SQLRelation(tableName: cte.tableName, selection: [AllColumns().sqlSelection]),
            on: condition))
    }

    /// An association from this common table expression to a record type,
    /// on the given condition.
    ///
    /// ```swift
    /// let author = bookCTE.association(to: Author.self) { book, author in
    ///     book[Column("authorId")] == author[Column("id")]
    /// }
    /// ```
    public func association<Destination: TableRecord>(
        to destination: Destination.Type,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(_storage: joinStorage(
            originTable: tableName,
            destination: SQLRelation(tableName: Destination.databaseTableName, selection: Destination.defaultSelection),
            on: condition))
    }
}

// Associations without a join condition: each row is joined with every
// row of the common table expression (a CTE of one row, such as a
// computed constant, is the common use).

/// The storage of an association from `originTable` to `destination`
/// that joins every row (`ON 1`).
private func crossJoinStorage(originTable: String, destination: SQLRelation) -> _AssociationStorage {
    var hop = AssociationHop(originTable: originTable, relation: destination, foreignKey: nil, direction: .belongsTo)
    hop.onCondition = { _, _ in SQLExpression(.constantCondition(true)) }
    hop.onConditionIdentity = "all"
    return _AssociationStorage(impl: AssociationImpl(hops: [hop], explicitKey: nil, isToMany: false))
}

extension TableRecord {
    /// An association from this record type to a common table
    /// expression, without join condition: every record is joined with
    /// every row of the common table expression.
    ///
    /// ```swift
    /// // WITH maxScore AS (SELECT MAX(score) AS value FROM player)
    /// // SELECT player.*, maxScore.* FROM player JOIN maxScore ON 1
    /// let maxScoreCTE = CommonTableExpression(
    ///     named: "maxScore",
    ///     request: Player.select(max(Column("score")).forKey("value")))
    /// let request = Player.with(maxScoreCTE).including(required: Player.association(to: maxScoreCTE))
    /// ```
    public static func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<Self, Destination> {
        JoinAssociation(_storage: crossJoinStorage(
            originTable: databaseTableName,
            destination: SQLRelation(tableName: cte.tableName, selection: [AllColumns().sqlSelection])))
    }
}

extension CommonTableExpression {
    /// An association from this common table expression to another one,
    /// without join condition: every row is joined with every row of the
    /// other one.
    ///
    /// ```swift
    /// let association = firstCTE.association(to: secondCTE)
    /// let request = firstCTE.all().with(secondCTE).including(required: association)
    /// ```
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_storage: crossJoinStorage(
            originTable: tableName,
            destination: SQLRelation(tableName: cte.tableName, selection: [AllColumns().sqlSelection])))
    }
}
