import Trellis

/// A query of the objects of a box, to run as many times as needed.
///
/// ```swift
/// let query = try personBox.query { Person.name.startsWith("A") && Person.age > 18 }
///     .ordered(by: Person.name)
///     .build()
/// let people = try query.find()
/// let first = try query.findFirst()
/// let count = try query.count()
/// query.setParameter(Person.age, to: 21)   // the next runs use 21
/// try query.remove()
/// ```
///
/// Conditions are written with the ``Property`` values declared for the
/// entity, or with the query interface of Trellis
/// (`personBox.query { Column("name").like("A%") }`).
///
/// A query is a reference: the methods that refine it (`ordered`, `filter`)
/// return a new query, and `setParameter` changes this one.
public final class Query<T: Entity> {
    let box: Box<T>
    let conditions: [SQLExpression]
    /// The conditions written with properties, whose values parameters change.
    private(set) var condition: QueryCondition<T>.Node?
    let orderings: [SQLOrdering]
    /// A wrong parameter, thrown by the next run of the query.
    private var parameterError: ObjectBoxError?
    /// Conditions written when the query runs, from the schema: the links
    /// through `ToMany` relations, stored in a foreign key or a join table.
    private var deferredConditions: [(Database) throws -> SQL] = []

    init(box: Box<T>, conditions: [SQLExpression], condition: QueryCondition<T>.Node? = nil, orderings: [SQLOrdering]) {
        self.box = box
        self.conditions = conditions
        self.condition = condition
        self.orderings = orderings
    }

    private func with(conditions: [SQLExpression]? = nil, condition: QueryCondition<T>.Node?? = nil, orderings: [SQLOrdering]? = nil) -> Query<T> {
        let query = Query(box: box, conditions: conditions ?? self.conditions, condition: condition ?? self.condition, orderings: orderings ?? self.orderings)
        query.parameterError = parameterError
        query.deferredConditions = deferredConditions
        return query
    }

    /// The query itself: the final step of ObjectBox's query builder, for
    /// code written with it in mind.
    ///
    /// ```swift
    /// let query = try box.query { Person.name == "Joe" }.build()
    /// ```
    ///
    /// - Throws: Never: the query is already built.
    public func build() throws -> Query<T> {
        self
    }

    /// The query, sorted.
    ///
    /// ```swift
    /// let query = personBox.query().ordered(by: Column("name"), Column("age").desc)
    /// ```
    public func ordered(by orderings: any SQLOrderingTerm...) -> Query<T> {
        with(orderings: self.orderings + orderings.map(\.sqlOrdering))
    }

    /// The query, sorted by a property: ascending, strings without regard
    /// to case, nil values first, unless `flags` say otherwise. Each call
    /// adds a sort key after the previous ones.
    ///
    /// ```swift
    /// let query = try personBox.query { Person.age > 18 }
    ///     .ordered(by: Person.name, flags: [.descending, .caseSensitive])
    ///     .build()
    /// ```
    public func ordered<V>(by property: Property<T, V>, flags: OrderFlags = []) -> Query<T> {
        var expression = Column(property.column).sqlExpression
        if flags.contains(.nullsZero) { expression = coalesce([expression, 0]) }
        if !flags.contains(.caseSensitive) { expression = expression.collating(.nocase) }
        let ordering: SQLOrdering
        switch (flags.contains(.descending), flags.contains(.nullsLast)) {
        case (false, false): ordering = expression.asc          // SQLite: NULLs first
        case (false, true): ordering = expression.ascNullsLast
        case (true, false): ordering = expression.descNullsFirst
        case (true, true): ordering = expression.desc           // SQLite: NULLs last
        }
        guard flags.contains(.unsigned) else { return with(orderings: orderings + [ordering]) }
        // SQLite stores 64-bit integers signed: the unsigned values above
        // Int64.max read negative, and sort after the others.
        let sign = Column(property.column) < 0
        return with(orderings: orderings + [flags.contains(.descending) ? sign.desc : sign.asc, ordering])
    }

