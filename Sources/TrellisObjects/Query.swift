@_spi(TrellisObjects) import Trellis

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
    private var parameterError: ObjectStoreError?

    init(box: Box<T>, conditions: [SQLExpression], condition: QueryCondition<T>.Node? = nil, orderings: [SQLOrdering]) {
        self.box = box
        self.conditions = conditions
        self.condition = condition
        self.orderings = orderings
    }

    private func with(conditions: [SQLExpression]? = nil, condition: QueryCondition<T>.Node?? = nil, orderings: [SQLOrdering]? = nil) -> Query<T> {
        let query = Query(box: box, conditions: conditions ?? self.conditions, condition: condition ?? self.condition, orderings: orderings ?? self.orderings)
        query.parameterError = parameterError
        return query
    }

    /// The query itself: the final step of ObjectBox's query builder, for
    /// code written with it in mind.
    ///
    /// ```swift
    /// let query = try box.query { Person.name == "Joe" }.build()
    /// ```
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
        var sql = property.column.quotedDatabaseIdentifier
        if flags.contains(.nullsZero) { sql = "COALESCE(\(sql), 0)" }
        if !flags.contains(.caseSensitive) { sql += " COLLATE NOCASE" }
        let expression = SQLExpression.sql(sql)
        let ordering: SQLOrdering
        switch (flags.contains(.descending), flags.contains(.nullsLast)) {
        case (false, false): ordering = expression.asc          // SQLite: NULLs first
        case (false, true): ordering = expression.ascNullsLast
        case (true, false): ordering = expression.descNullsFirst
        case (true, true): ordering = expression.desc           // SQLite: NULLs last
        }
        return with(orderings: orderings + [ordering])
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
    /// (`isBetween`), use ``setParameters(_:to:_:)``; when several
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
        setValues([value.databaseValue], where: { $0.column == property.name }, name: "\(property)")
    }

    /// Changes the two values of the conditions on `property` that take
    /// two (`isBetween`), for the next runs of the query.
    ///
    /// ```swift
    /// let query = try personBox.query { Person.age.isBetween(10, and: 20) }.build()
    /// query.setParameters(Person.age, to: 30, 40)
    /// ```
    public func setParameters<V: DatabaseValueConvertible>(_ property: Property<T, V>, to value1: V, _ value2: V) {
        setValues([value1.databaseValue, value2.databaseValue], where: { $0.column == property.name }, name: "\(property)")
    }

    /// Changes the values of the conditions on `property` that take a list
    /// (`isIn`, `∈`), for the next runs of the query.
    public func setParameters<V: DatabaseValueConvertible>(_ property: Property<T, V>, to values: [V]) {
        setValues(values.map(\.databaseValue), where: { $0.column == property.name }, name: "\(property)")
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
        setValues([value.databaseValue], where: { $0.alias == alias }, name: "alias \(alias)")
    }

    /// Changes the two values of the condition named `alias` with `.=`.
    public func setParameters(_ alias: String, to value1: some DatabaseValueConvertible, _ value2: some DatabaseValueConvertible) {
        setValues([value1.databaseValue, value2.databaseValue], where: { $0.alias == alias }, name: "alias \(alias)")
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
            parameterError = ObjectStoreError(sawCondition
                ? "setParameter: no condition on \(name) takes \(values.count) value(s)"
                : "setParameter: the query of \(T.entityName) has no condition on \(name)")
        }
    }

    // MARK: Running

    private func statement(_ db: Database, selection: String, extraCondition: String? = nil, limit: Int = 0, offset: Int = 0) throws -> (String, StatementArguments) {
        if let parameterError { throw parameterError }
        let selectsObjects = selection == "*" || selection == "\"id\""
        var sql: SQL = "SELECT "
        sql.append(sql: selection)
        sql.append(sql: " FROM " + box.tableName.quotedDatabaseIdentifier)
        var first = true
        func and() { sql.append(sql: first ? " WHERE (" : " AND ("); first = false }
        for condition in conditions {
            and()
            sql.append(literal: SQL(condition))
            sql.append(sql: ")")
        }
        if let condition {
            and()
            sql.append(literal: condition.sql)
            sql.append(sql: ")")
        }
        if let extraCondition {
            and()
            sql.append(sql: extraCondition + ")")
        }
        if !orderings.isEmpty {
            sql.append(sql: " ORDER BY ")
            for (index, ordering) in orderings.enumerated() {
                if index > 0 { sql.append(sql: ", ") }
                sql.append(literal: "\(ordering)")
            }
            if selectsObjects { sql.append(sql: ", \"id\"") }
        } else if selectsObjects {
            sql.append(sql: " ORDER BY \"id\"")
        }
        if limit > 0 || offset > 0 {
            sql.append(sql: " LIMIT \(limit > 0 ? limit : -1)")
            if offset > 0 { sql.append(sql: " OFFSET \(offset)") }
        }
        let (text, arguments) = try sql.build(db)
        return (text, arguments)
    }

    /// The matching objects; `offset` skips the first ones, and a `limit`
    /// other than 0 returns at most that many.
    ///
    /// ```swift
    /// let secondPage = try query.find(offset: 20, limit: 20)
    /// ```
    public func find(offset: Int = 0, limit: Int = 0) throws -> [T] {
        try box.readTable(orIfMissing: []) { db in
            let (sql, arguments) = try statement(db, selection: "*", limit: max(limit, 0), offset: max(offset, 0))
            return try box.decodeAll(db.cachedStatement(sql: sql), arguments: arguments)
        }
    }

    /// The first matching object, or nil.
    public func findFirst() throws -> T? {
        try box.readTable(orIfMissing: nil) { db in
            let (sql, arguments) = try statement(db, selection: "*", limit: 1)
            return try box.decodeOne(db.cachedStatement(sql: sql), arguments: arguments)
        }
    }

    /// The only matching object, or nil when none matches; throws when
    /// several do.
    ///
    /// ```swift
    /// let joe = try personBox.query { Person.name == "Joe" }.build().findUnique()
    /// ```
    public func findUnique() throws -> T? {
        let objects: [T] = try box.readTable(orIfMissing: []) { db in
            let (sql, arguments) = try statement(db, selection: "*", limit: 2)
            return try box.decodeAll(db.cachedStatement(sql: sql), arguments: arguments)
        }
        if objects.count > 1 {
            throw ObjectBoxError.nonUniqueResult(message: "findUnique: several \(T.entityName) objects match the query")
        }
        return objects.first
    }

    /// The ids of the matching objects; `offset` and `limit` as in
    /// ``find(offset:limit:)``.
    public func findIds(offset: Int = 0, limit: Int = 0) throws -> [Id] {
        try box.readTable(orIfMissing: []) { db in
            let (sql, arguments) = try statement(db, selection: "\"id\"", limit: max(limit, 0), offset: max(offset, 0))
            return try Int64.fetchAll(db, sql: sql, arguments: arguments).map { Id(bitPattern: $0) }
        }
    }

    /// The number of matching objects.
    public func count() throws -> Int {
        try box.readTable(orIfMissing: 0) { db in
            let (sql, arguments) = try statement(db, selection: "COUNT(*)")
            return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
        }
    }

    /// Removes the matching objects; returns how many were removed (a
    /// `UInt64`, as ObjectBox counts).
    @discardableResult
    public func remove() throws -> UInt64 {
        try box.store.write { db in
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
        PropertyQuery(query: self, column: property.name, isDistinct: false)
    }

    func values<V: DatabaseValueConvertible>(_ selection: String, nonNilColumn column: String, as type: V.Type, limit: Int = 0) throws -> [V] {
        try box.readTable(orIfMissing: []) { db in
            let (sql, arguments) = try statement(db, selection: selection, extraCondition: "\(column.quotedDatabaseIdentifier) IS NOT NULL", limit: limit)
            return try DatabaseValue.fetchAll(db, sql: sql, arguments: arguments).compactMap { V.fromDatabaseValue($0) }
        }
    }

    func aggregate(_ function: String, column: String, distinct: Bool) throws -> DatabaseValue {
        try box.readTable(orIfMissing: .null) { db in
            let selection = "\(function)(\(distinct ? "DISTINCT " : "")\(column.quotedDatabaseIdentifier))"
            let (sql, arguments) = try statement(db, selection: selection)
            return try DatabaseValue.fetchOne(db, sql: sql, arguments: arguments) ?? .null
        }
    }
}

