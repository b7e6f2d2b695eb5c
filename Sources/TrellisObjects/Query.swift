@_spi(TrellisObjects) import Trellis

/// A query of the objects of a box.
///
/// ```swift
/// let query = personBox.query { Column("name").like("A%") }.ordered(by: Column("name"))
/// let people = try query.find()
/// let first = try query.findFirst()
/// let count = try query.count()
/// try query.remove()
/// ```
public struct Query<T: Entity> {
    let box: Box<T>
    let conditions: [SQLExpression]
    let orderings: [SQLOrdering]

    /// The query itself: the final step of ObjectBox's query builder, for
    /// code written with it in mind.
    ///
    /// ```swift
    /// let query = try box.query { Column("name") == "Joe" }.build()
    /// ```
    public func build() throws -> Query<T> {
        self
    }

    /// The query, sorted.
    public func ordered(by orderings: any SQLOrderingTerm...) -> Query<T> {
        Query(box: box, conditions: conditions, orderings: self.orderings + orderings.map(\.sqlOrdering))
    }

    /// The query, with another condition.
    public func filter(_ condition: some SQLExpressible) -> Query<T> {
        Query(box: box, conditions: conditions + [condition.sqlExpression], orderings: orderings)
    }

    private func literal(_ selection: String, limit: Int? = nil) -> SQL {
        var sql: SQL = "SELECT "
        sql.append(sql: selection)
        sql.append(sql: " FROM " + box.tableName.quotedDatabaseIdentifier)
        for (index, condition) in conditions.enumerated() {
            sql.append(sql: index == 0 ? " WHERE (" : " AND (")
            sql.append(literal: SQL(condition))
            sql.append(sql: ")")
        }
        if !orderings.isEmpty {
            sql.append(sql: " ORDER BY ")
            for (index, ordering) in orderings.enumerated() {
                if index > 0 { sql.append(sql: ", ") }
                sql.append(literal: "\(ordering)")
            }
        } else if selection == "*" {
            sql.append(sql: " ORDER BY \"id\"")
        }
        if let limit { sql.append(sql: " LIMIT \(limit)") }
        return sql
    }

    /// The matching objects.
    public func find() throws -> [T] {
        try box.readTable(orIfMissing: []) { db in
            let (sql, arguments) = try literal("*").build(db)
            return try db.cachedStatement(sql: sql).decodeAll(arguments: arguments, box.decode)
        }
    }

    /// The first matching object, or nil.
    public func findFirst() throws -> T? {
        try box.readTable(orIfMissing: nil) { db in
            let (sql, arguments) = try literal("*", limit: 1).build(db)
            return try db.cachedStatement(sql: sql).decodeOne(arguments: arguments, box.decode)
        }
    }

    /// The ids of the matching objects.
    public func findIds() throws -> [Id] {
        try box.readTable(orIfMissing: []) { db in
            try Int64.fetchAll(db, SQLRequest<Int64>(literal: literal("\"id\""))).map { Id(bitPattern: $0) }
        }
    }

    /// The number of matching objects.
    public func count() throws -> Int {
        try box.readTable(orIfMissing: 0) { db in
            try Int.fetchOne(db, SQLRequest<Int>(literal: literal("COUNT(*)"))) ?? 0
        }
    }

    /// Removes the matching objects; returns how many were removed.
    @discardableResult
    public func remove() throws -> Int {
        let ids = try findIds()
        return try box.store.write { _ in
            var count = 0
            for id in ids where try box.remove(id) { count += 1 }
            return count
        }
    }
}