    /// The query, sorted by a property with the flags of an array, as
    /// ObjectBox's API reference writes them.
    ///
    /// ```swift
    /// let query = try personBox.query().ordered(by: Person.age, flags: [OrderFlags.descending]).build()
    /// ```
    public func ordered<V>(by property: Property<T, V>, flags: [OrderFlags]) -> Query<T> {
        ordered(by: property, flags: flags.reduce(into: OrderFlags()) { $0.formUnion($1) })
    }

    /// The query, with another condition.
    public func filter(_ condition: some SQLExpressible) -> Query<T> {
        with(conditions: conditions + [condition.sqlExpression])
    }

    /// The query, with another condition on properties.
    ///
    /// ```swift
    /// let adults = personBox.query().filter(Person.age >= 18)
    /// ```
    public func filter(_ condition: QueryCondition<T>) -> Query<T> {
        let combined: QueryCondition<T>.Node = self.condition.map { .and($0, condition.node) } ?? condition.node
        return with(condition: .some(combined))
    }

    // MARK: Parameters

    /// Changes the value that the conditions on `property` compare with,
    /// for the next runs of the query. For a condition with two values
    /// (`isBetween`), use `setParameters(_:to:_:)`; when several
    /// conditions are on the property, name them with `.=` and use
    /// ``setParameter(_:to:)-(String,_)``. A property with no such condition
    /// makes the next run throw.
    ///
    /// ```swift
    /// let query = try personBox.query { Person.age > 18 }.build()
    /// query.setParameter(Person.age, to: 21)
    /// let olderThan21 = try query.find()
    /// ```
    public func setParameter<V: DatabaseValueConvertible>(_ property: Property<T, V>, to value: V) {
        setValues([value.storedDatabaseValue], where: { $0.column == property.column }, name: "\(property)")
    }

    /// Changes the two values of the conditions on `property` that take
    /// two (`isBetween`), for the next runs of the query.
    ///
    /// ```swift
    /// let query = try personBox.query { Person.age.isBetween(10, and: 20) }.build()
    /// query.setParameters(Person.age, to: 30, 40)
    /// ```
    public func setParameters<V: DatabaseValueConvertible>(_ property: Property<T, V>, to value1: V, _ value2: V) {
        setValues([value1.storedDatabaseValue, value2.storedDatabaseValue], where: { $0.column == property.column }, name: "\(property)")
    }

    /// Changes the two values of the conditions on `property` that take
    /// two (`isBetween`), as ObjectBox's query guide writes it.
    ///
    /// ```swift
    /// let query = try personBox.query { Person.age.isBetween(0, and: 99) }.build()
    /// query.setParameters(Person.age, to: 10, and: 18)
    /// ```
    public func setParameters<V: DatabaseValueConvertible>(_ property: Property<T, V>, to value1: V, and value2: V) {
        setParameters(property, to: value1, value2)
    }

    /// Changes the values of the conditions on `property` that take a list
    /// (`isIn`, `∈`), for the next runs of the query.
    public func setParameters<V: DatabaseValueConvertible>(_ property: Property<T, V>, to values: [V]) {
        setValues(values.map(\.storedDatabaseValue), where: { $0.column == property.column }, name: "\(property)")
    }

    /// Changes the target id that the conditions on the relation `property`
    /// compare with, for the next runs of the query.
    ///
    /// ```swift
    /// let query = try orderBox.query { Order.customer == ann }.build()
    /// query.setParameter(Order.customer, to: bob.id)
    /// ```
    public func setParameter<U>(_ property: Property<T, ToOne<U>>, to targetId: Id) {
        setValues([Int64(bitPattern: targetId).databaseValue], where: { $0.column == property.column }, name: "\(property)")
    }

    /// Changes the value of the condition named `alias` with `.=`.
    ///
    /// ```swift
    /// let query = try personBox.query { "minAge" .= Person.age > 18 }.build()
    /// query.setParameter("minAge", to: 21)
    /// ```
    public func setParameter(_ alias: String, to value: some DatabaseValueConvertible) {
        setValues([value.storedDatabaseValue], where: { $0.alias == alias }, name: "alias \(alias)")
    }