/// The values of one property of the objects that match a query: see
/// ``Query/property(_:)``. Nil values are left out.
public struct PropertyQuery<E: Entity, V: DatabaseValueConvertible> {
    let query: Query<E>
    let column: String
    let isDistinct: Bool
    /// Whether distinct strings compare without regard to ASCII case.
    var ignoresCase = false

    /// The query, returning each value once.
    public func distinct(_ distinct: Bool = true) -> PropertyQuery {
        PropertyQuery(query: query, column: column, isDistinct: distinct, ignoresCase: ignoresCase)
    }

    private var selection: String {
        (isDistinct ? "DISTINCT " : "") + column.quotedDatabaseIdentifier + (isDistinct && ignoresCase ? " COLLATE NOCASE" : "")
    }

    /// The values, in the order of the query.
    public func find() throws -> [V] {
        try query.values(selection, nonNilColumn: column, as: V.self)
    }

    /// The only value, or nil when there is none; throws when there are
    /// several.
    public func findUnique() throws -> V? {
        let values = try query.values(selection, nonNilColumn: column, as: V.self, limit: 2)
        if values.count > 1 {
            throw ObjectBoxError.uniqueViolation(message: "findUnique: several values of \(E.entityName).\(column) match the query")
        }
        return values.first
    }

    /// The number of values.
    public func count() throws -> Int {
        Int.fromDatabaseValue(try query.aggregate("COUNT", column: column, distinct: isDistinct)) ?? 0
    }

