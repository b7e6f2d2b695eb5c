import Trellis

extension Query: CustomDebugStringConvertible {
    /// What the query looks for, to read while debugging: its conditions
    /// on properties, then the SQL it runs, with its arguments.
    ///
    /// ```swift
    /// let query = try personBox.query { Person.age > 18 && Person.name.startsWith("A") }
    ///     .ordered(by: Person.name)
    ///     .build()
    /// print(query.debugDescription)
    /// // Query<Person> where (Person.age > 18 AND Person.name starts with "A")
    /// // SQL: SELECT * FROM "Person" WHERE ("age" > ? AND "name" GLOB ?) ORDER BY "name" COLLATE NOCASE ASC, "id"
    /// // arguments: [18, "A*"]
    /// ```
    public var debugDescription: String {
        var lines = ["Query<\(T.entityName)>" + (condition.map { " where " + describe($0) } ?? (hasOtherConditions ? " where (SQL conditions)" : " of all objects"))]
        do {
            let (sql, arguments) = try box.store.read { db in try sqlAndArguments(db) }
            lines.append("SQL: " + sql)
            if !arguments.isEmpty { lines.append("arguments: \(arguments)") }
        } catch {
            lines.append("SQL: unavailable (\(error))")
        }
        return lines.joined(separator: "\n")
    }

    private func describe(_ node: QueryCondition<T>.Node) -> String {
        switch node {
        case .and(let nodes): return "(" + nodes.map(describe).joined(separator: " AND ") + ")"
        case .or(let nodes): return "(" + nodes.map(describe).joined(separator: " OR ") + ")"
        case .expression: return "(SQL condition)"
        case .comparison(let comparison): return describe(comparison)
        }
    }

    private func describe(_ comparison: QueryCondition<T>.Comparison) -> String {
        let property = "\(T.entityName).\(comparison.column)"
        let values = comparison.values.map(\.debugDescription)
        let first = values.first ?? "NULL"
        var text: String
        switch comparison.op {
        case .equal: text = "\(property) == \(first)"
        case .notEqual: text = "\(property) != \(first)"
        case .less: text = "\(property) < \(first)"
        case .lessOrEqual: text = "\(property) <= \(first)"
        case .greater: text = "\(property) > \(first)"
        case .greaterOrEqual: text = "\(property) >= \(first)"
        case .between: text = "\(property) between \(first) and \(values.count > 1 ? values[1] : "NULL")"
        case .isIn: text = "\(property) in [\(values.joined(separator: ", "))]"
        case .isNotIn: text = "\(property) not in [\(values.joined(separator: ", "))]"
        case .startsWith: text = "\(property) starts with \(first)"
        case .endsWith: text = "\(property) ends with \(first)"
        case .contains: text = "\(property) contains \(first)"
        case .isNull: text = "\(property) is nil"
        case .isNotNull: text = "\(property) is not nil"
        }
        if !comparison.caseSensitive { text += " (case insensitive)" }
        if let alias = comparison.alias { text = "\(alias): \(text)" }
        return text
    }
}