    /// Changes the two values of the condition named `alias` with `.=`.
    public func setParameters(_ alias: String, to value1: some DatabaseValueConvertible, _ value2: some DatabaseValueConvertible) {
        setValues([value1.storedDatabaseValue, value2.storedDatabaseValue], where: { $0.alias == alias }, name: "alias \(alias)")
    }

    /// Changes the values of the list condition named `alias` with `.=`
    /// (`isIn`, `∈`).
    ///
    /// ```swift
    /// let query = try personBox.query { "names" .= Person.name ∈ ["Bob"] }.build()
    /// query.setParameters("names", to: ["Steve", "Santa"])
    /// ```
    public func setParameters<V: DatabaseValueConvertible>(_ alias: String, to values: [V]) {
        setValues(values.map(\.storedDatabaseValue), where: { $0.alias == alias }, name: "alias \(alias)")
    }

    /// Changes the value that the `isEqual(to:tolerance:)` condition on
    /// `property` compares with, keeping a tolerance.
    ///
    /// ```swift
    /// let query = try podBox.query { CocoaPod.rating.isEqual(to: 4.5, tolerance: 0.1) }.build()
    /// query.setParameter(CocoaPod.rating, toEqual: 3.0, tolerance: 0.5)
    /// ```
    public func setParameter<V: BinaryFloatingPoint & DatabaseValueConvertible>(
        _ property: Property<T, V>, toEqual value: V, tolerance: V)
    {
        setParameters(property, to: value - tolerance, value + tolerance)
    }

    private func setValues(_ values: [DatabaseValue], where matches: (QueryCondition<T>.Comparison) -> Bool, name: String) {
        var changed = 0
        var sawCondition = false
        condition?.updateComparisons { comparison in
            guard matches(comparison) else { return }
            sawCondition = true
            let takesValues: Bool
            switch comparison.op {
            case .isNull, .isNotNull: takesValues = false
            case .between: takesValues = values.count == 2
            case .isIn, .isNotIn: takesValues = true
            default: takesValues = values.count == 1
            }
            if takesValues {
                comparison.values = values
                changed += 1
            }
        }
        if changed == 0 {
            parameterError = ObjectBoxError.illegalState(message: sawCondition
                ? "setParameter: no condition on \(name) takes \(values.count) value(s)"
                : "setParameter: the query of \(T.entityName) has no condition on \(name)")
        }
    }

    // MARK: Running

    /// The request of the matching rows, unsorted: the conditions, in
    /// the query interface of Trellis.
    private func filteredRequest(_ db: Database) throws -> QueryInterfaceRequest<Row> {
        if let parameterError { throw parameterError }
        var request = Table(box.tableName).all()
        for condition in conditions {
            request = request.filter(condition)
        }
        if let condition {
            request = request.filter(condition.sql.sqlExpression)
        }
        for deferred in deferredConditions {
            request = request.filter(try deferred(db).sqlExpression)
        }
        return request
    }

    /// The request of the matching objects, in the order of the query, then
    /// by id; `offset` skips the first ones, and a `limit` other than 0
    /// keeps at most that many.
    private func objectsRequest(_ db: Database, limit: Int = 0, offset: Int = 0) throws -> QueryInterfaceRequest<Row> {
        let request = try filteredRequest(db).order(orderings + [Column("id")])
        guard limit > 0 || offset > 0 else { return request }
        // SQLite reads a negative limit as no limit.
        return request.limit(limit > 0 ? limit : -1, offset: offset > 0 ? offset : nil)
    }

    /// The statement of the matching objects, with its arguments set.
    private func objectsStatement(_ db: Database, limit: Int = 0, offset: Int = 0) throws -> Statement {
        try objectsRequest(db, limit: max(limit, 0), offset: max(offset, 0)).makePreparedRequest(db).statement
    }

    /// The SQL and arguments that ``find(offset:limit:)`` runs.
    /// The SQL is written without preparing a statement, so that a query of
    /// objects never put describes itself too.
    func sqlAndArguments(_ db: Database) throws -> (String, StatementArguments) {
        let request: SQL = "\(try objectsRequest(db))"
        return try request.build(db)
    }

