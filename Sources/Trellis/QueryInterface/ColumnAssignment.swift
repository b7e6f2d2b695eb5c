/// A column assignment, for `updateAll` and upserts.
///
/// ```swift
/// try Player.updateAll(db, Column("score").set(to: 0))
/// try Player.updateAll(db, Column("score") += 10)
/// ```
public struct ColumnAssignment: Sendable {
    let columnName: String
    let value: SQLExpression?

    /// Whether the assignment leaves the column as it is (upserts).
    var isNoOverwrite: Bool { value == nil }

    func sql(_ context: SQLGenerationContext, alias: AliasIdentity?) throws -> String {
        guard let value else { return "" }
        let expression = alias.map { value.qualified(with: $0) } ?? value
        return columnName.quotedDatabaseIdentifier + " = " + (try expression.sql(context))
    }
}

extension ColumnExpression {
    /// Sets the column to a value or expression.
    ///
    /// ```swift
    /// Column("score").set(to: 0)
    /// Column("score").set(to: Column("score") * 2)
    /// ```
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value?.sqlExpression ?? .value(.null))
    }

    /// An upsert assignment that keeps the existing value.
    public var noOverwrite: ColumnAssignment {
        ColumnAssignment(columnName: name, value: nil)
    }
}

public func += (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column + value)
}

public func -= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column - value)
}

public func *= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column * value)
}

public func /= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
    column.set(to: column / value)
}