    /// The greatest value, or nil when there is none.
    public func max() throws -> V? {
        V.fromDatabaseValue(try query.aggregate("MAX", column: column, distinct: false))
    }

    /// The least value, or nil when there is none.
    public func min() throws -> V? {
        V.fromDatabaseValue(try query.aggregate("MIN", column: column, distinct: false))
    }

    /// The sum of the values (0 when there is none).
    public func sum() throws -> V where V: Numeric {
        V.fromDatabaseValue(try query.aggregate("SUM", column: column, distinct: isDistinct)) ?? 0
    }

    /// The average of the values (0 when there is none).
    public func average() throws -> Double {
        Double.fromDatabaseValue(try query.aggregate("AVG", column: column, distinct: isDistinct)) ?? 0
    }

    // ObjectBox's typed accessors: the values read as the named type,
    // whatever the declared type of the property.

    /// The values as strings.
    public func findStrings() throws -> [String] { try find(as: String.self) }
    /// The first value as a string, or nil.
    public func findString() throws -> String? { try find(as: String.self, limit: 1).first }
    /// The only value as a string, or nil; throws when there are several.
    public func findUniqueString() throws -> String? { try findUnique(as: String.self) }
    /// The values as integers.
    public func findIntegers() throws -> [Int] { try find(as: Int.self) }
    /// The values as 64-bit integers.
    public func findInt64s() throws -> [Int64] { try find(as: Int64.self) }
    /// The only value as a 64-bit integer, or nil; throws when there are several.
    public func findUniqueInt64() throws -> Int64? { try findUnique(as: Int64.self) }
    /// The values as doubles.
    public func findDoubles() throws -> [Double] { try find(as: Double.self) }
    /// The only value as a double, or nil; throws when there are several.
    public func findUniqueDouble() throws -> Double? { try findUnique(as: Double.self) }
    /// The values as floats.
    public func findFloats() throws -> [Float] { try find(as: Float.self) }

    /// The sum of the values as an integer (0 when there is none).
    public func sumInt() throws -> Int {
        Int.fromDatabaseValue(try query.aggregate("SUM", column: column, distinct: isDistinct)) ?? 0
    }

    /// The average of the values, rounded down to an integer (0 when there
    /// is none).
    public func averageInt() throws -> Int {
        Int(try average().rounded(.down))
    }

    /// The query of distinct values, comparing strings with or without
    /// regard to ASCII case.
    public func distinct(caseSensitiveCompare: Bool) -> PropertyQuery {
        PropertyQuery(query: query, column: column, isDistinct: true, ignoresCase: !caseSensitiveCompare)
    }

    private func find<T: DatabaseValueConvertible>(as type: T.Type, limit: Int = 0) throws -> [T] {
        try query.values(selection, nonNilColumn: column, as: T.self, limit: limit)
    }

    private func findUnique<T: DatabaseValueConvertible>(as type: T.Type) throws -> T? {
        let values = try find(as: T.self, limit: 2)
        if values.count > 1 {
            throw ObjectBoxError.uniqueViolation(message: "findUnique: several values of \(E.entityName).\(column) match the query")
        }
        return values.first
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
        let targets = conditions().node.sql
        let subquery: SQL = """
            \(identifier: property.column) IN (SELECT "id" FROM \(identifier: Target.entityTableName) WHERE \(literal: targets))
            """
        return with(conditions: self.conditions + [subquery.sqlExpression])
    }
}