    /// Whether the query has conditions that are not on properties.
    var hasOtherConditions: Bool { !conditions.isEmpty || !deferredConditions.isEmpty }

    /// The matching objects; `offset` skips the first ones, and a `limit`
    /// other than 0 returns at most that many.
    ///
    /// ```swift
    /// let secondPage = try query.find(offset: 20, limit: 20)
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, if a parameter was set for a condition the query does not
    ///   have, or if a row cannot be decoded; a `DatabaseError` if SQLite
    ///   fails.
    public func find(offset: Int = 0, limit: Int = 0) throws -> [T] {
        try box.readTable(orIfMissing: []) { db in
            try box.decodeAll(objectsStatement(db, limit: limit, offset: offset))
        }
    }

    /// The first matching object, or nil.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, if a parameter was set for a condition the query does not
    ///   have, or if a row cannot be decoded; a `DatabaseError` if SQLite
    ///   fails.
    public func findFirst() throws -> T? {
        try box.readTable(orIfMissing: nil) { db in
            try box.decodeOne(objectsStatement(db, limit: 1))
        }
    }

    /// The only matching object, or nil when none matches; throws
    /// ``ObjectBoxError/nonUniqueResult(message:)`` when several do.
    ///
    /// ```swift
    /// let joe = try personBox.query { Person.name == "Joe" }.build().findUnique()
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/nonUniqueResult(message:)`` if several
    ///   objects match; otherwise the errors of `find(offset:limit:)`.
    public func findUnique() throws -> T? {
        let objects: [T] = try box.readTable(orIfMissing: []) { db in
            try box.decodeAll(objectsStatement(db, limit: 2))
        }
        if objects.count > 1 {
            throw ObjectBoxError.nonUniqueResult(message: "findUnique: several \(T.entityName) objects match the query")
        }
        return objects.first
    }

    /// The ids of the matching objects; `offset` and `limit` as in
    /// ``find(offset:limit:)``.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func findIds(offset: Int = 0, limit: Int = 0) throws -> [Id] {
        try box.readTable(orIfMissing: []) { db in
            let request = try objectsRequest(db, limit: max(limit, 0), offset: max(offset, 0)).select(Column("id"), as: Int64.self)
            return try request.fetchAll(db).map { Id(bitPattern: $0) }
        }
    }

    /// The number of matching objects.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func count() throws -> Int {
        try box.readTable(orIfMissing: 0) { db in
            try filteredRequest(db).fetchCount(db)
        }
    }

    /// Removes the matching objects; returns how many were removed (a
    /// `UInt64`, as ObjectBox counts).
    ///
    /// - Throws: ``ObjectBoxError/cannotWriteWhileReading(message:)`` in a
    ///   read-only transaction or store;
    ///   ``ObjectBoxError/illegalState(message:)`` if the store is closed, or
    ///   if a parameter was set for a condition the query does not have; a
    ///   `DatabaseError` if SQLite fails.
    @discardableResult
    public func remove() throws -> UInt64 {
        try box.writeTable { db in
            UInt64(try box.delete(try findIds(), db))
        }
    }

    // MARK: Property queries

    /// The values of one property of the matching objects, instead of the
    /// objects.
    ///
    /// ```swift
    /// let ages = try personBox.query { Person.name.startsWith("A") }.build().property(Person.age)
    /// let oldest = try ages.max()
    /// let names = try personBox.query().property(Person.name).distinct().find()
    /// ```
    public func property<V: DatabaseValueConvertible>(_ property: Property<T, V>) -> PropertyQuery<T, V> {
        PropertyQuery(query: self, column: property.column)
    }

    /// The values of an optional property, without its nil values (see
    /// ``PropertyQuery/with(nullValue:)`` to read them as a value).
    ///
    /// ```swift
    /// let nicknames: [String] = try personBox.query().build().property(Person.nickname).find()
    /// ```
    public func property<V: DatabaseValueConvertible>(_ property: Property<T, V?>) -> PropertyQuery<T, V> {
        PropertyQuery(query: self, column: property.column)
    }

    /// The values of `selection`, without those of the rows where `column`
    /// is NULL unless `nullValue` replaces them, in the order of the query.
    func values<V: DatabaseValueConvertible>(
        _ selection: SQLExpression, column: String, distinct: Bool, nullValue: V?, as type: V.Type, limit: Int = 0) throws -> [V]
    {
        try box.readTable(orIfMissing: []) { db in
            var request = try filteredRequest(db)
            if nullValue == nil { request = request.filter(Column(column) != nil) }
            if distinct { request = request.distinct() }
            request = request.order(orderings)
            if limit > 0 { request = request.limit(limit) }
            return try request.select(selection, as: DatabaseValue.self).fetchAll(db).compactMap { value in
                value.isNull ? nullValue : V.fromStoredDatabaseValue(value)
            }
        }
    }

    /// The value of an aggregate of the matching rows.
    func aggregate(_ expression: SQLExpression) throws -> DatabaseValue {
        try box.readTable(orIfMissing: .null) { db in
            try filteredRequest(db).select(expression, as: DatabaseValue.self).fetchOne(db) ?? .null
        }
    }
}

