/// A subquery: the SQL of a request, generated in the context of the
/// enclosing query so that its columns can refer to outer tables.
public struct SQLSubquery: Sendable {
    enum Impl: Sendable {
        case literal(SQL)
        case request(@Sendable (SQLGenerationContext) throws -> String)
    }

    let impl: Impl

    init(literal: SQL) {
        impl = .literal(literal)
    }

    init(generate: @escaping @Sendable (SQLGenerationContext) throws -> String) {
        impl = .request(generate)
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        try context.nested(cost: SQLGenerationContext.subqueryCost) {
            switch impl {
            case .literal(let sql): return try sql.sql(context)
            case .request(let generate): return try generate(context)
            }
        }
    }
}

extension SQLSubquery: SQLSubqueryable {
    /// The subquery itself, so that it has `exists()` and `contains(_:)`:
    /// `SQLRequest<Row>(literal: "SELECT ...").sqlSubquery.exists()`.
    public var sqlSubquery: SQLSubquery { self }
}
