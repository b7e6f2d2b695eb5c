/// What an `...AndFetch` persistence method selects with its `RETURNING`
/// clause, and how it reads the statement once the arguments are bound.
@usableFromInline
struct PersistenceReturning {
    /// The returned columns, as SQL: `*`, or a selection.
    let selectionSQL: String

    /// Runs the statement and reads what it returns; false when it
    /// returned no row (an `INSERT OR IGNORE` that ignored the row, an
    /// `UPDATE` of a missing row).
    let fetch: (Statement) throws -> Bool

    /// All columns, read as one row.
    @usableFromInline
    static func row(_ consume: @escaping (Row) throws -> Void) -> PersistenceReturning {
        PersistenceReturning(selectionSQL: "*") { statement in
            guard let row = try Row.fetchOne(statement) else { return false }
            try consume(row)
            return true
        }
    }

    /// The columns of `selection`, read by the caller's `fetch`.
    static func selection(
        _ db: Database, _ selection: [any SQLSelectable],
        fetch: @escaping (Statement) throws -> Void) throws -> PersistenceReturning
    {
        PersistenceReturning(selectionSQL: try SQLSelection.returnedColumnsSQL(db, selection)) { statement in
            try fetch(statement)
            return true
        }
    }
}