// MARK: Links

extension Query {
    /// Keeps the objects whose relation `property` points to an object
    /// that matches `conditions`: a query that traverses a relation.
    ///
    /// ```swift
    /// let ordersOfSally = try orderBox
    ///     .query { Order.date.isAfter(lastMonth) }
    ///     .link(Order.customer) { Customer.name == "Sally Sparrow" }
    ///     .build()
    ///     .find()
    /// ```
    public func link<Target: Entity>(
        _ property: Property<T, ToOne<Target>>, conditions: () -> QueryCondition<Target>) -> Query<T>
    {
        let targets = Table(Target.entityTableName).select(Column("id")).filter(conditions().node.sql.sqlExpression)
        return with(conditions: self.conditions + [targets.contains(Column(property.column))])
    }

    /// Keeps the objects whose `ToMany` relation `property` holds an object
    /// that matches `conditions`: a backlink (the objects whose `ToOne`
    /// points here), a standalone many-to-many relation, or the backlink of
    /// one.
    ///
    /// ```swift
    /// extension Customer {
    ///     static let orders = Property<Customer, ToMany<Order>>("orders")
    /// }
    /// let customersWithShoes = try customerBox.query()
    ///     .link(Customer.orders) { Order.summary == "Shoes" }
    ///     .build()
    ///     .find()
    /// ```
    public func link<Target: Entity, each Owner>(
        _ property: Property<T, ToMany<Target, repeat each Owner>>, conditions: () -> QueryCondition<Target>) -> Query<T>
    {
        let targets = conditions().node.sql
        let store = box.store
        let linkCondition: (Database) throws -> SQL = { db in
            let targetTable = Target.entityTableName
            // Nothing is linked before objects of either type are stored.
            guard try db.tableExists(targetTable) else { return "0" }
            switch try store.storage(Target.self, owner: T.self, property: property.name, db: db, sample: nil) {
            case .backlink(let column):
                let owners = Table(targetTable).select(Column(column)).filter(targets.sqlExpression)
                return SQL(owners.contains(Column("id")))
            case .joinTable(let name, let ownerColumn, let objectColumn):
                guard try db.tableExists(name) else { return "0" }
                let linked = Table(targetTable).select(Column("id")).filter(targets.sqlExpression)
                let owners = Table(name).select(Column(ownerColumn)).filter(linked.contains(Column(objectColumn)))
                return SQL(owners.contains(Column("id")))
            }
        }
        let query = with()
        query.deferredConditions.append(linkCondition)
        return query
    }
}

/// The type that `box.query { ... }` returns in ObjectBox, before
/// `build()`: here the query itself, whose ``Query/build()`` returns it.
///
/// ```swift
/// let builder: QueryBuilder<Person> = personBox.query { Person.age > 18 }
/// let query: Query<Person> = try builder.ordered(by: Person.name).build()
/// ```
public typealias QueryBuilder<E: Entity> = Query<E>
